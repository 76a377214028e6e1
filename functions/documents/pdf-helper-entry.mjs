// The PDF helper thread's entry when running from TypeScript sources (npm start, tests): worker
// threads do not inherit the parent's tsx loader on Node 20, so register it here, then load the
// thread. (Plain JavaScript so Node can start it without any loader.) Bundles use
// pdf-helper-thread.mjs instead (lib/cloud/bundling.ts).
//
// pdf.js is loaded first, before tsx: through tsx its two big modules cost the thread ~390 MB more.
// Loading it restores the built-ins its polyfills replace, as ./pdfjs.ts does (which then finds
// both modules loaded).
import { register } from 'tsx/esm/api';

const native = { push: Array.prototype.push, parse: JSON.parse, stringify: JSON.stringify };
await import('pdfjs-dist/legacy/build/pdf.mjs');
globalThis.pdfjsWorker = await import('pdfjs-dist/legacy/build/pdf.worker.mjs');
Array.prototype.push = native.push;
JSON.parse = native.parse;
JSON.stringify = native.stringify;

register();
await import('./pdf-helper-thread.ts');
