/**
 * Text in the pictures of born-digital pages (functions/documents/pictures.ts, found by pdf.ts):
 * read where a picture holds text the text layer does not print, and only there. A pool that counts
 * OCR readings tells what was read: a photo or a scan with its own text layer costs no reading.
 */
import { createCanvas } from '@napi-rs/canvas';
import { PDFDocument, StandardFonts } from 'pdf-lib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Box, GreyImage, Page } from '../../../functions/documents/doc.ts';
import { createOcrPool, type OcrPool } from '../../../functions/documents/ocr.ts';
import { mayHoldPictures } from '../../../functions/documents/pdf-paths.ts';
import { readDocument, readPdfRange } from '../../../functions/documents/read.ts';
import { corpusAvailable, corpusBytes } from '../../support/corpus.ts';
import { textPdf } from '../../support/text-pdf.ts';
import { textPicture } from '../../support/text-picture.ts';

let shared: OcrPool;
/** OCR readings (whole images or cut-outs) made through the counting pool since the last reset. */
let readings = 0;
const counted = async (): Promise<OcrPool> => ({
  ...shared,
  recognize: (image: GreyImage, options?: { block?: boolean }) => {
    readings++;
    return shared.recognize(image, options);
  },
  readPage: undefined,
  readSecond: undefined,
  detectOrientation: shared.detectOrientation?.bind(shared),
  close: () => shared.close(),
});

beforeAll(async () => {
  shared = await createOcrPool({ size: 2, reader: 'tesseract' });
});
afterAll(async () => {
  await shared.close();
});

const budget = () => Date.now() + 120_000;

function text(page: Page): string[] {
  return page.words.map((w) => w.text);
}

function inside(inner: Box, outer: Box, slack = 2): boolean {
  return inner.left >= outer.left - slack && inner.top >= outer.top - slack && inner.left + inner.width <= outer.left + outer.width + slack && inner.top + inner.height <= outer.top + outer.height + slack;
}

/** A picture of printed words, `width` × `height` pixels, black on a light grey card. */
function wordsPicture(lines: string[], width: number, height: number): Buffer {
  const canvas = createCanvas(width, height);
  const context = canvas.getContext('2d');
  context.fillStyle = '#eeeeee';
  context.fillRect(0, 0, width, height);
  context.fillStyle = '#000000';
  context.font = '40px sans-serif';
  lines.forEach((line, i) => context.fillText(line, 30, 70 + i * 70));
  return canvas.toBuffer('image/png');
}

/** A Letter page with a line of text and a picture placed at `at` (points, top-left origin). */
async function pageWithPicture(picture: Buffer, at: Box): Promise<Uint8Array> {
  const pdf = await PDFDocument.create();
  const page = pdf.addPage([612, 792]);
  const font = await pdf.embedFont(StandardFonts.Helvetica);
  page.drawText('Sales report for the board', { x: 72, y: 740, size: 14, font });
  const image = await pdf.embedPng(picture);
  page.drawImage(image, { x: at.left, y: 792 - at.top - at.height, width: at.width, height: at.height });
  return pdf.save();
}

describe('text in pictures', () => {
  it('reads the words a picture prints, each boxed where it lands on the page', async () => {
    const at = { left: 100, top: 200, width: 300, height: 120 };
    const bytes = await pageWithPicture(wordsPicture(['Quarterly revenue', 'Widgets 1250 units'], 750, 300), at);
    expect(mayHoldPictures(bytes, 16)).toBe(true);
    readings = 0;
    const { pages } = await readDocument(bytes, { kind: 'pdf', dpi: 300, deadline: budget(), ocr: counted });
    const page = pages[0]!;
    expect(readings).toBeGreaterThan(0);
    for (const word of ['Sales', 'report', 'board']) expect(text(page)).toContain(word);
    for (const word of ['Quarterly', 'revenue', 'Widgets', '1250', 'units']) {
      const found = page.words.find((w) => w.text === word);
      expect(found, word).toBeDefined();
      expect(inside(found!.box!, at), `${word} at ${JSON.stringify(found!.box)}`).toBe(true);
      expect(found!.origin).toEqual({ kind: 'box', page: 1, box: found!.box });
    }
    // Lines in the picture's order: "Quarterly revenue" above "Widgets ...".
    const quarterly = page.words.find((w) => w.text === 'Quarterly')!.box!;
    const widgets = page.words.find((w) => w.text === 'Widgets')!.box!;
    expect(quarterly.top + quarterly.height).toBeLessThanOrEqual(widgets.top);
    expect(page.blocks.map((b) => b.text).join('\n')).toMatch(/Quarterly revenue/);
  });

  it('reads print of two sizes in one reading: a title five times the size of the line under it', async () => {
    // A picture of 1500 × 600 pixels drawn 375 points wide (288 dpi): a 110 px title over a line of
    // 20 px print (5 pt on the page). The part holding both is read once, scaled for its smaller print
    // (./pictures.ts readLines), and each word is boxed where it is drawn.
    const picture = textPicture(1500, 600, [
      { text: 'HARVEST', size: 110, x: 40, y: 150 },
      { text: 'Wheat tonnes per hectare by region 2024', size: 20, x: 40, y: 420 },
    ]);
    const at = { left: 100, top: 200, width: 375, height: 150 };
    readings = 0;
    const { pages } = await readDocument(await pageWithPicture(picture, at), { kind: 'pdf', dpi: 300, deadline: budget(), ocr: counted });
    expect(readings).toBe(1);
    const words = pages[0]!.words.filter((w) => w.confidence !== undefined);
    for (const word of ['HARVEST', 'Wheat', 'tonnes', 'hectare', 'region', '2024']) {
      const found = words.find((w) => w.text === word);
      expect(found, word).toBeDefined();
      expect(inside(found!.box!, at), `${word} at ${JSON.stringify(found!.box)}`).toBe(true);
    }
    // The title's box is where it is drawn: 110 px of 600 is about 27 points of the picture's 150.
    const title = words.find((w) => w.text === 'HARVEST')!.box!;
    expect(title.height).toBeGreaterThan(15);
    expect(title.height).toBeLessThan(35);
  });

  it('looks for no picture in a document that has none', async () => {
    const bytes = await textPdf([['An ordinary letter of plain text.']]);
    expect(mayHoldPictures(bytes, 16)).toBe(false);
  });
});

describe.skipIf(!corpusAvailable())('text in the pictures of corpus pages', () => {
  it("reads a report's chart: its title, its categories and its legend", async () => {
    // documents/report/chelsea_pdta.pdf page 32: two charts drawn as pictures; the words below were
    // read by eye from the page rendered by pdftoppm.
    readings = 0;
    const [{ page }] = await readPdfRange(corpusBytes('documents/report/chelsea_pdta.pdf'), { dpi: 300, deadline: budget(), ocr: counted, pages: { first: 32, last: 32 } });
    expect(readings).toBeGreaterThan(0);
    const words = text(page);
    for (const word of ['répondants', 'selon', 'sexe', '1940-1949', '1950-1959', '1960-1969', '1970-1979', '1980-1989', 'INCONNU']) expect(words, word).toContain(word);
    // Every word kept was read surely: the legend ("■ Femme ■ Homme", its squares glued to the words)
    // reads at 0–25 and is left out rather than given as garbage.
    expect(page.words.filter((w) => w.confidence !== undefined).every((w) => w.confidence! >= 50)).toBe(true);
  }, 120_000);

  it('spends no OCR reading on photos that hold no text', async () => {
    // documents/report/CenterOfWhy.pdf page 7: five photos (a glassblower, glasses, a portrait, a
    // silicon wafer, a frog) beside the text, none printing a word (seen on the rendered page).
    readings = 0;
    const [{ page }] = await readPdfRange(corpusBytes('documents/report/CenterOfWhy.pdf'), { dpi: 300, deadline: budget(), ocr: counted, pages: { first: 7, last: 7 } });
    expect(readings).toBe(0);
    expect(page.words.length).toBeGreaterThan(300);
    expect(page.words.every((w) => w.confidence === undefined)).toBe(true);
  }, 120_000);

  it('reads no line again that a scan\'s own text layer already prints', async () => {
    // documents/letter/pdf-with-ocr-text.pdf: one page, a typed letter scanned, with an invisible OCR
    // text layer over it. Only what that layer lacks is looked at: two handwritten marks in the top
    // right corner, one cut-out holding them (read at most twice, the second time enlarged), where
    // OCR finds no word. The page's words are the text layer's.
    readings = 0;
    const { pages } = await readDocument(corpusBytes('documents/letter/pdf-with-ocr-text.pdf'), { kind: 'pdf', dpi: 300, deadline: budget(), ocr: counted });
    expect(readings).toBeLessThanOrEqual(2);
    expect(pages[0]!.words.length).toBeGreaterThan(150);
    expect(pages[0]!.words.every((w) => w.confidence === undefined)).toBe(true);
  }, 120_000);

  it('reads a picture printed on every page once: an invoice whose printed form is a picture', async () => {
    // documents/invoice/factura5.pdf: three pages, each over the same picture of the seller's printed
    // form (name, address, tax numbers); the text layer holds only the invoice's data.
    const bytes = corpusBytes('documents/invoice/factura5.pdf');
    readings = 0;
    await readPdfRange(bytes, { dpi: 300, deadline: budget(), ocr: counted, pages: { first: 1, last: 1 } });
    const onePage = readings;
    readings = 0;
    const { pages } = await readDocument(bytes, { kind: 'pdf', dpi: 300, deadline: budget(), ocr: counted });
    expect(readings).toBe(onePage);
    expect(pages).toHaveLength(3);
    for (const page of pages) {
      const words = text(page);
      for (const word of ['FORTIN', 'FIERROS', 'FACTURA']) expect(words, `page ${page.number}: ${word}`).toContain(word);
      // The invoice's type letter, a lone "A" in a box beside the seller's name, is a mark, not a line of text.
      expect(page.words.filter((w) => w.confidence !== undefined && w.text === 'A')).toEqual([]);
    }
  }, 120_000);
});
