/**
 * pdf.js (legacy build), loaded once per process (or worker thread) with the JavaScript built-ins it
 * slows down put back.
 *
 * The legacy build bundles core-js, which on Node 20 and 22 replaces `Array.prototype.push` (V8's
 * `push()` with no arguments on a frozen-length array does not throw, an edge case), `JSON.parse`
 * (the source-text-access proposal, parsed in JavaScript) and `JSON.stringify`, for the whole
 * process. The replacements are many times slower than V8's own: a 200-page parse spent ~30% of its
 * time in them, and writing its 1.3 MB output took 0.15 s instead of 5 ms. pdf.js itself needs none
 * of them (its modern build runs on the native ones), so they are restored once both pdf.js modules
 * are loaded. The polyfills that only add what Node 20 lacks (Promise.withResolvers, Uint8Array
 * base64, ...) stay: pdf.js uses them.
 *
 * pdf.js runs its "worker" in-process in Node (the fake worker) and would import pdf.worker.mjs on
 * the first getDocument, patching the built-ins again; it is imported here instead and handed over
 * through `globalThis.pdfjsWorker`, which pdf.js looks for before importing it itself.
 *
 * pdf.js decodes each Flate stream (every page's content) through a web DecompressionStream when
 * one exists, and through its own inflate when creating one fails. In Node 20 the stream costs more
 * than the inflate: web streams, a transfer wrapper and a round trip through libuv's thread pool per
 * page. Without it, raw getTextContent over the 200-page bench PDF took 390 ms instead of 470 ms
 * (same text), and a sync parse of it through the API went from 254-310 to 317-355 pages/s (`npm run
 * bench -- parse`, five runs each). So the global is removed from every thread that loads pdf.js;
 * nothing else in Quire or its dependencies uses it.
 */
import type { PDFWorker } from 'pdfjs-dist/legacy/build/pdf.mjs';

const native = { push: Array.prototype.push, parse: JSON.parse, stringify: JSON.stringify };

const pdfjs = await import('pdfjs-dist/legacy/build/pdf.mjs');
const holder = globalThis as { pdfjsWorker?: { WorkerMessageHandler: WorkerMessageHandler } };
holder.pdfjsWorker ??= (await import('pdfjs-dist/legacy/build/pdf.worker.mjs')) as { WorkerMessageHandler: WorkerMessageHandler };
const { WorkerMessageHandler } = holder.pdfjsWorker;

Array.prototype.push = native.push;
JSON.parse = native.parse;
JSON.stringify = native.stringify;
delete (globalThis as { DecompressionStream?: unknown }).DecompressionStream;

export const { getDocument, AnnotationMode, OPS } = pdfjs;
export type { PDFDocumentProxy, PDFPageProxy, PDFWorker } from 'pdfjs-dist/legacy/build/pdf.mjs';

/** The part of pdf.js's worker module used here: it serves documents over a port. */
interface WorkerMessageHandler {
  initializeFromPort(port: SameThreadPort): void;
}

type Listener = (this: SameThreadPort, event: { data: unknown }) => void;

/** pdf.js's message kind for a chunk of a stream (StreamKind.ENQUEUE in its message_handler.js). */
const STREAM_ENQUEUE = 4;

/** Control messages are plain data this deep at most (e.g. `{ action, data: { pageIndex } }`). */
const PLAIN_DEPTH = 3;

/** A message carrying a chunk of a page's text content (getTextContent's stream). */
function isTextChunk(message: unknown): message is { chunk: object } {
  const { stream, chunk } = (message ?? {}) as { stream?: unknown; chunk?: { items?: unknown; styles?: unknown } };
  return stream === STREAM_ENQUEUE && chunk !== undefined && Array.isArray(chunk.items) && typeof chunk.styles === 'object';
}

/** A message carrying a chunk of a page's operator list (getOperatorList's stream; OperatorList.flush in pdf.worker.mjs). */
function isOperatorChunk(message: unknown): message is { chunk: { fnArray: unknown[]; argsArray: unknown[]; length: number } } {
  const { stream, chunk } = (message ?? {}) as { stream?: unknown; chunk?: { fnArray?: unknown; argsArray?: unknown; length?: unknown } };
  return stream === STREAM_ENQUEUE && chunk !== undefined && Array.isArray(chunk.fnArray) && Array.isArray(chunk.argsArray) && typeof chunk.length === 'number';
}

/**
 * A copy of a message made only of plain objects, arrays and primitives, at most `depth` levels deep
 * (what structuredClone would give, without its fixed cost per call); undefined for anything else
 * (typed arrays, errors, deeper data), which is cloned by structuredClone.
 */
function plainCopy(value: unknown, depth: number): unknown {
  if (value === null || typeof value !== 'object') return typeof value === 'function' || typeof value === 'symbol' ? NOT_PLAIN : value;
  if (depth === 0) return NOT_PLAIN;
  if (Array.isArray(value)) {
    const copy: unknown[] = [];
    for (const item of value) {
      const itemCopy = plainCopy(item, depth - 1);
      if (itemCopy === NOT_PLAIN) return NOT_PLAIN;
      copy.push(itemCopy);
    }
    return copy;
  }
  if (Object.getPrototypeOf(value) !== Object.prototype) return NOT_PLAIN;
  const copy: Record<string, unknown> = {};
  for (const key of Object.keys(value)) {
    const fieldCopy = plainCopy((value as Record<string, unknown>)[key], depth - 1);
    if (fieldCopy === NOT_PLAIN) return NOT_PLAIN;
    copy[key] = fieldCopy;
  }
  return copy;
}

const NOT_PLAIN = Symbol('not plain');

/**
 * The port between the two halves of pdf.js on one thread. It does what pdf.js's own LoopbackPort
 * (its "fake worker", the one it uses in Node) does, except for three kinds of messages.
 *
 * LoopbackPort structured-clones every message. The text chunks are most of them, and their cloning
 * was ~7% of getTextContent: 452 → 420 ms over the 200-page bench file (median of 9). A chunk's items
 * and styles are made for the message: the sender starts new ones once the chunk is sent, and the
 * receiver only reads them. So they pass as they are, in a shallow copy of the chunk, since pdf.js
 * reuses the chunk object itself.
 *
 * The chunks of a page's operator list (the drawing pass) are the same: the worker empties its
 * `fnArray` and `argsArray` once the chunk is sent (so they are copied, shallowly) and never touches
 * the arguments again (the path buffers it transfers are its own for the message; glyph lists are
 * read-only). Cloning them was ~4.5% of a 357-page read. Only for documents that are never rendered
 * (`rendered: false`): rendering on a canvas writes into the arguments (a path becomes a Path2D).
 *
 * The many small control messages (stream pulls, page requests: primitives in plain objects) are
 * copied by hand; structuredClone's fixed cost per call was most of theirs. Every other message is
 * cloned as before.
 */
class SameThreadPort {
  readonly #listeners = new Map<Listener, (() => void) | undefined>();
  readonly #rendered: boolean;

  constructor({ rendered }: { rendered: boolean }) {
    this.#rendered = rendered;
  }

  postMessage(message: unknown, transfer?: NonNullable<Parameters<typeof structuredClone>[1]>['transfer']): void {
    const data = this.#copy(message, transfer);
    // Delivered later, in order, like a port's messages.
    void Promise.resolve().then(() => {
      for (const listener of this.#listeners.keys()) listener.call(this, { data });
    });
  }

  #copy(message: unknown, transfer?: NonNullable<Parameters<typeof structuredClone>[1]>['transfer']): unknown {
    if (isTextChunk(message)) return { ...message, chunk: { ...message.chunk } };
    if (!this.#rendered && isOperatorChunk(message)) {
      const { chunk } = message;
      return { ...message, chunk: { ...chunk, fnArray: chunk.fnArray.slice(0, chunk.length), argsArray: chunk.argsArray.slice(0, chunk.length) } };
    }
    if (!transfer || transfer.length === 0) {
      const copy = plainCopy(message, PLAIN_DEPTH);
      if (copy !== NOT_PLAIN) return copy;
    }
    return structuredClone(message, transfer ? { transfer } : undefined);
  }

  addEventListener(_name: 'message', listener: Listener, options?: { signal?: AbortSignal }): void {
    const signal = options?.signal;
    if (signal?.aborted) return;
    const onAbort = () => this.removeEventListener('message', listener);
    signal?.addEventListener('abort', onAbort);
    this.#listeners.set(listener, signal ? () => signal.removeEventListener('abort', onAbort) : undefined);
  }

  removeEventListener(_name: 'message', listener: Listener): void {
    this.#listeners.get(listener)?.();
    this.#listeners.delete(listener);
  }

  terminate(): void {
    for (const stopWatching of this.#listeners.values()) stopWatching?.();
    this.#listeners.clear();
  }
}

/**
 * A pdf.js worker on this thread for one document, over a SameThreadPort: pass it to getDocument
 * as `worker`, and destroy it once the document is destroyed (pdf.js leaves a worker it was given).
 * `rendered: false` promises that no page of the document is rendered (only its text content,
 * annotations and operator lists are read), so operator lists pass without cloning.
 */
export function sameThreadWorker({ rendered = true }: { rendered?: boolean } = {}): PDFWorker {
  const port = new SameThreadPort({ rendered });
  WorkerMessageHandler.initializeFromPort(port);
  // pdf.js types `port` as a web Worker; any object with these four methods serves.
  return new pdfjs.PDFWorker({ port: port as unknown as NonNullable<ConstructorParameters<typeof pdfjs.PDFWorker>[0]>['port'], verbosity: 0 });
}
