/**
 * A helper thread that reads pages of a long PDF while the calling thread reads others (./pdf.ts
 * readPdf): pdf.js parses on the thread that calls it, so a second core is only used through a
 * second thread with its own pdf.js.
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

/** What the helper thread answers: its pages (null for a scanned page; packed, ./page-transfer.ts), or why it failed. */
export type HelperAnswer = { ok: true; pages: TransferablePage[] } | { ok: false; message: string; code?: ReadFailure['code'] };

export interface HelperJob {
  bytes: Uint8Array;
  from: number;
  to: number;
  deadline: number;
  /** Whether the document may paint vector paths (./pdf-paths.ts), found once by the caller. */
  paintsPaths: boolean;
}

interface Helper {
  worker: Worker;
  busy: boolean;
  settle?: (answer: HelperAnswer | Error) => void;
}

let helper: Helper | undefined;

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
    started.settle?.(error);
  };
  started.worker.on('message', (answer: HelperAnswer) => started.settle?.(answer));
  started.worker.on('error', lost);
  started.worker.on('exit', (code) => lost(new Error(`The PDF helper thread exited (code ${code})`)));
  // An idle helper does not keep the process alive.
  started.worker.unref();
  return started;
}

/**
 * Pages `from`..`to` read by the helper thread (null for scanned pages), or undefined when no helper
 * can take the job now. Rejects with the ReadFailure of a damaged page or a passed deadline, or with
 * another error when the thread itself failed (the caller may then read the pages itself).
 */
export function readPagesInHelper(job: HelperJob): Promise<Array<Page | null>> | undefined {
  if (process.env.QUIRE_PDF_HELPER === '0' || availableParallelism() < 2) return undefined;
  helper ??= startHelper();
  const current = helper;
  if (!current || current.busy) return undefined;
  current.busy = true;
  current.worker.ref();
  return new Promise<Array<Page | null>>((resolve, reject) => {
    current.settle = (answer) => {
      current.settle = undefined;
      current.busy = false;
      current.worker.unref();
      if (answer instanceof Error) reject(answer);
      else if (answer.ok) resolve(answer.pages.map(unpackPage));
      else reject(answer.code ? new ReadFailure(answer.message, answer.code) : new Error(answer.message));
    };
    // The thread gets its own copy of the bytes (transferred, so not copied twice).
    const copy = new Uint8Array(job.bytes);
    current.worker.postMessage({ ...job, bytes: copy } satisfies HelperJob, [copy.buffer]);
  });
}

/** Whether this process has a helper thread running (it starts with the first long PDF). */
export function pdfHelperRunning(): boolean {
  return helper !== undefined;
}
