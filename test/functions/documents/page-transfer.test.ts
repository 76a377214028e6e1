import { MessageChannel, receiveMessageOnPort } from 'node:worker_threads';
import { describe, expect, it } from 'vitest';
import type { Page } from '../../../functions/documents/doc.ts';
import { packPage, transferList, unpackPage, type TransferablePage } from '../../../functions/documents/page-transfer.ts';
import { readPdf } from '../../../functions/documents/pdf.ts';
import { formPdf, manyPagesPdf } from '../../support/pdf-fixtures.ts';

/** Sends a page across a real message port, as the helper thread does, and rebuilds it. */
function sendAndReceive(page: Page | null): Page | null {
  const { port1, port2 } = new MessageChannel();
  const packed = packPage(page);
  port1.postMessage(packed, transferList(packed));
  const received = receiveMessageOnPort(port2)!.message as TransferablePage;
  port1.close();
  return unpackPage(received);
}

describe('pages between threads', () => {
  it('rebuilds read PDF pages exactly, words packed into one buffer', async () => {
    const pages = [...(await readPdf(await manyPagesPdf(3), { deadline: Date.now() + 30_000 })), ...(await readPdf(await formPdf(), { deadline: Date.now() + 30_000 }))];
    for (const page of pages) {
      const packed = packPage(page);
      expect(packed && 'packed' in packed).toBe(true);
      const received = sendAndReceive(page)!;
      expect(received).toEqual(page);
      // A word's origin box is its own box, as the reader makes them.
      for (const word of received.words) expect(word.origin).toEqual({ kind: 'box', page: page.number, box: word.box });
    }
  });

  it('sends pages whose words have another shape as they are, and a scanned page left for OCR as null', () => {
    const box = { left: 1, top: 2, width: 3, height: 4 };
    const ocrPage: Page = {
      number: 2,
      width: 612,
      height: 792,
      unit: 'pt',
      ocr: true,
      words: [{ text: 'scan', box, origin: { kind: 'box', page: 2, box }, confidence: 91 }],
      lines: [{ text: 'scan', box, words: [0] }],
      blocks: [{ kind: 'paragraph', text: 'scan', box, lines: [0] }],
      tables: [],
      rules: [],
    };
    expect(packPage(ocrPage)).toEqual({ plain: ocrPage });
    expect(sendAndReceive(ocrPage)).toEqual(ocrPage);
    expect(sendAndReceive(null)).toBeNull();
  });
});
