/**
 * Long work yields (issue 45): reading a long PDF stops between pages once its run is no longer
 * wanted or its time budget is spent, so a cancelled run does not hold its task container (the
 * local runtime runs few tasks at once) for the rest of a long scan.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { PDFDocument } from 'pdf-lib';
import { describe, expect, it } from 'vitest';
import type { GreyImage } from '../../functions/documents/doc.ts';
import { readPdf } from '../../functions/documents/pdf.ts';
import { greyToPng, renderScan } from '../support/scan-fixtures.ts';
import { Server } from './background-load.ts';

/** `pages` scanned pages (a page-sized image each, no text layer), the same scan on each. */
async function scannedPages(pages: number): Promise<Uint8Array> {
  const doc = await PDFDocument.create();
  const image = await doc.embedPng(greyToPng(renderScan({ dpi: 150 }).image));
  for (let i = 0; i < pages; i++) doc.addPage([612, 792]).drawImage(image, { x: 0, y: 0, width: 612, height: 792 });
  return doc.save();
}

/** OCR hooks that recognize nothing, after `ms`; `seen` counts the pages that got to them. */
function slowOcr(ms: number, onPage: (n: number) => void = () => undefined) {
  const seen: number[] = [];
  const blank: GreyImage = { width: 1, height: 1, data: new Uint8Array([255]), dpi: 72 };
  return {
    seen,
    ocr: {
      rasterize: async () => blank,
      recognize: async (_image: GreyImage, n: number) => {
        seen.push(n);
        onPage(n);
        await new Promise((resolve) => setTimeout(resolve, ms));
        return [];
      },
      concurrency: 1,
    },
  };
}

describe('reading a long PDF', () => {
  it('stops between pages once its run is no longer wanted', async () => {
    const bytes = await scannedPages(12);
    const unwanted = new AbortController();
    const reason = new Error('The run was cancelled');
    // Cancelled while its second page is read.
    const { seen, ocr } = slowOcr(50, (n) => n === 2 && unwanted.abort(reason));
    await expect(readPdf(bytes, { deadline: Date.now() + 60_000, signal: unwanted.signal, ocr })).rejects.toBe(reason);
    expect(seen.length).toBeLessThanOrEqual(3);
  });

  it('stops between pages once its time budget is spent', async () => {
    const bytes = await scannedPages(12);
    const { seen, ocr } = slowOcr(300);
    await expect(readPdf(bytes, { deadline: Date.now() + 1_000, ocr })).rejects.toMatchObject({ code: 'timeout', message: expect.stringMatching(/stopped at page \d+ of 12/) });
    expect(seen.length).toBeLessThan(12);
  });
});

it('a cancelled long scan frees its task container within seconds, for the next run', async () => {
  const dataDir = mkdtempSync(join(tmpdir(), 'quire-long-read-'));
  // One task container, so the next run can only start once the cancelled one has let go of it.
  const server = new Server(dataDir, { QUIRE_TASK_WORKERS: '1' });
  try {
    await server.start();
    const scan = Buffer.from(await scannedPages(100));
    const file = await server.call('POST', '/v1/files', { document: { filename: 'scan.pdf', url: `data:application/pdf;base64,${scan.toString('base64')}` } }, 60_000);
    expect(file.status).toBe(201);
    const long = await server.call('POST', '/v1/parses', { document: { id: file.body.id }, background: true, bust_cache: true });
    const next = await server.call('POST', '/v1/parses', { document: { filename: 'next.txt', url: `data:text/plain;base64,${Buffer.from('The next run').toString('base64')}` }, background: true });
    const status = async (id: string) => (await server.call('GET', `/v1/parses/${id}?include_output=false`)).body.status as string;
    // The scan is being read (100 pages of OCR take a minute or more) while the next run waits.
    for (let deadline = Date.now() + 60_000; (await status(long.body.id)) !== 'in_progress'; ) {
      if (Date.now() > deadline) throw new Error('the long run never started');
      await new Promise((resolve) => setTimeout(resolve, 200));
    }
    await new Promise((resolve) => setTimeout(resolve, 1_000));
    expect(await status(next.body.id)).toBe('queued');

    const cancelled = await server.call('POST', `/v1/parses/${long.body.id}/cancel`);
    expect(cancelled.status).toBe(200);
    const cancelledAt = Date.now();
    while ((await status(next.body.id)) === 'queued') {
      if (Date.now() - cancelledAt > 60_000) throw new Error('the next run did not start within a minute of the cancel');
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
    const freedAfterMs = Date.now() - cancelledAt;
    console.log(`the next run started ${freedAfterMs} ms after the cancel`);
    // Reading stops once the run is seen cancelled (it is asked every second), not after the scan.
    expect(freedAfterMs).toBeLessThan(20_000);
    expect(await status(long.body.id)).toBe('cancelled');
  } finally {
    await server.stop('SIGKILL');
    rmSync(dataDir, { recursive: true, force: true });
  }
}, 120_000);
