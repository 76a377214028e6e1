/** The PDF helper thread (see ./pdf-helper.ts): reads the pages it takes, one job at a time, and sends each as soon as it is read. */
import { parentPort } from 'node:worker_threads';
import { ReadFailure } from './doc.ts';
import { readPdfPages } from './pdf.ts';
import type { HelperJob, HelperMessage } from './pdf-helper.ts';
import { packPage, transferList } from './page-transfer.ts';

const send = (message: HelperMessage, transfer: ArrayBuffer[] = []) => parentPort!.postMessage(message, transfer);

parentPort!.on('message', async (job: HelperJob) => {
  try {
    await readPdfPages(job, (page, read, ms) => {
      const packed = packPage(read);
      send({ page, read: packed, ms }, transferList(packed));
    });
    send({ done: true });
  } catch (error) {
    send({ done: false, message: error instanceof Error ? error.message : String(error), code: error instanceof ReadFailure ? error.code : undefined });
  }
});
