/**
 * Runs handlers the way Lambda would. `workers` mode keeps worker threads (like warm Lambda
 * containers: one invocation at a time each, created on demand, reused) in two sets, as on AWS the
 * API's Lambdas and the tasks' Lambdas are apart: API requests have containers of their own, so a
 * GET never waits for a container held by a minutes-long parse; background tasks run in a few
 * containers (so many that document work keeps within the cores) and wait their turn beyond that (a
 * run not yet started stays `queued`). `inline` mode imports handlers into this process (tests that define their own
 * routes and run kinds use it). Both resolve the same modules and call the same handler functions.
 */
import { randomUUID } from 'node:crypto';
import { dirname, isAbsolute, join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { Worker } from 'node:worker_threads';
import { DOCUMENT_YOUNG_GENERATION_MB } from '../../functions/documents/pdf-helper.ts';
import type { ResponseSink } from '../../functions/platform/response-stream.ts';

export const REPO_ROOT = join(dirname(fileURLToPath(import.meta.url)), '..', '..');

export interface InvokeTarget {
  /** Relative to functions/, or absolute. */
  module: string;
  handler: string;
}

/**
 * `request`: an API request, someone waits for the answer. `task`: a state machine task (background
 * work). On AWS they run in separate Lambdas; here in separate sets of containers.
 */
export type InvocationKind = 'request' | 'task';

/** Where an invocation stands in the line for a container, and who to tell when it gets one. */
export interface InvocationOrder {
  /**
   * Lower goes first; equal ones in the order they came; none given: its arrival time. For a task,
   * the local Step Functions passes its execution's start time, so the next step of a run under way
   * goes before the first step of a run that has not started: started runs finish, the others wait
   * as `queued`. For a request, the HTTP server puts reads before writes (./http-server.ts).
   */
  priority: number;
  /** Called when the task gets its container: its state's TimeoutSeconds counts from then (./stepfunctions.ts). */
  started?(): void;
}

export interface Invoker {
  /**
   * `stream`: the invocation streams its answer (a route with `stream: true`): the handler is called
   * with this sink (functions/platform/response-stream.ts), its parts reach it as they are written,
   * and the invocation resolves once the handler is done.
   */
  invoke(target: InvokeTarget, event: unknown, timeoutMs: number, kind?: InvocationKind, order?: InvocationOrder, stream?: ResponseSink): Promise<unknown>;
  /**
   * Starts the containers the API needs before its first request and resolves once they are loaded,
   * with `tasks`: the warm task containers started too, which settles once they are loaded (the API
   * need not wait for those). (Call it once the handlers' environment is set: a worker thread copies
   * it when it starts.)
   */
  warmUp(): Promise<{ tasks: Promise<void> }>;
  close(): Promise<void>;
}

/** Thrown when an invocation runs past its timeout (the container is discarded, as Lambda does). */
export class InvocationTimeout extends Error {
  override name = 'Sandbox.Timedout';
}

export function moduleUrl(module: string): string {
  return pathToFileURL(isAbsolute(module) ? module : join(REPO_ROOT, 'functions', module)).href;
}

export function lambdaContext(functionName: string, timeoutMs: number) {
  const deadline = Date.now() + timeoutMs;
  return {
    awsRequestId: randomUUID(),
    functionName,
    functionVersion: '$LATEST',
    invokedFunctionArn: `arn:aws:lambda:local:000000000000:function:${functionName}`,
    memoryLimitInMB: '2048',
    logGroupName: `/aws/lambda/${functionName}`,
    logStreamName: 'local',
    callbackWaitsForEmptyEventLoop: false,
    getRemainingTimeInMillis: () => Math.max(0, deadline - Date.now()),
  };
}

/** Rebuilds a thrown error with its name, as Lambda reports errorType/errorMessage. */
function asError(failure: { name: string; message: string }): Error {
  const error = new Error(failure.message);
  error.name = failure.name;
  return error;
}

/** How long closing an inline invoker waits for handlers still running (their writes need the emulators). */
const INLINE_DRAIN_MS = 20_000;

export function inlineInvoker(): Invoker {
  // Handlers still running: an aborted execution's task, or a request whose client went away, goes on
  // in this process and would write to emulators closed under it. close() lets them finish first.
  const running = new Set<Promise<unknown>>();
  return {
    warmUp: () => Promise.resolve({ tasks: Promise.resolve() }),
    async invoke(target, event, timeoutMs, _kind, order, stream) {
      // Inline, every invocation runs at once: its time counts from now.
      order?.started?.();
      const mod = (await import(moduleUrl(target.module))) as Record<string, unknown>;
      const fn = mod[target.handler];
      if (typeof fn !== 'function') throw new Error(`${target.module} exports no function ${target.handler}`);
      let timer: NodeJS.Timeout | undefined;
      const timeout = new Promise<never>((_, reject) => {
        timer = setTimeout(() => reject(new InvocationTimeout(`Task timed out after ${timeoutMs} ms`)), timeoutMs);
      });
      const context = lambdaContext(target.handler, timeoutMs);
      const run = Promise.resolve(stream ? (fn as (e: unknown, s: ResponseSink, c: unknown) => Promise<void>)(event, stream, context) : (fn as (e: unknown, c: unknown) => Promise<unknown>)(event, context));
      const tracked = run.catch(() => undefined).finally(() => running.delete(tracked));
      running.add(tracked);
      try {
        return await Promise.race([run, timeout]);
      } finally {
        clearTimeout(timer);
      }
    },
    async close() {
      let timer: NodeJS.Timeout | undefined;
      const deadline = new Promise<void>((resolve) => (timer = setTimeout(resolve, INLINE_DRAIN_MS)));
      await Promise.race([Promise.allSettled([...running]), deadline]);
      clearTimeout(timer);
    },
  };
}

interface Job {
  target: InvokeTarget;
  event: unknown;
  timeoutMs: number;
  /** InvocationOrder.priority, or its arrival time when none was given. */
  priority: number;
  started?(): void;
  /** A streamed answer: where its parts go, and its id in the messages of the container that runs it (./worker.ts). */
  stream?: { sink: ResponseSink; id: string };
  resolve(value: unknown): void;
  reject(error: Error): void;
}

/** One worker thread: a container of one set, running at most one job once its modules are loaded. */
interface Container {
  worker: Worker;
  set: ContainerSet;
  /** Its modules are loaded: it takes jobs. */
  ready: boolean;
  /** Settles when it is ready, or gone before. */
  loaded: Promise<void>;
  markLoaded(): void;
  job?: Job;
  /** When its job started (Date.now()). */
  jobStarted?: number;
  timer?: NodeJS.Timeout;
}

/** The containers of one kind of invocation, and the jobs waiting for one of them. */
interface ContainerSet {
  kind: InvocationKind;
  /** At most this many containers (started on demand, then kept warm). */
  max: number;
  /** Modules every container of the set loads before it takes its first job. */
  preload: string[];
  /** While jobs wait, another container is started once every container has been on its job this long. */
  growAfterMs: number;
  /** The pump's next look, while jobs wait. */
  growTimer?: NodeJS.Timeout;
  all: Set<Container>;
  /** Ready and without a job. */
  idle: Container[];
  /** Jobs in the order they get a container: by priority, then arrival. */
  waiting: Job[];
}

export interface WorkerPoolOptions {
  /**
   * Containers for background tasks; beyond this many, tasks wait their turn. Document work is
   * CPU-bound: more of it at once than cores only shares the same cores slower, and starves the
   * API's threads and the emulators' thread.
   */
  taskWorkers: number;
  /**
   * The machine's cores. A task reads a long PDF on a second thread (functions/documents/pdf-helper.ts)
   * only if, with it, the tasks running would still fit in half the cores (two threads each): on two
   * cores, a task alone reads on both; two tasks read on one thread each.
   */
  cores: number;
  /**
   * Containers for API requests, up to this many. A request mostly waits on the emulators, or for its
   * run (a sync create waits up to 25 s), so more of them than cores keeps requests from waiting for
   * each other.
   */
  requestWorkers: number;
  /**
   * Request containers started and loaded by `warmUp()` (like Lambda's provisioned concurrency): the
   * API's first requests find them warm.
   */
  warmRequestWorkers?: number;
  /**
   * Task containers started by `warmUp()` too (its `tasks` settles once they are loaded). A cold task container costs seconds of CPU
   * (the document engines' modules) on both cores: started by the first run, that is taken from the
   * API's requests just when work arrives.
   */
  warmTaskWorkers?: number;
  /**
   * The API routes' modules: every request container imports them before its first request. A cold
   * container takes a second or two of CPU (tsx compiles for each thread), which no request should
   * wait for.
   */
  requestModules?: string[];
  /** The task functions' modules, likewise: a state's TimeoutSeconds should not pay for them. */
  taskModules?: string[];
}

/**
 * How far below the API's threads the task containers' threads run (a Linux nice value: 0 normal,
 * 19 lowest). At 10 a task gets about a tenth of a core that a request also wants, and all of it
 * when no request does.
 */
const TASK_NICENESS = 10;

/** How long every request container must have been on its request before another one is started. */
const REQUEST_GROW_AFTER_MS = 1_000;

export function workerPoolInvoker(options: WorkerPoolOptions): Invoker {
  const newSet = (kind: InvocationKind, max: number, preload: string[], growAfterMs: number): ContainerSet => ({ kind, max: Math.max(1, max), preload, growAfterMs, all: new Set(), idle: [], waiting: [] });
  const sets: Record<InvocationKind, ContainerSet> = {
    // Requests that are merely many wait for the next free container: most take tens of
    // milliseconds, and a new container costs a second or two of CPU taken from them. Another one is
    // started when every container has been on its request for a while: held by a sync create
    // waiting for its run (up to 25 s), a big upload. No request waits behind those.
    request: newSet('request', options.requestWorkers, (options.requestModules ?? []).map(moduleUrl), REQUEST_GROW_AFTER_MS),
    // Tasks get a container at once, up to taskWorkers.
    task: newSet('task', options.taskWorkers, (options.taskModules ?? []).map(moduleUrl), 0),
  };
  let closed = false;

  function spawn(set: ContainerSet): Container {
    // The young generation the task Lambdas get through NODE_OPTIONS (lib/cloud/runs.ts).
    const resourceLimits = { maxYoungGenerationSizeMb: DOCUMENT_YOUNG_GENERATION_MB };
    const worker = new Worker(new URL('./worker-entry.mjs', import.meta.url), { resourceLimits, workerData: { preload: set.preload, niceness: set.kind === 'task' ? TASK_NICENESS : 0 } });
    let markLoaded!: () => void;
    const loaded = new Promise<void>((resolve) => (markLoaded = resolve));
    const container: Container = { worker, set, ready: false, loaded, markLoaded };
    worker.on('message', (message: { ready?: true; ok?: boolean; value?: unknown; error?: { name: string; message: string }; stream?: string; head?: { statusCode: number; headers: Record<string, string> }; chunk?: string; end?: true }) => {
      if (message.stream !== undefined) {
        // A part of a streamed answer: on to its sink, the job goes on.
        const stream = container.job?.stream;
        if (stream?.id !== message.stream) return;
        if (message.head) stream.sink.head(message.head.statusCode, message.head.headers);
        else if (message.end) stream.sink.end();
        else stream.sink.write(message.chunk ?? '');
        return;
      }
      if (message.ready) {
        container.ready = true;
        container.markLoaded();
        set.idle.push(container);
        pump(set);
        return;
      }
      const job = container.job;
      finish(container);
      if (!job) return;
      if (message.ok) job.resolve(message.value);
      else job.reject(asError(message.error!));
    });
    worker.on('error', (error) => lost(container, error));
    worker.on('exit', () => lost(container, new Error('The function container exited')));
    set.all.add(container);
    return container;
  }

  /** A container that crashed: its job fails; one that never got ready fails the next waiting job instead. */
  function lost(container: Container, error: Error) {
    if (!container.set.all.has(container)) return;
    const job = container.job ?? (container.ready ? undefined : container.set.waiting.shift());
    discard(container);
    job?.reject(error);
  }

  /** A container that crashed or timed out is not reused (as Lambda discards it). */
  function discard(container: Container) {
    clearTimeout(container.timer);
    const { set } = container;
    set.all.delete(container);
    const i = set.idle.indexOf(container);
    if (i >= 0) set.idle.splice(i, 1);
    container.job = undefined;
    container.markLoaded();
    void container.worker.terminate();
    pump(set);
  }

  function finish(container: Container) {
    clearTimeout(container.timer);
    container.job = undefined;
    if (!container.set.all.has(container)) return;
    container.set.idle.push(container);
    // Not at once: the job's result first reaches whoever waits for it. When a state's task ends,
    // its execution's next state asks for a container within the same turn, and (started earlier)
    // goes before the runs still waiting: a run goes `in_progress` only when it gets to work.
    setImmediate(() => pump(container.set));
  }

  function run(container: Container, job: Job) {
    container.job = job;
    container.jobStarted = Date.now();
    container.timer = setTimeout(() => {
      discard(container);
      job.reject(new InvocationTimeout(`Task timed out after ${job.timeoutMs} ms`));
    }, job.timeoutMs);
    job.started?.();
    const tasksRunning = [...sets.task.all].filter((c) => c.job).length;
    const pdfHelper = container.set.kind === 'task' && tasksRunning * 2 <= options.cores;
    container.worker.postMessage({ module: moduleUrl(job.target.module), handler: job.target.handler, event: job.event, timeoutMs: job.timeoutMs, pdfHelper, stream: job.stream?.id });
    // A client gone away (now or later) is told to the handler, which stops writing.
    const stream = job.stream;
    if (stream) {
      const tell = () => {
        if (container.job === job) container.worker.postMessage({ cut: stream.id });
      };
      if (stream.sink.cut.aborted) tell();
      else stream.sink.cut.addEventListener('abort', tell, { once: true });
    }
  }

  /**
   * Gives waiting jobs the set's free containers. While jobs still wait and every container has been
   * on its job for the set's growAfterMs, one more container is started (one at a time, up to the
   * set's size). A job is never bound to a cold container: whichever is free first, the new one once
   * loaded or one that finishes its job, takes the next.
   */
  function pump(set: ContainerSet) {
    if (closed) return;
    while (set.waiting.length > 0 && set.idle.length > 0) run(set.idle.pop()!, set.waiting.shift()!);
    clearTimeout(set.growTimer);
    if (set.waiting.length === 0 || set.all.size >= set.max) return;
    const containers = [...set.all];
    if (containers.some((c) => !c.ready)) return; // one is starting: it pumps when ready
    const now = Date.now();
    if (containers.every((c) => now - c.jobStarted! >= set.growAfterMs)) spawn(set);
    else set.growTimer = setTimeout(() => pump(set), set.growAfterMs);
  }

  return {
    async warmUp() {
      const start = (set: ContainerSet, count = 0) => Promise.all(Array.from({ length: Math.min(count, set.max) }, () => spawn(set).loaded)).then(() => undefined);
      const requests = start(sets.request, options.warmRequestWorkers);
      const tasks = start(sets.task, options.warmTaskWorkers);
      await requests;
      return { tasks };
    },
    invoke(target, event, timeoutMs, kind = 'request', order, stream) {
      if (closed) return Promise.reject(new Error('The local runtime is shutting down'));
      return new Promise((resolve, reject) => {
        const set = sets[kind];
        const job: Job = { target, event, timeoutMs, priority: order?.priority ?? Date.now(), started: order?.started, resolve, reject };
        if (stream) job.stream = { sink: stream, id: randomUUID() };
        // Behind every job that goes before it (scanning from the end: most jobs come last).
        let at = set.waiting.length;
        while (at > 0 && set.waiting[at - 1]!.priority > job.priority) at--;
        set.waiting.splice(at, 0, job);
        pump(set);
      });
    },
    async close() {
      closed = true;
      const containers = [...sets.request.all, ...sets.task.all];
      const shuttingDown = () => new Error('The local runtime is shutting down');
      for (const set of Object.values(sets)) {
        clearTimeout(set.growTimer);
        for (const job of set.waiting.splice(0)) job.reject(shuttingDown());
        set.all.clear();
        set.idle.length = 0;
      }
      for (const container of containers) {
        clearTimeout(container.timer);
        container.job?.reject(shuttingDown());
        container.job = undefined;
      }
      await Promise.all(containers.map((c) => c.worker.terminate()));
    },
  };
}
