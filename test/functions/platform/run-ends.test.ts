/**
 * Run ends announced between threads (functions/platform/run-ends.ts): a request waiting for a run
 * wakes as soon as another thread (the run's task) announces its end, and otherwise after its poll gap.
 */
import { randomUUID } from 'node:crypto';
import { pathToFileURL } from 'node:url';
import { Worker } from 'node:worker_threads';
import { describe, expect, it } from 'vitest';
import { broadcastRunEnds, sleepingRunEnds } from '../../../functions/platform/run-ends.ts';
import { REPO_ROOT } from '../../../lib/local/invoker.ts';

/** Announces `id` on `channel` from a thread of its own, through the adapter itself, as a task's thread would. */
async function announceFromAnotherThread(channel: string, id: string, news?: unknown): Promise<void> {
  const adapter = pathToFileURL(`${REPO_ROOT}/functions/platform/run-ends.ts`).href;
  const code = `(async () => {
    const { register } = await import('tsx/esm/api');
    register();
    const { broadcastRunEnds } = await import(${JSON.stringify(adapter)});
    broadcastRunEnds(${JSON.stringify(channel)}).announce(${JSON.stringify(id)}, ${JSON.stringify(news ?? null)} ?? undefined);
  })();`;
  const worker = new Worker(code, { eval: true });
  await new Promise<void>((resolve, reject) => {
    worker.on('error', reject);
    worker.on('exit', (exitCode) => (exitCode === 0 ? resolve() : reject(new Error(`exit ${exitCode}`))));
  });
}

const timed = async (work: Promise<unknown>) => {
  const started = performance.now();
  await work;
  return performance.now() - started;
};

describe('broadcastRunEnds', () => {
  it('wakes a waiter on this thread when another thread announces its run', async () => {
    const channel = `test ${randomUUID()}`;
    const ends = broadcastRunEnds(channel);
    const waiting = ends.wait('run_a', 60_000);
    const announcing = announceFromAnotherThread(channel, 'run_a');
    expect(await timed(waiting)).toBeLessThan(30_000);
    await announcing;
  });

  it("hands the waiter the news another thread announced with the end (the record, a small output's JSON), also when it came just before the wait", async () => {
    const channel = `test ${randomUUID()}`;
    const ends = broadcastRunEnds(channel);
    const news = { record: { id: 'run_n', status: 'completed', usage: { credits: 1 } }, stored: '{"output":{"pages":["a"],"text":"a"},"extras":{}}' };
    const waiting = ends.wait('run_n', 60_000);
    await announceFromAnotherThread(channel, 'run_n', news);
    expect(await waiting).toEqual(news);
    expect(await ends.wait('run_n', 60_000)).toEqual(news);
    // An end announced without news (a cancel) wakes the waiter with none: it reads the record.
    ends.announce('run_m');
    expect(await ends.wait('run_m', 60_000)).toBeUndefined();
  });

  it('sleeps the whole gap when nothing is announced, and ignores other runs and other channels', async () => {
    const channel = `test ${randomUUID()}`;
    const ends = broadcastRunEnds(channel);
    const elsewhere = broadcastRunEnds(`test ${randomUUID()}`);
    const waiting = timed(ends.wait('run_b', 300));
    elsewhere.announce('run_b');
    ends.announce('run_other');
    expect(await waiting).toBeGreaterThanOrEqual(290);
  });

  it('wakes at once for a run announced just before the wait began', async () => {
    const channel = `test ${randomUUID()}`;
    const waiter = broadcastRunEnds(channel);
    broadcastRunEnds(channel).announce('run_c');
    // The announcement arrives while the waiter is busy elsewhere (reading the record).
    await new Promise((resolve) => setTimeout(resolve, 20));
    expect(await timed(waiter.wait('run_c', 60_000))).toBeLessThan(50);
  });

  it('lets several waiters of one run wake together, and each later wait start afresh', async () => {
    const channel = `test ${randomUUID()}`;
    const ends = broadcastRunEnds(channel);
    const both = Promise.all([ends.wait('run_d', 60_000), ends.wait('run_d', 60_000)]);
    ends.announce('run_d');
    expect(await timed(both.then(() => undefined))).toBeLessThan(30_000);
    expect(await timed(ends.wait('run_e', 50))).toBeGreaterThanOrEqual(45);
  });
});

describe('sleepingRunEnds (AWS)', () => {
  it('announces nothing: a waiter sleeps its whole gap', async () => {
    sleepingRunEnds.announce('run_f');
    expect(await timed(sleepingRunEnds.wait('run_f', 100))).toBeGreaterThanOrEqual(95);
  });
});
