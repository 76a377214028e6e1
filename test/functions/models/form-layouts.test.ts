/**
 * Reading a standard form by the place of its boxes (functions/models/local/form-layouts.ts): the
 * UB-04's captions found on a page printed at another size and margin, its boxes read where the fit
 * puts them, and no form found where the captions are not where the form prints them. (Real UB-04
 * claims of the corpus are read in corpus-accuracy.test.ts.)
 */
import { PDFDocument, StandardFonts } from 'pdf-lib';
import { describe, expect, it } from 'vitest';
import { readDocument } from '../../../functions/documents/read.ts';
import { indexDoc } from '../../../functions/models/local/extract-index.ts';
import { formBoxValues } from '../../../functions/models/local/form-layouts.ts';
import { FORM_LAYOUTS } from '../../../functions/models/knowledge/form-layouts.ts';

const UB04 = FORM_LAYOUTS[0]!;

/**
 * A PDF page (A4 portrait, 595 × 842 pt) with texts placed at positions of the form (thousandths of
 * its width and height, left and top), the form printed `size` times the page's width from `margin` pt.
 */
async function page(texts: Array<[number, number, string]>, size = 0.9, margin = 30): Promise<ReturnType<typeof indexDoc>> {
  const pdf = await PDFDocument.create();
  const font = await pdf.embedFont(StandardFonts.Helvetica);
  const sheet = pdf.addPage([595, 842]);
  const width = 595 * size;
  const height = width * UB04.aspect;
  for (const [x, y, text] of texts) sheet.drawText(text, { x: margin + (x / 1000) * width, y: 842 - margin - (y / 1000) * height - 6, size: 6, font });
  return indexDoc(await readDocument(await pdf.save(), { kind: 'pdf', dpi: 72, deadline: Date.now() + 20_000 }));
}

const CAPTIONS = UB04.captions.map((c): [number, number, string] => [c.left, c.top, c.text]);
const VALUES: Array<[number, number, string]> = [
  [61, 33, 'GENERAL HOSPITAL OF SPRINGFIELD'],
  [643, 33, 'PCN-77102'],
  [71, 107, 'DOE, JANE'],
  [554, 612, '031524'],
  [762, 612, '184250'],
];

describe('standard form layouts', () => {
  it('finds a UB-04 printed at another size and margin, and reads its boxes where the form puts them', async () => {
    const values = formBoxValues(await page([...CAPTIONS, ...VALUES], 0.8, 50));
    expect(Object.fromEntries(values.map((v) => [v.concept, v.value]))).toEqual({
      vendor_name: 'GENERAL HOSPITAL OF SPRINGFIELD',
      document_number: 'PCN-77102',
      customer_name: 'DOE, JANE',
      issue_date: '2024-03-15',
      // "1842 | 50" read without its divider: its cents are in it.
      total: 1842.5,
    });
    // Each value points at the words it was read from.
    expect(values.find((v) => v.concept === 'customer_name')!.words.map((w) => w.text)).toEqual(['DOE,', 'JANE']);
  });

  it('finds the form from four captions where the rest were not read', async () => {
    const four = CAPTIONS.filter(([, , text]) => ['PATIENT NAME', 'DESCRIPTION', 'CREATION DATE', 'REMARKS'].includes(text));
    const values = formBoxValues(await page([...four, ...VALUES]));
    expect(values.map((v) => v.concept).sort()).toEqual(['customer_name', 'document_number', 'issue_date', 'total', 'vendor_name']);
  });

  it('finds no form from three captions, nor from captions printed elsewhere than the form prints them', async () => {
    const three = CAPTIONS.filter(([, , text]) => ['PATIENT NAME', 'DESCRIPTION', 'CREATION DATE'].includes(text));
    expect(formBoxValues(await page([...three, ...VALUES]))).toEqual([]);
    // An invoice printing some of the same words as its own captions, in its own places.
    const invoice: Array<[number, number, string]> = [
      [50, 100, 'PATIENT NAME'],
      [50, 300, 'DESCRIPTION'],
      [600, 140, 'TOTALS'],
      [400, 500, 'REMARKS'],
      [700, 800, 'CREATION DATE'],
      [100, 900, 'PAYER NAME'],
    ];
    expect(formBoxValues(await page([...invoice, ...VALUES]))).toEqual([]);
  });

  it('reads no amount from dollars whose cents were not read, and no name from a box number alone', async () => {
    const values = formBoxValues(
      await page([
        ...CAPTIONS,
        [61, 33, '7'],
        [720, 612, '1842'],
      ]),
    );
    expect(values).toEqual([]);
  });
});
