/**
 * Runs handlers the way Lambda would. `workers` mode keeps a pool of worker threads (like warm Lambda
 * containers: one invocation at a time each, created on demand, reused), so one long OCR never blocks
 * other requests. `inline` mode imports handlers into this process (tests that define their own
 * routes and run kinds use it). Both resolve the same modules and call the same handler functions.
 */
import { randomUUID } from 'node:crypto';
import { dirname, isAbsolute, join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { Worker } from 'node:worker_threads';
import { DOCUMENT_YOUNG_GENERATION_MB } from '../../functions/documents/pdf-helper.ts';

export const REPO_ROOT = join(dirname(fileURLToPath(import.meta.url)), '..', '..');

export interface InvokeTarget {
  /** Relative to functions/, or absolute. */
  module: string;
  handler: string;
}

/**
 * `request`: an API request, someone waits for the answer. `task`: a state machine task (background
 * work). On AWS they run in separate Lambdas; here they share the containers, and requests go first.
 */
export type InvocationKind = 'request' | 'task';

export interface Invoker {
  invoke(target: InvokeTarget, event: unknown, timeoutMs: number, kind?: InvocationKind): Promise<unknown>;
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
    async invoke(target, event, timeoutMs) {
      const mod = (await import(moduleUrl(target.module))) as Record<string, unknown>;
      const fn = mod[target.handler];
      if (typeof fn !== 'function') throw new Error(`${target.module} exports no function ${target.handler}`);
      let timer: NodeJS.Timeout | undefined;
      const timeout = new Promise<never>((_, reject) => {
        timer = setTimeout(() => reject(new InvocationTimeout(`Task timed out after ${timeoutMs} ms`)), timeoutMs);
      });
      const run = Promise.resolve((fn as (e: unknown, c: unknown) => Promise<unknown>)(event, lambdaContext(target.handler, timeoutMs)));
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
  kind: InvocationKind;
  target: InvokeTarget;
  event: unknown;
  timeoutMs: number;
  resolve(value: unknown): void;
  reject(error: Error): void;
}

interface PooledWorker {
  worker: Worker;
  job?: Job;
  timer?: NodeJS.Timeout;
}

export function workerPoolInvoker(options: { maxWorkers: number }): Invoker {
  const idle: PooledWorker[] = [];
  const all = new Set<PooledWorker>();
  // Two queues: a waiting API request never queues behind background tasks (under load, a GET would
  // otherwise wait for every parse and extraction step started before it).
  // Requests do not starve the tasks either: while tasks wait and none runs, the next free
  // container takes a task (a state's TimeoutSeconds counts the time its task waits here).
  const requests: Job[] = [];
  const tasks: Job[] = [];
  let tasksRunning = 0;
  let closed = false;

  function spawn(): PooledWorker {
    // The young generation the task Lambdas get through NODE_OPTIONS (lib/cloud/runs.ts).
    const resourceLimits = { maxYoungGenerationSizeMb: DOCUMENT_YOUNG_GENERATION_MB };
    const pooled: PooledWorker = { worker: new Worker(new URL('./worker-entry.mjs', import.meta.url), { resourceLimits }) };
    pooled.worker.on('message', (message: { ok: boolean; value?: unknown; error?: { name: string; message: string } }) => {
      const job = pooled.job;
      finish(pooled);
      if (!job) return;
      if (message.ok) job.resolve(message.value);
      else job.reject(asError(message.error!));
    });
    pooled.worker.on('error', (error) => {
      const job = pooled.job;
      discard(pooled);
      job?.reject(error);
    });
    pooled.worker.on('exit', () => {
      const job = pooled.job;
      discard(pooled);
      job?.reject(new Error('The function container exited'));
    });
    all.add(pooled);
    return pooled;
  }

  function discard(pooled: PooledWorker) {
    clearTimeout(pooled.timer);
    if (pooled.job?.kind === 'task') tasksRunning--;
    all.delete(pooled);
    const i = idle.indexOf(pooled);
    if (i >= 0) idle.splice(i, 1);
    pooled.job = undefined;
    void pooled.worker.terminate();
    pump();
  }

  function finish(pooled: PooledWorker) {
    clearTimeout(pooled.timer);
    if (pooled.job?.kind === 'task') tasksRunning--;
    pooled.job = undefined;
    if (!all.has(pooled)) return;
    idle.push(pooled);
    pump();
  }

  function run(pooled: PooledWorker, job: Job) {
    pooled.job = job;
    if (job.kind === 'task') tasksRunning++;
    pooled.timer = setTimeout(() => {
      discard(pooled);
      job.reject(new InvocationTimeout(`Task timed out after ${job.timeoutMs} ms`));
    }, job.timeoutMs);
    pooled.worker.postMessage({ module: moduleUrl(job.target.module), handler: job.target.handler, event: job.event, timeoutMs: job.timeoutMs });
  }

  function pump() {
    while (!closed && requests.length + tasks.length > 0) {
      const pooled = idle.pop() ?? (all.size < options.maxWorkers ? spawn() : undefined);
      if (!pooled) return;
      const job = tasks.length > 0 && tasksRunning === 0 ? tasks.shift() : (requests.shift() ?? tasks.shift());
      run(pooled, job!);
    }
  }

  return {
    invoke(target, event, timeoutMs, kind = 'request') {
      if (closed) return Promise.reject(new Error('The local runtime is shutting down'));
      return new Promise((resolve, reject) => {
        (kind === 'request' ? requests : tasks).push({ kind, target, event, timeoutMs, resolve, reject });
        pump();
      });
    },
    async close() {
      closed = true;
      for (const job of [...requests.splice(0), ...tasks.splice(0)]) job.reject(new Error('The local runtime is shutting down'));
      await Promise.all([...all].map((p) => p.worker.terminate()));
      all.clear();
      idle.length = 0;
    },
  };
}
