/**
 * Page layout from word boxes (shared by PDF text layers and OCR): lines, columns and reading order,
 * block kinds, tables in the flow, and running headers/footers across pages. Words are synthetic
 * (boxes computed from character counts) and given in scrambled or interleaved order on purpose.
 */
import { beforeEach, describe, expect, it, vi } from 'vitest';
import type { Box, Page, Table, Word } from '../../../functions/documents/doc.ts';
import { dropRepeatedHeadersFooters, layoutPage } from '../../../functions/documents/layout.ts';
import { detectTables } from '../../../functions/documents/tables.ts';

vi.mock('../../../functions/documents/tables.ts', () => ({ detectTables: vi.fn(() => []) }));

beforeEach(() => {
  vi.mocked(detectTables).mockReset();
  vi.mocked(detectTables).mockReturnValue([]);
});

/** Words of one line set at (x, top) in a font of `size`: 0.5 em per character, 0.3 em spaces. */
function line(text: string, x: number, top: number, size = 10, page = 1): Word[] {
  const words: Word[] = [];
  let left = x;
  for (const token of text.split(' ')) {
    const box: Box = { left, top, width: token.length * 0.5 * size, height: size };
    words.push({ text: token, box, origin: { kind: 'box', page, box } });
    left += box.width + 0.3 * size;
  }
  return words;
}

function layout(words: Word[], extra: Partial<Parameters<typeof layoutPage>[0]> = {}): Page {
  return layoutPage({ number: 1, width: 612, height: 792, unit: 'pt', ocr: false, words, rules: [], ...extra });
}

const blockTexts = (page: Page) => page.blocks.map((b) => b.text);

/** Deterministic shuffle, so "file order" carries no information. */
function shuffled<T>(items: T[]): T[] {
  const out = [...items];
  let seed = 12345;
  for (let i = out.length - 1; i > 0; i--) {
    seed = (seed * 1103515245 + 12345) & 0x7fffffff;
    const j = seed % (i + 1);
    [out[i], out[j]] = [out[j]!, out[i]!];
  }
  return out;
}

/** A column of prose lines: `count` lines of 6 words, distinct per column via the prefix. */
function columnLines(prefix: string, count: number): string[] {
  return Array.from({ length: count }, (_, k) => `${prefix}${k}a ${prefix}${k}b words run across the column`);
}

describe('lines and paragraphs', () => {
  it('merges lines at normal spacing into a paragraph, mends hyphenation, splits at wider spacing', () => {
    const words = [
      ...line('The survey of the estu-', 72, 100),
      ...line('ary went on until dawn.', 72, 112),
      ...line('A second paragraph starts', 72, 136),
      ...line('after a blank line here.', 72, 148),
    ];
    const page = layout(shuffled(words));
    expect(page.blocks.map((b) => b.kind)).toEqual(['paragraph', 'paragraph']);
    expect(blockTexts(page)).toEqual(['The survey of the estuary went on until dawn.', 'A second paragraph starts after a blank line here.']);
    // Lines keep the text as printed; words are stored in reading order.
    expect(page.lines.map((l) => l.text)).toEqual(['The survey of the estu-', 'ary went on until dawn.', 'A second paragraph starts', 'after a blank line here.']);
    expect(page.words.map((w) => w.text).join(' ')).toBe(page.lines.map((l) => l.text).join(' '));
    expect(page.lines[0]!.words).toEqual([0, 1, 2, 3, 4]);
    expect(page.blocks[0]!.lines).toEqual([0, 1]);
    expect(page.blocks[0]!.box).toEqual({ left: 72, top: 100, width: expect.any(Number), height: 22 });
  });

  it('never chains two lines into one through a tall mark OCR read between them ("_" across both)', () => {
    // As Tesseract read a photographed bill's letterhead: a name over its address, 13 px apart, and
    // an underscore (a smudge) 20 px tall beside them reaching into both.
    const mark: Box = { left: 200, top: 13, width: 6, height: 20 };
    const words = [...line('Home Health Care Services', 15, 16, 11), ...line('P.O. Box 5555', 20, 29, 8), { text: '_', box: mark, origin: { kind: 'box' as const, page: 1, box: mark } }];
    const page = layout(words, { ocr: true, unit: 'px', width: 420, height: 300 });
    expect(page.lines.map((l) => l.text)).toEqual(['Home Health Care Services _', 'P.O. Box 5555']);
  });

  it('keeps a hyphen between two words when the next line starts with a capital', () => {
    const page = layout([...line('Results for the North-', 72, 100), ...line('West region follow.', 72, 112)]);
    expect(blockTexts(page)).toEqual(['Results for the North- West region follow.']);
  });

  it('reads a label/value form row by row instead of as two columns', () => {
    const labels = ['Invoice number:', 'Invoice date:', 'Customer:', 'Due date:', 'Total due:', 'Currency:', 'Reference:', 'Terms:'];
    const values = ['INV-2024-001', '2024-03-01', 'Harbor Supplies', '2024-03-31', '1,250.00', 'EUR', 'PO-7781', 'Net 30'];
    const words = labels.flatMap((label, k) => [...line(label, 72, 100 + 14 * k), ...line(values[k]!, 300, 100 + 14 * k)]);
    const page = layout(shuffled(words));
    expect(page.lines.map((l) => l.text)).toEqual(labels.map((label, k) => `${label} ${values[k]}`));
  });

  it('returns an empty page without words, and ignores words without a box or text', () => {
    const page = layout([{ text: 'floating', origin: { kind: 'box', page: 1, box: { left: 0, top: 0, width: 0, height: 0 } } }, ...line(' ', 72, 100)]);
    expect(page).toMatchObject({ words: [], lines: [], blocks: [], tables: [], width: 612, height: 792, unit: 'pt', ocr: false });
    expect(detectTables).not.toHaveBeenCalled();
  });
});

describe('columns and reading order', () => {
  it('reads two interleaved columns one after the other, a full-width title above and a footer below', () => {
    const left = columnLines('L', 30);
    const right = columnLines('R', 30);
    const words: Word[] = [...line('Annual Report on the Harbor Survey', 72, 60, 20)];
    // File order interleaves the columns, as pdf.js gives it for real two-column files.
    for (let k = 0; k < 30; k++) words.push(...line(left[k]!, 54, 110 + 12 * k), ...line(right[k]!, 318, 110 + 12 * k));
    words.push(...line('Page 1 of 2', 280, 740, 9));
    const page = layout(words);
    const text = page.blocks.map((b) => b.text).join(' ');
    expect(text).toBe(['Annual Report on the Harbor Survey', ...left, ...right, 'Page 1 of 2'].join(' '));
    expect(page.blocks[0]).toMatchObject({ kind: 'heading', level: 1 });
    expect(page.blocks.map((b) => b.kind)).toEqual(['heading', 'paragraph', 'paragraph', 'paragraph']);
  });

  it('reads three columns, and a footer centered under the middle column after all of them', () => {
    const columns = ['A', 'B', 'C'].map((p) => columnLines(p, 25));
    const words: Word[] = [...line('Three Column Newsletter', 200, 50, 18)];
    for (let k = 0; k < 25; k++) columns.forEach((column, c) => words.push(...line(column[k]!, 54 + c * 174, 100 + 11 * k, 9)));
    words.push(...line('Page 4 of 9', 285, 720, 9));
    const text = layout(shuffled(words))
      .blocks.map((b) => b.text)
      .join(' ');
    expect(text).toBe(['Three Column Newsletter', ...columns.flat(), 'Page 4 of 9'].join(' '));
  });

  it('reads a short centered title that crosses no gutter before three columns', () => {
    const columns = ['A', 'B', 'C'].map((p) => columnLines(p, 20));
    const words: Word[] = [...line('Newsletter', 256, 70, 20)];
    for (let k = 0; k < 20; k++) columns.forEach((column, c) => words.push(...line(column[k]!, 54 + c * 174, 100 + 11 * k, 9)));
    const page = layout(shuffled(words));
    expect(page.blocks.map((b) => b.text).join(' ')).toBe(['Newsletter', ...columns.flat()].join(' '));
    expect(page.blocks[0]).toMatchObject({ kind: 'heading', level: 1 });
  });

  it('reads a column that starts lower (under a figure) after the column beside it', () => {
    const left = columnLines('L', 30);
    const right = columnLines('R', 20);
    const words: Word[] = [];
    for (let k = 0; k < 30; k++) words.push(...line(left[k]!, 54, 100 + 12 * k));
    for (let k = 0; k < 20; k++) words.push(...line(right[k]!, 318, 220 + 12 * k));
    const text = layout(shuffled(words))
      .blocks.map((b) => b.text)
      .join(' ');
    expect(text).toBe([...left, ...right].join(' '));
  });

  it('reads a single-column introduction, then two columns below it, then a closing full-width line', () => {
    const intro = Array.from({ length: 4 }, (_, k) => `Intro${k} sentence spans the whole width of the page from margin to margin`);
    const left = columnLines('L', 20);
    const right = columnLines('R', 20);
    const words: Word[] = intro.flatMap((t, k) => line(t, 54, 80 + 12 * k));
    for (let k = 0; k < 20; k++) words.push(...line(left[k]!, 54, 140 + 12 * k), ...line(right[k]!, 318, 140 + 12 * k));
    words.push(...line('Closing remark that spans the full width of the page below both columns', 54, 400));
    const text = layout(shuffled(words))
      .blocks.map((b) => b.text)
      .join(' ');
    expect(text).toBe([...intro, ...left, ...right, 'Closing remark that spans the full width of the page below both columns'].join(' '));
  });

  it('reads a long left column fully before a short right column', () => {
    const left = columnLines('L', 30);
    const right = columnLines('R', 12);
    const words: Word[] = [];
    for (let k = 0; k < 30; k++) words.push(...line(left[k]!, 54, 100 + 12 * k));
    for (let k = 0; k < 12; k++) words.push(...line(right[k]!, 318, 100 + 12 * k));
    const text = layout(shuffled(words))
      .blocks.map((b) => b.text)
      .join(' ');
    expect(text).toBe([...left, ...right].join(' '));
  });

  it('lays out OCR words in pixels, with uneven word heights', () => {
    const words: Word[] = [];
    const rows = ['The quick survey', 'ran across the bay', 'and came back late'];
    rows.forEach((row, r) => {
      let left = 100;
      for (const token of row.split(' ')) {
        // x-height words are shorter and sit lower, like OCR boxes of "ran" against "the".
        const tall = /[bdfhklt]/.test(token);
        const box = { left, top: 200 + 60 * r + (tall ? 0 : 12), width: token.length * 20, height: tall ? 40 : 28 };
        words.push({ text: token, box, origin: { kind: 'box', page: 1, box }, confidence: 90 });
        left += box.width + 14;
      }
    });
    const page = layout(shuffled(words), { unit: 'px', ocr: true, width: 2480, height: 3508 });
    expect(page.unit).toBe('px');
    expect(page.ocr).toBe(true);
    expect(page.lines.map((l) => l.text)).toEqual(rows);
    expect(blockTexts(page)).toEqual([rows.join(' ')]);
  });
});

describe('block kinds', () => {
  it('classifies headings by size and level, all-caps headings, bullet, numbered and lettered list items', () => {
    const words = [
      ...line('Project Checklist', 72, 60, 20),
      ...line('Materials and tools', 72, 100, 14),
      ...line('The team prepares these items before', 72, 124),
      ...line('every survey of the estuary.', 72, 136),
      ...line('•', 76, 160),
      ...line('Fresh water sample bottles', 90, 160),
      ...line('•', 76, 172),
      ...line('Calibrated sensors, checked against', 90, 172),
      ...line('the reference probe', 90, 184),
      ...line('▪Spare batteries', 76, 196),
      ...line('- Cables and clamps', 76, 208),
      ...line('PROCEDURE', 72, 236),
      ...line('1. Collect the samples', 76, 260),
      ...line('2) Label each bottle', 76, 272),
      ...line('a) Record the temperature', 76, 284),
      ...line('Questions go to the office.', 72, 310),
    ];
    const page = layout(shuffled(words));
    expect(page.blocks.map((b) => [b.kind, b.level, b.text])).toEqual([
      ['heading', 1, 'Project Checklist'],
      ['heading', 2, 'Materials and tools'],
      ['paragraph', undefined, 'The team prepares these items before every survey of the estuary.'],
      ['list_item', undefined, '• Fresh water sample bottles'],
      ['list_item', undefined, '• Calibrated sensors, checked against the reference probe'],
      ['list_item', undefined, '▪Spare batteries'],
      ['list_item', undefined, '- Cables and clamps'],
      ['heading', 3, 'PROCEDURE'],
      ['list_item', undefined, '1. Collect the samples'],
      ['list_item', undefined, '2) Label each bottle'],
      ['list_item', undefined, 'a) Record the temperature'],
      ['paragraph', undefined, 'Questions go to the office.'],
    ]);
  });

  it('keeps an all-caps line inside a running paragraph as text', () => {
    const page = layout([...line('The parties agree that', 72, 100), ...line('THE SELLER SHALL DELIVER', 72, 112), ...line('the goods on time.', 72, 124)]);
    expect(page.blocks.map((b) => b.kind)).toEqual(['paragraph']);
  });

  it('treats a long passage in a larger size as a paragraph, not a heading', () => {
    const lines = Array.from({ length: 5 }, (_, k) => line(`Lead${k} paragraph set larger than the body text here`, 72, 100 + 16 * k, 13));
    const body = Array.from({ length: 10 }, (_, k) => line(`Body${k} text in the usual size for this report page`, 72, 200 + 12 * k));
    const page = layout([...lines.flat(), ...body.flat()]);
    expect(page.blocks.map((b) => b.kind)).toEqual(['paragraph', 'paragraph']);
  });
});

describe('tables', () => {
  it('passes words, rules and page size to detectTables, removes table words from the flow and places the table in order', () => {
    const before = line('Totals by station are listed below.', 72, 100);
    const header = [...line('Station', 72, 130), ...line('Total', 300, 130)];
    const rowOne = [...line('North', 72, 144), ...line('12', 300, 144)];
    const after = line('All figures are in tonnes.', 72, 180);
    const words = [...after, ...rowOne, ...before, ...header];
    const index = (text: string) => words.findIndex((w) => w.text === text);
    const cellWords = [['Station'], ['Total'], ['North'], ['12']];
    const table: Table = {
      rowCount: 2,
      columnCount: 2,
      headerRows: 1,
      box: { left: 70, top: 128, width: 250, height: 30 },
      cells: cellWords.map((texts, k) => ({ row: k >> 1, column: k & 1, rowSpan: 1, columnSpan: 1, text: texts.join(' '), words: texts.map(index) })),
    };
    vi.mocked(detectTables).mockReturnValue([table]);
    const rules = [{ x1: 70, y1: 128, x2: 320, y2: 128 }];
    const page = layout(words, { rules });

    expect(detectTables).toHaveBeenCalledWith(words, rules, { width: 612, height: 792 });
    expect(page.blocks.map((b) => b.kind)).toEqual(['paragraph', 'table', 'paragraph']);
    expect(page.blocks[1]).toMatchObject({ table: 0, text: 'Station\tTotal\nNorth\t12', box: table.box });
    expect(blockTexts(page)[0]).toBe('Totals by station are listed below.');
    // Cell word indices now point into the page's own (reading-order) words.
    const cells = page.tables[0]!.cells.map((c) => c.words.map((w) => page.words[w]!.text));
    expect(cells).toEqual(cellWords);
    // Every word is on exactly one line; table rows are lines of the table block.
    expect(page.blocks[1]!.lines.map((l) => page.lines[l]!.text)).toEqual(['Station Total', 'North 12']);
    expect(page.lines.flatMap((l) => l.words).sort((a, b) => a - b)).toEqual(page.words.map((_, i) => i));
  });
});

describe('dropRepeatedHeadersFooters', () => {
  function reportPage(n: number, of: number, body: string): Page {
    return layoutPage({
      number: n,
      width: 612,
      height: 792,
      unit: 'pt',
      ocr: false,
      rules: [],
      words: [...line('Quire Quarterly Review', 72, 30, 9, n), ...line(body, 72, 300, 10, n), ...line(`Page ${n} of ${of}`, 280, 760, 9, n)],
    });
  }

  it('removes a running header and a "Page N of M" footer found on most pages, with their lines and words', () => {
    const pages = [1, 2, 3, 4].map((n) => reportPage(n, 4, `Body text of page number ${n} stays.`));
    pages[3] = layoutPage({ ...pages[3]!, rules: [], words: line('Appendix without running heads at all', 72, 300, 10, 4), unit: 'pt' });
    const dropped = dropRepeatedHeadersFooters(pages);
    expect(dropped.map(blockTexts)).toEqual([
      ['Body text of page number 1 stays.'],
      ['Body text of page number 2 stays.'],
      ['Body text of page number 3 stays.'],
      ['Appendix without running heads at all'],
    ]);
    for (const page of dropped) {
      expect(page.words.map((w) => w.text).join(' ')).toBe(page.blocks.map((b) => b.text).join(' '));
      expect(page.blocks[0]!.lines).toEqual([0]);
      expect(page.lines[0]!.words).toEqual(page.words.map((_, i) => i));
    }
    // The input is not modified.
    expect(blockTexts(pages[0]!)).toHaveLength(3);
  });

  it('keeps everything in a 1- or 2-page document', () => {
    const pages = [1, 2].map((n) => reportPage(n, 2, 'Body text.'));
    expect(dropRepeatedHeadersFooters(pages)).toEqual(pages);
    expect(dropRepeatedHeadersFooters(pages.slice(0, 1))).toEqual(pages.slice(0, 1));
  });

  it('keeps a top line that recurs on fewer than 60% of the pages, and body text that repeats', () => {
    const pages = [1, 2, 3, 4, 5].map((n) => reportPage(n, 5, 'Identical body text on every page.'));
    for (const n of [2, 3, 4]) pages[n] = layoutPage({ number: n + 1, width: 612, height: 792, unit: 'pt', ocr: false, rules: [], words: line('Identical body text on every page.', 72, 300, 10, n + 1) });
    const dropped = dropRepeatedHeadersFooters(pages);
    expect(dropped.map(blockTexts)).toEqual(pages.map(blockTexts));
  });

  it('keeps the title and totals of pages that are copies of one page (original, duplicate, triplicate)', () => {
    const page = (n: number, body: ReturnType<typeof line>) =>
      layoutPage({ number: n, width: 612, height: 792, unit: 'pt', ocr: false, rules: [], words: [...line('FACTURA NRO 00004-00017649', 300, 40, 14, n), ...body, ...line('Total 17,000.00', 400, 740, 10, n)] });
    const copy = (n: number) => page(n, [...line('RAZON SOCIAL: LA SEGUNDA COOP', 72, 200, 10, n), ...line('CONDICION DE COMPRA: CUENTA CORRIENTE', 72, 260, 10, n)]);
    const pages = [1, 2, 3].map(copy);
    expect(dropRepeatedHeadersFooters(pages).map(blockTexts)).toEqual(pages.map(blockTexts));
    expect(blockTexts(pages[0]!)).toContain('Total 17,000.00');
    // Three pages of a report whose bodies differ still lose the same head and foot.
    const report = [1, 2, 3].map((n) => page(n, line(`Body ${'abc'.repeat(n)} differs`, 72, 200, 10, n)));
    expect(dropRepeatedHeadersFooters(report).map(blockTexts)).toEqual([['Body abc differs'], ['Body abcabc differs'], ['Body abcabcabc differs']]);
  });
});
