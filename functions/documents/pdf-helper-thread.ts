/** The PDF helper thread (see ./pdf-helper.ts): reads the pages it is asked for, one job at a time. */
import { parentPort } from 'node:worker_threads';
import { ReadFailure } from './doc.ts';
import { readPdfPages } from './pdf.ts';
import type { HelperAnswer, HelperJob } from './pdf-helper.ts';

parentPort!.on('message', async (job: HelperJob) => {
  let answer: HelperAnswer;
  try {
    answer = { ok: true, pages: await readPdfPages(job) };
  } catch (error) {
    answer = { ok: false, message: error instanceof Error ? error.message : String(error), code: error instanceof ReadFailure ? error.code : undefined };
  }
  parentPort!.postMessage(answer);
});
