import fc from 'fast-check';
import { PDFDocument, StandardFonts } from 'pdf-lib';
import { describe, expect, it } from 'vitest';
import * as pdfjs from '../../../functions/documents/pdfjs.ts';
import { mayPaintPaths } from '../../../functions/documents/pdf-paths.ts';
import type { Page } from '../../../functions/documents/doc.ts';
import { readPdf, readPdfPages, unreadPages } from '../../../functions/documents/pdf.ts';
import {
  encryptedPdf,
  formPdf,
  listsPdf,
  manyPagesPdf,
  pdfOfObjects,
  rotatedPdf,
  ruledPdf,
  runningHeadsPdf,
  scannedPdf,
  threeColumnPdf,
  twoColumnPdf,
} from '../../support/pdf-fixtures.ts';

/** A one-page PDF written by hand with an uncompressed content stream. */
function handWritten(content: string): Uint8Array {
  const objects = [
    '<< /Type /Catalog /Pages 2 0 R >>',
    '<< /Type /Pages /Kids [3 0 R] /Count 1 >>',
    '<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] /Resources << /Font << /F1 5 0 R >> >> /Contents 4 0 R >>',
    `<< /Length ${content.length} >>\nstream\n${content}\nendstream`,
    '<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica >>',
  ];
  return pdfOfObjects(objects);
}

/** Whether pdf.js finds any stroked or filled path on any page: the ground truth the scan must never miss. */
async function pdfjsPaintsPaths(bytes: Uint8Array): Promise<boolean> {
  const pdf = await pdfjs.getDocument({ data: new Uint8Array(bytes), useSystemFonts: false, disableFontFace: true, isEvalSupported: false, verbosity: 0 }).promise;
  try {
    for (let n = 1; n <= pdf.numPages; n++) {
      const list = await (await pdf.getPage(n)).getOperatorList({ annotationMode: pdfjs.AnnotationMode.DISABLE });
      if (list.fnArray.includes(pdfjs.OPS.constructPath)) return true;
    }
    return false;
  } finally {
    await pdf.destroy();
  }
}

describe('mayPaintPaths', () => {
  it('answers false for text-only documents (pdf-lib, compressed object and content streams)', async () => {
    expect(mayPaintPaths(await manyPagesPdf(3))).toBe(false);
    expect(mayPaintPaths((await twoColumnPdf()).bytes)).toBe(false);
    expect(mayPaintPaths(handWritten('BT /F1 12 Tf 72 700 Td (Only words, no lines) Tj ET'))).toBe(false);
  });

  it('finds stroked lines, thin filled bars and rectangles, compressed or not', async () => {
    expect(mayPaintPaths(await ruledPdf())).toBe(true);
    expect(mayPaintPaths(handWritten('BT /F1 12 Tf 72 700 Td (Total) Tj ET\n72 690 m 300 690 l S'))).toBe(true);
    expect(mayPaintPaths(handWritten('72 500 200 0.5 re f'))).toBe(true);
    expect(mayPaintPaths(handWritten('q 1 0 0 1 10 10 cm 0 0 100 50 re\nS Q'))).toBe(true);
  });

  it('answers true when it cannot be sure: encryption, other filters, predictors, a stream cut short, a bad Flate stream', () => {
    expect(mayPaintPaths(encryptedPdf())).toBe(true);
    const withDictionary = (dictionary: string, data: string) => new TextEncoder().encode(`%PDF-1.4\n1 0 obj\n${dictionary}\nstream\n${data}\nendstream\nendobj\n`);
    expect(mayPaintPaths(withDictionary('<< /Length 5 /Filter /LZWDecode >>', 'abcde'))).toBe(true);
    expect(mayPaintPaths(withDictionary('<< /Length 5 /Filter [/ASCII85Decode /FlateDecode] >>', 'abcde'))).toBe(true);
    expect(mayPaintPaths(withDictionary('<< /Length 5 /Filter /FlateDecode /DecodeParms << /Predictor 12 >> >>', 'abcde'))).toBe(true);
    expect(mayPaintPaths(withDictionary('<< /Length 5 /Filter /FlateDecode >>', 'not zlib'))).toBe(true);
    expect(mayPaintPaths(new TextEncoder().encode('%PDF-1.4\n1 0 obj\n<< /Length 99 >>\nstream\n0 0 m 1 1 l S'))).toBe(true);
  });

  it('stays linear on a crafted file whose stream dictionaries nest over each other (gives up: may paint)', () => {
    // Each `>>stream` closes one of 400 open dictionaries: finding each dictionary walks back over all
    // the earlier ones. Unbounded, this 4 MB file took ~2 s (a 500 MB one would take minutes).
    const block = '<<'.repeat(400) + '>>stream\nendstream\n'.repeat(400);
    const bytes = new TextEncoder().encode('%PDF-1.4\n' + block.repeat(480));
    const started = performance.now();
    expect(mayPaintPaths(bytes)).toBe(true);
    expect(performance.now() - started).toBeLessThan(1_000);
  });

  it('never throws on any mix of PDF tokens and junk bytes', () => {
    const token = fc.oneof(
      fc.constantFrom('<<', '>>', 'stream\n', 'stream\r\n', 'endstream', '/Filter /FlateDecode', '/Filter [/FlateDecode]', '/Length 5', '/DecodeParms', '0 0 m 1 1 l', ' S ', ' f\n', '\n', ' '),
      fc.uint8Array({ maxLength: 16 }).map((bytes) => Buffer.from(bytes).toString('latin1')),
    );
    fc.assert(
      fc.property(fc.array(token, { maxLength: 60 }), (tokens) => {
        expect(typeof mayPaintPaths(Buffer.from(tokens.join(''), 'latin1'))).toBe('boolean');
      }),
      { numRuns: 500 },
    );
  });

  it('skips images and fonts (their bytes are not drawing operators) and survives junk', async () => {
    // The scanned fixture embeds a PNG image stream; its pages paint no path.
    expect(mayPaintPaths(await scannedPdf())).toBe(false);
    expect(mayPaintPaths(new Uint8Array(0))).toBe(false);
    expect(mayPaintPaths(new TextEncoder().encode('stream endstream >> stream <<'))).toBe(false);
  });

  it('never answers false for a document in which pdf.js finds a path', async () => {
    const withTable = await PDFDocument.create();
    const font = await withTable.embedFont(StandardFonts.Helvetica);
    const page = withTable.addPage([612, 792]);
    page.drawText('Item  Qty', { x: 72, y: 700, size: 12, font });
    page.drawLine({ start: { x: 72, y: 695 }, end: { x: 300, y: 695 }, thickness: 0.5 });
    const corpus = [
      await ruledPdf(),
      await formPdf(),
      await scannedPdf(),
      await listsPdf(),
      await runningHeadsPdf(3),
      (await rotatedPdf()).bytes,
      (await twoColumnPdf({ watermark: true })).bytes,
      (await threeColumnPdf()).bytes,
      await manyPagesPdf(2),
      await withTable.save(),
      await withTable.save({ useObjectStreams: false }),
    ];
    for (const bytes of corpus) {
      if (await pdfjsPaintsPaths(bytes)) expect(mayPaintPaths(bytes)).toBe(true);
    }
  });
});

describe('the reader with and without the drawing pass', () => {
  it('keeps the ruling lines of a document that paints paths', async () => {
    const pages = await readPdf(await ruledPdf(), { deadline: Date.now() + 30_000 });
    expect(pages[0]!.rules!.length).toBeGreaterThanOrEqual(4);
  });

  it('still tells a scanned page by its image when the document paints no path', async () => {
    // As the helper thread reads: a scanned page comes back as null. Page 3 has a stamped "17" on
    // its page-sized image: only the image coverage (the drawing pass) makes it a scan.
    const bytes = await scannedPdf();
    expect(mayPaintPaths(bytes)).toBe(false);
    const pages: Array<Page | null> = [];
    await readPdfPages({ bytes, unread: unreadPages(1, 3), deadline: Date.now() + 30_000 }, (n, page) => (pages[n - 1] = page));
    expect(pages.map((p) => p !== null)).toEqual([false, true, false]);
  });
});
