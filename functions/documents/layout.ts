/**
 * Page layout from positioned words: the part of reading shared by PDF text layers and OCR output.
 *
 * Words arrive in whatever order the source gives (pdf.js gives content-stream order, which interleaves
 * the columns of real files), so nothing here trusts input order. The steps:
 *   1. tables are found by ./tables.ts; their words leave the text flow,
 *   2. the other words are chained into fragments: runs on one baseline with no gap wide enough to be
 *      a column gutter,
 *   3. fragments (and tables) are put in reading order by recursive cuts: wide horizontal whitespace
 *      bands first (headers, footers, titles set apart), then vertical gutters (tall empty strips with
 *      prose on both sides), so columns are read one after the other,
 *   4. inside each single-column run, fragments on one row become a line, and lines become blocks
 *      (heading, list item, paragraph) from font size, markers and line spacing.
 * `dropRepeatedHeadersFooters` then works across pages.
 *
 * Sizes are relative to the text height, so the same rules hold for points and pixels.
 */
import { createHash } from 'node:crypto';
import { logicalOrder } from './bidi.ts';
import { type Block, type BlockKind, type Box, type Line, type Page, type Rule, type Table, tableRows, type Word, unionBox, unionOfTwo } from './doc.ts';
import { medianOf, orderByKey } from './order.ts';
import { detectTables } from './tables.ts';

export interface LayoutInput {
  number: number;
  width: number;
  height: number;
  unit: 'pt' | 'px';
  ocr: boolean;
  /** Words with boxes in page units, top-left origin; words without a box or text are ignored. */
  words: Word[];
  rules: Rule[];
  /** Fillable form fields on the page (PDF widgets), passed through. */
  formFields?: number;
}

/** Words on one baseline, chained left to right with no gap wider than WORD_GAP × height. */
interface Fragment {
  /** Indices into the layout's words, left to right. */
  words: number[];
  box: Box;
  /** Text height (the tallest word's box height). */
  size: number;
}

/** Something that takes a place in reading order: a fragment of a line, or a whole table. */
interface Item {
  box: Box;
  fragment?: Fragment;
  table?: number;
}

interface LineDraft {
  words: number[];
  box: Box;
  size: number;
  text: string;
}

type Entry = { line: LineDraft; table?: undefined } | { table: number; box: Box; line?: undefined };

interface BlockDraft {
  kind: BlockKind;
  level?: number;
  lines: LineDraft[];
  table?: number;
  text: string;
}

/** Widest gap (in text heights) between two words of one fragment; wider gaps may be gutters. */
const WORD_GAP = 1.0;
/** A horizontal whitespace band at least this tall (in text heights) separates parts of the page. */
const SECTION_GAP = 2.5;

const right = (b: Box) => b.left + b.width;
const bottom = (b: Box) => b.top + b.height;
const centerX = (b: Box) => b.left + b.width / 2;
const centerY = (b: Box) => b.top + b.height / 2;
const verticalOverlap = (a: Box, b: Box) => Math.min(bottom(a), bottom(b)) - Math.max(a.top, b.top);

export function layoutPage(input: LayoutInput): Page {
  const words = input.words.filter((w) => w.box !== undefined && w.box.width >= 0 && w.box.height > 0 && w.text.trim() !== '');
  const page: Page = {
    number: input.number,
    width: input.width,
    height: input.height,
    unit: input.unit,
    ocr: input.ocr,
    words: [],
    lines: [],
    blocks: [],
    tables: [],
    rules: input.rules,
    ...(input.formFields ? { formFields: input.formFields } : {}),
  };
  if (words.length === 0) return page;
  const boxOf = (i: number) => words[i]!.box!;

  const tables = detectTables(words, input.rules, { width: input.width, height: input.height });
  // A word belongs to at most one table (the first that claims it); the rest flow as text.
  const tableOf = new Map<number, number>();
  tables.forEach((table, t) => {
    for (const cell of table.cells) for (const w of cell.words) if (words[w] && !tableOf.has(w)) tableOf.set(w, t);
  });
  const tableWords = tables.map(() => [] as number[]);
  for (const [w, t] of tableOf) tableWords[t]!.push(w);

  const flow = words.map((_, i) => i).filter((i) => !tableOf.has(i));
  const fragments = buildFragments(flow, boxOf);
  const items: Item[] = fragments.map((fragment) => ({ box: fragment.box, fragment }));
  tables.forEach((table, t) => {
    const box = table.box ?? unionBox(tableWords[t]!.map(boxOf));
    if (box) items.push({ box, table: t });
  });

  const textHeight = medianOf(fragments.map((f) => f.size)) ?? medianOf(words.map((w) => w.box!.height))!;
  const columns = readingOrder(items, textHeight, 0);
  const runs: Entry[][] = columns.map((column) => entriesOf(column, words));

  const blocks = buildBlocks(runs, input.ocr);

  // Words and lines are stored in reading order, so a block's lines and a line's words are ascending.
  const newIndex = new Int32Array(words.length);
  const addLine = (draft: LineDraft): number => {
    const indices = draft.words.map((w) => {
      const n = page.words.push(words[w]!) - 1;
      newIndex[w] = n;
      return n;
    });
    return page.lines.push({ text: draft.text, box: draft.box, words: indices }) - 1;
  };
  for (const draft of blocks) {
    if (draft.table !== undefined) {
      const t = draft.table;
      const lineIndices = rowsOf(tableWords[t]!, boxOf, words).map((row) => addLine(lineDraft(row, words)));
      const table = tables[t]!;
      const tableIndex =
        page.tables.push({
          ...table,
          cells: table.cells.map((cell) => ({
            ...cell,
            words: cell.words.filter((w) => tableOf.get(w) === t).map((w) => newIndex[w]!),
          })),
        }) - 1;
      const box = table.box ?? unionBox(tableWords[t]!.map(boxOf));
      page.blocks.push({ kind: 'table', text: tableText(table), ...(box ? { box } : {}), lines: lineIndices, table: tableIndex });
      continue;
    }
    const lineIndices = draft.lines.map(addLine);
    const block: Block = { kind: draft.kind, text: draft.text, box: unionBox(draft.lines.map((l) => l.box))!, lines: lineIndices };
    if (draft.level !== undefined) block.level = draft.level;
    page.blocks.push(block);
  }
  return page;
}

// ---------------------------------------------------------------------------------------------------
// Fragments

/**
 * Chains words left to right into fragments. Each word continues the fragment whose last word it
 * overlaps vertically and follows closely; the closest wins (the first made, on a tie), so two
 * columns sharing a baseline stay apart as long as their gutter is wider than a word gap.
 */
function buildFragments(indices: number[], boxOf: (i: number) => Box): Fragment[] {
  let top = Infinity;
  let end = -Infinity;
  const lefts = new Float64Array(indices.length);
  indices.forEach((i, k) => {
    const box = boxOf(i);
    if (box.top < top) top = box.top;
    if (bottom(box) > end) end = bottom(box);
    lefts[k] = box.left;
  });

  // A word can only continue a fragment level with it, so fragments are filed under the horizontal
  // bands they reach into and a word looks in its own bands only: a page of prose has ~50 lines
  // open at once, and trying every one for every word took half the layout's time.
  const bandHeight = end > top ? (end - top) / FRAGMENT_BANDS : 1;
  const bandOf = (y: number) => Math.min(FRAGMENT_BANDS - 1, Math.max(0, Math.floor((y - top) / bandHeight)));
  /** Indices into `fragments`, per band; fragments that can take no more words are pruned now and then. */
  const bands: number[][] = Array.from({ length: FRAGMENT_BANDS }, () => []);
  const file = (f: number, from: number, to: number) => {
    for (let band = from; band <= to; band++) bands[band]!.push(f);
  };

  const fragments: Fragment[] = [];
  // Words by left edge (ties in the order given).
  for (const k of orderByKey(lefts)) {
    const i = indices[k]!;
    const box = boxOf(i);
    let best = -1;
    let bestGap = Infinity;
    for (let band = bandOf(box.top), lastBand = bandOf(bottom(box)); band <= lastBand; band++) {
      let open = bands[band]!;
      // Fragments ending far to the left can take no more words (words come sorted by left edge).
      if (open.length > 32) open = bands[band] = open.filter((f) => right(fragments[f]!.box) + 3 * fragments[f]!.size >= box.left);
      for (const f of open) {
        const fragment = fragments[f]!;
        if (right(fragment.box) + 3 * fragment.size < box.left) continue;
        // Another line: no word of the fragment, its last one included, is level with this one.
        if (verticalOverlap(fragment.box, box) < 0) continue;
        const last = boxOf(fragment.words[fragment.words.length - 1]!);
        const size = Math.max(fragment.size, box.height);
        const gap = box.left - right(last);
        if (gap < -0.3 * size || gap > WORD_GAP * size) continue;
        if (verticalOverlap(last, box) < 0.5 * Math.min(last.height, box.height)) continue;
        if (gap < bestGap || (gap === bestGap && f < best)) {
          bestGap = gap;
          best = f;
        }
      }
    }
    if (best >= 0) {
      const fragment = fragments[best]!;
      const filedFrom = bandOf(fragment.box.top);
      const filedTo = bandOf(bottom(fragment.box));
      fragment.words.push(i);
      fragment.box = unionOfTwo(fragment.box, box);
      fragment.size = Math.max(fragment.size, box.height);
      // Taller now: filed under the bands it reaches into since.
      file(best, bandOf(fragment.box.top), filedFrom - 1);
      file(best, filedTo + 1, bandOf(bottom(fragment.box)));
    } else {
      file(fragments.push({ words: [i], box, size: box.height }) - 1, bandOf(box.top), bandOf(bottom(box)));
    }
  }
  return fragments;
}

/** How many horizontal bands buildFragments files fragments under (over the height the words span). */
const FRAGMENT_BANDS = 100;

// ---------------------------------------------------------------------------------------------------
// Reading order

/**
 * Splits items into single-column runs in reading order: first at wide horizontal whitespace bands
 * across the whole region (they set headers, footers and titles apart), then at the best vertical
 * gutter (above it, left of it, right of it, below it), recursively.
 */
function readingOrder(items: Item[], textHeight: number, depth: number): Item[][] {
  if (items.length < 2 || depth > 24) return [items];
  const slabs = splitAtSectionGaps(items, textHeight);
  if (slabs.length > 1) return slabs.flatMap((slab) => readingOrder(slab, textHeight, depth + 1));
  const gutter = findGutter(items, textHeight);
  if (!gutter) return [items];
  const above: Item[] = [];
  const left: Item[] = [];
  const rightSide: Item[] = [];
  const below: Item[] = [];
  for (const item of items) {
    const y = centerY(item.box);
    if (y < gutter.top) above.push(item);
    else if (y > gutter.bottom) below.push(item);
    else if (centerX(item.box) < gutter.x) left.push(item);
    else rightSide.push(item);
  }
  return [above, left, rightSide, below].filter((part) => part.length > 0).flatMap((part) => readingOrder(part, textHeight, depth + 1));
}

/** Cuts at horizontal whitespace bands at least SECTION_GAP text heights tall that cross every item. */
function splitAtSectionGaps(items: Item[], textHeight: number): Item[][] {
  const sorted = [...items].sort((a, b) => a.box.top - b.box.top);
  const slabs: Item[][] = [[sorted[0]!]];
  let reach = bottom(sorted[0]!.box);
  for (const item of sorted.slice(1)) {
    if (item.box.top - reach >= SECTION_GAP * textHeight) slabs.push([]);
    slabs[slabs.length - 1]!.push(item);
    reach = Math.max(reach, bottom(item.box));
  }
  return slabs;
}

interface Gutter {
  /** Where the columns divide. */
  x: number;
  /** The vertical extent of the empty strip. */
  top: number;
  bottom: number;
}

/**
 * The best vertical gutter: a strip at least half a text height wide, empty over a tall vertical run
 * (a quarter of the region, three lines at least), with prose-like text on both sides along it.
 * Found with a projection profile: for each thin vertical slice, the tallest run no item crosses.
 */
function findGutter(items: Item[], textHeight: number): Gutter | undefined {
  const region = unionBox(items.map((i) => i.box))!;
  const minHeight = Math.max(3 * textHeight, 0.25 * region.height);
  const tolerance = textHeight / 2;
  const step = Math.max(textHeight / 4, region.width / 2000);
  const slices = Math.ceil(region.width / step);
  if (slices < 3) return undefined;
  const byTop = [...items].sort((a, b) => a.box.top - b.box.top);

  // Per slice (its middle at sliceX(s)): how far down items reach so far, and the tallest run yet.
  // Items are taken top to bottom, each over the slices whose middle it straddles.
  const sliceX = (s: number) => region.left + (s + 0.5) * step;
  const cursor = new Float64Array(slices).fill(region.top);
  const bestTop = new Float64Array(slices).fill(region.top);
  const bestBottom = new Float64Array(slices).fill(region.top);
  for (const { box } of byTop) {
    const itemRight = right(box);
    // The first slice whose middle is right of the item's left edge, and the last left of its right edge.
    let first = Math.max(0, Math.floor((box.left - region.left) / step - 0.5));
    while (first > 0 && sliceX(first - 1) > box.left) first--;
    while (first < slices && sliceX(first) <= box.left) first++;
    let last = Math.min(slices - 1, Math.ceil((itemRight - region.left) / step - 0.5));
    while (last < slices - 1 && sliceX(last + 1) < itemRight) last++;
    while (last >= 0 && sliceX(last) >= itemRight) last--;
    for (let s = first; s <= last; s++) {
      if (box.top - cursor[s]! > bestBottom[s]! - bestTop[s]!) {
        bestTop[s] = cursor[s]!;
        bestBottom[s] = box.top;
      }
      cursor[s] = Math.max(cursor[s]!, bottom(box));
    }
  }
  const runs: { top: number; bottom: number }[] = [];
  for (let s = 0; s < slices; s++) {
    const run = { top: bestTop[s]!, bottom: bestBottom[s]! };
    runs.push(bottom(region) - cursor[s]! > run.bottom - run.top ? { top: cursor[s]!, bottom: bottom(region) } : run);
  }

  const candidates = runs
    .map((run, s) => ({ s, height: run.bottom - run.top }))
    .filter((c) => c.height >= minHeight)
    .sort((a, b) => b.height - a.height || a.s - b.s);
  const tried = new Set<number>();
  for (const { s } of candidates) {
    if (tried.has(s)) continue;
    const run = runs[s]!;
    const contains = (k: number) => runs[k]!.top <= run.top + tolerance && runs[k]!.bottom >= run.bottom - tolerance;
    let first = s;
    let last = s;
    while (first > 0 && contains(first - 1)) first--;
    while (last < slices - 1 && contains(last + 1)) last++;
    for (let k = first; k <= last; k++) tried.add(k);
    if ((last - first + 1) * step < textHeight / 2) continue;
    const gutter = { x: region.left + ((first + last + 1) / 2) * step, top: run.top, bottom: run.bottom };
    if (hasColumnsBeside(items, gutter)) return liftTitles(items, gutter, textHeight);
  }
  return undefined;
}

/**
 * A short centered title over the columns may cross no gutter, so the empty strip reaches up past
 * it and it would be read as the start of one column. When everything on one side above the first
 * line of the other side is larger text, it is a title: the strip starts below it, so it is read first.
 * (Body-size lines there stay: a column may start lower, under a figure.)
 */
function liftTitles(items: Item[], gutter: Gutter, textHeight: number): Gutter {
  const inRun = items.filter((i) => centerY(i.box) >= gutter.top && centerY(i.box) <= gutter.bottom);
  const firstTop = (side: Item[]) => Math.min(...side.map((i) => i.box.top));
  const start = Math.max(firstTop(inRun.filter((i) => centerX(i.box) < gutter.x)), firstTop(inRun.filter((i) => centerX(i.box) >= gutter.x)));
  const earlier = inRun.filter((i) => centerY(i.box) < start);
  const titles = earlier.length > 0 && earlier.every((i) => i.fragment !== undefined && i.fragment.size >= 1.15 * textHeight);
  return titles ? { ...gutter, top: start } : gutter;
}

/**
 * Whether the text on both sides of an empty strip reads as columns: at least two items on each side
 * filling much of the strip's height, and lines of prose rather than a label/value list (whose
 * values would otherwise be read after all the labels).
 */
function hasColumnsBeside(items: Item[], gutter: Gutter): boolean {
  const inRun = items.filter((i) => centerY(i.box) >= gutter.top && centerY(i.box) <= gutter.bottom);
  const sides = [inRun.filter((i) => centerX(i.box) < gutter.x), inRun.filter((i) => centerX(i.box) >= gutter.x)];
  const height = gutter.bottom - gutter.top;
  const wordMedians: number[] = [];
  for (const side of sides) {
    if (side.length < 2) return false;
    if (coveredHeight(side.map((i) => i.box)) < 0.4 * height) return false;
    const counts = side.flatMap((i) => (i.fragment ? [i.fragment.words.length] : []));
    // A side of tables only is fine; fragments decide otherwise.
    if (counts.length > 0) wordMedians.push(medianOf(counts)!);
  }
  if (wordMedians.length === 0) return true;
  return Math.max(...wordMedians) >= 3 && Math.min(...wordMedians) >= 2;
}

/** The total height of the union of the boxes' vertical extents. */
function coveredHeight(boxes: Box[]): number {
  const sorted = [...boxes].sort((a, b) => a.top - b.top);
  let total = 0;
  let start = -Infinity;
  let end = -Infinity;
  for (const box of sorted) {
    if (box.top > end) {
      total += Math.max(0, end - start);
      start = box.top;
      end = bottom(box);
    } else {
      end = Math.max(end, bottom(box));
    }
  }
  return total + Math.max(0, end - start);
}

// ---------------------------------------------------------------------------------------------------
// Lines

/** Groups word indices into rows (vertical overlap), each row left to right, rows top to bottom. */
function rowsOf(indices: number[], boxOf: (i: number) => Box, words: Word[]): number[][] {
  const sorted = [...indices].sort((a, b) => boxOf(a).top - boxOf(b).top);
  return levelRows(sorted, boxOf, (i) => hasText(words[i]!)).map((row) => row.sort((a, b) => boxOf(a).left - boxOf(b).left));
}

const hasText = (word: Word) => /[\p{L}\p{N}]/u.test(word.text);

/**
 * Items (sorted by top) grouped into rows of items level with each other, rows top to bottom. Rows
 * are built from the items with text; marks alone ("_", "»|", a rule OCR read as a glyph) then join
 * the row they are most level with, so a tall one never chains two rows into one.
 */
function levelRows<T>(items: readonly T[], boxOf: (item: T) => Box, textual: (item: T) => boolean): T[][] {
  const level = (row: Box, box: Box) => verticalOverlap(row, box) >= 0.5 * Math.min(row.height, box.height);
  const rows: Array<{ items: T[]; box: Box }> = [];
  for (const item of items.filter(textual)) {
    const box = boxOf(item);
    const row = rows[rows.length - 1];
    if (row && level(row.box, box)) {
      row.items.push(item);
      row.box = unionOfTwo(row.box, box);
    } else rows.push({ items: [item], box });
  }
  for (const item of items.filter((i) => !textual(i))) {
    const box = boxOf(item);
    let best: (typeof rows)[number] | undefined;
    for (const row of rows) if (level(row.box, box) && (!best || verticalOverlap(row.box, box) > verticalOverlap(best.box, box))) best = row;
    if (best) best.items.push(item);
    else rows.push({ items: [item], box });
  }
  return rows.sort((a, b) => a.box.top - b.box.top).map((row) => row.items);
}

function lineDraft(printed: number[], words: Word[]): LineDraft {
  // Words in reading order: a right-to-left line's words come right to left (./bidi.ts).
  const indices = logicalOrder(printed, (i) => words[i]!.text);
  let size = -Infinity;
  for (const i of indices) size = Math.max(size, words[i]!.box!.height);
  // Joined at once (a flat string; appending word by word builds a rope that every later read flattens).
  const text = indices.map((i) => words[i]!.text).join(' ');
  return { words: indices, box: unionBox(indices.map((i) => words[i]!.box!))!, size, text };
}

/**
 * One single-column run as lines and tables, top to bottom. Fragments on one row join into a line
 * (a justified line split at a wide space, a label and its value).
 */
function entriesOf(items: Item[], words: Word[]): Entry[] {
  const fragments = items.flatMap((i) => (i.fragment ? [i.fragment] : [])).sort((a, b) => a.box.top - b.box.top);
  const rows = levelRows(fragments, (f) => f.box, (f) => f.words.some((w) => hasText(words[w]!)));
  const entries: Entry[] = rows.map((row) => {
    const indices: number[] = [];
    for (const fragment of row.sort((a, b) => a.box.left - b.box.left)) for (const w of fragment.words) indices.push(w);
    return { line: lineDraft(indices, words) };
  });
  for (const item of items) if (item.table !== undefined) entries.push({ table: item.table, box: item.box });
  const topOf = (e: Entry) => (e.line ? e.line.box.top : e.box.top);
  return entries.sort((a, b) => topOf(a) - topOf(b));
}

// ---------------------------------------------------------------------------------------------------
// Blocks

const BULLET = /^[•\-*▪–◦‣●○■□►▸]$/;
const GLUED_BULLET = /^[•▪◦‣●○■□►▸]\S/u;
/** A page number as printed in running heads and feet: "page 3", "3 of 9", "3/9", "- 3 -", or a lone number. */
const PAGE_NUMBER = /\b(page|p\.|pg\.?|seite|página|pagina)\s*\d+(\s*(of|\/|de|von)\s*\d+)?\b|\b\d+\s*(of|\/)\s*\d+\b|^[-–—]?\s*\d+\s*[-–—]?$/g;

const NUMBER_MARKER = /^\(?(\d{1,3}|[a-z]|[ivx]{1,5})[.)]$|^\(?[A-Z]\)$/;

function isListLine(first: string, wordCount: number): boolean {
  if (GLUED_BULLET.test(first)) return true;
  return wordCount >= 2 && (BULLET.test(first) || NUMBER_MARKER.test(first));
}

/** A line's first word and its number of words (its text is the words joined by single spaces). */
function wordsOf(text: string): { first: string; count: number } {
  const space = text.indexOf(' ');
  let count = 1;
  for (let at = space; at >= 0; at = text.indexOf(' ', at + 1)) count++;
  return { first: space < 0 ? text : text.slice(0, space), count };
}

/** A short all-capitals line that does not end like a sentence: a heading set in body size. */
function isCapsHeading(text: string, wordCount: number): boolean {
  // The cheap tests first: most lines are long sentences.
  if (wordCount > 8 || text.length > 60 || /[.,;]$/.test(text)) return false;
  const letters = text.replace(/[^\p{L}]/gu, '');
  return letters.length >= 3 && letters === letters.toUpperCase() && letters !== letters.toLowerCase();
}

function headingLevel(ratio: number): number {
  if (ratio >= 1.7) return 1;
  if (ratio >= 1.35) return 2;
  return 3;
}

/** Joins the next line of a block, mending words hyphenated at the line end. */
function joinText(text: string, next: string): string {
  if (text === '') return next;
  // Only the end of the text is looked at (a letter, astral or not, then the hyphen: 3 code units at most):
  // the block's text grows line by line, and a regex anchored at its end would scan all of it each time.
  if (/\p{L}[-\u00AD\u2010]$/u.test(text.slice(-3)) && /^\p{Ll}/u.test(next)) return text.slice(0, -1) + next;
  return `${text} ${next}`;
}

/** A table block's plain text: cells separated by tabs, rows by newlines. */
function tableText(table: Table): string {
  return tableRows(table)
    .map((row) => row.join('\t'))
    .join('\n');
}

/** The value at half the total weight (values sorted ascending). */
function weightedMedian(items: Array<{ value: number; weight: number }>): number | undefined {
  const sorted = items.filter((i) => i.weight > 0).sort((a, b) => a.value - b.value);
  const total = sorted.reduce((sum, i) => sum + i.weight, 0);
  let seen = 0;
  for (const item of sorted) {
    seen += item.weight;
    if (seen >= total / 2) return item.value;
  }
  return undefined;
}

function buildBlocks(runs: Entry[][], ocr: boolean): BlockDraft[] {
  const lines = runs.flatMap((run) => run.flatMap((e) => (e.line ? [e.line] : [])));

  // Body size: the text height most characters are set in.
  const bodySize = weightedMedian(lines.map((l) => ({ value: l.size, weight: Math.min(l.text.length, 200) }))) ?? 1;
  const headingRatio = ocr ? 1.3 : 1.12;
  // Normal line pitch: center to center of consecutive lines of body size in one column.
  const pitches: number[] = [];
  for (const run of runs) {
    for (let k = 1; k < run.length; k++) {
      const a = run[k - 1]!.line;
      const b = run[k]!.line;
      if (!a || !b || Math.abs(a.size - bodySize) > 0.15 * bodySize || Math.abs(b.size - bodySize) > 0.15 * bodySize) continue;
      const pitch = centerY(b.box) - centerY(a.box);
      if (pitch > 0 && pitch < 3 * bodySize) pitches.push(pitch);
    }
  }
  const normalPitch = medianOf(pitches) ?? 1.3 * bodySize;
  const slack = (ocr ? 0.5 : 0.35) * bodySize;

  const blocks: BlockDraft[] = [];
  for (const run of runs) {
    let current: BlockDraft | undefined;
    let previous: LineDraft | undefined;
    for (const entry of run) {
      if (!entry.line) {
        blocks.push({ kind: 'table', lines: [], table: entry.table, text: '' });
        current = undefined;
        previous = undefined;
        continue;
      }
      const line = entry.line;
      const { first, count } = wordsOf(line.text);
      const ratio = line.size / bodySize;
      const similarSize = previous !== undefined && Math.abs(line.size - previous.size) <= 0.15 * Math.max(line.size, previous.size);
      const pitch = previous ? centerY(line.box) - centerY(previous.box) : Infinity;
      const closeBelow = previous !== undefined && pitch <= Math.max(normalPitch, 1.1 * Math.max(line.size, previous.size)) + slack;

      let kind: BlockKind = 'paragraph';
      let level: number | undefined;
      if (ratio >= headingRatio && count <= 20) {
        kind = 'heading';
        level = headingLevel(ratio);
      } else if (isListLine(first, count)) {
        kind = 'list_item';
      } else if (isCapsHeading(line.text, count) && !(closeBelow && similarSize && current?.kind === 'paragraph')) {
        kind = 'heading';
        level = 3;
      }

      const continues =
        current !== undefined &&
        closeBelow &&
        similarSize &&
        ((current.kind === 'heading' && kind === 'heading' && current.level === level) ||
          (current.kind === 'paragraph' && kind === 'paragraph') ||
          // A wrapped list item continues under its text, indented from its marker.
          (current.kind === 'list_item' && kind === 'paragraph' && line.box.left >= current.lines[0]!.box.left + 0.3 * line.size));
      if (current && continues) {
        current.lines.push(line);
        current.text = joinText(current.text, line.text);
      } else {
        // A column that ends mid-sentence continues in the next one (columns are separate runs).
        const last = blocks[blocks.length - 1];
        if (
          previous === undefined &&
          kind === 'paragraph' &&
          last?.kind === 'paragraph' &&
          /^\p{Ll}/u.test(line.text) &&
          !/[.!?:;]["')\]]?$/.test(last.text.slice(-2)) &&
          Math.abs(line.size - last.lines[last.lines.length - 1]!.size) <= 0.15 * line.size
        ) {
          current = last;
          current.lines.push(line);
          current.text = joinText(current.text, line.text);
        } else {
          current = { kind, lines: [line], text: line.text, ...(level !== undefined ? { level } : {}) };
          blocks.push(current);
        }
      }
      previous = line;
    }
  }
  // A "heading" of many lines is a paragraph set in a larger size (a lead or an abstract).
  for (const block of blocks) {
    if (block.kind === 'heading' && (block.lines.length > 3 || block.text.split(' ').length > 30)) {
      block.kind = 'paragraph';
      delete block.level;
    }
  }
  return blocks;
}

// ---------------------------------------------------------------------------------------------------
// Running headers and footers

/** Blocks within this fraction of the page height from the top or bottom edge may be running heads. */
const BAND = 0.15;
/**
 * Pages are copies of one page (an invoice printed as original, duplicate and triplicate) when at
 * least this share of their body blocks recurs as often as a running head would: their heads and
 * feet are the document's own title and totals, not running lines, and stay.
 */
const COPIES_SHARE = 0.5;

function runningKey(page: Page, block: Block): string | undefined {
  if (page.unit === 'none' || !block.box || page.height <= 0) return undefined;
  // Page numbers normalized ("Page 3 of 9", "3 / 9", "- 3 -", a lone "3"), so they match from page
  // to page; other digits stay, since a title like "Part 2" differs from "Part 3".
  const text = block.text
    .toLowerCase()
    .replace(/\s+/g, ' ')
    .trim()
    .replace(PAGE_NUMBER, '#');
  if (text === '') return undefined;
  const band = block.kind === 'table' ? undefined : bottom(block.box) <= BAND * page.height ? 'top' : block.box.top >= (1 - BAND) * page.height ? 'bottom' : undefined;
  // A body block's key is never dropped; it only tells copies of a page (COPIES_SHARE).
  return band ? `${band}:${text}` : `body:${createHash('sha1').update(text).digest('base64url').slice(0, 16)}`;
}

const isBodyKey = (key: string) => key.startsWith('body:');

/**
 * Removes running headers and footers: blocks in the top or bottom band whose text (digits
 * normalized) recurs on at least 60% of the pages with text and on at least 3 pages. Their lines and
 * words go too. Documents of 1 or 2 pages, and pages that are copies of one page, are returned as
 * they are.
 */
export function dropRepeatedHeadersFooters(pages: Page[]): Page[] {
  if (pages.length < 3) return pages;
  const keys = pages.map(runningKeys);
  const repeated = repeatedRunningKeys(pages.map((page, p) => ({ hasText: page.blocks.length > 0, keys: keys[p]! })));
  if (repeated.size === 0) return pages;
  return pages.map((page, p) => dropRunningBlocks(page, keys[p]!, repeated));
}

/**
 * Each block's running key (undefined for a block without text or place): what
 * dropRepeatedHeadersFooters compares across pages. A page read apart from the others (a range of a
 * long document, functions/parses/ranges.ts) keeps its keys for the document-wide decision.
 */
export function runningKeys(page: Page): Array<string | undefined> {
  return page.blocks.map((block) => runningKey(page, block));
}

/**
 * The running keys that recur often enough to be dropped, from every page's keys
 * (dropRepeatedHeadersFooters): none when the pages are copies of one page (COPIES_SHARE).
 */
export function repeatedRunningKeys(pages: ReadonlyArray<{ hasText: boolean; keys: ReadonlyArray<string | undefined> }>): Set<string> {
  if (pages.length < 3) return new Set();
  const pagesWithText = pages.filter((p) => p.hasText).length;
  const needed = Math.max(3, Math.ceil(0.6 * pagesWithText));
  const pagesOf = new Map<string, Set<number>>();
  pages.forEach((page, p) => {
    for (const key of page.keys) {
      if (key === undefined) continue;
      if (!pagesOf.has(key)) pagesOf.set(key, new Set());
      pagesOf.get(key)!.add(p);
    }
  });
  const recurs = (key: string) => pagesOf.get(key)!.size >= needed;
  const bodyBlocks = pages.flatMap((page) => page.keys.filter((key): key is string => key !== undefined && isBodyKey(key)));
  if (bodyBlocks.length > 0 && bodyBlocks.filter(recurs).length >= COPIES_SHARE * bodyBlocks.length) return new Set();
  return new Set([...pagesOf.keys()].filter((key) => !isBodyKey(key) && recurs(key)));
}

/** The page without its blocks whose running key (`keys`, one per block) is `repeated`; the page itself when none is. */
export function dropRunningBlocks(page: Page, keys: ReadonlyArray<string | undefined>, repeated: ReadonlySet<string>): Page {
  const kept = page.blocks.filter((_, b) => {
    const key = keys[b];
    return key === undefined || !repeated.has(key);
  });
  return kept.length === page.blocks.length ? page : withBlocks(page, kept);
}

/** The page reduced to the given blocks, with lines, words and tables renumbered. */
function withBlocks(page: Page, blocks: Block[]): Page {
  const words: Word[] = [];
  const lines: Line[] = [];
  const tables: Table[] = [];
  // Each word's new index, -1 until it is kept (an array, not a Map: the old indices are dense).
  const wordIndex = new Int32Array(page.words.length).fill(-1);
  const mapWord = (w: number) => {
    if (wordIndex[w] === -1) wordIndex[w] = words.push(page.words[w]!) - 1;
    return wordIndex[w]!;
  };
  const newBlocks = blocks.map((block) => {
    const lineIndices = block.lines.map((l) => {
      const line = page.lines[l]!;
      return lines.push({ ...line, words: line.words.map(mapWord) }) - 1;
    });
    const { table: oldTable, ...rest } = block;
    const result: Block = { ...rest, lines: lineIndices };
    if (oldTable !== undefined) {
      const table = page.tables[oldTable]!;
      result.table = tables.push({ ...table, cells: table.cells.map((cell) => ({ ...cell, words: cell.words.map(mapWord) })) }) - 1;
    }
    return result;
  });
  return { ...page, words, lines, tables, blocks: newBlocks };
}
