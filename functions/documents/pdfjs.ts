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
const native = { push: Array.prototype.push, parse: JSON.parse, stringify: JSON.stringify };

const pdfjs = await import('pdfjs-dist/legacy/build/pdf.mjs');
(globalThis as { pdfjsWorker?: unknown }).pdfjsWorker ??= await import('pdfjs-dist/legacy/build/pdf.worker.mjs');

Array.prototype.push = native.push;
JSON.parse = native.parse;
JSON.stringify = native.stringify;
delete (globalThis as { DecompressionStream?: unknown }).DecompressionStream;

export const { getDocument, AnnotationMode, OPS } = pdfjs;
export type { PDFDocumentProxy, PDFPageProxy } from 'pdfjs-dist/legacy/build/pdf.mjs';
