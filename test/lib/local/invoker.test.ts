/**
 * The local worker pool serves API requests before state machine tasks: under load, a GET must not
 * wait for every background step queued before it (on AWS they run in separate Lambdas).
 */
import { join } from 'node:path';
import { expect, it } from 'vitest';
import { REPO_ROOT, workerPoolInvoker } from '../../../lib/local/invoker.ts';

it('a queued API request runs before queued tasks', async () => {
  const pool = workerPoolInvoker({ maxWorkers: 1 });
  const target = { module: join(REPO_ROOT, 'test/support/sleep-handler.ts'), handler: 'sleep' };
  const order: string[] = [];
  const call = (tag: string, kind: 'request' | 'task', ms: number) => pool.invoke(target, { ms, tag }, 30_000, kind).then((v) => order.push(v as string));
  try {
    // The first task occupies the only container; two more tasks, then a request, wait for it.
    const all = [call('task 1', 'task', 300), call('task 2', 'task', 10), call('task 3', 'task', 10), call('request', 'request', 10)];
    await Promise.all(all);
    expect(order).toEqual(['task 1', 'request', 'task 2', 'task 3']);
  } finally {
    await pool.close();
  }
}, 30_000);
