/** The PDF helper thread (see ./pdf-helper.ts): reads the pages it is asked for, one job at a time. */
import { parentPort } from 'node:worker_threads';
import { ReadFailure } from './doc.ts';
import { readPdfPages } from './pdf.ts';
import type { HelperAnswer, HelperJob } from './pdf-helper.ts';
import { packPage, transferList } from './page-transfer.ts';

parentPort!.on('message', async (job: HelperJob) => {
  let answer: HelperAnswer;
  let transfer: ArrayBuffer[] = [];
  try {
    const pages = (await readPdfPages(job)).map(packPage);
    answer = { ok: true, pages };
    transfer = pages.flatMap(transferList);
  } catch (error) {
    answer = { ok: false, message: error instanceof Error ? error.message : String(error), code: error instanceof ReadFailure ? error.code : undefined };
  }
  parentPort!.postMessage(answer, transfer);
});
