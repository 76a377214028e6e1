/**
 * A helper thread that reads pages of a long PDF while the calling thread reads others (./pdf.ts
 * readPdf): pdf.js parses on the thread that calls it, so a second core is only used through a
 * second thread with its own pdf.js.
 *
 * The two threads share the pages out one at a time, the caller from the front of the document and
 * the helper from the back (the range of unread pages is in shared memory), so neither waits for
 * the other at the end, whichever is slower. The helper sends
 * each page back as soon as it is read (packed, ./page-transfer.ts), so the copying is spread over
 * the read instead of waiting at its end.
 *
 * One helper per process (per warm Lambda container, per local worker thread), started on first use
 * and kept for the next documents. It takes one job at a time: when it is busy (another document
 * read at the same time in this process) or cannot run, readPagesInHelper returns undefined and the
 * caller reads every page itself. QUIRE_PDF_HELPER=0 turns it off.
 *
 * Its entry: under tsx (npm start, tests) a .mjs that registers tsx in the thread, then loads
 * ./pdf-helper-thread.ts; in a Lambda bundle, pdf-helper-thread.mjs at the bundle's root, which
 * lib/cloud/bundling.ts builds as an entry of the task bundles (this module is then in the entry or
 * in a chunk one folder below it).
 */
import { existsSync } from 'node:fs';
import { availableParallelism } from 'node:os';
import { fileURLToPath } from 'node:url';
import { Worker } from 'node:worker_threads';
import { type Page, ReadFailure } from './doc.ts';
import { type TransferablePage, unpackPage } from './page-transfer.ts';

/** What the helper thread sends: each page it read (null for a scanned page), then how it ended. */
export type HelperMessage =
  | { page: number; read: TransferablePage; ms: number }
  | { done: true }
  | { done: false; message: string; code?: ReadFailure['code'] };

export interface HelperJob {
  bytes: Uint8Array;
  /** The first and last unread page, shared by both threads (./pdf.ts takePage). */
  unread: Int32Array;
  deadline: number;
}

interface Helper {
  worker: Worker;
  busy: boolean;
  receive?: (message: HelperMessage | Error) => void;
}

let helper: Helper | undefined;
/** Pages the helper thread has sent back in this process (a test's way to see it did share the work). */
let pagesFromHelper = 0;
/** Documents handed to the helper thread in this process (whether it got to a page depends on timing). */
let documentsToHelper = 0;

/**
 * V8's young generation for threads that read documents, in MB (three semi-spaces: 192 is what
 * `--max-semi-space-size=64` gives; the default is 48). pdf.js and the layout allocate many
 * short-lived objects per page: with the default, scavenges took ~20% of a 200-page read, half that
 * with this. Used for the local runtime's worker threads (lib/local/invoker.ts) and, as
 * NODE_OPTIONS, the task Lambdas (lib/cloud/runs.ts); not for the helper thread, whose memory counts
 * on top (a 500-page read peaked 95 MB higher with it).
 */
export const DOCUMENT_YOUNG_GENERATION_MB = 192;

function entry(): URL | undefined {
  if (import.meta.url.endsWith('.ts')) return new URL('./pdf-helper-entry.mjs', import.meta.url);
  return ['./pdf-helper-thread.mjs', '../pdf-helper-thread.mjs'].map((path) => new URL(path, import.meta.url)).find((url) => existsSync(fileURLToPath(url)));
}

function startHelper(): Helper | undefined {
  const url = entry();
  if (!url) return undefined;
  // The thread inherits the process's Node options, but --input-type (of a `node -e` script) is refused for a file.
  const execArgv = process.execArgv.filter((arg) => !arg.startsWith('--input-type'));
  let worker: Worker;
  try {
    worker = new Worker(url, { execArgv });
  } catch {
    // A thread cannot start with some of the process's flags (e.g. --max-semi-space-size): read on one thread.
    return undefined;
  }
  const started: Helper = { worker, busy: false };
  const lost = (error: Error) => {
    if (helper === started) helper = undefined;
    started.receive?.(error);
  };
  started.worker.on('message', (message: HelperMessage) => started.receive?.(message));
  started.worker.on('error', lost);
  started.worker.on('exit', (code) => lost(new Error(`The PDF helper thread exited (code ${code})`)));
  // An idle helper does not keep the process alive.
  started.worker.unref();
  return started;
}

/**
 * Has the helper thread read pages alongside the caller, taking them from `job.unread`; each page
 * it reads is handed to `onPage` as it arrives (null for a scanned page, left to the caller's OCR).
 * Undefined when no helper can take the job now. The promise resolves when the helper has no more
 * pages to take; it rejects with the ReadFailure of a damaged page or a passed deadline, or with
 * another error when the thread itself failed (the pages it took and did not send are then unread).
 */
export function readPagesInHelper(job: HelperJob, onPage: (pageNumber: number, page: Page | null, ms: number) => void): Promise<void> | undefined {
  if (process.env.QUIRE_PDF_HELPER === '0' || availableParallelism() < 2) return undefined;
  helper ??= startHelper();
  const current = helper;
  if (!current || current.busy) return undefined;
  current.busy = true;
  current.worker.ref();
  return new Promise<void>((resolve, reject) => {
    const end = () => {
      current.receive = undefined;
      current.busy = false;
      current.worker.unref();
    };
    current.receive = (message) => {
      if (message instanceof Error) {
        end();
        reject(message);
      } else if ('page' in message) {
        pagesFromHelper++;
        onPage(message.page, unpackPage(message.read), message.ms);
      } else {
        end();
        if (message.done) resolve();
        else reject(message.code ? new ReadFailure(message.message, message.code) : new Error(message.message));
      }
    };
    // The thread gets its own copy of the bytes (transferred, so not copied twice).
    const copy = new Uint8Array(job.bytes);
    current.worker.postMessage({ ...job, bytes: copy } satisfies HelperJob, [copy.buffer]);
    documentsToHelper++;
  });
}

/** How many pages the helper thread has read for this process so far. */
export function pagesReadByHelper(): number {
  return pagesFromHelper;
}

/** How many documents this process has handed to the helper thread so far. */
export function documentsSharedWithHelper(): number {
  return documentsToHelper;
}

/** Whether the helper thread is on a document now (a short one's read does not wait for it to let go). */
export function pdfHelperBusy(): boolean {
  return helper?.busy ?? false;
}

/** Whether this process has a helper thread running (it starts with the first long PDF). */
export function pdfHelperRunning(): boolean {
  return helper !== undefined;
}
