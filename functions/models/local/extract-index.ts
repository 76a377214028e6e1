/**
 * A Doc indexed once for extraction: every word with its label stems and place; lines in reading order
 * cut into segments (runs of words with no wide gap: a label and its value, one column of a row); the
 * tables as grids of words; postings from stem to words, so a field finds its labels without reading
 * the whole document again (a 10,000-field schema costs lookups, not passes).
 *
 * Neighbours are what label proximity needs: the segment to the right on the same line, the segment
 * below (by geometry for PDFs and images, by source line or paragraph for text and DOCX), the cell to
 * the right and the cell below.
 */
import type { Box, Doc, Origin } from '../../documents/doc.ts';
import { SPLIT_MONEY_FORMS } from '../knowledge/split-money-forms.ts';
import { wordStems } from './extract-words.ts';
import { INDEX_SETTINGS } from './weights/extract-index.ts';

export interface XWord {
  /** Global id (position in `DocIndex.words`). */
  id: number;
  /** 0-based page index. */
  page: number;
  /** Index in `page.words`. */
  index: number;
  text: string;
  stems: string[];
  box?: Box;
  origin: Origin;
  line: number;
  /** Position in its line. */
  position: number;
  segment: number;
  /** The table cell holding the word. */
  cell?: { table: number; row: number; column: number };
  /** OCR confidence 0..100, for OCRed words. */
  confidence?: number;
}

export interface XSegment {
  id: number;
  line: number;
  words: XWord[];
  box?: Box;
}

export interface XLine {
  id: number;
  page: number;
  words: XWord[];
  segments: XSegment[];
  box?: Box;
  text: string;
  /** Whether the line is (part of) one table cell of a CSV, XLSX or DOCX table: no line neighbours. */
  inCell: boolean;
}

export interface XCell {
  row: number;
  column: number;
  words: XWord[];
  text: string;
}

export interface XTable {
  id: number;
  page: number;
  rowCount: number;
  columnCount: number;
  headerRows: number;
  /** grid[row][column]: the cell covering the slot (a spanning cell in its first slot only). */
  grid: Array<Array<XCell | undefined>>;
}

export interface DocIndex {
  doc: Doc;
  words: XWord[];
  lines: XLine[];
  segments: XSegment[];
  tables: XTable[];
  /** Label stem → ids of the words that have it, in reading order. */
  byStem: Map<string, number[]>;
  /** A word's letters and digits, lower case → word ids (finds enum options and codes anywhere). */
  byToken: Map<string, number[]>;
  /** Per page, ids of lines with boxes, by top (geometry queries). */
  linesByTop: number[][];
  /** How numeric dates are written here: 03/05/2024 is March 5 (mdy) or 3 May (dmy). */
  dateOrder: 'mdy' | 'dmy';
  /** Whether a date that reads only one way (25/12/2018) or a dotted date settled `dateOrder`. */
  dateOrderKnown: boolean;
  /** Whether the document is a form printing money in split dollars | cents boxes (../knowledge/split-money-forms.ts). */
  splitCents: boolean;
}

export const normalizeToken = (text: string) => text.toLowerCase().replace(/[^\p{L}\p{N}]/gu, '');

/** How sure OCR was of words on average, 0..100 (words of a text layer count as sure: 100). */
export const meanOcrConfidence = (words: readonly XWord[]) => words.reduce((sum, w) => sum + (w.confidence ?? 100), 0) / Math.max(1, words.length);

const rightOf = (b: Box) => b.left + b.width;
const bottomOf = (b: Box) => b.top + b.height;

function unionAll(boxes: Box[]): Box | undefined {
  if (boxes.length === 0) return undefined;
  let left = Infinity;
  let top = Infinity;
  let right = -Infinity;
  let bottom = -Infinity;
  for (const b of boxes) {
    left = Math.min(left, b.left);
    top = Math.min(top, b.top);
    right = Math.max(right, rightOf(b));
    bottom = Math.max(bottom, bottomOf(b));
  }
  return { left, top, width: right - left, height: bottom - top };
}

/** Start and end offsets of a span origin (text, DOCX), for gaps between words. */
function spanOf(origin: Origin): { start: number; end: number } | undefined {
  if (origin.kind === 'text' || origin.kind === 'docx_paragraph' || origin.kind === 'docx_cell') return { start: origin.charStart, end: origin.charEnd };
  return undefined;
}

/**
 * Whether two consecutive words of a line belong to different segments: a wide gap between them, or
 * (layout may join a small caption and the larger text under it into one line) no vertical overlap.
 */
/** A vertical rule printed or read as text: a column's edge, never part of a value. */
export const RULE = /^[|¦│┃]+$/;

function wideGap(a: XWord, b: XWord): boolean {
  if (a.box && b.box) {
    const height = Math.min(a.box.height, b.box.height) || 1;
    const overlap = Math.min(bottomOf(a.box), bottomOf(b.box)) - Math.max(a.box.top, b.box.top);
    return b.box.left - rightOf(a.box) > INDEX_SETTINGS.segmentGap * height || overlap < INDEX_SETTINGS.segmentOverlap * height;
  }
  const sa = spanOf(a.origin);
  const sb = spanOf(b.origin);
  if (sa && sb) return sb.start - sa.end >= INDEX_SETTINGS.segmentGapCharacters;
  return false;
}

export function indexDoc(doc: Doc): DocIndex {
  const index: DocIndex = { doc, words: [], lines: [], segments: [], tables: [], byStem: new Map(), byToken: new Map(), linesByTop: [], dateOrder: 'mdy', dateOrderKnown: false, splitCents: false };
  doc.pages.forEach((page, p) => {
    // Lines in reading order: the blocks' lines, then any line no block lists.
    const order: number[] = [];
    const seen = new Set<number>();
    for (const block of page.blocks) {
      for (const l of block.lines) {
        if (seen.has(l) || !page.lines[l]) continue;
        seen.add(l);
        order.push(l);
      }
    }
    page.lines.forEach((_, l) => {
      if (!seen.has(l)) order.push(l);
    });

    const wordIds = new Map<number, XWord>();
    for (const l of order) {
      const source = page.lines[l]!;
      const line: XLine = { id: index.lines.length, page: p, words: [], segments: [], text: source.text, inCell: false };
      if (source.box) line.box = source.box;
      for (const w of source.words) {
        const word = page.words[w];
        if (!word || wordIds.has(w) || word.text.trim() === '') continue;
        const x: XWord = { id: index.words.length, page: p, index: w, text: word.text, stems: wordStems(word.text), origin: word.origin, line: line.id, position: line.words.length, segment: -1 };
        if (word.box) x.box = word.box;
        if (word.confidence !== undefined) x.confidence = word.confidence;
        index.words.push(x);
        wordIds.set(w, x);
        line.words.push(x);
      }
      if (line.words.length === 0) continue;
      const kind = line.words[0]!.origin.kind;
      line.inCell = kind === 'cell' || kind === 'docx_cell';
      // Segments: cut the line at wide gaps, and at a rule OCR read as a bar ("Price Each | Amount").
      let segment: XSegment | undefined;
      line.words.forEach((word, i) => {
        if (!segment || wideGap(line.words[i - 1]!, word) || RULE.test(word.text) || RULE.test(line.words[i - 1]!.text)) {
          segment = { id: index.segments.length, line: line.id, words: [] };
          index.segments.push(segment);
          line.segments.push(segment);
        }
        word.segment = segment.id;
        segment.words.push(word);
      });
      for (const s of line.segments) {
        const box = unionAll(s.words.flatMap((w) => (w.box ? [w.box] : [])));
        if (box) s.box = box;
      }
      if (!line.box) {
        const box = unionAll(line.words.flatMap((w) => (w.box ? [w.box] : [])));
        if (box) line.box = box;
      }
      index.lines.push(line);
    }

    page.tables.forEach((table) => {
      const xt: XTable = {
        id: index.tables.length,
        page: p,
        rowCount: table.rowCount,
        columnCount: table.columnCount,
        headerRows: table.headerRows,
        grid: Array.from({ length: table.rowCount }, () => Array<XCell | undefined>(table.columnCount).fill(undefined)),
      };
      for (const cell of table.cells) {
        const words = cell.words.flatMap((w) => (wordIds.get(w) ? [wordIds.get(w)!] : []));
        const xc: XCell = { row: cell.row, column: cell.column, words, text: cell.text };
        if (xt.grid[cell.row]) xt.grid[cell.row]![cell.column] = xc;
        for (const word of words) word.cell ??= { table: xt.id, row: cell.row, column: cell.column };
      }
      index.tables.push(xt);
    });

    index.linesByTop.push(
      index.lines
        .filter((l) => l.page === p && l.box)
        .map((l) => l.id)
        .sort((a, b) => index.lines[a]!.box!.top - index.lines[b]!.box!.top || a - b),
    );
  });

  for (const word of index.words) {
    for (const stem of new Set(word.stems)) {
      const list = index.byStem.get(stem);
      if (list) list.push(word.id);
      else index.byStem.set(stem, [word.id]);
    }
    const token = normalizeToken(word.text);
    if (token) {
      const list = index.byToken.get(token);
      if (list) list.push(word.id);
      else index.byToken.set(token, [word.id]);
    }
  }
  const order = dateOrderOf(index.words);
  index.dateOrder = order.order;
  index.dateOrderKnown = order.known;
  index.splitCents = printsSplitMoney(index.lines);
  return index;
}

/** Whether a line prints a mark of a form with split money boxes ("UB-04", "CMS-1500"). */
function printsSplitMoney(lines: XLine[]): boolean {
  const marks = SPLIT_MONEY_FORMS.flatMap((f) => f.marks);
  return lines.some((line) => {
    const text = line.text.toLowerCase();
    return marks.some((mark) => text.includes(mark));
  });
}

/** Which way numeric dates go, from dates that can only be read one way (a part above 12). */
function dateOrderOf(words: XWord[]): { order: 'mdy' | 'dmy'; known: boolean } {
  let mdy = 0;
  let dmy = 0;
  let dotted = 0;
  for (const word of words) {
    const m = /^(\d{1,2})([./-])(\d{1,2})\2(\d{2}|\d{4})$/.exec(word.text.replace(/^[^\d]+|[^\d]+$/g, ''));
    if (!m) continue;
    const a = Number(m[1]);
    const b = Number(m[3]);
    if (a > 12 && b <= 12) dmy++;
    if (b > 12 && a <= 12) mdy++;
    if (m[2] === '.') dotted++;
  }
  if (dmy !== mdy) return { order: dmy > mdy ? 'dmy' : 'mdy', known: true };
  // Dotted dates (05.03.2024) are day-first where they are used.
  return dotted > 0 ? { order: 'dmy', known: true } : { order: 'mdy', known: false };
}

// ---------------------------------------------------------------------------------------------
// Neighbours

export function segmentAfter(index: DocIndex, segment: XSegment): XSegment | undefined {
  const line = index.lines[segment.line]!;
  const at = line.segments.indexOf(segment);
  return line.segments[at + 1];
}

/** The line number a span origin sits on (text line, DOCX paragraph), for "the next line". */
function sourceLineOf(origin: Origin): { unit: string; number: number } | undefined {
  if (origin.kind === 'text') return { unit: 'text', number: origin.lineStart };
  if (origin.kind === 'docx_paragraph') return { unit: 'paragraph', number: origin.paragraph };
  return undefined;
}

/**
 * The segment under `segment`: for boxed words, the first line below (within INDEX_SETTINGS.belowGap heights of
 * space) with a segment overlapping it horizontally; for text and DOCX, the next source line or
 * paragraph (one blank line allowed), the segment in the same column.
 */
export function segmentBelow(index: DocIndex, segment: XSegment, maxGap = INDEX_SETTINGS.belowGap): XSegment | undefined {
  const line = index.lines[segment.line]!;
  if (line.inCell) return undefined;
  if (segment.box) {
    const box = segment.box;
    const height = box.height || 1;
    for (const id of index.linesByTop[line.page] ?? []) {
      const other = index.lines[id]!;
      if (id === line.id || !other.box || other.box.top < bottomOf(box) - INDEX_SETTINGS.belowOverlap * height) continue;
      if (other.box.top - bottomOf(box) > maxGap * height) break;
      const below = other.segments.find((s) => s.box && s.box.left < rightOf(box) && rightOf(s.box) > box.left);
      if (below) return below;
    }
    return undefined;
  }
  const here = sourceLineOf(segment.words[0]!.origin);
  if (!here) return undefined;
  for (let id = line.id + 1; id < index.lines.length && id <= line.id + INDEX_SETTINGS.belowLines; id++) {
    const other = index.lines[id]!;
    if (other.page !== line.page || other.inCell) return undefined;
    const there = sourceLineOf(other.words[0]!.origin);
    if (!there || there.unit !== here.unit) return undefined;
    const step = there.number - here.number;
    if (step <= 0) continue;
    if (step > (here.unit === 'text' ? INDEX_SETTINGS.belowStep : 1)) return undefined;
    // The same column: the segment starting nearest the label's offset from its line's start.
    const offset = (s: XSegment, l: XLine) => (spanOf(s.words[0]!.origin)?.start ?? 0) - (spanOf(l.words[0]!.origin)?.start ?? 0);
    const wanted = offset(segment, line);
    let best = other.segments[0]!;
    for (const s of other.segments) if (Math.abs(offset(s, other) - wanted) < Math.abs(offset(best, other) - wanted)) best = s;
    return best;
  }
  return undefined;
}

/**
 * Lines stacked under a segment, aligned with it: a name and address block under "Bill To:" or under
 * the letterhead. Stops at a gap, a change of alignment, or a line that is a label of its own.
 */
export function blockBelow(index: DocIndex, first: XSegment, maxLines: number): XSegment[] {
  const block = [first];
  let last = first;
  while (block.length < maxLines) {
    const next = segmentBelow(index, last, INDEX_SETTINGS.blockGap);
    if (!next) break;
    if (first.box && next.box && Math.abs(next.box.left - first.box.left) > INDEX_SETTINGS.blockAlignment * (first.box.height || 1)) break;
    if (next.words.some((w) => w.text.endsWith(':'))) break;
    block.push(next);
    last = next;
  }
  return block;
}

export function cellAt(index: DocIndex, table: number, row: number, column: number): XCell | undefined {
  return index.tables[table]?.grid[row]?.[column];
}

/** The text a value is read in: its line, or its table row (cells separated by " | "). */
export function contextOf(index: DocIndex, word: XWord): string {
  const line = index.lines[word.line]!;
  if (line.inCell && word.cell) {
    const row = index.tables[word.cell.table]?.grid[word.cell.row] ?? [];
    return row.map((c) => (c ? c.text.replace(/\s+/g, ' ').trim() : '')).join(' | ');
  }
  return line.text;
}
