/**
 * The PDF reader on generated PDFs: reading order of interleaved columns (scored by word edit
 * distance against the ground truth), block kinds, running heads, rotation, ruling lines handed to
 * table detection, scanned pages, and every way a PDF can fail (password, damage, size, time).
 */
import { PDFDocument, rgb, StandardFonts } from 'pdf-lib';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { MAX_PAGES, type Page, ReadFailure, type Word } from '../../../functions/documents/doc.ts';
import { dropRepeatedHeadersFooters } from '../../../functions/documents/layout.ts';
import { isSpace, readPdf, usableWords } from '../../../functions/documents/pdf.ts';
import { detectTables } from '../../../functions/documents/tables.ts';
import {
  encryptedPdf,
  formPdf,
  listsPdf,
  manyPagesPdf,
  rotatedPdf,
  ruledPdf,
  runningHeadsPdf,
  scannedPdf,
  threeColumnPdf,
  twoColumnPdf,
  wordEditDistance,
  words,
} from '../../support/pdf-fixtures.ts';
import { failure } from '../../support/read-failure.ts';

vi.mock('../../../functions/documents/tables.ts', () => ({ detectTables: vi.fn(() => []) }));

beforeEach(() => {
  vi.mocked(detectTables).mockClear();
});

const budget = () => ({ deadline: Date.now() + 60_000 });
const pageText = (page: Page) => page.blocks.map((b) => b.text).join(' ');


/** Every expected word present (as a multiset) and the order within `maxRatio` word edits. */
function expectReadingOrder(pages: Page[], expectedText: string[], maxRatio: number, label: string): void {
  expect(pages).toHaveLength(expectedText.length);
  let edits = 0;
  let total = 0;
  pages.forEach((page, i) => {
    const actual = words(pageText(page));
    const expected = words(expectedText[i]!);
    const missing = [...expected];
    for (const word of actual) {
      const k = missing.indexOf(word);
      if (k >= 0) missing.splice(k, 1);
    }
    expect(missing, `page ${i + 1}: words missing`).toEqual([]);
    const distance = wordEditDistance(actual, expected);
    expect(distance / expected.length, `page ${i + 1}: ${distance} edits in ${expected.length} words`).toBeLessThanOrEqual(maxRatio);
    edits += distance;
    total += expected.length;
  });
  console.log(`${label}: ${total} words, ${edits} word edits (${((100 * edits) / total).toFixed(2)}%)`);
}

describe('reading order', () => {
  it('reads two interleaved columns in order under a full-width title, footer last (≤ 1% word edits)', async () => {
    // A diagonal "DRAFT" watermark lies across the columns; it is not read.
    const fixture = await twoColumnPdf({ pages: 3, watermark: true });
    const pages = await readPdf(fixture.bytes, budget());
    expectReadingOrder(pages, fixture.expectedText, 0.01, 'two columns');
    for (const [i, page] of pages.entries()) {
      expect(page).toMatchObject({ number: i + 1, width: 612, height: 792, unit: 'pt', ocr: false });
      expect(page.blocks[0]).toMatchObject({ kind: 'heading', level: 1, text: `Coastal Survey Field Notes Part ${i + 1}` });
      expect(page.blocks.at(-1)!.text).toBe(`Page ${i + 1} of 3`);
      expect(page.blocks.filter((b) => b.kind === 'heading' && b.level === 3).length).toBeGreaterThan(0);
    }
    // Boxes in points, top-left origin: the title's baseline is 80 pt below the top edge (20 pt type).
    const title = pages[0]!.words[0]!;
    expect(title.text).toBe('Coastal');
    expect(title.box!.left).toBeCloseTo(54, 0);
    expect(title.box!.top).toBeGreaterThan(80 - 20);
    expect(title.box!.top + title.box!.height).toBeGreaterThan(80);
    expect(title.box!.top + title.box!.height).toBeLessThan(80 + 6);
    expect(title.origin).toEqual({ kind: 'box', page: 1, box: title.box });
  });

  it('reads three interleaved columns in order, the centered footer after the last column (≤ 1% word edits)', async () => {
    const fixture = await threeColumnPdf({ pages: 2 });
    const pages = await readPdf(fixture.bytes, budget());
    expectReadingOrder(pages, fixture.expectedText, 0.01, 'three columns');
  });

  it('reads a page turned by /Rotate 90 upright, with boxes in the displayed page', async () => {
    const fixture = await rotatedPdf();
    const [page] = await readPdf(fixture.bytes, budget());
    expect(page).toMatchObject({ width: 792, height: 612 });
    expect(pageText(page!)).toBe(fixture.expectedText[0]);
    for (const word of page!.words) {
      const box = word.box!;
      expect(box.width).toBeGreaterThan(box.height * 0.5);
      expect(box.left).toBeGreaterThanOrEqual(0);
      expect(box.left + box.width).toBeLessThanOrEqual(792);
      expect(box.top + box.height).toBeLessThanOrEqual(612);
    }
    // The first line sits at displayed y ≈ 72 (its baseline), starting at x = 72.
    expect(page!.lines[0]!.box!.left).toBeCloseTo(72, 0);
    expect(page!.lines[0]!.box!.top).toBeLessThan(72);
  });
});

describe('structure', () => {
  it('classifies headings, bullet, numbered and lettered list items (markers kept) and paragraphs', async () => {
    const [page] = await readPdf(await listsPdf(), budget());
    expect(page!.blocks.map((b) => [b.kind, b.level, b.text])).toEqual([
      ['heading', 1, 'Project Checklist'],
      ['paragraph', undefined, 'The field team prepares the following items before every survey of the estuary, and reports any missing equipment to the station manager.'],
      ['heading', 2, 'Materials'],
      ['list_item', undefined, '• Fresh water sample bottles'],
      ['list_item', undefined, '• Calibrated sensors for the survey team, checked against the reference probe on the morning of departure'],
      ['list_item', undefined, '• Spare batteries and cables'],
      ['heading', 3, 'PROCEDURE'],
      ['list_item', undefined, '1. Collect the samples at dawn'],
      ['list_item', undefined, '2. Label each bottle clearly'],
      ['list_item', undefined, '3. Ship them to the laboratory'],
      ['list_item', undefined, 'a) Record the water temperature'],
      ['list_item', undefined, 'b) Note the weather at the station'],
      ['paragraph', undefined, 'Questions go to the regional office before the end of the month.'],
    ]);
  });

  it('drops a running header and "Page N of M" footer from a 4-page document, keeps them in a 2-page one', async () => {
    const four = dropRepeatedHeadersFooters(await readPdf(await runningHeadsPdf(4), budget()));
    expect(four).toHaveLength(4);
    for (const page of four) {
      const text = pageText(page);
      expect(text).not.toContain('Quire Quarterly Review');
      expect(text).not.toMatch(/Page \d of 4/);
      expect(page.blocks.map((b) => b.kind)).toEqual(['paragraph', 'paragraph', 'paragraph']);
    }
    const two = dropRepeatedHeadersFooters(await readPdf(await runningHeadsPdf(2), budget()));
    expect(two.map((page) => page.blocks[0]!.text)).toEqual(['Quire Quarterly Review', 'Quire Quarterly Review']);
    expect(two.map((page) => page.blocks.at(-1)!.text)).toEqual(['Page 1 of 2', 'Page 2 of 2']);
  });

  it('reads the values of filled form fields next to their labels', async () => {
    const [page] = await readPdf(await formPdf(), budget());
    expect(page!.lines.map((l) => l.text)).toEqual(['Name: Jane Harbor', 'Color: Blue']);
    const value = page!.words.find((w) => w.text === 'Jane')!;
    // Inside the field's box (x 130..330, y 792-714..792-694).
    expect(value.box!.left).toBeGreaterThan(130);
    expect(value.box!.top).toBeGreaterThan(78);
    expect(value.box!.top + value.box!.height).toBeLessThan(98);
  });

  it('reads a filled field once when the page also prints its value inside the field (a form filled by Quire, or flattened)', async () => {
    const pdf = await PDFDocument.load(await formPdf());
    const font = await pdf.embedFont(StandardFonts.Helvetica);
    // Inside the 'name' field (x 130..330, y 694..714), as an edit draws it; the dropdown is not drawn.
    pdf.getPage(0).drawText('Jane Harbor', { x: 134, y: 699, size: 11, font });
    const [page] = await readPdf(await pdf.save(), budget());
    expect(page!.lines.map((l) => l.text)).toEqual(['Name: Jane Harbor', 'Color: Blue']);
  });

  it('a page that paints nothing is blank, not a scan: no OCR (2,000 blank pages cost next to nothing); a page with only a drawing is OCR\'d', async () => {
    const pdf = await PDFDocument.create();
    for (let i = 0; i < 300; i++) pdf.addPage([612, 792]);
    pdf.addPage([612, 792]).drawRectangle({ x: 100, y: 100, width: 300, height: 200, color: rgb(1, 1, 1) }); // white on white
    pdf.addPage([612, 792]).drawRectangle({ x: 100, y: 100, width: 300, height: 200, color: rgb(0, 0, 0) }); // a drawing: maybe text as shapes
    const ocr = { rasterize: vi.fn(async () => ({})), recognize: vi.fn(async () => []), concurrency: 1 };
    const started = performance.now();
    const pages = await readPdf(await pdf.save(), { ...budget(), ocr } as never);
    expect(pages).toHaveLength(302);
    expect(pages.every((p) => p.words.length === 0)).toBe(true);
    expect(ocr.rasterize).toHaveBeenCalledTimes(1);
    expect(pages.filter((p) => p.ocr).map((p) => p.number)).toEqual([302]);
    expect(performance.now() - started).toBeLessThan(15_000);
  });

  it('reports light-shaded input boxes only when read for form filling', async () => {
    const pdf = await PDFDocument.create();
    const font = await pdf.embedFont(StandardFonts.Helvetica);
    const p = pdf.addPage([612, 792]);
    p.drawText('Name', { x: 72, y: 700, size: 10, font });
    // A pale blue input box, no border; a black bar (ink, not shading) is no box.
    p.drawRectangle({ x: 130, y: 695, width: 200, height: 16, color: rgb(0.85, 0.9, 0.97) });
    p.drawRectangle({ x: 130, y: 600, width: 200, height: 16, color: rgb(0, 0, 0) });
    const bytes = await pdf.save();
    const ocr = { rasterize: vi.fn(), recognize: vi.fn(), concurrency: 1, forms: true };
    const [forForms] = await readPdf(bytes, { ...budget(), ocr });
    expect(forForms!.shaded?.map((b) => [b.left, b.top, b.width, b.height].map(Math.round))).toEqual([[130, 81, 200, 16]]);
    const [forParse] = await readPdf(bytes, budget());
    expect(forParse!.shaded).toBeUndefined();
  });

  it('reports small round outlines (radio buttons "○") only when read for form filling, not a large circle', async () => {
    const pdf = await PDFDocument.create();
    const font = await pdf.embedFont(StandardFonts.Helvetica);
    const p = pdf.addPage([612, 792]);
    p.drawText('Yes', { x: 72, y: 700, size: 10, font });
    // pdf-lib draws an ellipse as four Bézier curves, as flattened radio buttons are.
    p.drawEllipse({ x: 100, y: 704, xScale: 4.5, yScale: 4.5, borderColor: rgb(0, 0, 0), borderWidth: 1 });
    p.drawEllipse({ x: 300, y: 500, xScale: 60, yScale: 60, borderColor: rgb(0, 0, 0), borderWidth: 1 });
    const bytes = await pdf.save();
    const ocr = { rasterize: vi.fn(), recognize: vi.fn(), concurrency: 1, forms: true };
    const [forForms] = await readPdf(bytes, { ...budget(), ocr });
    expect(forForms!.rings?.map((b) => [b.left, b.top, b.width, b.height].map(Math.round))).toEqual([[96, 84, 9, 9]]);
    const [forParse] = await readPdf(bytes, budget());
    expect(forParse!.rings).toBeUndefined();
  });

  it('reads a frame drawn as two thin filled L shapes (a form designer\'s bevelled field border) as rules when read for form filling', async () => {
    const pdf = await PDFDocument.create();
    const p = pdf.addPage([612, 792]);
    // SVG coordinates (y down) from (100, 100): the top-left half, then the bottom-right half, 0.5 pt wide.
    p.drawSvgPath('M 0 0 L 200 0 L 199.5 0.5 L 0.5 0.5 L 0.5 19.5 L 0 20 Z', { x: 100, y: 692, color: rgb(0.5, 0.5, 0.5) });
    p.drawSvgPath('M 200 0 L 200 20 L 0 20 L 0.5 19.5 L 199.5 19.5 L 199.5 0.5 Z', { x: 100, y: 692, color: rgb(0.5, 0.5, 0.5) });
    p.drawText('.', { x: 500, y: 500, size: 4 });
    const bytes = await pdf.save();
    const ocr = { rasterize: vi.fn(), recognize: vi.fn(), concurrency: 1, forms: true };
    const [page] = await readPdf(bytes, { ...budget(), ocr });
    const rounded = (page!.rules ?? []).map((r) => [r.x1, r.y1, r.x2, r.y2].map((v) => Math.round(v)));
    expect(rounded).toEqual(expect.arrayContaining([[100, 100, 300, 100], [100, 100, 100, 120], [100, 120, 300, 120], [300, 100, 300, 120]]));
  });

  it('hands drawn lines (stroked, thin filled, rectangle edges) to table detection as rules in page points', async () => {
    await readPdf(await ruledPdf(), budget());
    expect(detectTables).toHaveBeenCalledTimes(1);
    const [words, rules, size] = vi.mocked(detectTables).mock.calls[0]!;
    expect(size).toEqual({ width: 612, height: 792 });
    expect(words.map((w) => w.text)).toEqual(['Quarterly', 'totals', 'by', 'station']);
    const rounded = rules.map((r) => [r.x1, r.y1, r.x2, r.y2].map((v) => Math.round(v * 4) / 4));
    expect(rounded).toEqual(
      expect.arrayContaining([
        // drawLine from (72, 600) to (300, 600): y = 792 - 600 from the top.
        [72, 192, 300, 192],
        // A 200 × 0.5 filled bar at y = 500: its middle line.
        [72, 291.75, 272, 291.75],
        // A stroked 200 × 50 rectangle at (72, 400): four edges.
        [72, 342, 272, 342],
        [72, 392, 272, 392],
        [72, 342, 72, 392],
        [272, 342, 272, 392],
      ]),
    );
    expect(rules).toHaveLength(6);
  });
});

describe('scanned pages', () => {
  it('leaves a page without a text layer empty when no OCR hook is given', async () => {
    const pages = await readPdf(await scannedPdf(), budget());
    expect(pages[0]).toMatchObject({ number: 1, words: [], blocks: [], ocr: false });
    expect(pageText(pages[1]!)).toBe('A page with a real text layer');
    // What little text a scanned page has is kept when it cannot be OCRed.
    expect(pageText(pages[2]!)).toBe('17');
  });

  it('rasterizes and recognizes pages without a text layer, and only those, several in flight', async () => {
    const box = { left: 72, top: 100, width: 80, height: 12 };
    const grey = { width: 1, height: 1, data: new Uint8Array([255]), dpi: 72 };
    const rasterize = vi.fn(async (_page: unknown, _pageNumber: number) => grey);
    // Page 1's recognition only ends once page 3's has begun: both must be in flight together.
    let page3Started!: () => void;
    const page3 = new Promise<void>((resolve) => (page3Started = resolve));
    let inFlight = 0;
    let maxInFlight = 0;
    const recognize = vi.fn(async (_image: unknown, pageNumber: number): Promise<Word[]> => {
      inFlight++;
      maxInFlight = Math.max(maxInFlight, inFlight);
      if (pageNumber === 3) page3Started();
      else await page3;
      inFlight--;
      return [
        { text: 'Recognized', box, origin: { kind: 'box', page: pageNumber, box }, confidence: 91 },
        { text: 'text', box: { ...box, left: 160, width: 30 }, origin: { kind: 'box', page: pageNumber, box }, confidence: 88 },
      ];
    });
    const pages = await readPdf(await scannedPdf(), { ...budget(), ocr: { rasterize, recognize, concurrency: 2 } });
    // Several pages are in flight, so the calls may come in any order: only which pages counts.
    expect(rasterize.mock.calls.map((call) => call[1]).sort()).toEqual([1, 3]);
    expect(typeof (rasterize.mock.calls[0]![0] as { getViewport?: unknown }).getViewport).toBe('function');
    expect(recognize.mock.calls.map((call) => call[1]).sort()).toEqual([1, 3]);
    expect(maxInFlight).toBe(2);
    expect(pages[0]).toMatchObject({ ocr: true, unit: 'pt', blocks: [{ kind: 'paragraph', text: 'Recognized text' }] });
    expect(pages[0]!.words[1]!.origin).toEqual({ kind: 'box', page: 1, box: { ...box, left: 160, width: 30 } });
    expect(pages[1]!.ocr).toBe(false);
    expect(pages[2]).toMatchObject({ ocr: true, blocks: [{ text: 'Recognized text' }] });
  });

  it('treats a text layer of replacement and control characters as no text, and drops garbage words', () => {
    const word = (text: string): Word => ({ text, box: { left: 0, top: 0, width: 10, height: 10 }, origin: { kind: 'box', page: 1, box: { left: 0, top: 0, width: 10, height: 10 } } });
    expect(usableWords([word('\uFFFD\uFFFD\uFFFD'), word('\u0001\u0002'), word('ok')])).toEqual([]);
    expect(usableWords([word('\uE001\uE002\uE003')])).toEqual([]);
    expect(usableWords([word('Invoice'), word('\uFFFD'), word('total')]).map((w) => w.text)).toEqual(['Invoice', 'total']);
  });
});

describe('failures', () => {
  it('refuses a password-protected PDF', async () => {
    const error = await failure(readPdf(encryptedPdf(), budget()));
    expect(error.message).toBe('The PDF is encrypted with a password');
    expect(error.code).toBe('document_invalid');
  });

  it('reports a truncated or corrupt PDF as damaged, never with another error', async () => {
    const { bytes } = await twoColumnPdf({ pages: 2 });
    const half = await failure(readPdf(bytes.slice(0, bytes.length >> 1), budget()));
    expect(half.message).toMatch(/^The PDF is damaged: .*cut short/);
    expect(half.code).toBe('document_invalid');
    for (const cut of [0.02, 0.3, 0.7, 0.95, 0.999]) {
      const outcome = await readPdf(bytes.slice(0, Math.floor(bytes.length * cut)), budget()).then(
        (pages) => pages,
        (error: unknown) => error,
      );
      if (Array.isArray(outcome)) expect(outcome.length).toBeLessThanOrEqual(2);
      else expect(outcome).toBeInstanceOf(ReadFailure);
    }
    const garbage = await failure(readPdf(new Uint8Array(Buffer.from('%PDF-1.7\n this is not a PDF at all\n', 'latin1')), budget()));
    expect(garbage.message).toMatch(/^The PDF is damaged: /);
    expect((await failure(readPdf(new Uint8Array(0), budget()))).message).toMatch(/^The PDF is damaged: /);
  });

  it(`refuses more than MAX_PAGES (${MAX_PAGES}) pages`, async () => {
    const doc = await PDFDocument.create();
    for (let i = 0; i <= MAX_PAGES; i++) doc.addPage([200, 200]);
    const error = await failure(readPdf(await doc.save(), budget()));
    expect(error.message).toBe(`The PDF has ${MAX_PAGES + 1} pages; at most ${MAX_PAGES} pages are supported`);
    expect(error.code).toBe('document_unsupported');
  });

  it('stops with a timeout past the deadline', async () => {
    const bytes = await manyPagesPdf(3);
    const error = await failure(readPdf(bytes, { deadline: Date.now() - 1 }));
    expect(error.code).toBe('timeout');
  });

  it("leaves the caller's bytes intact", async () => {
    const { bytes } = await rotatedPdf();
    const copy = bytes.slice();
    await readPdf(bytes, budget());
    expect(bytes.byteLength).toBe(copy.byteLength);
    expect(Buffer.from(bytes).equals(Buffer.from(copy))).toBe(true);
  });
});

describe('speed', () => {
  it('reads a 100-page PDF page by page at a useful rate', async () => {
    const bytes = await manyPagesPdf(100);
    const started = performance.now();
    const pages = await readPdf(bytes, budget());
    const seconds = (performance.now() - started) / 1000;
    console.log(`100 pages in ${seconds.toFixed(2)} s: ${(100 / seconds).toFixed(0)} pages/s`);
    expect(pages).toHaveLength(100);
    expect(pages[99]!.blocks[0]).toMatchObject({ kind: 'heading', text: 'Section 100' });
    expect(seconds).toBeLessThan(15);
  });
});

describe('isSpace', () => {
  it('agrees with a regular expression\'s \\s on every UTF-16 code unit (words are cut at it)', () => {
    const disagreeing: number[] = [];
    for (let code = 0; code < 0x10000; code++) if (isSpace(code) !== /\s/.test(String.fromCharCode(code))) disagreeing.push(code);
    expect(disagreeing).toEqual([]);
    expect(isSpace(Number.NaN)).toBe(false);
  });
});
