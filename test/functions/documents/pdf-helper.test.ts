/**
 * A long PDF read on two threads (functions/documents/pdf-helper.ts): the calling thread and the
 * helper take pages one at a time from the two ends, the helper sends each page back as it is read,
 * and scanned pages it finds are recognized on the calling thread. Real threads, real pdf.js.
 */
import { execFileSync } from 'node:child_process';
import { join } from 'node:path';
import { PDFDocument } from 'pdf-lib';
import { afterEach, describe, expect, it } from 'vitest';
import { type GreyImage, type Page, ReadFailure, type Word } from '../../../functions/documents/doc.ts';
import { LAST_PAGE_UNKNOWN, MAX_BYTES_TO_OPEN_TOGETHER, readPdf, readPdfPages, unreadPages } from '../../../functions/documents/pdf.ts';
import { documentsSharedWithHelper, pagesReadByHelper, pdfHelperBusy, pdfHelperRunning } from '../../../functions/documents/pdf-helper.ts';
import { REPO_ROOT } from '../../../lib/local/invoker.ts';
import { manyPagesPdf, scannedPdf } from '../../support/pdf-fixtures.ts';
import { textPicture } from '../../support/text-picture.ts';

const budget = () => ({ deadline: Date.now() + 60_000 });

afterEach(() => {
  delete process.env.QUIRE_PDF_HELPER;
});

async function oneThread<T>(read: () => Promise<T>): Promise<T> {
  process.env.QUIRE_PDF_HELPER = '0';
  try {
    return await read();
  } finally {
    delete process.env.QUIRE_PDF_HELPER;
  }
}

/** `pages` of prose with scanned pages (image only, no text layer) at the given 1-based positions. */
async function proseWithScans(pages: number, scansAt: number[]): Promise<Uint8Array> {
  const prose = await PDFDocument.load(await manyPagesPdf(pages - scansAt.length));
  const scans = await PDFDocument.load(await scannedPdf());
  const doc = await PDFDocument.create();
  let next = 0;
  for (let n = 1; n <= pages; n++) {
    const [page] = scansAt.includes(n) ? await doc.copyPages(scans, [0]) : await doc.copyPages(prose, [next++]);
    doc.addPage(page);
  }
  return doc.save();
}

/** OCR hooks that "recognize" one word naming the page, so a test sees which pages went through OCR. */
function namingOcr(recognizedOn: number[]) {
  return {
    rasterize: async (): Promise<GreyImage> => ({ width: 10, height: 10, data: new Uint8Array(100).fill(255), dpi: 72 }),
    recognize: async (_image: GreyImage, pageNumber: number): Promise<Word[]> => {
      recognizedOn.push(pageNumber);
      const box = { left: 72, top: 72, width: 100, height: 12 };
      return [{ text: `scanned-page-${pageNumber}`, box, origin: { kind: 'box', page: pageNumber, box } }];
    },
    concurrency: 2,
  };
}

/** A long PDF of prose whose pages `picturesAt` also show a picture (one with words in it, drawn by canvas). */
async function proseWithPictures(pages: number, picturesAt: number[]): Promise<Uint8Array> {
  const doc = await PDFDocument.load(await manyPagesPdf(pages));
  const picture = await doc.embedPng(textPicture(600, 200, [{ text: 'Figure words', size: 48, x: 40, y: 120 }]));
  for (const n of picturesAt) doc.getPage(n - 1).drawImage(picture, { x: 72, y: 72, width: 300, height: 100 });
  return doc.save();
}

const texts = (pages: Page[]) => pages.map((page) => page.blocks.map((block) => block.text).join('\n'));

describe('a long PDF read on two threads', () => {
  it('gives the same pages as one thread, in page order', async () => {
    const bytes = await manyPagesPdf(40);
    // The first read starts the helper; the second finds it warm and shares the pages with it.
    await readPdf(bytes, budget());
    expect(pdfHelperRunning()).toBe(true);
    const before = pagesReadByHelper();
    const together = await readPdf(bytes, budget());
    const byHelper = pagesReadByHelper() - before;
    // How many it takes depends on how busy the machine is (4 of 40 seen on a loaded 2-core run): some.
    expect(byHelper).toBeGreaterThan(0);
    expect(byHelper).toBeLessThan(40);
    const alone = await oneThread(() => readPdf(bytes, budget()));
    expect(together.map((page) => page.number)).toEqual(Array.from({ length: 40 }, (_, i) => i + 1));
    expect(together).toEqual(alone);
    expect(together[39]!.blocks[0]).toMatchObject({ kind: 'heading', text: 'Section 40' });
  });

  it('tells how many pages are read as they are read, by either thread: one more each time, up to all', async () => {
    const told: Array<[number, number]> = [];
    const pages = await readPdf(await manyPagesPdf(40), { ...budget(), progress: (done, total) => told.push([done, total]) });
    expect(pages).toHaveLength(40);
    expect(told.at(-1)).toEqual([40, 40]);
    expect(told.every(([, total]) => total === 40)).toBe(true);
    // (A page the helper sends before this thread knows the count is counted, not told.)
    for (let i = 1; i < told.length; i++) expect(told[i]![0]).toBe(told[i - 1]![0] + 1);
  });

  it("lets the calling thread's timers fire while it reads (a run's look at whether it is still wanted, its progress)", async () => {
    const bytes = await manyPagesPdf(400);
    let ticks = 0;
    const timer = setInterval(() => ticks++, 10);
    try {
      await readPdf(bytes, budget());
    } finally {
      clearInterval(timer);
    }
    // (pdf.js answers through promises alone: without turns of the event loop, no timer fires until the end.)
    expect(ticks).toBeGreaterThan(1);
  });

  it('reads a short document on the calling thread alone: the running helper, which opens it before the count is known, takes no page', async () => {
    const bytes = await manyPagesPdf(6);
    await readPdf(bytes, budget());
    const before = pagesReadByHelper();
    const pages = await readPdf(bytes, budget());
    expect(pagesReadByHelper()).toBe(before);
    expect(pages).toEqual(await oneThread(() => readPdf(bytes, budget())));
    expect(pages.map((page) => page.number)).toEqual([1, 2, 3, 4, 5, 6]);
  });

  it('shares a long document bigger than MAX_BYTES_TO_OPEN_TOGETHER once it knows it is long', async () => {
    // 20 pages of prose and a stream of filler no page uses, so the file is over the bound.
    const doc = await PDFDocument.load(await manyPagesPdf(20));
    doc.context.register(doc.context.stream(new Uint8Array(MAX_BYTES_TO_OPEN_TOGETHER + 1024).fill(0x20)));
    const bytes = await doc.save();
    expect(bytes.byteLength).toBeGreaterThan(MAX_BYTES_TO_OPEN_TOGETHER);
    // The previous test's short read does not wait for the helper to let its document go.
    for (const until = Date.now() + 10_000; pdfHelperBusy() && Date.now() < until; ) await new Promise((r) => setTimeout(r, 20));
    const before = documentsSharedWithHelper();
    const pages = await readPdf(bytes, budget());
    // Handed to the helper (whether it reads a page before this thread has read them all depends on
    // the machine's load: on a busy one this thread may take all twenty).
    expect(documentsSharedWithHelper()).toBe(before + 1);
    expect(pages.map((page) => page.number)).toEqual(Array.from({ length: 20 }, (_, i) => i + 1));
    expect(pages[19]!.blocks[0]).toMatchObject({ kind: 'heading', text: 'Section 20' });
  });

  it('starts no helper thread for short documents, and one for the first long document (in a fresh process)', () => {
    const script = `
      const { readPdf } = await import(${JSON.stringify(join(REPO_ROOT, 'functions/documents/pdf.ts'))});
      const { pdfHelperRunning } = await import(${JSON.stringify(join(REPO_ROOT, 'functions/documents/pdf-helper.ts'))});
      const { manyPagesPdf } = await import(${JSON.stringify(join(REPO_ROOT, 'test/support/pdf-fixtures.ts'))});
      const running = [];
      for (const pages of [1, 6, 20]) {
        await readPdf(await manyPagesPdf(pages), { deadline: Date.now() + 60000 });
        running.push(pdfHelperRunning());
      }
      console.log(JSON.stringify(running));
    `;
    const out = execFileSync('node', ['--import', 'tsx', '--input-type=module', '-e', script], { cwd: REPO_ROOT, encoding: 'utf8' });
    expect(JSON.parse(out.trim().split('\n').pop()!)).toEqual([false, false, true]);
  });

  it('has the first thread to open the document set the last page to take: all of a long one, none of a short one', async () => {
    for (const [count, taken] of [
      [20, 20],
      [6, 0],
    ] as const) {
      const read: number[] = [];
      await readPdfPages({ bytes: await manyPagesPdf(count), unread: unreadPages(1, LAST_PAGE_UNKNOWN), deadline: Date.now() + 30_000 }, (n) => read.push(n));
      expect(read.sort((a, b) => a - b)).toEqual(Array.from({ length: taken }, (_, i) => i + 1));
    }
  });

  it('recognizes on the calling thread the scanned pages the helper finds', async () => {
    // The helper takes pages from the back: it meets pages 40 and 39 first, this thread page 1.
    const bytes = await proseWithScans(40, [1, 20, 39, 40]);
    const recognizedOn: number[] = [];
    const before = pagesReadByHelper();
    const pages = await readPdf(bytes, { ...budget(), ocr: namingOcr(recognizedOn) });
    expect(pagesReadByHelper()).toBeGreaterThan(before);
    expect(recognizedOn.sort((a, b) => a - b)).toEqual([1, 20, 39, 40]);
    for (const n of [1, 20, 39, 40]) {
      expect(pages[n - 1]).toMatchObject({ number: n, ocr: true });
      expect(texts(pages)[n - 1]).toBe(`scanned-page-${n}`);
    }
    expect(pages.filter((page) => !page.ocr)).toHaveLength(36);
    expect(texts(pages)[1]).toMatch(/^Section 1\n/);
  });

  it('reads on the calling thread the pictures the helper finds, and times every page once', async () => {
    const bytes = await proseWithPictures(40, [1, 20, 39, 40]);
    const readOn: number[] = [];
    const timed = new Map<number, string>();
    const before = pagesReadByHelper();
    const ocr = {
      ...namingOcr([]),
      readPictures: async (pictures: unknown[], _text: unknown[], pageNumber: number): Promise<Word[]> => {
        readOn.push(pageNumber);
        expect(pictures).toHaveLength(1);
        const box = { left: 80, top: 640, width: 120, height: 14 };
        return [{ text: `picture-on-${pageNumber}`, box, origin: { kind: 'box', page: pageNumber, box }, confidence: 90 }];
      },
    };
    const pages = await readPdf(bytes, { ...budget(), ocr, pageRead: (n, ms, how) => {
      expect(timed.has(n), `page ${n} timed twice`).toBe(false);
      expect(ms).toBeGreaterThanOrEqual(0);
      timed.set(n, how);
    } });
    expect(pagesReadByHelper()).toBeGreaterThan(before);
    expect(readOn.sort((a, b) => a - b)).toEqual([1, 20, 39, 40]);
    for (const n of [1, 20, 39, 40]) {
      expect(pages[n - 1]!.words.map((w) => w.text)).toContain(`picture-on-${n}`);
      expect(timed.get(n)).toBe('pictures');
    }
    expect(timed.size).toBe(40);
    expect([...timed.values()].filter((how) => how === 'text')).toHaveLength(36);
  });

  it('stops both threads at the deadline, and the helper takes the next document', async () => {
    const bytes = await manyPagesPdf(300);
    let error: unknown;
    try {
      await readPdf(bytes, { deadline: Date.now() + 150 });
    } catch (caught) {
      error = caught;
    }
    expect(error).toBeInstanceOf(ReadFailure);
    expect((error as ReadFailure).code).toBe('timeout');
    // The helper finishes the pages it had started, then is free: a later read is whole.
    const next = await readPdf(await manyPagesPdf(20), budget());
    expect(next.map((page) => page.number)).toEqual(Array.from({ length: 20 }, (_, i) => i + 1));
  });
});
