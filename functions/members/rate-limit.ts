/**
 * Attempt counting without an atomic counter (the Store has none): a window of fixed length holds
 * `max` numbered slots, each an item written only if absent. Claiming an attempt writes the first
 * free slot; when every slot of the window is taken, the attempt is refused. Slots fill in order, so
 * finding the first free one is a binary search on existence, then a conditional write (moving on if
 * a concurrent attempt took it).
 */
import type { Platform } from '../platform/platform.ts';

export interface Window {
  max: number;
  windowMs: number;
}

function slotKey(bucket: string, windowStart: number, slot: number): string {
  return `ratelimit#${bucket}#${windowStart}#${slot}`;
}

/** Whether the bucket still has room in the current window (reads at most one item). */
export async function hasRoom(p: Platform, bucket: string, limit: Window): Promise<boolean> {
  const windowStart = Math.floor(p.clock.now().getTime() / limit.windowMs) * limit.windowMs;
  return !(await p.store.getItem(slotKey(bucket, windowStart, limit.max - 1)));
}

/** Records one attempt; false when the window is already full (the attempt is refused). */
export async function claimAttempt(p: Platform, bucket: string, limit: Window): Promise<boolean> {
  const now = p.clock.now().getTime();
  const windowStart = Math.floor(now / limit.windowMs) * limit.windowMs;
  const taken = async (slot: number) => (await p.store.getItem(slotKey(bucket, windowStart, slot))) !== undefined;
  // First free slot: slots [0, low) are taken, [high, max) presumed free.
  let low = 0;
  let high = limit.max;
  while (low < high) {
    const mid = (low + high) >> 1;
    if (await taken(mid)) low = mid + 1;
    else high = mid;
  }
  for (let slot = low; slot < limit.max; slot++) {
    if (await p.store.putItem(slotKey(bucket, windowStart, slot), { at: new Date(now).toISOString() }, { ifAbsent: true })) return true;
  }
  return false;
}
