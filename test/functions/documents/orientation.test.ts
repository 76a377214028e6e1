/**
 * Turned scans (issue 23): a page scanned sideways or upside down is read upright, and its word boxes
 * stay in the coordinates of the page as the file shows it. Real corpus scans, turned in memory (the
 * full measurement is `npm run bench -- orientation`).
 */
import { PDFDocument, degrees } from 'pdf-lib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Box, GreyImage, Word } from '../../../functions/documents/doc.ts';
import { createOcrPool, type OcrPool, readUpright, recognizeAsIs } from '../../../functions/documents/ocr.ts';
import { type Turn, turnGrey, unturnBox } from '../../../functions/documents/orientation.ts';
import { readDocument } from '../../../functions/documents/read.ts';
import { corpusAvailable, corpusBytes } from '../../support/corpus.ts';
import { corpusImage, tokens, undo, wordF1 } from '../../bench/orientation.ts';

function overlap(a: Box, b: Box): number {
  const width = Math.min(a.left + a.width, b.left + b.width) - Math.max(a.left, b.left);
  const height = Math.min(a.top + a.height, b.top + b.height) - Math.max(a.top, b.top);
  if (width <= 0 || height <= 0) return 0;
  return (width * height) / (a.width * a.height + b.width * b.height - width * height);
}

describe('orientation', () => {
  it('turns images and brings boxes back', () => {
    // A 3×2 image with pixel values 0..5: each turn moves the marked pixel where it should.
    const image: GreyImage = { width: 3, height: 2, data: Uint8Array.from([0, 1, 2, 3, 4, 5]), dpi: 72 };
    expect([...turnGrey(image, 90).data]).toEqual([3, 0, 4, 1, 5, 2]);
    expect([...turnGrey(image, 180).data]).toEqual([5, 4, 3, 2, 1, 0]);
    expect([...turnGrey(image, 270).data]).toEqual([2, 5, 1, 4, 0, 3]);
    // The pixel at (2, 0) (value 2) is at (1, 2) after a quarter turn clockwise: its 1×1 box comes back.
    for (const turn of [90, 180, 270] as Turn[]) {
      const turned = turnGrey(image, turn);
      const at = turned.data.indexOf(2);
      const box = { left: at % turned.width, top: Math.floor(at / turned.width), width: 1, height: 1 };
      expect(unturnBox(box, turn, image)).toEqual({ left: 2, top: 0, width: 1, height: 1 });
    }
  });

  describe.skipIf(!corpusAvailable())('on real scans', () => {
    let pool: OcrPool;
    beforeAll(async () => {
      pool = await createOcrPool({ size: 2 });
    });
    afterAll(async () => {
      await pool.close();
    });

    it('reads turned corpus scans upright (F1 against the upright reading ≥ 0.9), boxes on the page as given', async () => {
      const cases: Array<{ path: string; turn: Turn }> = [
        { path: 'documents/invoice/invoice_sample1.png', turn: 180 },
        { path: 'documents/invoice/invoice_sample1.png', turn: 270 },
        { path: 'documents/receipt/X51005337872.jpg', turn: 90 },
        { path: 'documents/receipt/X51005337872.jpg', turn: 0 },
      ];
      const scores: number[] = [];
      for (const { path, turn } of cases) {
        const upright = await corpusImage(path);
        const reference = await recognizeAsIs(pool, upright);
        const page = turnGrey(upright, turn);
        const read = await readUpright(pool, page);
        expect(read.turn, `${path} turned ${turn}`).toBe(undo(turn));
        const f1 = wordF1(tokens(reference), tokens(read.words));
        scores.push(f1);
        expect(f1, `${path} turned ${turn}`).toBeGreaterThanOrEqual(0.9);
        // Boxes: a word read once only is where the upright page's word lands once turned.
        const once = (words: Word[]) => {
          const count = new Map<string, number>();
          for (const w of words) count.set(w.text, (count.get(w.text) ?? 0) + 1);
          return new Map(words.filter((w) => count.get(w.text) === 1).map((w) => [w.text, w.box!]));
        };
        const before = once(reference);
        const after = once(read.words);
        const overlaps = [...before].filter(([text]) => after.has(text) && text.length >= 4).map(([text, box]) => overlap(unturnBox(box, undo(turn), page), after.get(text)!));
        expect(overlaps.length).toBeGreaterThan(10);
        overlaps.sort((a, b) => a - b);
        expect(overlaps[overlaps.length >> 1]).toBeGreaterThan(0.7);
        for (const w of read.words) {
          expect(w.box!.left + w.box!.width).toBeLessThanOrEqual(page.width + 1);
          expect(w.box!.top + w.box!.height).toBeLessThanOrEqual(page.height + 1);
        }
      }
      console.log(`turned scans, word F1 against the upright reading: ${scores.map((s) => s.toFixed(2)).join(', ')}`);
    }, 180_000);

    it('reads a PDF page whose /Rotate shows its scan sideways, boxes in the page as displayed', async () => {
      const png = corpusBytes('documents/invoice/invoice_sample1.png');
      const pdfOf = async (rotate: number) => {
        const pdf = await PDFDocument.create();
        const image = await pdf.embedPng(png);
        const page = pdf.addPage([image.width, image.height]);
        page.drawImage(image, { x: 0, y: 0, width: image.width, height: image.height });
        page.setRotation(degrees(rotate));
        return { bytes: await pdf.save(), image };
      };
      const readPdfBytes = async (bytes: Uint8Array) => (await readDocument(bytes, { kind: 'pdf', dpi: 192, deadline: Date.now() + 120_000, ocr: async () => pool })).pages[0]!;
      const turned = await pdfOf(90);
      const read = await readPdfBytes(turned.bytes);
      // Displayed turned: the page is as wide as the image is high.
      expect(read.width).toBeCloseTo(turned.image.height, 0);
      // The same scan on a page without /Rotate, read the same way, is the reference.
      const upright = await readPdfBytes((await pdfOf(0)).bytes);
      expect(wordF1(tokens(upright.words), tokens(read.words))).toBeGreaterThanOrEqual(0.9);
      for (const w of read.words) {
        expect(w.box!.left + w.box!.width).toBeLessThanOrEqual(read.width + 1);
        expect(w.box!.top + w.box!.height).toBeLessThanOrEqual(read.height + 1);
      }
    }, 120_000);
  });
});
