/**
 * Items of a till receipt that prints no item table a header names (functions/models/local/
 * extract-priced-lines.ts): lines whose count × price = amount, each with its name on the line
 * next to it, on the side the receipt uses for all of them.
 */
import { PDFDocument, StandardFonts } from 'pdf-lib';
import { describe, expect, it } from 'vitest';
import type { Doc } from '../../../functions/documents/doc.ts';
import { readDocument } from '../../../functions/documents/read.ts';
import type { JsonSchema } from '../../../functions/models/engine.ts';
import { localExtractor } from '../../../functions/models/local/extract.ts';

const SCHEMA: JsonSchema = {
  type: 'object',
  properties: {
    total: { type: 'number' },
    line_items: {
      type: 'array',
      items: { type: 'object', required: ['description', 'quantity', 'unit_price', 'amount'], properties: { description: { type: 'string' }, quantity: { type: 'number' }, unit_price: { type: 'number' }, amount: { type: 'number' } } },
    },
  },
};

async function receipt(lines: string[], confidence: (word: string) => number | undefined = () => undefined): Promise<Doc> {
  const doc = await readDocument(new TextEncoder().encode(lines.join('\n')), { kind: 'txt', dpi: 72, deadline: Date.now() + 10_000 });
  for (const page of doc.pages) {
    for (const word of page.words) {
      const read = confidence(word.text);
      if (read === undefined) continue;
      page.ocr = true;
      word.confidence = read;
    }
  }
  return doc;
}

async function items(doc: Doc): Promise<unknown> {
  return (await localExtractor.extract({ doc, schema: SCHEMA, instructions: null, nConsensus: 1, seed: 's' })).output.line_items;
}

describe('items from lines whose figures multiply out', () => {
  it('reads each item from "count x price = amount" with its name above, "I x" for one', async () => {
    const doc = await receipt([
      'LIGHTROOM GALLERY SDN BHD',
      'CH50514 SR',
      'T5 JOINT 2PIN 2PCS',
      'I x RM 2.83 UNI ( 0.17)=RM 2.83',
      'YT51874 SR',
      'YE30 BK 7W WW LED TRACK LIGHT',
      '2 x RM 33.02 UNI ( 3.96)=RM 66.04',
      'Sub Total : RM 68.87',
      'GST/TAX 6% : RM 4.13',
      'TOTAL : RM 73.00',
    ]);
    expect(await items(doc)).toEqual([
      { description: 'T5 JOINT 2PIN 2PCS', quantity: 1, unit_price: 2.83, amount: 2.83 },
      { description: 'YE30 BK 7W WW LED TRACK LIGHT', quantity: 2, unit_price: 33.02, amount: 66.04 },
    ]);
  });

  it('takes the names from under the figures when the receipt prints them there', async () => {
    const doc = await receipt([
      'ASIA MART',
      'Cashier: 01   21/12/2017 10:31',
      '9556231110046   1   3.55   3.55   SR',
      'GARDENIA ORIGINAL CLASSIC JUMBO (600G)',
      '9566127101331   2   1.50   3.00   SR',
      'HUDSONS LIME 50G',
      'Total Sales (Inclusive GST)   6.55',
    ]);
    expect(await items(doc)).toEqual([
      { description: 'GARDENIA ORIGINAL CLASSIC JUMBO (600G)', quantity: 1, unit_price: 3.55, amount: 3.55 },
      { description: 'HUDSONS LIME 50G', quantity: 2, unit_price: 1.5, amount: 3 },
    ]);
  });

  it('gives a count to an integer field, and no amount with cents to one', async () => {
    const INTEGERS: JsonSchema = {
      type: 'object',
      properties: { line_items: { type: 'array', items: { type: 'object', required: ['quantity', 'amount'], properties: { quantity: { type: 'integer' }, amount: { type: 'integer' } } } } },
    };
    const doc = await receipt(['SHOP', 'WIDGET', '2 x 33.02 = 66.04', 'GADGET', '3 x 5.00 = 15.00']);
    const output = (await localExtractor.extract({ doc, schema: INTEGERS, instructions: null, nConsensus: 1, seed: 's' })).output;
    expect(output.line_items).toEqual([
      { quantity: 2, amount: null },
      { quantity: 3, amount: 15 },
    ]);
  });

  it('reads a name printed on two lines, and an amount a unit price rounded to the cent leaves a cent off', async () => {
    const doc = await receipt(['LIGHTROOM GALLERY', 'YT51775 SR', '1059 18W SQ WW BK SUR LED LIGHT', '1059 SQUARE BLACK FRAME', '2 x RM 18.77 UNI ( 2.25)=RM 37.55', 'Sub Total : RM 37.55']);
    expect(await items(doc)).toEqual([{ description: '1059 18W SQ WW BK SUR LED LIGHT 1059 SQUARE BLACK FRAME', quantity: 2, unit_price: 18.77, amount: 37.55 }]);
    // A label's line above the name is no part of it; one of 1 × 3.55 is never 3.56.
    expect(await items(await receipt(['SHOP', 'Cashier: ANGELA', 'WIDGET', '1 x 5.00 = 5.00', 'GADGET', '1 x 3.55 = 3.56']))).toEqual([{ description: 'WIDGET', quantity: 1, unit_price: 5, amount: 5 }]);
  });

  it('tells the side of the names from every line of figures, those OCR garbled too, before how close they are printed', async () => {
    // Each text at its height on the page (points from the top): the second item's price reads "8.9",
    // so its figures do not multiply out, and each name sits a little closer to the figures under it.
    const pdf = await PDFDocument.create();
    const font = await pdf.embedFont(StandardFonts.Helvetica);
    const page = pdf.addPage([612, 792]);
    const lines: Array<[number, string]> = [[60, 'SHOP'], [100, 'HE EOG UNICORN TWIN SUPER GLUE'], [115, '9997368063013   1X   5.20   5.20'], [126, 'SS EZL A4 CYBER MIX COLOR PAPER'], [141, '277008   1X   8.9   8.90'], [152, 'No. Qtys: 2   No. Items: 2'], [175, 'TOTAL RM 14.10']];
    for (const [y, text] of lines) page.drawText(text, { x: 72, y: 792 - y, size: 9, font });
    const doc = await readDocument(await pdf.save(), { kind: 'pdf', dpi: 72, deadline: Date.now() + 20_000 });
    expect(await items(doc)).toEqual([{ description: 'HE EOG UNICORN TWIN SUPER GLUE', quantity: 1, unit_price: 5.2, amount: 5.2 }]);
  });

  it('makes no item of figures that do not multiply out, of totals, or of a header; leaves a garbled name null', async () => {
    // 3 × 7.00 is not 20.00, and a total line is never an item.
    expect(await items(await receipt(['SHOP', 'WIDGET', '3   7.00   20.00', 'Total 2 x 5.00 = 10.00']))).toEqual([]);
    // The line above is the header naming the columns (printed close together, as one run of text): no name.
    expect(await items(await receipt(['SHOP', 'Item Qty Price Amount', '1   15.00   15.00']))).toEqual([{ description: null, quantity: 1, unit_price: 15, amount: 15 }]);
    // A name OCR read a word of at 31 is mostly garbled: null rather than "HE INCKEN (5 BTL)".
    const scanned = await receipt(['BAR', 'HE INCKEN (5 BTL)', '2 x 95.00 = 190.00'], (w) => (w === 'INCKEN' ? 31 : 90));
    expect(await items(scanned)).toEqual([{ description: null, quantity: 2, unit_price: 95, amount: 190 }]);
  });
});
