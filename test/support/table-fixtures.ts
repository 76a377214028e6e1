/**
 * Synthetic pages for table detection: words with realistic boxes (0.5 em per character, 0.28 em
 * spaces, box height = font size) laid out as tables (ruled, booktabs, unruled) and prose, plus the
 * ground truth each table should come back as. Also a real PDF (pdf-lib) and a rendered scan of tables,
 * for end-to-end runs through the PDF reader and OCR.
 */
import { createCanvas } from '@napi-rs/canvas';
import { PDFDocument, rgb, StandardFonts } from 'pdf-lib';
import type { Box, GreyImage, Rule, Word } from '../../functions/documents/doc.ts';

export type Align = 'left' | 'right' | 'center';

/** How the table's borders are drawn. */
export type RuleStyle =
  /** every cell edge, drawn cell by cell (as word processors do) */
  | 'grid'
  /** top rule, rule under the header row, bottom rule */
  | 'booktabs'
  /** a horizontal rule above, under and between every row, no vertical rules */
  | 'rows'
  /** outer frame, vertical rules between columns, a rule under the header row */
  | 'columns'
  | 'none';

export interface Merge {
  row: number;
  column: number;
  rowSpan: number;
  columnSpan: number;
}

export interface GridOptions {
  x0: number;
  y0: number;
  colWidths: number[];
  /** Minimum row height; rows holding wrapped cells grow. */
  rowHeight?: number;
  fontSize?: number;
  /** Font size of row 0 (a larger header). */
  headerFontSize?: number;
  /** One alignment for all columns or one per column. */
  align?: Align | Align[];
  padding?: number;
  rules?: RuleStyle;
  /** Merged cells: the text sits in the top-left slot of `rows`, the other slots are ''. */
  merges?: Merge[];
  /** Draw the rule under the header row twice, 2 units apart. */
  doubleHeaderRule?: boolean;
  /** Page number in the words' origins. */
  page?: number;
  /** Real font metrics (say pdf-lib's Helvetica) instead of 0.5 em per character. */
  measure?: Measure;
}

export interface TableFixture {
  words: Word[];
  rules: Rule[];
  /** Expected `tableRows()` (wrapped lines joined with a space; merged cells in their first slot). */
  expected: string[][];
  /** Row boundaries (rowCount + 1) and column boundaries (columnCount + 1). */
  ys: number[];
  xs: number[];
  box: Box;
  bottom: number;
}

export const SPACE_EM = 0.28;

/** Width of a text at a font size: 0.5 em per character unless a real font's metrics are given. */
export type Measure = (text: string, fontSize: number) => number;

export const roughMeasure: Measure = (text, fontSize) => 0.5 * fontSize * text.length;

export function textWidth(text: string, fontSize = 10, measure = roughMeasure): number {
  return measure(text, fontSize);
}

export function lineWidth(text: string, fontSize = 10, measure = roughMeasure): number {
  const tokens = text.split(' ').filter(Boolean);
  return tokens.reduce((sum, t) => sum + measure(t, fontSize), 0) + SPACE_EM * fontSize * Math.max(0, tokens.length - 1);
}

/** Words of one line of text starting at (left, top). */
export function lineWords(text: string, left: number, top: number, fontSize = 10, page = 1, measure = roughMeasure): Word[] {
  const words: Word[] = [];
  let x = left;
  for (const token of text.split(' ').filter(Boolean)) {
    const box: Box = { left: x, top, width: measure(token, fontSize), height: fontSize };
    words.push({ text: token, box, origin: { kind: 'box', page, box } });
    x += box.width + SPACE_EM * fontSize;
  }
  return words;
}

/** Greedy word wrap to `width`, lines joined with '\n' (how a cell's text wraps). */
export function wrap(text: string, width: number, fontSize = 10, measure = roughMeasure): string {
  const lines: string[] = [];
  let current = '';
  for (const token of text.split(' ').filter(Boolean)) {
    const candidate = current ? `${current} ${token}` : token;
    if (current && lineWidth(candidate, fontSize, measure) > width) {
      lines.push(current);
      current = token;
    } else current = candidate;
  }
  if (current) lines.push(current);
  return lines.join('\n');
}

/** A table laid out cell by cell; '\n' in a cell's text starts a new line inside the cell. */
export function gridWords(rows: string[][], options: GridOptions): TableFixture {
  const { x0, y0, colWidths, rowHeight = 18, fontSize = 10, padding = 4, rules: style = 'none', merges = [], measure = roughMeasure } = options;
  const lineGap = 1.2 * fontSize;
  const alignOf = (c: number): Align => (Array.isArray(options.align) ? options.align[c] ?? 'left' : options.align ?? 'left');
  const sizeOf = (r: number) => (r === 0 && options.headerFontSize ? options.headerFontSize : fontSize);
  const mergeAt = (r: number, c: number) => merges.find((m) => m.row === r && m.column === c);
  const covered = (r: number, c: number) => merges.find((m) => r >= m.row && r < m.row + m.rowSpan && c >= m.column && c < m.column + m.columnSpan);

  const xs = [x0];
  for (const w of colWidths) xs.push(xs.at(-1)! + w);
  // Row heights: tall enough for the wrapped lines of every cell that sits in one row.
  const heights = rows.map((row, r) =>
    Math.max(
      rowHeight,
      ...row.map((cell, c) => {
        const m = mergeAt(r, c);
        if (m && m.rowSpan > 1) return 0;
        const n = cell.split('\n').length;
        return (n - 1) * 1.2 * sizeOf(r) + sizeOf(r) + 2 * padding;
      }),
    ),
  );
  const ys = [y0];
  for (const h of heights) ys.push(ys.at(-1)! + h);

  const words: Word[] = [];
  rows.forEach((row, r) => {
    row.forEach((cell, c) => {
      if (cell === '') return;
      const m = mergeAt(r, c) ?? { row: r, column: c, rowSpan: 1, columnSpan: 1 };
      const left = xs[c];
      const right = xs[c + m.columnSpan];
      const size = sizeOf(r);
      const cellLines = cell.split('\n');
      // Merged cells centre their text vertically across their rows, as word processors do.
      const top = m.rowSpan > 1 ? (ys[r] + ys[r + m.rowSpan] - ((cellLines.length - 1) * 1.2 * size + size)) / 2 : ys[r] + padding;
      cellLines.forEach((text, k) => {
        const width = lineWidth(text, size, measure);
        const align = m.columnSpan > 1 ? 'center' : alignOf(c);
        const x = align === 'left' ? left + padding : align === 'right' ? right - padding - width : (left + right - width) / 2;
        words.push(...lineWords(text, x, top + k * lineGap * (size / fontSize), size, options.page ?? 1, measure));
      });
    });
  });

  const R = rows.length;
  const C = colWidths.length;
  const rules: Rule[] = [];
  const hRule = (y: number, from: number, to: number) => rules.push({ x1: from, y1: y, x2: to, y2: y });
  const vRule = (x: number, from: number, to: number) => rules.push({ x1: x, y1: from, x2: x, y2: to });
  if (style === 'grid') {
    // Each cell edge on its own, skipping edges inside merged cells.
    for (let k = 0; k <= R; k++) {
      for (let c = 0; c < C; c++) {
        const inside = k > 0 && k < R && covered(k - 1, c) !== undefined && covered(k - 1, c) === covered(k, c);
        if (!inside) hRule(ys[k], xs[c], xs[c + 1]);
      }
    }
    for (let k = 0; k <= C; k++) {
      for (let r = 0; r < R; r++) {
        const inside = k > 0 && k < C && covered(r, k - 1) !== undefined && covered(r, k - 1) === covered(r, k);
        if (!inside) vRule(xs[k], ys[r], ys[r + 1]);
      }
    }
  } else if (style === 'booktabs' || style === 'rows' || style === 'columns') {
    const ruled = style === 'rows' ? range(R + 1) : [0, 1, R];
    for (const k of ruled) hRule(ys[k], xs[0], xs[C]);
    if (style === 'columns') for (let k = 0; k <= C; k++) vRule(xs[k], ys[0], ys[R]);
  }
  if (options.doubleHeaderRule) hRule(ys[1] + 2, xs[0], xs[C]);

  const expected = rows.map((row) => row.map((cell) => cell.split('\n').join(' ')));
  const box = { left: xs[0], top: ys[0], width: xs[C] - xs[0], height: ys[R] - ys[0] };
  return { words, rules, expected, ys, xs, box, bottom: ys[R] };
}

const PROSE =
  `The survey team collected water samples at every station along the eastern transect during the spring season and compared them with the records of former years. ` +
  `Most results confirm the steady trend reported last year, although the northern stations show a modest increase in salinity that requires a careful review. ` +
  `The crew replaced two sensors on the central buoy and checked every cable before the vessel returned to the harbor in the late evening.`;

/** Running text wrapped to `width` from (x0, y0); `text` defaults to a few sentences of prose. */
export function proseWords(options: { x0: number; y0: number; width: number; fontSize?: number; text?: string; sentences?: number; page?: number }): {
  words: Word[];
  bottom: number;
} {
  const fontSize = options.fontSize ?? 10;
  const text = options.text ?? PROSE.split('. ').slice(0, options.sentences ?? 3).join('. ');
  const lines = wrap(text, options.width, fontSize).split('\n');
  const words = lines.flatMap((line, k) => lineWords(line, options.x0, options.y0 + k * 1.2 * fontSize, fontSize, options.page ?? 1));
  return { words, bottom: options.y0 + lines.length * 1.2 * fontSize };
}

/** Fixtures placed one after another on a page: word indices shift, rules concatenate. */
export function page(...parts: { words: Word[]; rules?: Rule[] }[]): { words: Word[]; rules: Rule[]; offsets: number[] } {
  const words: Word[] = [];
  const rules: Rule[] = [];
  const offsets: number[] = [];
  for (const part of parts) {
    offsets.push(words.length);
    words.push(...part.words);
    rules.push(...(part.rules ?? []));
  }
  return { words, rules, offsets };
}

function range(n: number): number[] {
  return Array.from({ length: n }, (_, i) => i);
}

/** A small deterministic generator (Park–Miller), so generated pages are the same on every run. */
export function seeded(seed: number): () => number {
  let state = seed % 2147483647 || 1;
  return () => {
    state = (state * 16807) % 2147483647;
    return state / 2147483647;
  };
}

const VOCABULARY = `river harbor survey sample water coastal estuary tide current sediment salinity station transect
  season winter summer vessel crew captain engineer analyst report figure record`.split(/\s+/);
const FILLER = `the a of and to in for with on at by from after before during across between under over through
  while because although since unless until each every several many most few some other our their its this
  that these those which where when how was were is are has have had will would could should may might must
  can`.split(/\s+/);

/**
 * A random table: 3–7 columns of text, numbers and short values (some empty, sometimes a wrapped text
 * column), random widths, alignments and border style, with prose above and below it.
 */
export function randomTable(random: () => number): TableFixture & { style: RuleStyle; page: Word[] } {
  const pick = <T>(items: readonly T[]): T => items[Math.floor(random() * items.length)];
  const phrase = (n: number) => Array.from({ length: n }, () => pick(VOCABULARY)).join(' ');
  const columnCount = 3 + Math.floor(random() * 5);
  const rowCount = 4 + Math.floor(random() * 8);
  const kinds = Array.from({ length: columnCount }, (_, c) => (c === 0 ? 'text' : pick(['number', 'number', 'text', 'short'] as const)));
  const wrapped = columnCount > 3 && random() < 0.5 ? columnCount - 1 : -1;
  const rows = Array.from({ length: rowCount }, (_, r) =>
    kinds.map((kind, c) => {
      if (r === 0) return pick(['Name', 'Amount', 'Total cost', 'Share', 'Count', 'Site code', 'Notes']);
      if (c > 0 && random() < 0.12) return '';
      if (c === wrapped) return wrap(phrase(3 + Math.floor(random() * 8)), 110);
      if (kind === 'number') return (random() * 10000).toFixed(pick([0, 1, 2])).replace(/\B(?=(\d{3})+(?!\d))/g, ',');
      if (kind === 'short') return pick(['yes', 'no', 'n/a', 'open', 'closed']);
      return phrase(1 + Math.floor(random() * 3));
    }),
  );
  // Columns as wide as their widest line plus the cell padding, sometimes no more.
  const widths = kinds.map((_, c) => Math.max(...rows.map((row) => Math.max(...row[c].split('\n').map((line) => lineWidth(line))))) + 8 + (random() < 0.3 ? 0 : random() * 30));
  const align = kinds.map((kind, c) => (c === wrapped ? 'left' : kind === 'number' ? 'right' : pick(['left', 'left', 'center'] as const)));
  const style = pick(['none', 'grid', 'booktabs', 'rows', 'columns'] as const);
  const above = proseWords({ x0: 40, y0: 40, width: 480 });
  const table = gridWords(rows, { x0: 40, y0: above.bottom + 4 + random() * 20, colWidths: widths, align, rules: style, rowHeight: 12.5 + random() * 8 });
  const below = proseWords({ x0: 40, y0: table.bottom + 4 + random() * 20, width: 480, sentences: 2 });
  return { ...table, style, page: [...above.words, ...table.words, ...below.words] };
}

/**
 * A random page of running text: one to three columns, ragged or justified, headings, bulleted and
 * numbered lists, different sizes, gutters and line spacing, columns starting at different heights.
 */
export function randomProsePage(random: () => number): Word[] {
  const pick = <T>(items: readonly T[]): T => items[Math.floor(random() * items.length)];
  const sentence = (n: number) => `${Array.from({ length: n }, () => pick(random() < 0.5 ? VOCABULARY : FILLER)).join(' ')}.`;
  const columns = pick([1, 2, 2, 3]);
  const size = pick([8, 9, 10, 11, 12]);
  const gutter = pick([12, 18, 24, 36]);
  const justify = random() < 0.5;
  const leading = pick([1.15, 1.2, 1.3, 1.5]) * size;
  const width = (540 - gutter * (columns - 1)) / columns;
  const words: Word[] = [];
  for (let c = 0; c < columns; c++) {
    const x0 = 36 + c * (width + gutter);
    let y = 50 + random() * size * (1 + c);
    while (y < 700) {
      if (random() < 0.15) {
        words.push(...lineWords(pick(['Methods', 'Results and discussion', '2. Field work', 'Summary']), x0, y, size + 2));
        y += (size + 2) * 1.6;
      }
      if (random() < 0.15) {
        for (let k = 0; k < 3 + Math.floor(random() * 3); k++) {
          words.push(...lineWords(pick(['•', '-', `${k + 1}.`]), x0, y, size), ...lineWords(sentence(3 + Math.floor(random() * 6)), x0 + 14, y, size));
          y += leading;
        }
        y += size;
      }
      const lines = wrap(sentence(20 + Math.floor(random() * 60)), width, size).split('\n');
      lines.forEach((line, k) => {
        const placed = lineWords(line, x0, y, size);
        // Justified: every line but a paragraph's last stretched to the full column width.
        if (justify && k < lines.length - 1 && placed.length > 1) {
          const last = placed.at(-1)!.box!;
          const extra = x0 + width - (last.left + last.width);
          placed.forEach((word, i) => ((word.box as { left: number }).left += (extra * i) / (placed.length - 1)));
        }
        words.push(...placed);
        y += leading;
      });
      y += size * pick([0.5, 1]);
    }
  }
  return words;
}

const QUARTERS = [
  ['Region', 'Q1', 'Q2', 'Q3', 'Q4'],
  ['North America', '1,204', '1,310.50', '998', '1,402'],
  ['Western Europe', '877', '902.25', '1,050', '1,120'],
  ['Asia Pacific', '2,310', '2,450.75', '2,601', '2,777'],
  ['Latin America', '412', '398.10', '455', '470'],
];

const STATIONS = [
  ['Station', 'Depth (m)', 'Salinity', 'Oxygen', 'Notes'],
  ['N-1', '12.0', '31.2', '7.9', 'calm water'],
  ['N-2', '18.5', '32.0', '7.1', 'strong current'],
  ['S-1', '9.0', '29.8', '8.4', ''],
  ['S-2', '11.5', '30.1', '8.0', 'sensor replaced'],
];

const SUPPLIES = [
  ['Item', 'Count', 'Share'],
  ['Bottles', '140', '52%'],
  ['Cables', '88', '33%'],
  ['Sensors', '41', '15%'],
];

/**
 * A one-page PDF as a word processor or LaTeX would draw it (Helvetica, bold header): prose, a ruled
 * grid, an unruled table under a title, a booktabs table, and a two-column passage. Expected tables
 * in order.
 */
export async function tablesPdf(): Promise<{ bytes: Uint8Array; expected: string[][][] }> {
  const doc = await PDFDocument.create();
  const font = await doc.embedFont(StandardFonts.Helvetica);
  const bold = await doc.embedFont(StandardFonts.HelveticaBold);
  const page = doc.addPage([612, 792]);
  // Positions given top-down, as on the page; the baseline sits 0.8 em below a line's top.
  const text = (value: string, x: number, top: number, face = font, size = 10) => page.drawText(value, { x, y: 792 - top - 0.8 * size, size, font: face });
  const right = (value: string, x: number, top: number, face = font) => text(value, x - face.widthOfTextAtSize(value, 10), top, face);
  const line = (x1: number, y1: number, x2: number, y2: number, thickness = 0.5) =>
    page.drawLine({ start: { x: x1, y: 792 - y1 }, end: { x: x2, y: 792 - y2 }, thickness, color: rgb(0, 0, 0) });

  text('The survey team collected water samples at every station along the eastern transect during the', 72, 60);
  text('spring season and compared them with the records of former years, as the table below shows.', 72, 72);

  const xs = [72, 202, 272, 352, 422, 492];
  QUARTERS.forEach((row, r) =>
    row.forEach((cell, c) => (c === 0 ? text(cell, xs[c] + 4, 104 + 18 * r, r === 0 ? bold : font) : right(cell, xs[c + 1] - 4, 104 + 18 * r, r === 0 ? bold : font))),
  );
  for (let k = 0; k <= QUARTERS.length; k++) line(72, 100 + 18 * k, 492, 100 + 18 * k);
  for (const x of xs) line(x, 100, x, 100 + 18 * QUARTERS.length);

  text('Station measurements', 72, 212, bold, 11);
  STATIONS.forEach((row, r) => {
    const top = 230 + 14 * r;
    text(row[0], 72, top);
    right(row[1], 220, top);
    right(row[2], 290, top);
    right(row[3], 360, top);
    text(row[4], 380, top);
  });

  let top = 330;
  line(72, top, 400, top, 1);
  SUPPLIES.forEach((row, r) => {
    top += 4;
    text(row[0], 76, top);
    right(row[1], 300, top);
    right(row[2], 396, top);
    top += 14;
    if (r === 0) line(72, top, 400, top);
  });
  line(72, top + 4, 400, top + 4, 1);

  const left = [
    'Most results confirm the steady trend reported last',
    'year, although the northern stations show a modest',
    'increase in salinity that requires a careful review.',
  ];
  const rightColumn = [
    'The crew replaced two sensors on the central buoy',
    'and checked every cable before the vessel returned',
    'to the harbor in the late evening of that same day.',
  ];
  for (let k = 0; k < 9; k++) {
    text(left[k % 3], 72, 420 + 12 * k);
    text(rightColumn[k % 3], 330, 420 + 12 * k);
  }
  return { bytes: await doc.save(), expected: [QUARTERS, STATIONS, SUPPLIES] };
}

/** A greyscale scan (canvas, sans-serif) of a sentence and an unruled table of right-aligned numbers. */
export function tableScan(dpi = 200): { image: GreyImage; expected: string[][] } {
  const scale = dpi / 72;
  const canvas = createCanvas(Math.round(8.5 * dpi), Math.round(4 * dpi));
  const context = canvas.getContext('2d');
  context.fillStyle = '#ffffff';
  context.fillRect(0, 0, canvas.width, canvas.height);
  context.fillStyle = '#000000';
  context.font = `${10 * scale}px sans-serif`;
  context.fillText('The survey team compared the quarterly totals of every region, as shown below.', 72 * scale, 60 * scale);
  const rights = [0, 272, 352, 422, 492];
  QUARTERS.forEach((row, r) =>
    row.forEach((cell, c) => {
      const x = c === 0 ? 76 : rights[c] - context.measureText(cell).width / scale;
      context.fillText(cell, x * scale, (100 + 16 * r) * scale);
    }),
  );
  const rgba = context.getImageData(0, 0, canvas.width, canvas.height).data;
  const data = new Uint8Array(canvas.width * canvas.height);
  for (let i = 0; i < data.length; i++) data[i] = rgba[i * 4];
  return { image: { width: canvas.width, height: canvas.height, data, dpi }, expected: QUARTERS };
}
