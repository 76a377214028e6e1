/**
 * The local worker pool serves API requests before state machine tasks: under load, a GET must not
 * wait for every background step queued before it (on AWS they run in separate Lambdas).
 */
import { join } from 'node:path';
import { expect, it } from 'vitest';
import { REPO_ROOT, workerPoolInvoker } from '../../../lib/local/invoker.ts';

it('a queued API request runs before queued tasks', async () => {
  const pool = workerPoolInvoker({ maxWorkers: 2 });
  const target = { module: join(REPO_ROOT, 'test/support/sleep-handler.ts'), handler: 'sleep' };
  const order: string[] = [];
  const call = (tag: string, kind: 'request' | 'task', ms: number) => pool.invoke(target, { ms, tag }, 30_000, kind).then((v) => order.push(v as string));
  try {
    // Two long tasks occupy both containers; a third task, then a request, wait. When task 1 ends,
    // task 2 still runs, so the request goes before task 3 (first in, first out would run task 3).
    const all = [call('task 1', 'task', 300), call('task 2', 'task', 1000), call('task 3', 'task', 10), call('request', 'request', 10)];
    await Promise.all(all);
    expect(order).toEqual(['task 1', 'request', 'task 3', 'task 2']);
  } finally {
    await pool.close();
  }
}, 30_000);

it('requests do not starve the tasks: with tasks waiting and none running, a free container takes a task', async () => {
  const pool = workerPoolInvoker({ maxWorkers: 1 });
  const target = { module: join(REPO_ROOT, 'test/support/sleep-handler.ts'), handler: 'sleep' };
  const order: string[] = [];
  const call = (tag: string, kind: 'request' | 'task', ms: number) => pool.invoke(target, { ms, tag }, 30_000, kind).then((v) => order.push(v as string));
  try {
    const all = [call('request 1', 'request', 300), call('request 2', 'request', 10), call('task', 'task', 10), call('request 3', 'request', 10)];
    await Promise.all(all);
    expect(order).toEqual(['request 1', 'task', 'request 2', 'request 3']);
  } finally {
    await pool.close();
  }
}, 30_000);
