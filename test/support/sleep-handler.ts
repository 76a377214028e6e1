/** A handler for invoker tests: answers its tag after `ms` milliseconds. */
export async function sleep(event: { ms: number; tag: string }): Promise<string> {
  await new Promise((resolve) => setTimeout(resolve, event.ms));
  return event.tag;
}
