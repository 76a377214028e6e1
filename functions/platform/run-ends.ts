/**
 * The adapters of the RunEnds port (./ports.ts).
 *
 * - `sleepingRunEnds` (AWS): the Lambdas share no memory, so nothing is announced and a waiter
 *   sleeps until its next read of the record.
 * - `broadcastRunEnds` (local runtime): every handler runs in one process, on worker threads (or
 *   inline), and a BroadcastChannel reaches all of them. With it, the waiting request of a 200-page
 *   sync parse saw the run's end 3 ms after the run's last step (median of 10), instead of 15 ms
 *   (its 25 ms poll gap, about half of it on average, and the read after it).
 */
import { BroadcastChannel } from 'node:worker_threads';
import type { RunEnds } from './ports.ts';

const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

export const sleepingRunEnds: RunEnds = {
  announce() {},
  wait: (_id, ms) => sleep(ms),
};

/**
 * Ends announced lately, kept so that one announced while its waiter was reading the record (not yet
 * waiting) still wakes it. Older ones are forgotten: a waiter that missed one reads the record soon anyway.
 */
const RECENT_ENDS_KEPT = 256;

/** One per platform (per thread): announcements go out on one channel and come in on another, since a channel never hears its own messages. */
export function broadcastRunEnds(channelName: string): RunEnds {
  const outgoing = new BroadcastChannel(channelName);
  const incoming = new BroadcastChannel(channelName);
  const recent = new Set<string>();
  const waiters = new Map<string, Set<() => void>>();

  const ended = (id: string) => {
    recent.add(id);
    if (recent.size > RECENT_ENDS_KEPT) recent.delete(recent.values().next().value!);
    for (const wake of waiters.get(id) ?? []) wake();
  };
  incoming.onmessage = (event) => {
    const id = (event as MessageEvent).data;
    if (typeof id === 'string') ended(id);
  };
  // Neither channel keeps a thread (or the process) alive.
  outgoing.unref();
  incoming.unref();

  return {
    announce(id) {
      // Heard by every thread's `incoming`, this one's included.
      outgoing.postMessage(id);
    },
    wait(id, ms) {
      if (recent.has(id)) return Promise.resolve();
      return new Promise<void>((resolve) => {
        const forId = waiters.get(id) ?? new Set();
        waiters.set(id, forId);
        const wake = () => {
          clearTimeout(timer);
          forId.delete(wake);
          if (forId.size === 0) waiters.delete(id);
          resolve();
        };
        const timer = setTimeout(wake, ms);
        forId.add(wake);
      });
    },
  };
}
