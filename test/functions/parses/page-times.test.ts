/**
 * A parse's per-page time in its log (issue "Parsing at scale", item 1): the run logs one line once
 * its document is read, pages and time by how they were read (text layer, the text of pictures, OCR
 * of a scan) and its slowest pages. Through the real local stack, tasks run in this process.
 */
import { PDFDocument, StandardFonts } from 'pdf-lib';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { logger } from '../../../functions/platform/logger.ts';
import { dataUrl, startTestCloud, type TestCloud } from '../../support/cloud.ts';
import { textPicture } from '../../support/text-picture.ts';

let cloud: TestCloud;
beforeAll(async () => {
  cloud = await startTestCloud();
});
afterAll(() => cloud?.close());

/** Three pages of text, the second also showing a picture of printed words. */
async function pdfWithPicture(): Promise<Buffer> {
  const pdf = await PDFDocument.create();
  const font = await pdf.embedFont(StandardFonts.Helvetica);
  const picture = await pdf.embedPng(textPicture(600, 200, [{ text: 'Quarterly revenue', size: 48, x: 40, y: 120 }]));
  for (let n = 1; n <= 3; n++) {
    const page = pdf.addPage([612, 792]);
    page.drawText(`Page ${n} of the quarterly report to the board, in plain text.`, { x: 72, y: 720, size: 12, font });
    if (n === 2) page.drawImage(picture, { x: 72, y: 400, width: 300, height: 100 });
  }
  return Buffer.from(await pdf.save());
}

describe('per-page time in the log', () => {
  it('logs each read once: pages and time by how they were read, the slowest pages named', async () => {
    const info = vi.spyOn(logger, 'info');
    try {
      const r = await cloud.api('POST', '/v1/parses', { body: { document: { filename: 'report.pdf', url: dataUrl('application/pdf', await pdfWithPicture()) }, bust_cache: true } });
      expect(r.status).toBe(201);
      expect(r.body.status).toBe('completed');
      expect(JSON.stringify(r.body.output.pages[1])).toMatch(/Quarterly revenue/);
      const lines = info.mock.calls.filter(([message]) => message === 'Document read');
      expect(lines).toHaveLength(1);
      const logged = lines[0]![1] as { run: string; pages: number; by_reading: Record<string, { pages: number; ms: number }>; slowest_pages: Array<{ page: number; ms: number; how: string }> };
      expect(logged.run).toBe(r.body.id);
      expect(logged.pages).toBe(3);
      expect(logged.by_reading.text!.pages).toBe(2);
      expect(logged.by_reading.pictures!.pages).toBe(1);
      expect(logged.by_reading.ocr).toBeUndefined();
      expect(logged.slowest_pages.map((p) => p.page).sort()).toEqual([1, 2, 3]);
      expect(logged.slowest_pages.find((p) => p.page === 2)!.how).toBe('pictures');
      for (const page of logged.slowest_pages) expect(page.ms).toBeGreaterThanOrEqual(0);
    } finally {
      info.mockRestore();
    }
  }, 120_000);
});
