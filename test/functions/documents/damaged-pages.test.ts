/**
 * No silent loss (issue 23 item 6): a page pdf.js cannot read is read another way (rendered and
 * OCRed), and when that fails too the document is still read, the page listed with its reason.
 * A document none of whose pages reads stays a clear failure.
 */
import { PDFDocument, StandardFonts } from 'pdf-lib';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { failedPages, ReadFailure } from '../../../functions/documents/doc.ts';
import * as pdfjs from '../../../functions/documents/pdfjs.ts';
import { pageContentDamage } from '../../../functions/documents/pdf-probe.ts';
import { readDocument } from '../../../functions/documents/read.ts';
import { pageLine, pdfWithBrokenPages, pdfWithDamagedContent } from '../../support/damaged-pdf.ts';
import { failure } from '../../support/read-failure.ts';

const read = (bytes: Uint8Array) => readDocument(bytes, { kind: 'pdf', dpi: 150, deadline: Date.now() + 60_000 });
const words = (page: { words: { text: string }[] }) => page.words.map((w) => w.text).join(' ');

afterEach(() => vi.restoreAllMocks());

describe('a damaged page', () => {
  it('does not fail the document: the other pages read, the page is listed with its reason', async () => {
    const doc = await read(await pdfWithBrokenPages(3, [2]));
    expect(doc.pages.map(words)).toEqual([pageLine(1), '', '']);
    expect(failedPages(doc)).toEqual([
      { page: 2, reason: 'The page cannot be read (Page dictionary kid reference points to wrong type of object); rendering it for OCR failed the same way' },
      // pdf.js stops counting at the broken page object: the page after it is listed, not lost.
      { page: 3, reason: 'The page cannot be read (the page tree is damaged before it: pdf.js reaches only 2 of the 3 pages it declares)' },
    ]);
    expect(doc.pages.map((p) => p.number)).toEqual([1, 2, 3]);
  });

  it('on a long document read on two threads, every other page reads and each lost one is listed', async () => {
    const doc = await read(await pdfWithBrokenPages(30, [30]));
    expect(doc.pages).toHaveLength(30);
    expect(doc.pages.slice(0, 29).map(words)).toEqual(Array.from({ length: 29 }, (_, i) => pageLine(i + 1)));
    expect(failedPages(doc)).toEqual([{ page: 30, reason: expect.stringMatching(/^The page cannot be read \(Page dictionary kid/) }]);
  });

  it('whose text layer pdf.js throws on is rendered and OCRed instead, and not listed', async () => {
    const pdf = await PDFDocument.create();
    const font = await pdf.embedFont(StandardFonts.Helvetica);
    for (const line of ['Invoice number 4471', 'Total due 1250 euros']) pdf.addPage([500, 200]).drawText(line, { x: 30, y: 100, size: 28, font });
    const bytes = await pdf.save();
    // The prototype of pdf.js's page proxy, from a page of any document.
    const opened = await pdfjs.getDocument({ data: bytes.slice(), worker: pdfjs.sameThreadWorker(), verbosity: 0 }).promise;
    const proto = Object.getPrototypeOf(await opened.getPage(1)) as { getTextContent(this: { pageNumber: number }): Promise<unknown> };
    await opened.destroy();
    const original = proto.getTextContent;
    vi.spyOn(proto, 'getTextContent').mockImplementation(function (this: { pageNumber: number }) {
      if (this.pageNumber === 2) return Promise.reject(new Error('Unknown command in the content stream'));
      return original.call(this);
    });
    const doc = await read(bytes);
    expect(failedPages(doc)).toEqual([]);
    expect(words(doc.pages[0]!)).toBe('Invoice number 4471');
    expect(doc.pages[1]!.ocr).toBe(true);
    expect(words(doc.pages[1]!)).toMatch(/Total due 1250 euros/);
  }, 60_000);

  it('whose content pdf.js reads as blank (a content stream lost or not decompressible) is listed, not passed off as a blank page', async () => {
    const doc = await read(await pdfWithDamagedContent(4, { garbled: [2], lost: [4] }));
    expect(doc.pages.map(words)).toEqual([pageLine(1), '', pageLine(3), '']);
    expect(failedPages(doc)).toEqual([
      // pdf.js throws on this one in the drawing pass (then its picture shows nothing either).
      { page: 2, reason: 'The page cannot be read (Bad uncompressed block length in flate stream); rendered and OCRed instead, it shows no text' },
      { page: 4, reason: 'The page cannot be read (its content stream, object 9999, is missing from the file)' },
    ]);
    // A page that is blank in the file stays an unremarked blank page.
    const blank = await PDFDocument.create();
    blank.addPage([300, 300]);
    const font = await blank.embedFont(StandardFonts.Helvetica);
    blank.addPage([300, 300]).drawText('Appendix', { x: 20, y: 200, size: 14, font });
    blank.addPage([300, 300]).drawRectangle({ x: 10, y: 10, width: 100, height: 1 });
    expect(failedPages(await read(await blank.save()))).toEqual([]);
  }, 60_000);

  it("is told from a blank page by the file's structure when pdf.js reads it blank without a word of complaint", async () => {
    const bytes = await pdfWithDamagedContent(4, { garbled: [2], lost: [4] });
    const damage = pageContentDamage(bytes, [1, 2, 3, 4]);
    expect([...damage.keys()]).toEqual([2, 4]);
    expect(damage.get(2)).toMatch(/^its content stream, object \d+, is damaged: its compressed data cannot be decompressed$/);
    expect(damage.get(4)).toBe('its content stream, object 9999, is missing from the file');
    expect(pageContentDamage(await pdfWithBrokenPages(2, []), [1, 2]).size).toBe(0);
  });

  it('a document none of whose pages reads is still a failure that names why', async () => {
    const one = await failure(read(await pdfWithBrokenPages(1, [1])));
    expect(one).toBeInstanceOf(ReadFailure);
    expect(one.code).toBe('document_invalid');
    expect(one.message).toBe('The PDF is damaged: page 1 cannot be read (Page dictionary kid reference points to wrong type of object); rendering it for OCR failed the same way');
    const all = await failure(read(await pdfWithBrokenPages(3, [1])));
    expect(all.message).toMatch(/^The PDF is damaged: none of its 3 pages can be read \(page 1 cannot be read \(Page dictionary kid/);
  });
});
