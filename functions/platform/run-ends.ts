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
import type { RunEndNews, RunEnds } from './ports.ts';
import { keepNewest } from './keep-newest.ts';

const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

export const sleepingRunEnds: RunEnds = {
  announce() {},
  wait: async (_id, ms) => {
    await sleep(ms);
    return undefined;
  },
  heard: false,
};

/**
 * Ends announced lately, kept so that one announced while its waiter was reading the record (not yet
 * waiting) still wakes it. Older ones are forgotten: a waiter that missed one reads the record soon anyway.
 */
const RECENT_ENDS_KEPT = 256;
/** The news of the latest ends only (each up to a small output): a waiter reads back what it missed. */
const RECENT_NEWS_KEPT = 16;

/** One per platform (per thread): announcements go out on one channel and come in on another, since a channel never hears its own messages. */
export function broadcastRunEnds(channelName: string): RunEnds {
  const outgoing = new BroadcastChannel(channelName);
  const incoming = new BroadcastChannel(channelName);
  const recent = new Set<string>();
  const recentNews = new Map<string, RunEndNews>();
  const waiters = new Map<string, Set<(news: RunEndNews | undefined) => void>>();

  const ended = (id: string, news: RunEndNews | undefined) => {
    recent.add(id);
    if (recent.size > RECENT_ENDS_KEPT) recent.delete(recent.values().next().value!);
    if (news) {
      keepNewest(recentNews, id, news, RECENT_NEWS_KEPT);
    }
    for (const wake of waiters.get(id) ?? []) wake(news);
  };
  incoming.onmessage = (event) => {
    const message = (event as MessageEvent).data as { id?: unknown; news?: RunEndNews } | string;
    if (typeof message === 'string') ended(message, undefined);
    else if (typeof message?.id === 'string') ended(message.id, message.news);
  };
  // Neither channel keeps a thread (or the process) alive.
  outgoing.unref();
  incoming.unref();

  return {
    heard: true,
    announce(id, news) {
      // Heard by every thread's `incoming`, this one's included.
      outgoing.postMessage(news ? { id, news } : id);
    },
    wait(id, ms) {
      if (recent.has(id)) return Promise.resolve(recentNews.get(id));
      return new Promise<RunEndNews | undefined>((resolve) => {
        const forId = waiters.get(id) ?? new Set();
        waiters.set(id, forId);
        const wake = (news: RunEndNews | undefined) => {
          clearTimeout(timer);
          forId.delete(wake);
          if (forId.size === 0) waiters.delete(id);
          resolve(news);
        };
        const timer = setTimeout(() => wake(undefined), ms);
        forId.add(wake);
      });
    },
  };
}
