/**
 * One warm "Lambda container": loads the handler modules it is given at start (the API routes', or
 * the task functions'), any other on first use, and runs one invocation at a time.
 * Like every Lambda entry, it first hands the platform its feature adapters (functions/wiring.ts).
 */
import { parentPort, workerData } from 'node:worker_threads';
import '../../functions/wiring.ts';
import type { ResponseSink } from '../../functions/platform/response-stream.ts';
import { lambdaContext } from './invoker.ts';

const modules = new Map<string, Promise<Record<string, unknown>>>();

function load(module: string): Promise<Record<string, unknown>> {
  let mod = modules.get(module);
  if (!mod) {
    mod = import(module) as Promise<Record<string, unknown>>;
    modules.set(module, mod);
  }
  return mod;
}

/** QUIRE_PDF_HELPER as this container started (a worker thread has its own copy of the environment). */
const pdfHelperSetting = process.env.QUIRE_PDF_HELPER;

/** Streamed answers being written (routes with `stream: true`), by the id the pool gave each: aborted when its client goes away. */
const streams = new Map<string, AbortController>();

/** The sink of a streamed answer: each part goes to the pool as it is written (lib/local/invoker.ts relays it to the HTTP server). */
function relaySink(id: string, cut: AbortSignal): ResponseSink {
  return {
    head: (statusCode, headers) => parentPort!.postMessage({ stream: id, head: { statusCode, headers } }),
    write: (chunk) => parentPort!.postMessage({ stream: id, chunk }),
    end: () => parentPort!.postMessage({ stream: id, end: true }),
    cut,
  };
}

parentPort!.on('message', async (message: { module: string; handler: string; event: unknown; timeoutMs: number; pdfHelper: boolean; stream?: string } | { cut: string }) => {
  if ('cut' in message) {
    streams.get(message.cut)?.abort();
    return;
  }
  // Whether this invocation may read a long PDF on a second thread: the pool says (lib/local/invoker.ts).
  if (!message.pdfHelper) process.env.QUIRE_PDF_HELPER = '0';
  else if (pdfHelperSetting === undefined) delete process.env.QUIRE_PDF_HELPER;
  else process.env.QUIRE_PDF_HELPER = pdfHelperSetting;
  // Registered before anything is awaited: a client gone at once is heard too.
  const cut = message.stream !== undefined ? new AbortController() : undefined;
  if (cut) streams.set(message.stream!, cut);
  try {
    const fn = (await load(message.module))[message.handler];
    if (typeof fn !== 'function') throw new Error(`${message.module} exports no function ${message.handler}`);
    let value: unknown;
    if (cut) {
      // A streaming handler (functions/platform/response-stream.ts) answers through its sink.
      await (fn as (e: unknown, s: ResponseSink, c: unknown) => Promise<void>)(message.event, relaySink(message.stream!, cut.signal), lambdaContext(message.handler, message.timeoutMs));
    } else value = await (fn as (e: unknown, c: unknown) => Promise<unknown>)(message.event, lambdaContext(message.handler, message.timeoutMs));
    parentPort!.postMessage({ ok: true, value });
  } catch (error) {
    const e = error as Error;
    parentPort!.postMessage({ ok: false, error: { name: e?.name ?? 'Error', message: e?.message ?? String(error) } });
  } finally {
    if (cut) streams.delete(message.stream!);
  }
});

// The modules this container will run are loaded before it says it is ready (lib/local/invoker.ts
// gives it no job before): a request never waits for a cold start. A module that fails to load fails
// its invocations, with its own error.
const { preload } = workerData as { preload: string[] };
await Promise.allSettled(preload.map(load));
parentPort!.postMessage({ ready: true });
