/**
 * A handler for invoker tests: sleeps `ms`, and says when it ran, when its module was loaded, and the
 * nice value of the thread it ran on (Linux keeps one per thread).
 */
import { getPriority } from 'node:os';

export const loadedAt = Date.now();

export async function sleep(event: { ms: number; tag: string }): Promise<{ tag: string; start: number; end: number; loadedAt: number; niceness: number }> {
  const start = Date.now();
  await new Promise((resolve) => setTimeout(resolve, event.ms));
  return { tag: event.tag, start, end: Date.now(), loadedAt, niceness: getPriority() };
}
