/** A handler for invoker tests: sleeps `ms`, and says when it ran and when its module was loaded. */
export const loadedAt = Date.now();

export async function sleep(event: { ms: number; tag: string }): Promise<{ tag: string; start: number; end: number; loadedAt: number }> {
  const start = Date.now();
  await new Promise((resolve) => setTimeout(resolve, event.ms));
  return { tag: event.tag, start, end: Date.now(), loadedAt };
}
