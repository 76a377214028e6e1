/**
 * Extraction from a page read by two OCR readers (functions/models/local/two-readings.ts): a value the
 * readings agree on, or that one of them alone found (the second surely), is kept; one they read
 * differently is null, unless it is a name with a word one reader was much surer of; line items come
 * from the first reading. The page is a PDF written here; its second reading is its own
 * words with one misread, as a second reader gives them.
 */
import { PDFDocument, StandardFonts } from 'pdf-lib';
import { describe, expect, it } from 'vitest';
import type { Doc, Word } from '../../../functions/documents/doc.ts';
import { readDocument } from '../../../functions/documents/read.ts';
import type { ExtractResult, JsonSchema } from '../../../functions/models/engine.ts';
import { localExtractor } from '../../../functions/models/local/extract.ts';
import { agreeReadings, secondReading } from '../../../functions/models/local/two-readings.ts';

const SCHEMA: JsonSchema = {
  type: 'object',
  properties: {
    vendor_name: { type: 'string' },
    invoice_number: { type: 'string' },
    invoice_date: { type: 'string', format: 'date' },
    total: { type: 'number' },
    line_items: { type: 'array', items: { type: 'object', properties: { description: { type: 'string' }, amount: { type: 'number' } } } },
  },
};

const LINES: Array<[number, number, string]> = [
  [50, 60, 'Harbour Lights Bakery Ltd'],
  [50, 74, '12 Quay Street, Bristol BS1 4DJ'],
  [380, 120, 'Invoice No: INV-20417'],
  [380, 134, 'Date: 14/03/2024'],
  [50, 200, 'Description'],
  [450, 200, 'Amount'],
  [50, 216, 'Sourdough loaves'],
  [450, 216, '48.00'],
  [50, 232, 'Almond croissants'],
  [450, 232, '36.50'],
  [350, 280, 'Total'],
  [450, 280, '84.50'],
];

/** The page as printed (a born-digital PDF standing for the first reading), without the lines `omit` names. */
async function page(omit: string[] = []): Promise<Doc> {
  const pdf = await PDFDocument.create();
  const font = await pdf.embedFont(StandardFonts.Helvetica);
  const p = pdf.addPage([612, 792]);
  for (const [x, y, text] of LINES) if (!omit.includes(text)) p.drawText(text, { x, y: 792 - y, size: 10, font });
  return readDocument(await pdf.save(), { kind: 'pdf', dpi: 72, deadline: Date.now() + 20_000 });
}

/** `doc` with a second reading: the words of `other` with each word `misread` names read as its value. */
function readTwice(doc: Doc, other: Doc, misread: Record<string, string> = {}): Doc {
  const second: Word[] = other.pages[0]!.words.map((w) => ({ ...w, text: misread[w.text] ?? w.text }));
  return { ...doc, pages: [{ ...doc.pages[0]!, ocr: true, secondWords: second }] };
}

async function extract(doc: Doc) {
  return localExtractor.extract({ doc, schema: SCHEMA, instructions: null, nConsensus: 1, seed: 's' });
}

describe('extraction from two readings of a page', () => {
  it('keeps what both readings read alike, as one reading alone would give it', async () => {
    const doc = await page();
    const alone = await extract(doc);
    expect(alone.output).toMatchObject({ vendor_name: 'Harbour Lights Bakery Ltd', invoice_number: 'INV-20417', invoice_date: '2024-03-14', total: 84.5 });
    const twice = await extract(readTwice(doc, doc));
    expect(twice.output).toEqual(alone.output);
    expect(twice.sources).toEqual(alone.sources);
  });

  it('leaves null, with no source, a value the readings read differently, and keeps the rest', async () => {
    const doc = await page();
    const result = await extract(readTwice(doc, doc, { '14/03/2024': '14/08/2024' }));
    expect(result.output.invoice_date).toBeNull();
    expect((result.sources as Record<string, unknown>).invoice_date).toBeNull();
    expect((result.likelihoods as Record<string, unknown>).invoice_date).toBe(0);
    expect(result.output).toMatchObject({ vendor_name: 'Harbour Lights Bakery Ltd', invoice_number: 'INV-20417', total: 84.5 });
    // (A total read two ways is the one its items add up to: 48.00 + 36.50.)
    expect((await extract(readTwice(doc, doc, { '84.50': '64.50' }))).output.total).toBe(84.5);
  });

  it('takes a value only one reading found, with its place, from either reading', async () => {
    const full = await page();
    const withoutNumber = await page(['Invoice No: INV-20417']);
    // The first reading missed the number: the second reading's is kept, with its box.
    const fromSecond = await extract(readTwice(withoutNumber, full));
    expect(fromSecond.output.invoice_number).toBe('INV-20417');
    const source = (fromSecond.sources as Record<string, { origin: { kind: string; page: number } } | null>).invoice_number;
    expect(source?.origin).toMatchObject({ kind: 'box', page: 1 });
    // The second reading missed it: the first's is kept.
    const fromFirst = await extract(readTwice(full, withoutNumber));
    expect(fromFirst.output.invoice_number).toBe('INV-20417');
  });

  it('takes a name or amount only the second reading found only when found surely; a currency code or a date at any likelihood', () => {
    const result = (output: Record<string, unknown>, likelihood: number): ExtractResult => ({
      output,
      sources: Object.fromEntries(Object.entries(output).map(([k, v]) => [k, v === null ? null : { content: String(v), context: String(v), origin: { kind: 'box', page: 1, box: { left: 0, top: 0, width: 1, height: 1 } } }])),
      likelihoods: Object.fromEntries(Object.keys(output).map((k) => [k, output[k] === null ? 0 : likelihood])),
      choices: [output],
    });
    const nothing = result({ vendor_name: null, total: null, currency: null, invoice_date: null }, 0);
    const unsure = agreeReadings(nothing, result({ vendor_name: 'Shell ISNI PEIRO TRADING', total: 112.46, currency: 'MYR', invoice_date: '2018-02-12' }, 0.7));
    expect(unsure.output).toEqual({ vendor_name: null, total: null, currency: 'MYR', invoice_date: '2018-02-12' });
    expect(unsure.sources).toMatchObject({ vendor_name: null, total: null });
    expect(unsure.likelihoods).toEqual({ vendor_name: 0, total: 0, currency: 0.7, invoice_date: 0.7 });
    // The same inside an object only the second reading found (a schema that nests the vendor).
    const vendor = (inner: Record<string, unknown>, likelihood: number): ExtractResult => {
      const { sources, likelihoods } = result(inner, likelihood);
      return { output: { vendor: inner }, sources: { vendor: sources }, likelihoods: { vendor: likelihoods }, choices: [{ vendor: inner }] };
    };
    const none = result({ vendor: null }, 0);
    expect(agreeReadings(none, vendor({ name: 'Shell ISNI PEIRO TRADING', currency: 'MYR' }, 0.7)).output).toEqual({ vendor: { name: null, currency: 'MYR' } });
    expect(agreeReadings(none, vendor({ name: 'Shell ISNI PEIRO TRADING' }, 0.7)).output).toEqual({ vendor: null });
    expect(agreeReadings(none, vendor({ name: 'ISNI PETRO TRADING' }, 0.9)).output).toEqual({ vendor: { name: 'ISNI PETRO TRADING' } });
    const sure = agreeReadings(nothing, result({ vendor_name: 'ISNI PETRO TRADING', total: 112.45, currency: 'XYZ', invoice_date: null }, 0.9));
    expect(sure.output).toEqual({ vendor_name: 'ISNI PETRO TRADING', total: 112.45, currency: 'XYZ', invoice_date: null });
  });

  it('takes a value only the second reading found, however unsure, where the first read nothing at its place or only words it could not make out', async () => {
    const doc = await page();
    const word = doc.pages[0]!.words.find((w) => w.text === 'INV-20417')!;
    const only = (value: string | null, box = word.box!): ExtractResult => ({
      output: { invoice_number: value },
      sources: { invoice_number: value === null ? null : { content: value, context: value, origin: { kind: 'box', page: 1, box } } },
      likelihoods: { invoice_number: value === null ? 0 : 0.6 },
      choices: [{ invoice_number: value }],
    });
    // The first reading read the number there (and its understanding missed it): the unsure second value is not kept.
    expect(agreeReadings(only(null), only('INV-20417'), doc).output.invoice_number).toBeNull();
    // It read nothing there, or only a word it could not make out (Tesseract's confidence 13): kept.
    expect(agreeReadings(only(null), only('INV-20417'), await page(['Invoice No: INV-20417'])).output.invoice_number).toBe('INV-20417');
    const unsure = { ...doc, pages: [{ ...doc.pages[0]!, words: doc.pages[0]!.words.map((w) => (w === word ? { ...w, text: 'IN1L00S', confidence: 13 } : w)) }] };
    expect(agreeReadings(only(null), only('INV-20417'), unsure).output.invoice_number).toBe('INV-20417');
    // A long value of which it read only a short word surely ("(C0" under a letterhead): not read there.
    const long = { ...word.box!, width: word.box!.width * 5 };
    expect(agreeReadings(only(null), only('INV-20417', long), doc).output.invoice_number).toBe('INV-20417');
    // Without the first reading's words to look at, the bar alone decides.
    expect(agreeReadings(only(null), only('INV-20417')).output.invoice_number).toBeNull();
  });

  it('keeps the first reading\'s text where the second reads the same but for spaces and marks, an O for a zero, or less of it; not values a digit apart', () => {
    const result = (output: Record<string, unknown>): ExtractResult => ({ output, sources: {}, likelihoods: Object.fromEntries(Object.keys(output).map((k) => [k, 0.9])), choices: [output] });
    const agreed = agreeReadings(
      result({ vendor_name: 'Lars Peeters Contractor', customer_name: 'C W KHOO', bank: 'LIGHTROOM GALLERY SDN BHD', payee: 'AMNOSH', document_number: 'INV-204', account: 'KISHWAUKEE COMMUNITY0059', order: 'PO-1180', total: 80.9 }),
      result({ vendor_name: 'L ars Peeters Contractor', customer_name: 'CW KHOO.', bank: 'LIGHTROOM GALLERY SDN B', payee: 'AMNOSH SUPPLIERS', document_number: 'INV-2O4', account: 'K I SHWAUKEE COMMUN I TYOO5', order: 'PO-1189', total: 80.91 }),
    );
    expect(agreed.output).toEqual({
      vendor_name: 'Lars Peeters Contractor',
      customer_name: 'C W KHOO',
      bank: 'LIGHTROOM GALLERY SDN BHD',
      payee: null,
      document_number: 'INV-204',
      account: 'KISHWAUKEE COMMUNITY0059',
      order: null,
      total: null,
    });
  });

  it('settles a name the readers read at one place with a word read two ways, from the reader much surer of that word; never a word with a digit', async () => {
    const doc = await page();
    const words = doc.pages[0]!.words;
    const nameWords = ['Harbour', 'Lights', 'Bakery', 'Ltd'].map((text) => words.find((w) => w.text === text)!);
    const numberWord = words.find((w) => w.text === 'INV-20417')!;
    const union = (ws: Word[]) => {
      const left = Math.min(...ws.map((w) => w.box!.left));
      const top = Math.min(...ws.map((w) => w.box!.top));
      return { left, top, width: Math.max(...ws.map((w) => w.box!.left + w.box!.width)) - left, height: Math.max(...ws.map((w) => w.box!.top + w.box!.height)) - top };
    };
    /** The page read twice: each reader's text and confidence for the words named, 90 for the rest. */
    const readings = (first: Record<string, [string, number]>, second: Record<string, [string, number]>, extra: Word[] = []): Doc => {
      const as = (read: Record<string, [string, number]>) => (w: Word): Word => ({ ...w, text: read[w.text]?.[0] ?? w.text, confidence: read[w.text]?.[1] ?? 90 });
      return { ...doc, pages: [{ ...doc.pages[0]!, ocr: true, words: words.map(as(first)), secondWords: [...words.map(as(second)), ...extra] }] };
    };
    const result = (vendor: string, number: string, vendorWords = nameWords): ExtractResult => ({
      output: { vendor_name: vendor, invoice_number: number },
      sources: {
        vendor_name: { content: vendor, context: vendor, origin: { kind: 'box', page: 1, box: union(vendorWords) } },
        invoice_number: { content: number, context: number, origin: { kind: 'box', page: 1, box: numberWord.box! } },
      },
      likelihoods: { vendor_name: 0.9, invoice_number: 0.9 },
      choices: [{ vendor_name: vendor, invoice_number: number }],
    });
    // The first reader sure of "Bakery" (94), the second unsure of its "Bakcry" (77): the first's word.
    const sureFirst = readings({ Bakery: ['Bakery', 94] }, { Bakery: ['Bakcry', 77] });
    expect(agreeReadings(result('Harbour Lights Bakery Ltd', 'INV-20417'), result('Harbour Lights Bakcry Ltd', 'INV-20417'), sureFirst).output.vendor_name).toBe('Harbour Lights Bakery Ltd');
    // The first unsure of its "Liqhts" (60), the second sure of "Lights" (95): the second's word, in the first's text.
    const sureSecond = readings({ Lights: ['Liqhts', 60] }, { Lights: ['Lights', 95] });
    expect(agreeReadings(result('Harbour Liqhts Bakery Ltd', 'INV-20417'), result('Harbour Lights Bakery Ltd', 'INV-20417'), sureSecond).output.vendor_name).toBe('Harbour Lights Bakery Ltd');
    // About as sure of both (87 and 92): which is right cannot be told.
    const asSure = readings({ Bakery: ['Bakery', 87] }, { Bakery: ['Bakcry', 92] });
    expect(agreeReadings(result('Harbour Lights Bakery Ltd', 'INV-20417'), result('Harbour Lights Bakcry Ltd', 'INV-20417'), asSure).output.vendor_name).toBeNull();
    // A word with a digit is never settled so, however sure one reader is.
    const digits = readings({ 'INV-20417': ['INV-20417', 95] }, { 'INV-20417': ['INV-20411', 60] });
    expect(agreeReadings(result('Harbour Lights Bakery Ltd', 'INV-20417'), result('Harbour Lights Bakery Ltd', 'INV-20411'), digits).output.invoice_number).toBeNull();
    // A word only the second reader read at the name's place: not the same words read twice.
    const ltd = nameWords[3]!;
    const co: Word = { ...ltd, text: 'Co', confidence: 99, box: { ...ltd.box!, left: ltd.box!.left + ltd.box!.width + 4 } };
    const more = readings({ Bakery: ['Bakery', 94] }, { Bakery: ['Bakcry', 77] }, [co]);
    expect(agreeReadings(result('Harbour Lights Bakery Ltd', 'INV-20417'), result('Harbour Lights Bakcry Ltd Co', 'INV-20417', [...nameWords, co]), more).output.vendor_name).toBeNull();
  });

  it('of two readings of an amount, takes the one the items add up to, unless another field already holds that sum', () => {
    const result = (output: Record<string, unknown>): ExtractResult => ({ output, sources: {}, likelihoods: Object.fromEntries(Object.keys(output).map((k) => [k, 0.9])), choices: [output] });
    const charges = Array.from({ length: 6 }, () => ({ description: 'Intensive Outpatient Group', amount: 165 }));
    // Six charges of 165.00 under a total read "950 00" by one reader and "990 00" by the other.
    expect(agreeReadings(result({ total: 950, line_items: charges }), result({ total: 990 })).output.total).toBe(990);
    expect(agreeReadings(result({ total: 990, line_items: charges }), result({ total: 950 })).output.total).toBe(990);
    // Neither adds up: which is right cannot be told.
    expect(agreeReadings(result({ total: 950, line_items: charges }), result({ total: 980 })).output.total).toBeNull();
    // The items add up to the subtotal already read; the total (with its tax) is another amount.
    expect(agreeReadings(result({ subtotal: 990, total: 1049.4, line_items: charges }), result({ subtotal: 990, total: 990 })).output.total).toBeNull();
  });

  it('takes line items from the first reading whole', async () => {
    const doc = await page();
    const result = await extract(readTwice(doc, doc, { '48.00': '43.00', Sourdough: 'Soundough' }));
    expect(result.output.line_items).toEqual([
      { description: 'Sourdough loaves', amount: 48 },
      { description: 'Almond croissants', amount: 36.5 },
    ]);
  });

  it('lays the second reading out as a page of its own, and none when no page was read twice', async () => {
    const doc = await page();
    expect(secondReading(doc)).toBeUndefined();
    const second = secondReading(readTwice(doc, doc, { Harbour: 'Harhour' }))!;
    expect(second.pages[0]!.lines[0]!.text).toBe('Harhour Lights Bakery Ltd');
    expect(second.pages[0]!.secondWords).toBeUndefined();
  });
});
