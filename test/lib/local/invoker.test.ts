/**
 * The local worker pool keeps the API's containers apart from the tasks' (on AWS they are separate
 * Lambdas): a request never waits for a container held by a long task; tasks run at most
 * `taskWorkers` at once and wait their turn by priority; a request container is loaded before it
 * takes a request. Real worker threads, a handler that sleeps.
 */
import { join } from 'node:path';
import { expect, it } from 'vitest';
import { requestOrder, WRITE_WAITS_MS } from '../../../lib/local/http-server.ts';
import { REPO_ROOT, workerPoolInvoker, type InvocationKind, type InvocationOrder } from '../../../lib/local/invoker.ts';

const target = { module: join(REPO_ROOT, 'test/lib/local/timed-handler.ts'), handler: 'sleep' };
interface Ran {
  tag: string;
  start: number;
  end: number;
  loadedAt: number;
  niceness: number;
}

function pool(options: { taskWorkers: number; requestWorkers: number; warmRequestWorkers?: number }) {
  const invoker = workerPoolInvoker({ ...options, cores: 2, requestModules: [target.module] });
  const call = (tag: string, kind: InvocationKind, ms: number, order?: InvocationOrder) => invoker.invoke(target, { ms, tag }, 30_000, kind, order) as Promise<Ran>;
  return { invoker, call };
}

it('a request never waits for a container held by a task', async () => {
  const { invoker, call } = pool({ taskWorkers: 1, requestWorkers: 1 });
  try {
    await call('warm the request container', 'request', 0);
    const task = call('long task', 'task', 3000);
    const queuedTask = call('queued task', 'task', 10);
    const request = await call('request', 'request', 10);
    // The request ran while the only task container was busy, long before the task ended.
    expect(request.end).toBeLessThan((await task).end - 1000);
    expect((await queuedTask).start).toBeGreaterThanOrEqual((await task).end);
  } finally {
    await invoker.close();
  }
}, 30_000);

it('runs tasks below the priority of requests (on a busy machine requests get the cores first)', async () => {
  const { invoker, call } = pool({ taskWorkers: 1, requestWorkers: 1 });
  try {
    const [request, task] = await Promise.all([call('request', 'request', 0), call('task', 'task', 0)]);
    expect(request.niceness).toBe(0);
    expect(task.niceness).toBe(10);
  } finally {
    await invoker.close();
  }
}, 30_000);

it('runs at most taskWorkers tasks at once; the others wait, lower priority first, then first come', async () => {
  const { invoker, call } = pool({ taskWorkers: 2, requestWorkers: 1 });
  try {
    // Two tasks occupy both containers; then tasks of a later execution (priority 2) come before the
    // next step of an earlier one (priority 1): the earlier one's goes first.
    // The later tasks come once both have their containers (a timer could fire after they ended on a
    // loaded machine, and a task that finds a container free takes it, whatever its priority).
    // The order is the order in which tasks are given a container (`started`), not the times their
    // threads note when they begin: on a loaded machine a thread may note its start after a task
    // given a container later has begun.
    const given: string[] = [];
    let bothStarted!: () => void;
    const both = new Promise<void>((resolve) => (bothStarted = resolve));
    const onStart = (tag: string) => () => given.push(tag) === 2 && bothStarted();
    // ("b" holds its container longer: the first free container goes to one waiting task only.)
    const first = [call('a', 'task', 500, { priority: 1, started: onStart('a') }), call('b', 'task', 900, { priority: 1, started: onStart('b') })];
    await both;
    const later = [call('c1', 'task', 100, { priority: 2, started: onStart('c1') }), call('c2', 'task', 100, { priority: 2, started: onStart('c2') }), call('a2', 'task', 100, { priority: 1, started: onStart('a2') })];
    const ran = await Promise.all([...first, ...later]);
    expect(given.slice(2)).toEqual(['a2', 'c1', 'c2']);
    // Never more than two at once: at each start, the jobs running then (started before, not yet ended).
    // (Counting every job a job's span meets would count one that ended before another began.)
    for (const r of ran) expect(ran.filter((o) => o.start <= r.start && r.start < o.end).length).toBeLessThanOrEqual(2);
  } finally {
    await invoker.close();
  }
}, 30_000);

it("tells a task when it gets its container (its state's timeout counts from then), not when it is queued", async () => {
  const { invoker, call } = pool({ taskWorkers: 1, requestWorkers: 1 });
  try {
    let startedAt = 0;
    const queuedAt = Date.now();
    const long = call('long', 'task', 1000, { priority: 1 });
    const next = call('next', 'task', 10, { priority: 2, started: () => (startedAt = Date.now()) });
    const [ranLong] = await Promise.all([long, next]);
    expect(startedAt).toBeGreaterThanOrEqual(ranLong.end);
    expect(startedAt - queuedAt).toBeGreaterThanOrEqual(1000);
  } finally {
    await invoker.close();
  }
}, 30_000);

it('a request kept waiting by a long one gets another container, loaded before it takes the request', async () => {
  const { invoker, call } = pool({ taskWorkers: 1, requestWorkers: 2, warmRequestWorkers: 1 });
  try {
    await invoker.warmUp();
    const warmedUp = Date.now();
    // A sync create holds the warm container (for up to 25 s on AWS's budget).
    const first = call('sync create', 'request', 25_000);
    first.catch(() => undefined); // (rejected by close: the test does not wait for it)
    const asked = Date.now();
    const second = await call('get', 'request', 10);
    expect(second.end - asked).toBeLessThan(20_000); // did not wait for the long one
    expect(second.start - asked).toBeGreaterThanOrEqual(1_000); // waited while the long one held the only container
    expect(second.loadedAt).toBeLessThanOrEqual(second.start); // in a container loaded before it
    expect(second.loadedAt).toBeGreaterThan(warmedUp); // a second one, not the warm one
  } finally {
    await invoker.close();
  }
}, 30_000);

it('requests waiting for a container: reads go before writes that came earlier, and a write waits at most WRITE_WAITS_MS longer', async () => {
  const { invoker, call } = pool({ taskWorkers: 1, requestWorkers: 1 });
  try {
    await call('warm the request container', 'request', 0);
    const now = Date.now();
    const busy = call('busy', 'request', 300, requestOrder('POST', now));
    const write = call('create', 'request', 10, requestOrder('POST', now + 1));
    const read = call('get', 'request', 10, requestOrder('GET', now + 2));
    // A write that has waited WRITE_WAITS_MS goes before a read arriving then.
    const late = call('late get', 'request', 10, requestOrder('GET', now + WRITE_WAITS_MS + 1));
    const [b, w, r, l] = await Promise.all([busy, write, read, late]);
    expect(r.start).toBeGreaterThanOrEqual(b.end);
    expect(w.start).toBeGreaterThanOrEqual(r.end);
    expect(l.start).toBeGreaterThanOrEqual(w.end);
  } finally {
    await invoker.close();
  }
}, 30_000);
