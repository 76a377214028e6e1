/**
 * Table detection on one page (API §3: parses render every detected table as markdown, html, json or
 * yaml). Input: positioned words and the straight rules drawn on the page, in page units, origin
 * top-left, y down. Pure geometry: no I/O.
 *
 * Three passes, each claiming the words it puts in a table, so a word lands in at most one cell:
 *  1. Ruled grids: horizontal and vertical rules that cross. Rows and columns come from the rules,
 *     merged cells from inner rules that are missing.
 *  2. Tables with horizontal rules only ("booktabs": top rule, header rule, bottom rule; or a rule under
 *     every row): the rules give the vertical extent (and the header), text alignment gives the columns.
 *  3. Unruled tables: runs of text lines whose whitespace gaps line up.
 *
 * Every distance threshold is a multiple of the page's typical word height, so the same code works in
 * PDF points and in image pixels.
 */
import { type Box, type Cell, type Rule, type Table, tableRows, unionBox, type Word } from './doc.ts';
import { COMMON_WORDS, plainWord } from './knowledge/common-words.ts';
import { medianOf, orderByKey } from './order.ts';

// ---------------------------------------------------------------------------------------------------
// Shapes used while detecting
// ---------------------------------------------------------------------------------------------------

/** A drawn straight segment: `at` is its y (horizontal) or x (vertical); it runs from..to along the other axis. */
interface Segment {
  at: number;
  from: number;
  to: number;
}

interface Interval {
  left: number;
  right: number;
}

/** Words on one text line (grouped by vertical overlap), left to right. */
interface TextLine {
  words: number[];
  top: number;
  bottom: number;
}

/** The part of one text line that a table candidate looks at (its free words inside some area). */
interface Slice {
  /** Index into `PageText.lines`. */
  line: number;
  /** Left to right. */
  words: number[];
  top: number;
  bottom: number;
}

/** Words of one line that sit a word space apart (a line splits into chunks at wider gaps). */
interface Chunk extends Interval {
  words: number[];
}

/** A table row built from text lines: the words of each column. */
interface TextRow {
  top: number;
  bottom: number;
  cells: number[][];
  /** Per column, the words of the last line that had words there (what a wrapped line continues). */
  lastLines: number[][];
  lineCount: number;
  /** Indices into `PageText.lines` of the lines in this row. */
  lines: number[];
}

/** A row on its way into a grid: cells cover every column exactly once (a cell may span columns). */
interface RowDraft {
  top: number;
  bottom: number;
  cells: { column: number; span: number; words: number[] }[];
  lines: number[];
}

interface GridCell {
  row: number;
  column: number;
  rowSpan: number;
  columnSpan: number;
  words: number[];
}

/** Every table kind is built into this before it becomes a `Table`. */
interface Grid {
  /** Column boundaries, left to right (columnCount + 1). */
  xs: number[];
  /** Row boundaries, top to bottom (rowCount + 1). */
  ys: number[];
  cells: GridCell[];
  /** Set when the drawing says how many rows are header rows (a booktabs header rule). */
  headerRows?: number;
  /** Inner row boundaries (index into `ys`) drawn as double rules. */
  doubleRules?: Set<number>;
}

/** The page's words as plain arrays, the text lines, and which words a table has taken. */
interface PageText {
  words: Word[];
  left: Float64Array;
  right: Float64Array;
  top: Float64Array;
  bottom: Float64Array;
  /** Typical word height: the yardstick for every distance below. */
  h: number;
  /** Slop allowed in rule coordinates. */
  tol: number;
  /** Top to bottom. */
  lines: TextLine[];
  lineOf: Int32Array;
  /** 1 once a table holds the word (or when the word has no box or no text). */
  used: Uint8Array;
  /** The page's height, in the words' units. */
  pageHeight: number;
}

/**
 * Page furniture that lines up like a table without being one: a letterhead's footer or heading
 * (company, address, contact and bank blocks side by side at the foot or the head of the page). A grid
 * not drawn as a grid that starts below `footerBand` of the page's height is such a footer when its
 * words are small print (no taller than `smallText` of the page's typical word height) or when no cell
 * of it is a number or an amount (a totals box that happens to sit at the page's foot keeps its
 * amounts); one that starts above `headerBand` is such a heading when no cell of it is a number or an
 * amount (a table continued from the page before keeps its numbers).
 */
const PAGE_FURNITURE = { footerBand: 0.85, headerBand: 0.1, smallText: 0.85 };
/**
 * A grid is a form's captioned boxes when this share of its filled cells, on this many rows or more, open with
 * a caption printed this much smaller than its other words.
 */
const CAPTIONED_CELLS = { share: 0.6, rows: 3, smaller: 0.8 };
/** Two headings in one ruled box are farther apart than this many word heights (the words of one heading, a space). */
const SHARED_COLUMN_GAP = 0.8;
/**
 * runningText: lines are text when this many of their cells beginning with a word, and this share of
 * them, begin lower case; this many columns hold a phrase so begun; this share of the words of their
 * phrases (cells of two words or more) are common words; and no more than this share of their cells
 * are numbers.
 */
const RUNNING_TEXT = { cells: 4, share: 0.5, phraseColumns: 2, commonWords: 0.2, numbers: 0.15 };
/**
 * headedGrid: the headings' line is at most `gap` word heights above the first row; a heading has at
 * most `headingWords` words; at most `rows` rows under it (more rows show their own columns).
 */
const HEADED_ROWS = { gap: 2, headingWords: 3, rows: 2 };
/**
 * monospacedPitch: a line is monospaced when `words` of its words of `letters` characters or more are
 * as wide per character within `spread`; its chunks split at gaps wider than `spaces` characters.
 */
const MONOSPACED = { letters: 4, words: 3, spread: 0.04, spaces: 1.5 };
/** Lines above a table's rule overlapping by more than this many word heights are headings stacked in one header band. */
const STAGGERED_HEADINGS = 0.3;

// ---------------------------------------------------------------------------------------------------
// Entry point
// ---------------------------------------------------------------------------------------------------

/** The tables on one page, top to bottom; `Cell.words` index into `words`. */
export function detectTables(words: Word[], rules: Rule[], page: { width: number; height: number }): Table[] {
  const text = readPage(words, page);
  if (!text) return [];
  const { horizontal, vertical } = straightenRules(rules, text.tol);

  const grids: Grid[] = [];
  // Rules that touch no vertical rule (or belong to a frame that is no grid) may still be booktabs rules.
  const looseHorizontal: Segment[] = [];
  const frames: Frame[] = [];
  for (const group of connectRules(horizontal, vertical, 0.4 * text.h)) {
    const grid = ruledGrid(group.horizontal, group.vertical, text);
    if (!grid) {
      looseHorizontal.push(...group.horizontal);
      const frame = frameOf(group.horizontal, group.vertical, text);
      if (frame) frames.push(frame);
    }
    // Boxes of labelled values, or boxes stacked in one column, are text; none of their words starts another table.
    else if (textBoxes(gridTexts(grid, text))) claim(grid, text);
    else grids.push(claim(splitSharedColumns(grid, text), text));
  }
  // Grids not drawn as grids (rules between rows only, or none): a letterhead's footer or heading is no table.
  grids.push(...[...horizontalRuleGrids(looseHorizontal, frames, text), ...unruledGrids(text)].filter((grid) => !letterhead(grid, text)));

  return grids
    .map((grid) => toTable(splitNumberColumn(grid, text), text))
    .sort((a, b) => a.box!.top - b.box!.top || a.box!.left - b.box!.left);
}

/**
 * A first column that holds two set close together ("Pos. Artikelbeschreibung" over "1 Superdrachen",
 * "2 Turbo Flyer": position numbers one space before the names, too close for a gap between columns)
 * is split where its body's words leave a channel: every body row of it starts with a number or code
 * (a word with a digit) and goes on past a gap that no body word crosses, and its heading is two
 * words or more without a digit (the two columns' headings). Each word goes to the side its middle
 * is on.
 */
function splitNumberColumn(grid: Grid, text: PageText): Grid {
  const rows = grid.ys.length - 1;
  const single = grid.cells.filter((cell) => cell.column === 0 && cell.columnSpan === 1 && cell.rowSpan === 1 && cell.words.length > 0);
  const heading = single.find((cell) => cell.row === 0);
  const body = single.filter((cell) => cell.row > 0);
  if (!heading || heading.words.length < 2 || heading.words.some((w) => /\d/.test(text.words[w].text)) || body.length < 2 || body.length < 0.5 * (rows - 1)) return grid;
  let channelLeft = -Infinity;
  let channelRight = Infinity;
  for (const cell of body) {
    const words = [...cell.words].sort((a, b) => text.left[a] - text.left[b]);
    if (words.length < 2 || !/\d/.test(text.words[words[0]].text)) return grid;
    channelLeft = Math.max(channelLeft, text.right[words[0]]);
    channelRight = Math.min(channelRight, ...words.slice(1).map((w) => text.left[w]));
  }
  if (channelRight <= channelLeft) return grid;
  return splitColumn(grid, 0, (channelLeft + channelRight) / 2, text);
}

// ---------------------------------------------------------------------------------------------------
// Words and lines
// ---------------------------------------------------------------------------------------------------

function readPage(words: Word[], page: { width: number; height: number }): PageText | null {
  const n = words.length;
  const left = new Float64Array(n);
  const right = new Float64Array(n);
  const top = new Float64Array(n);
  const bottom = new Float64Array(n);
  const used = new Uint8Array(n);
  const boxed: number[] = [];
  const heights: number[] = [];
  for (let i = 0; i < n; i++) {
    const box = words[i].box;
    const usable = box && Number.isFinite(box.left) && Number.isFinite(box.top) && box.width >= 0 && box.height > 0;
    // A run of dashes or underscores typed as text is a rule drawn with characters, no cell's text: it
    // would bridge the gaps between columns.
    if (!usable || words[i].text.trim() === '' || TEXT_RULE.test(words[i].text.trim())) {
      used[i] = 1;
      continue;
    }
    left[i] = box.left;
    right[i] = box.left + box.width;
    top[i] = box.top;
    bottom[i] = box.top + box.height;
    boxed.push(i);
    heights.push(box.height);
  }
  if (boxed.length === 0) return null;
  const h = median(heights);
  const tol = Math.max(0.5, 0.12 * h, 0.0005 * Math.max(page.width, page.height));
  const text: PageText = { words, left, right, top, bottom, h, tol, lines: [], lineOf: new Int32Array(n).fill(-1), used, pageHeight: page.height };
  text.lines = groupLines(boxed, text);
  text.lines.forEach((line, l) => {
    for (const w of line.words) text.lineOf[w] = l;
  });
  return text;
}

/**
 * Words into lines by vertical overlap: a word joins a line when each one's vertical middle lies inside
 * the other (mutual, so a tall word cannot chain two lines together). Small marks (footnote marks,
 * superscripts) that end up on a line of their own fold into the line their middle sits in.
 */
function groupLines(indices: number[], text: Pick<PageText, 'left' | 'top' | 'bottom'>): TextLine[] {
  const { left, top, bottom } = text;
  const middle = (w: number) => (top[w] + bottom[w]) / 2;
  const middles = new Float64Array(indices.length);
  indices.forEach((w, k) => (middles[k] = middle(w)));
  const lines: TextLine[] = [];
  const open: TextLine[] = [];
  // Words in order of their middle (ties in the order given).
  for (const k of orderByKey(middles)) {
    const w = indices[k];
    const y = middles[k];
    // So a line whose bottom is above this word's middle can take no more.
    let kept = 0;
    for (const line of open) if (line.bottom >= y) open[kept++] = line;
    if (kept < open.length) open.length = kept;
    let best: TextLine | undefined;
    let bestDistance = Infinity;
    for (const line of open) {
      const lineMiddle = (line.top + line.bottom) / 2;
      if (y < line.top || lineMiddle < top[w] || lineMiddle > bottom[w]) continue;
      if (Math.abs(lineMiddle - y) < bestDistance) {
        best = line;
        bestDistance = Math.abs(lineMiddle - y);
      }
    }
    if (best) {
      best.words.push(w);
      best.top = Math.min(best.top, top[w]);
      best.bottom = Math.max(best.bottom, bottom[w]);
    } else {
      const line = { words: [w], top: top[w], bottom: bottom[w] };
      lines.push(line);
      open.push(line);
    }
  }
  lines.sort((a, b) => a.top + a.bottom - (b.top + b.bottom));
  const folded: TextLine[] = [];
  lines.forEach((line, k) => {
    const middle = (line.top + line.bottom) / 2;
    const height = line.bottom - line.top;
    const host = [folded.at(-1), lines[k + 1]].find(
      (other) => other && height < 0.8 * (other.bottom - other.top) && middle >= other.top && middle <= other.bottom,
    );
    if (host) {
      host.words.push(...line.words);
      host.top = Math.min(host.top, line.top);
      host.bottom = Math.max(host.bottom, line.bottom);
    } else folded.push(line);
  });
  for (const line of folded) line.words.sort((a, b) => left[a] - left[b]);
  return folded;
}

/** The free words of a line that pass `keep`, or null when none does. */
function sliceOf(text: PageText, line: number, keep: (w: number) => boolean): Slice | null {
  const words = text.lines[line].words.filter((w) => !text.used[w] && keep(w));
  if (words.length === 0) return null;
  let top = Infinity;
  let bottom = -Infinity;
  for (const w of words) {
    top = Math.min(top, text.top[w]);
    bottom = Math.max(bottom, text.bottom[w]);
  }
  return { line, words, top, bottom };
}

/** Free words whose middle lies in the rectangle, line by line. */
function slicesIn(text: PageText, area: { left: number; right: number; top: number; bottom: number }): Slice[] {
  const inside = (w: number) => {
    const x = (text.left[w] + text.right[w]) / 2;
    const y = (text.top[w] + text.bottom[w]) / 2;
    return x >= area.left && x <= area.right && y >= area.top && y <= area.bottom;
  };
  const slices: Slice[] = [];
  text.lines.forEach((line, l) => {
    if (line.bottom < area.top || line.top > area.bottom) return;
    const slice = sliceOf(text, l, inside);
    if (slice) slices.push(slice);
  });
  return slices;
}

/**
 * The character pitch of a line set in a monospaced font (a statement or an ERP print in Courier): its
 * words of `letters` characters or more, `words` of them at least, all as wide per character within
 * `spread`. Undefined for a proportional font. In such a line a word space is a whole character wide,
 * as wide as the gap between columns elsewhere; its columns are set two spaces apart or more.
 */
function monospacedPitch(words: number[], text: PageText): number | undefined {
  const pitches = words
    .filter((w) => [...text.words[w].text].length >= MONOSPACED.letters)
    .map((w) => (text.right[w] - text.left[w]) / [...text.words[w].text].length);
  if (pitches.length < MONOSPACED.words) return undefined;
  const [low, high] = [Math.min(...pitches), Math.max(...pitches)];
  return high <= low * (1 + MONOSPACED.spread) ? median(pitches) : undefined;
}

/**
 * A line's words split where the gap is wider than a word space. The space is judged against the line's
 * own height (from ascenders to descenders), which holds for PDF text boxes and for tight OCR boxes.
 * 0.7 em: a space is 0.25-0.35 em, but a PDF reader that spreads an item's width evenly over its
 * characters makes it up to ~0.65 em in capitals; table gutters are rarely under 1 em.
 */
function chunksOf(slice: Slice, text: PageText): Chunk[] {
  const pitch = monospacedPitch(slice.words, text);
  const wordGap = pitch ? MONOSPACED.spaces * pitch : 0.7 * Math.min(slice.bottom - slice.top, 2 * text.h);
  const chunks: Chunk[] = [];
  // Words of one chunk also sit on one level: a value centred beside a label wrapped over two lines
  // shares the page's line with the label's lines, yet half a line off them, it is no word of theirs.
  const level = (a: number, b: number) =>
    Math.min(text.bottom[a], text.bottom[b]) - Math.max(text.top[a], text.top[b]) >= 0.6 * Math.min(text.bottom[a] - text.top[a], text.bottom[b] - text.top[b]);
  for (const w of slice.words) {
    const last = chunks.at(-1);
    if (last && text.left[w] - last.right <= wordGap && level(last.words.at(-1)!, w)) {
      last.words.push(w);
      last.right = Math.max(last.right, text.right[w]);
    } else {
      chunks.push({ left: text.left[w], right: text.right[w], words: [w] });
    }
  }
  return chunks;
}

function claim(grid: Grid, text: PageText): Grid {
  for (const cell of grid.cells) for (const w of cell.words) text.used[w] = 1;
  return grid;
}

// ---------------------------------------------------------------------------------------------------
// Rules
// ---------------------------------------------------------------------------------------------------

/** Rules as horizontal and vertical segments, collinear pieces merged, near-equal coordinates snapped. */
function straightenRules(rules: Rule[], tol: number): { horizontal: Segment[]; vertical: Segment[] } {
  const horizontal: Segment[] = [];
  const vertical: Segment[] = [];
  for (const { x1, y1, x2, y2 } of rules) {
    if (![x1, y1, x2, y2].every(Number.isFinite)) continue;
    const dx = Math.abs(x2 - x1);
    const dy = Math.abs(y2 - y1);
    if (dy <= tol && dx > dy) horizontal.push({ at: (y1 + y2) / 2, from: Math.min(x1, x2), to: Math.max(x1, x2) });
    else if (dx <= tol && dy > dx) vertical.push({ at: (x1 + x2) / 2, from: Math.min(y1, y2), to: Math.max(y1, y2) });
    // Anything else is a diagonal or a dot: not a table border.
  }
  return { horizontal: mergeCollinear(horizontal, tol), vertical: mergeCollinear(vertical, tol) };
}

function mergeCollinear(segments: Segment[], tol: number): Segment[] {
  const sorted = segments.slice().sort((a, b) => a.at - b.at);
  const merged: Segment[] = [];
  for (let i = 0; i < sorted.length; ) {
    // One cluster of near-equal coordinates (each within tol of the previous), snapped to their mean.
    let j = i + 1;
    while (j < sorted.length && sorted[j].at - sorted[j - 1].at <= tol) j++;
    const cluster = sorted.slice(i, j).sort((a, b) => a.from - b.from);
    const at = cluster.reduce((sum, s) => sum + s.at, 0) / cluster.length;
    let current = { at, from: cluster[0].from, to: cluster[0].to };
    for (const s of cluster.slice(1)) {
      // Pieces that touch or nearly touch (a rule drawn cell by cell, a dashed rule) are one rule.
      if (s.from <= current.to + 2 * tol) current.to = Math.max(current.to, s.to);
      else {
        merged.push(current);
        current = { at, from: s.from, to: s.to };
      }
    }
    merged.push(current);
    i = j;
  }
  // What is still tiny after merging is a dot or a glyph-like mark.
  return merged.filter((s) => s.to - s.from > 3 * tol);
}

/** Groups of rules that touch each other (a horizontal and a vertical rule touch where they cross or meet). */
function connectRules(horizontal: Segment[], vertical: Segment[], reach: number): { horizontal: Segment[]; vertical: Segment[] }[] {
  const parent = Array.from({ length: horizontal.length + vertical.length }, (_, i) => i);
  const find = (i: number): number => {
    while (parent[i] !== i) i = parent[i] = parent[parent[i]];
    return i;
  };
  horizontal.forEach((h, i) => {
    vertical.forEach((v, j) => {
      if (v.at >= h.from - reach && v.at <= h.to + reach && h.at >= v.from - reach && h.at <= v.to + reach) {
        parent[find(i)] = find(horizontal.length + j);
      }
    });
  });
  const groups = new Map<number, { horizontal: Segment[]; vertical: Segment[] }>();
  const groupOf = (i: number) => {
    const root = find(i);
    if (!groups.has(root)) groups.set(root, { horizontal: [], vertical: [] });
    return groups.get(root)!;
  };
  horizontal.forEach((h, i) => groupOf(i).horizontal.push(h));
  vertical.forEach((v, j) => groupOf(horizontal.length + j).vertical.push(v));
  return [...groups.values()];
}

/** A row or column boundary of a ruled grid: rules within half a text height of each other are one. */
interface Boundary {
  at: number;
  lo: number;
  hi: number;
  /** Two parallel, overlapping rules: a double rule. */
  double: boolean;
}

function boundaries(rules: Segment[], ends: number[], text: PageText): Boundary[] {
  const values = [...rules.map((s) => ({ at: s.at, rule: s as Segment | undefined })), ...ends.map((at) => ({ at, rule: undefined }))];
  values.sort((a, b) => a.at - b.at);
  const result: Boundary[] = [];
  for (let i = 0; i < values.length; ) {
    // Nothing fits between rules closer than half a text height, so they bound the same row.
    let j = i + 1;
    while (j < values.length && values[j].at - values[j - 1].at < 0.5 * text.h) j++;
    const cluster = values.slice(i, j);
    const drawn = cluster.flatMap((v) => (v.rule ? [v.rule] : []));
    const at = mean((drawn.length > 0 ? drawn : cluster).map((v) => v.at));
    const double = drawn.some((a, k) => drawn.slice(k + 1).some((b) => b.at !== a.at && overlap(a, b) >= 0.5 * Math.min(a.to - a.from, b.to - b.from)));
    result.push({ at, lo: cluster[0].at, hi: cluster.at(-1)!.at, double });
    i = j;
  }
  return result;
}

/** How much of from..to the rules (all along one boundary) cover, as a fraction. */
function coverage(rules: Segment[], from: number, to: number): number {
  const pieces = rules.filter((s) => s.to > from && s.from < to).map((s) => ({ left: Math.max(from, s.from), right: Math.min(to, s.to) }));
  return intervalLength(pieces) / Math.max(to - from, 1e-9);
}

// ---------------------------------------------------------------------------------------------------
// 1. Ruled grids
// ---------------------------------------------------------------------------------------------------

function ruledGrid(horizontal: Segment[], vertical: Segment[], text: PageText): Grid | null {
  // A grid needs at least two of each; fewer is an underline, a frame side, a margin bar.
  if (horizontal.length < 2 || vertical.length < 2) return null;
  const { tol, h } = text;
  // The outer edges come from the rules' extent too, so a grid drawn without its outer border still closes.
  const rowLines = boundaries(horizontal, [Math.min(...vertical.map((s) => s.from)), Math.max(...vertical.map((s) => s.to))], text);
  const columnLines = boundaries(vertical, [Math.min(...horizontal.map((s) => s.from)), Math.max(...horizontal.map((s) => s.to))], text);
  const R = rowLines.length - 1;
  const C = columnLines.length - 1;
  if (R < 1 || C < 2) return null;
  const ys = rowLines.map((b) => b.at);
  const xs = columnLines.map((b) => b.at);

  // Words by grid cell, from their middle.
  const bandWords: number[][] = Array.from({ length: R }, () => []);
  const cellWords: number[][] = Array.from({ length: R * C }, () => []);
  for (let w = 0; w < text.words.length; w++) {
    if (text.used[w]) continue;
    const x = (text.left[w] + text.right[w]) / 2;
    const y = (text.top[w] + text.bottom[w]) / 2;
    if (x < xs[0] || x > xs[C] || y < ys[0] || y > ys[R]) continue;
    const r = position(ys, y);
    bandWords[r].push(w);
    cellWords[r * C + position(xs, x)].push(w);
  }
  if (cellWords.filter((words) => words.length > 0).length < 2) return null; // an empty grid: a chart, a form frame

  // The rules along each boundary, looked up once.
  const along = (rules: Segment[], line: Boundary) => rules.filter((s) => s.at >= line.lo - tol && s.at <= line.hi + tol);
  const rowRules = rowLines.map((line) => along(horizontal, line));
  const columnRules = columnLines.map((line) => along(vertical, line));
  const ruleBelow = (r: number, c: number) => coverage(rowRules[r + 1], xs[c], xs[c + 1]) >= 0.5;
  const ruleRightOf = (r: number, c: number) => coverage(columnRules[c + 1], ys[r], ys[r + 1]) >= 0.5;
  // A vertical rule missing over a whole row of text columns (only the header drawn with separators)
  // merges nothing when the text itself has a clear gap at that x on both sides.
  const textSplitsAt = (r: number, x: number, from: number, to: number) => {
    const words = bandWords[r].filter((w) => text.right[w] > from && text.left[w] < to);
    const crossing = words.some((w) => text.right[w] > x - 0.3 * h && text.left[w] < x + 0.3 * h);
    return !crossing && words.some((w) => text.right[w] <= x) && words.some((w) => text.left[w] >= x);
  };

  // Cells, row by row: a cell grows right while the rule to its right is missing, then down while the
  // rule below its whole width is missing (so a merged cell is always a rectangle).
  const owner = new Int32Array(R * C).fill(-1);
  const cells: GridCell[] = [];
  for (let r = 0; r < R; r++) {
    for (let c = 0; c < C; c++) {
      if (owner[r * C + c] >= 0) continue;
      let columnSpan = 1;
      while (
        c + columnSpan < C &&
        owner[r * C + c + columnSpan] < 0 &&
        !ruleRightOf(r, c + columnSpan - 1) &&
        !textSplitsAt(r, xs[c + columnSpan], xs[c], xs[c + columnSpan + 1])
      ) {
        columnSpan++;
      }
      let rowSpan = 1;
      const open = (rr: number) => range(c, c + columnSpan).every((cc) => owner[rr * C + cc] < 0 && !ruleBelow(rr - 1, cc));
      while (r + rowSpan < R && open(r + rowSpan)) rowSpan++;
      const words: number[] = [];
      for (let rr = r; rr < r + rowSpan; rr++) {
        for (let cc = c; cc < c + columnSpan; cc++) {
          owner[rr * C + cc] = cells.length;
          words.push(...cellWords[rr * C + cc]);
        }
      }
      cells.push({ row: r, column: c, rowSpan, columnSpan, words });
    }
  }
  const drawn: Grid = { xs, ys, cells, doubleRules: new Set(range(1, R).filter((k) => rowLines[k].double)) };
  const grid = splitBands(drawn, bandWords, text);
  if (grid.ys.length - 1 < 2) return null; // a single row of boxes is no table
  // Rows read from the text (rules only around the block) must look like a table as much as an unruled
  // one: a frame with a rule between two columns of running text is a page layout. Where two rules or
  // more cut the frame into columns from top to bottom, the columns are drawn, not lined up by chance:
  // a header over one item row whose cells are mostly empty is a table (a header alone, its headings
  // wrapped, is not), running text in them is not.
  const columnsDrawn = range(1, C).filter((c) => coverage(columnRules[c], ys[0], ys[R]) >= 0.5).length >= 2;
  if (grid !== drawn) {
    const texts = gridTexts(grid, text);
    const sideBySideRows = texts.filter((row) => row.filter((cell) => cell !== '').length >= 2).length;
    const drawnTable = columnsDrawn && sideBySideRows >= 2 && !runningText(texts) && !contentsList(texts);
    if (!drawnTable && !plausibleTable(texts, false)) return null;
  }
  return grid;
}

/**
 * Boxes that each hold a label and its value ("Date d'échéance : 30/01/2019", "MOYEN DE PAIEMENT :
 * VIREMENT", "COMPTE : IBAN : …"): a bill's panels drawn as boxes, read as text. A table's cells hold
 * values, with a label among them here and there.
 */
function labelledBoxes(rows: string[][]): boolean {
  const cells = rows.flat().filter((cell) => cell !== '');
  return cells.length >= 2 && cells.filter((cell) => LABELLED_VALUE.test(cell)).length > 0.5 * cells.length;
}

/**
 * Ruled boxes that are text, not a table: boxes of labelled values (labelledBoxes), or boxes whose text
 * all sits in one column (a letter box over a name, a stack of notes): a table has values side by side.
 */
function textBoxes(rows: string[][]): boolean {
  const filledColumns = range(0, rows[0]?.length ?? 0).filter((c) => rows.some((row) => row[c] !== '')).length;
  return filledColumns < 2 || labelledBoxes(rows);
}


/**
 * A ruled column that holds two: its heading is two headings side by side, farther apart than the words
 * of one ("Prix unitaire" and "Rem." in one box of the header, no rule between them), and every word
 * under it sits under one of them, the two sides never overlapping (the prices right-aligned under the
 * first, the discounts under the second). Split where the sides leave off.
 */
function splitSharedColumns(grid: Grid, text: PageText): Grid {
  let out = grid;
  for (let c = grid.xs.length - 2; c >= 0; c--) {
    const heading = out.cells.find((cell) => cell.row === 0 && cell.column === c && cell.columnSpan === 1);
    if (!heading || heading.rowSpan !== 1 || heading.words.length < 2) continue;
    const headings = sideBySide(heading.words, SHARED_COLUMN_GAP * text.h, text);
    if (headings.length !== 2) continue;
    const body = out.cells.filter((cell) => cell.row > 0 && cell.column <= c && cell.column + cell.columnSpan > c);
    if (body.some((cell) => cell.columnSpan > 1)) continue;
    // What each cell prints, in pieces as far apart as the headings ("4,55 €" one piece, "10%" another).
    const pieces = body.flatMap((cell) => sideBySide(cell.words, SHARED_COLUMN_GAP * text.h, text));
    const centre = (span: Interval) => (span.left + span.right) / 2;
    const [a, b] = headings.map(centre);
    const first = pieces.filter((span) => Math.abs(centre(span) - a) <= Math.abs(centre(span) - b));
    const second = pieces.filter((span) => !first.includes(span));
    if (first.length === 0 || second.length === 0) continue;
    const leftEnd = Math.max(headings[0].right, ...first.map((span) => span.right));
    const rightStart = Math.min(headings[1].left, ...second.map((span) => span.left));
    if (leftEnd >= rightStart) continue;
    out = splitColumn(out, c, (leftEnd + rightStart) / 2, text);
  }
  return out;
}

/** Words grouped by where they sit across: words whose extents overlap or lie within `gap` of each other are one group. */
function sideBySide(words: number[], gap: number, text: PageText): Interval[] {
  return mergeIntervals(words.map((w) => ({ left: text.left[w], right: text.right[w] })), gap);
}

/** The grid with column `c` cut in two at `x`: each word of its cells to the side its middle is on; a cell across it spans both. */
function splitColumn(grid: Grid, c: number, x: number, text: PageText): Grid {
  const middle = (w: number) => (text.left[w] + text.right[w]) / 2;
  const cells: GridCell[] = [];
  for (const cell of grid.cells) {
    if (cell.column > c) cells.push({ ...cell, column: cell.column + 1 });
    else if (cell.column + cell.columnSpan <= c) cells.push(cell);
    else if (cell.columnSpan > 1) cells.push({ ...cell, columnSpan: cell.columnSpan + 1 });
    else {
      cells.push({ ...cell, words: cell.words.filter((w) => middle(w) < x) });
      cells.push({ ...cell, column: c + 1, words: cell.words.filter((w) => middle(w) >= x) });
    }
  }
  return { ...grid, xs: [...grid.xs.slice(0, c + 1), x, ...grid.xs.slice(c + 1)], cells };
}

/**
 * Rows the rules do not separate. A grid with vertical rules but horizontal rules only around the header
 * and the whole table holds many text rows between two rules: when bands of several text rows hold most
 * of the text, those bands are split into their text rows. A fully ruled table with a wrapped cell here
 * and there keeps the rules' rows.
 */
function splitBands(grid: Grid, bandWords: number[][], text: PageText): Grid {
  const R = grid.ys.length - 1;
  const C = grid.xs.length - 1;
  // Only bands crossed by no merged cell can be split without tearing a cell.
  const plain = new Array<boolean>(R).fill(true);
  for (const cell of grid.cells) {
    if (cell.rowSpan > 1 || cell.columnSpan > 1) for (let r = cell.row; r < cell.row + cell.rowSpan; r++) plain[r] = false;
  }
  const columnOf = (w: number) => position(grid.xs, (text.left[w] + text.right[w]) / 2);
  const slices = bandWords.map((words) => slicesOfWords(words, text));
  const bandRows = slices.map((bandSlices, r) => (plain[r] && bandSlices.length > 1 ? linesToRows(bandSlices, columnOf, C, text) : null));
  const lineCount = sum(slices.map((s) => s.length));
  const multiLines = sum(bandRows.map((rows, r) => (rows && rows.length >= 2 ? slices[r].length : 0)));
  const tallBand = bandRows.some((rows) => rows && rows.length >= 3);
  if (!(multiLines * 2 > lineCount && (tallBand || R <= 2))) return grid;

  // Where rules draw the body's rows (two bands or more under the header), a band holding one row of
  // values among lines of text in a few columns is one row whose cells wrap: an item's code and name on
  // two or three lines, its numbers centred on the band (so its first line is not the values' line).
  // A first band of words without a number in two boxes or more, over bands below it, is the header, its
  // headings wrapped in their boxes (one box across the columns is a caption); the rules under it draw
  // the body's rows as they do under two bands or more.
  const headingBoxes = grid.cells.filter((cell) => cell.row === 0 && cell.words.length > 0).length;
  const headings = R >= 2 && headingBoxes >= 2 && bandWords[0]!.every((w) => !isNumeric(text.words[w]!.text));
  const ruledRows = R >= 3 || headings;
  const split = bandRows.map((rows, r) => (rows && rows.length >= 2 && !(ruledRows && wrappedRow(rows, C)) && !(r === 0 && headings) ? rows : null));
  if (split.every((rows) => rows === null)) return grid;
  const start: number[] = [];
  let count = 0;
  for (let r = 0; r < R; r++) {
    start.push(count);
    count += split[r]?.length ?? 1;
  }
  start.push(count);
  const ys: number[] = [];
  for (let r = 0; r < R; r++) {
    ys.push(grid.ys[r]);
    const rows = split[r];
    if (rows) for (let i = 1; i < rows.length; i++) ys.push((rows[i - 1].bottom + rows[i].top) / 2);
  }
  ys.push(grid.ys[R]);
  const cells: GridCell[] = [];
  for (const cell of grid.cells) {
    if (split[cell.row]) continue;
    cells.push({ ...cell, row: start[cell.row], rowSpan: start[cell.row + cell.rowSpan] - start[cell.row] });
  }
  split.forEach((rows, r) => {
    rows?.forEach((row, i) => {
      for (let c = 0; c < C; c++) cells.push({ row: start[r] + i, column: c, rowSpan: 1, columnSpan: 1, words: row.cells[c] });
    });
  });
  const doubleRules = new Set([...(grid.doubleRules ?? [])].map((k) => start[k]));
  return { xs: grid.xs, ys, cells, doubleRules };
}

/** At most one of a band's rows fills more than a few of the columns: the others are its cells' wrapped lines. */
function wrappedRow(rows: TextRow[], columnCount: number): boolean {
  const few = Math.max(1, Math.floor((columnCount - 1) / 2));
  return rows.filter((row) => row.cells.filter((words) => words.length > 0).length > few).length <= 1;
}

/** Given words (all free) as slices of their lines, top to bottom. */
function slicesOfWords(words: number[], text: PageText): Slice[] {
  const byLine = new Map<number, number[]>();
  for (const w of words) {
    const l = text.lineOf[w];
    if (!byLine.has(l)) byLine.set(l, []);
    byLine.get(l)!.push(w);
  }
  return [...byLine.entries()]
    .sort((a, b) => a[0] - b[0])
    .map(([line, lineWords]) => {
      lineWords.sort((a, b) => text.left[a] - text.left[b]);
      return { line, words: lineWords, top: Math.min(...lineWords.map((w) => text.top[w])), bottom: Math.max(...lineWords.map((w) => text.bottom[w])) };
    });
}

// ---------------------------------------------------------------------------------------------------
// 2. Tables with horizontal rules only
// ---------------------------------------------------------------------------------------------------

/**
 * Booktabs and rule-per-row tables. Long horizontal rules of (nearly) the same extent form a family; a
 * table lies between two of them. From each rule down, the farthest rule that closes a valid table wins.
 */
function horizontalRuleGrids(rules: Segment[], frames: Frame[], text: PageText): Grid[] {
  // Underlines under a word or two are shorter than this.
  const long = rules.filter((s) => s.to - s.from >= 4 * text.h).sort((a, b) => a.at - b.at);
  const grids: Grid[] = [];
  const grouped = new Array<boolean>(long.length).fill(false);
  for (let i = 0; i < long.length; i++) {
    if (grouped[i]) continue;
    const family = [long[i]];
    for (let j = i + 1; j < long.length; j++) {
      if (!grouped[j] && overlap(long[i], long[j]) >= 0.8 * (Math.max(long[i].to, long[j].to) - Math.min(long[i].from, long[j].from))) {
        family.push(long[j]);
        grouped[j] = true;
      }
    }
    extendRulePerRow(family, text);
    for (let a = 0; a < family.length - 1; ) {
      let next = a + 1;
      // Rows above the first rule are judged against the lines down to the family's last rule (once per rule).
      const lead = leadingRows(family[a], family.at(-1)!, rules, text);
      for (let b = family.length - 1; b > a; b--) {
        // A rule longer than the region, crossing it, makes it a slice of something larger (one column of
        // a statement whose rows are separated by full-width rules): no table of its own.
        if (rules.some((r) => r.at > family[a].at + text.tol && r.at < family[b].at - text.tol && crossesWider(r, family[a], text))) continue;
        // A closed frame below the region's top rule, a blank stretch above it, is a box of its own (a
        // totals box under the items), not rows of a table that runs on into it.
        if (frames.some((frame) => frame.apart && frame.top > family[a].at + text.tol && frame.bottom <= family[b].at + text.tol)) continue;
        const grid =
          (lead && ruledRegionGrid({ ...family[a], at: lead.top }, family[b], [...lead.separators, ...family.slice(a, b)], text, lead.header)) ||
          ruledRegionGrid(family[a], family[b], family.slice(a + 1, b), text);
        if (grid) {
          grids.push(claim(grid, text));
          next = b;
          break;
        }
      }
      a = next;
    }
  }
  return grids;
}

/** A closed rectangle drawn around something: its top and bottom rules; `apart` when more than two word heights of blank paper lie above it. */
interface Frame {
  top: number;
  bottom: number;
  apart: boolean;
}

/**
 * Rules that close a rectangle and no grid (two horizontals, two verticals, joined at the corners): a
 * frame around a box of text, a header band, a totals box. (A blank stretch ends a table: see unruledGrids.)
 */
function frameOf(horizontal: Segment[], vertical: Segment[], text: PageText): Frame | null {
  if (horizontal.length !== 2 || vertical.length !== 2) return null;
  const [top, bottom] = horizontal.slice().sort((p, q) => p.at - q.at);
  const [left, right] = vertical.slice().sort((p, q) => p.at - q.at);
  const near = (p: number, q: number) => Math.abs(p - q) <= 0.4 * text.h;
  const closed = [top, bottom].every((h) => near(h.from, left.at) && near(h.to, right.at)) && [left, right].every((v) => near(v.from, top.at) && near(v.to, bottom.at));
  if (!closed) return null;
  const above = text.lines.filter((line) => line.bottom <= top.at && line.words.some((w) => text.right[w] > left.at && text.left[w] < right.at));
  const blank = above.length === 0 ? Infinity : top.at - Math.max(...above.map((line) => line.bottom));
  return { top: top.at, bottom: bottom.at, apart: blank > 2 * text.h };
}

/**
 * A table with a rule between every two rows often draws none above its first row (the header sits on
 * a shaded band, or nothing) and none under its last. When a family of at least three rules is evenly
 * spaced, the band one row pitch above the first rule and one below the last are rows too when their
 * lines look like the table's (two chunks or more, no word across the rules' ends): rules are added there, up to
 * two rows above (the first row and the header) and one below. Adds to `family` in place, kept sorted.
 */
function extendRulePerRow(family: Segment[], text: PageText): void {
  if (family.length < 3) return;
  const gaps = family.slice(1).map((rule, k) => rule.at - family[k].at);
  const pitch = median(gaps);
  if (pitch < 1.5 * text.h || gaps.some((gap) => Math.abs(gap - pitch) > 0.2 * pitch)) return;
  const from = Math.min(...family.map((rule) => rule.from));
  const to = Math.max(...family.map((rule) => rule.to));
  const rowLike = (top: number, bottom: number) => {
    const slices = slicesIn(text, { left: from - text.tol, right: to + text.tol, top, bottom });
    // No word of the band's lines may straddle the rules' ends: that is text running across the table's place.
    const straddles = (w: number, x: number) => text.left[w] < x - text.tol && text.right[w] > x + text.tol;
    const whole = slices.every((slice) => text.lines[slice.line].words.every((w) => text.used[w] || (!straddles(w, from) && !straddles(w, to))));
    return slices.length > 0 && whole && slices.some((slice) => chunksOf(slice, text).length >= 2);
  };
  for (let k = 0; k < 2 && rowLike(family[0].at - pitch, family[0].at); k++) family.unshift({ at: family[0].at - pitch, from, to });
  if (rowLike(family.at(-1)!.at, family.at(-1)!.at + pitch)) family.push({ at: family.at(-1)!.at + pitch, from, to });
}

/** Whether rule `r` spans all of `region`'s width and reaches well past one of its ends. */
function crossesWider(r: Segment, region: Segment, text: PageText): boolean {
  return r.from <= region.from + text.tol && r.to >= region.to - text.tol && (r.from < region.from - 2 * text.h || r.to > region.to + 2 * text.h);
}

/**
 * Rows and a header above a table's first rule. Financial statements draw rules between sections, not
 * above the first rows, and their column headings sit above those rows with a gap. Walking up from the
 * rule, line by line, while the lines stay inside the rules' width and no farther apart than the table's
 * own lines: first body rows (a chunk at the table's left edge, where row labels are, and no chunk
 * across two of the table's columns), then at most three header lines (headings over the value columns,
 * clear of the first column). Returns the new top and the
 * rules (invented, between the header and the rows) that make the header a band of its own.
 */
function leadingRows(rule: Segment, bottomRule: Segment, rules: Segment[], text: PageText): { top: number; separators: Segment[]; header: boolean } | null {
  const inRegion = (l: number) => text.lines[l].words.filter((w) => !text.used[w] && text.left[w] >= rule.from - text.tol && text.right[w] <= rule.to + text.tol);
  const below = range(0, text.lines.length).filter((l) => text.lines[l].top > rule.at && text.lines[l].bottom < bottomRule.at && inRegion(l).length > 0);
  if (below.length < 2) return null;
  const gaps = below.slice(1).map((l, k) => text.lines[l].top - text.lines[below[k]].bottom);
  const maxGap = 2 * median(gaps) + text.h;
  const edge = Math.min(...below.flatMap(inRegion).map((w) => text.left[w]));
  const atEdge = (chunks: Chunk[]) => chunks[0].left <= edge + 2 * text.h;
  // The table's columns below the rule: a row above fits them chunk by chunk; headings sit over the
  // value columns, clear of the first (a caption or a line of prose does neither).
  const columns = columnsOf(below.map((l) => ({ line: l, words: inRegion(l), top: text.lines[l].top, bottom: text.lines[l].bottom })), text);
  // (Columns closer than two text heights count as one here: a label's wide word spaces split labels below too.)
  const wideColumns = mergeIntervals(columns, 2 * text.h);
  const fits = (chunks: Chunk[]) => chunks.length >= 2 && chunks.every((chunk) => wideColumns.filter((c) => chunk.left < c.right && chunk.right > c.left).length <= 1);
  const overValues = (chunks: Chunk[]) => columns.length >= 2 && chunks.every((chunk) => chunk.left > columns[0].right);
  const straddles = (w: number, x: number) => text.left[w] < x - text.tol && text.right[w] > x + text.tol;

  // Headings stacked in a tall header band, each centred in its cell, make lines half a line apart that
  // overlap one another: rows never do. Such a block right on the rule, spread over three columns or
  // more, is the header the rule underlines, all of it one band.
  const block: number[] = [];
  for (let l = text.lines.length - 1, reachUp = rule.at; l >= 0; l--) {
    const line = text.lines[l];
    if ((line.top + line.bottom) / 2 >= rule.at) continue;
    if (reachUp - line.bottom > 0.5 * text.h || inRegion(l).length === 0) break;
    block.push(l);
    reachUp = Math.min(reachUp, line.top);
  }
  const blockChunks = mergeIntervals(block.flatMap((l) => chunksOf({ line: l, words: inRegion(l), top: text.lines[l].top, bottom: text.lines[l].bottom }, text)), 0.3 * text.h);
  if (staggered(block.map((l) => text.lines[l]), text) && blockChunks.length >= 3) return { top: Math.min(...block.map((l) => text.lines[l].top)) - text.tol, separators: [], header: true };

  const rows: number[] = [];
  const header: number[] = [];
  let reach = rule.at;
  for (let l = text.lines.length - 1; l >= 0; l--) {
    const line = text.lines[l];
    if ((line.top + line.bottom) / 2 >= rule.at) continue;
    // A rule under the line within the table's width (a heading's underline) bridges the gap.
    const ruled = rules.filter((r) => r.at > line.bottom && r.at < reach && r.from >= rule.from - text.tol && r.to <= rule.to + text.tol);
    const nearest = ruled.length > 0 ? Math.min(...ruled.map((r) => r.at)) : reach;
    if (reach - line.bottom > maxGap && (nearest - line.bottom > maxGap || reach - nearest > maxGap)) break;
    const words = inRegion(l);
    if (words.length === 0 || line.words.some((w) => !text.used[w] && (straddles(w, rule.from) || straddles(w, rule.to)))) break;
    const chunks = chunksOf({ line: l, words, top: line.top, bottom: line.bottom }, text);
    // The line right on the rule, its headings spread over the table (three or more), is the header
    // the rule underlines, even where two headings run together or it starts at the left edge.
    const underlined = rows.length === 0 && header.length === 0 && rule.at - line.bottom <= 0.5 * text.h && chunks.length >= 3;
    if (underlined) header.push(l);
    else if (header.length === 0 && atEdge(chunks) && fits(chunks)) rows.push(l);
    else if (!atEdge(chunks) && overValues(chunks) && header.length < 3) header.push(l);
    else break;
    reach = line.top;
  }
  if (rows.length === 0 && header.length === 0) return null;
  const top = Math.min(...[...rows, ...header].map((l) => text.lines[l].top)) - text.tol;
  // Each row a band of its own (rows, like the rule's, are one row per band), and the header one band:
  // invented rules halfway between them. `rows` and `header` run upwards.
  const halfway = (upper: number, lower: number) => ({ ...rule, at: (text.lines[upper].bottom + text.lines[lower].top) / 2 });
  const separators = rows.slice(1).map((l, k) => halfway(l, rows[k]));
  if (header.length > 0 && rows.length > 0) separators.push(halfway(header[0], rows.at(-1)!));
  return { top, separators: separators.sort((p, q) => p.at - q.at), header: header.length > 0 };
}

/**
 * A body column under two headings set apart (farther than SHARED_COLUMN_GAP) of a header of three or
 * more is two columns when some stretch between the headings is crossed by no word, of the header or
 * the body, and each side holds words on two lines or more: a note under an item's name ("Bruttopreis :
 * 9,9000") ran the two together as one chunk, its words a word space apart. Cut in the middle of the
 * widest such stretch.
 */
function splitUnderHeadings(columns: Interval[], header: Slice[], body: Slice[], text: PageText): Interval[] {
  const headings = header.flatMap((slice) => chunksOf(slice, text));
  // A header of three headings or more: a table's, not a pair of labels over a form's boxes.
  if (headings.length < 3) return columns;
  const words = [...header, ...body].flatMap((slice) => slice.words);
  return columns.flatMap((column) => {
    const over = headings.filter((chunk) => (chunk.left + chunk.right) / 2 > column.left && (chunk.left + chunk.right) / 2 < column.right).sort((a, b) => a.left - b.left);
    const cuts: number[] = [];
    for (let k = 0; k + 1 < over.length; k++) {
      const [a, b] = [over[k], over[k + 1]];
      if (b.left - a.right <= SHARED_COLUMN_GAP * text.h) continue;
      const middle = (a.left + a.right) / 2;
      const next = (b.left + b.right) / 2;
      const taken = mergeIntervals(
        words.filter((w) => text.right[w] > middle && text.left[w] < next).map((w) => ({ left: text.left[w], right: text.right[w] })),
        0,
      );
      const free = [middle, ...taken.flatMap((span) => [span.left, span.right]), next];
      let best = { width: 0.3 * text.h, at: NaN };
      for (let i = 0; i + 1 < free.length; i += 2) if (free[i + 1] - free[i] > best.width) best = { width: free[i + 1] - free[i], at: (free[i] + free[i + 1]) / 2 };
      // Values under each heading, on two lines or more: two columns, not a heading over a gap in one.
      const linesBeside = (side: (w: number) => boolean) => body.filter((slice) => slice.words.some((w) => text.left[w] >= column.left - text.tol && text.right[w] <= column.right + text.tol && side(w))).length;
      const centre = (w: number) => (text.left[w] + text.right[w]) / 2;
      if (Number.isFinite(best.at) && linesBeside((w) => centre(w) < best.at) >= 2 && linesBeside((w) => centre(w) > best.at) >= 2) cuts.push(best.at);
    }
    if (cuts.length === 0) return [column];
    const edges = [column.left, ...cuts, column.right];
    return edges.slice(1).map((right, k) => {
      const inside = words.filter((w) => (text.left[w] + text.right[w]) / 2 > edges[k] && (text.left[w] + text.right[w]) / 2 < right);
      return { left: Math.min(...inside.map((w) => text.left[w])), right: Math.max(...inside.map((w) => text.right[w])) };
    });
  });
}

/** Lines that overlap one another by more than STAGGERED_HEADINGS: headings stacked in one band, centred in their cells. */
function staggered(lines: { top: number; bottom: number }[], text: PageText): boolean {
  const sorted = lines.slice().sort((a, b) => a.top - b.top);
  return sorted.some((line, k) => k > 0 && sorted[k - 1].bottom - line.top > STAGGERED_HEADINGS * text.h);
}

/**
 * The table between a top and a bottom rule, `separators` being the full-width rules in between.
 * `knownHeader`: whether the first band is the header, when `leadingRows` knows (it set the bands apart);
 * otherwise a short first band is taken as the header.
 */
function ruledRegionGrid(topRule: Segment, bottomRule: Segment, separators: Segment[], text: PageText, knownHeader?: boolean): Grid | null {
  const area = { left: Math.min(topRule.from, bottomRule.from), right: Math.max(topRule.to, bottomRule.to), top: topRule.at, bottom: bottomRule.at };
  const slices = slicesIn(text, area);
  if (slices.length < 2) return null;

  // Bands: the text between consecutive rules. A band of single-chunk lines only is a caption or prose
  // (say between two stacked tables), not part of a table; except in a table with a rule under every row,
  // where it is a row with one filled cell (a section label) when it is no taller than the other rows.
  const bands: Slice[][] = Array.from({ length: separators.length + 1 }, () => []);
  for (const slice of slices) {
    const middle = (slice.top + slice.bottom) / 2;
    bands[separators.filter((s) => s.at < middle).length].push(slice);
  }
  const ruleAt = [topRule.at, ...separators.map((s) => s.at), bottomRule.at];
  const filled = range(0, bands.length).filter((k) => bands[k].length > 0);
  const rulePerRow = filled.every((k) => bands[k].length <= 2);
  const usualHeight = median(filled.map((k) => ruleAt[k + 1] - ruleAt[k]));
  const foreign = (k: number) => !bands[k].some((slice) => chunksOf(slice, text).length >= 2) && !(rulePerRow && ruleAt[k + 1] - ruleAt[k] <= 1.5 * usualHeight);
  if (filled.some(foreign)) return null;

  // A short first band above a rule is the header (booktabs). Columns come from the body, where a header
  // cell spanning columns (a group heading) cannot hide the gap between them; header cells clear of every
  // body column head columns of their own (empty in the body), unless they are a line of group headings.
  const nonEmpty = bands.filter((band) => band.length > 0);
  const hasHeaderBand = nonEmpty.length >= 2 && (knownHeader ?? nonEmpty[0].length <= 3);
  const header = hasHeaderBand ? nonEmpty[0] : [];
  const bodyBands = hasHeaderBand ? nonEmpty.slice(1) : nonEmpty;
  const body = bodyBands.flat();
  const bodyColumns = columnsOf(body, text);
  const clear = header
    .map((slice) => chunksOf(slice, text))
    .filter((chunks) => chunks.length * 2 > bodyColumns.length)
    .flat()
    .filter((chunk) => !bodyColumns.some((column) => column.right > chunk.left && column.left < chunk.right));
  const columns = splitUnderHeadings(mergeIntervals([...bodyColumns, ...clear], 0.3 * text.h), header, body, text);
  if (columns.length < 2) return null;
  const xs = columnEdges(columns, area.left, area.right);
  const C = columns.length;
  const columnOf = (w: number) => position(xs, (text.left[w] + text.right[w]) / 2);

  // Rows: when the rules separate every row (a rule under each row), each band is one row and its
  // lines are one row's wrapped cells; when bands hold several rows (booktabs), rows come from the lines.
  const bandRows = bodyBands.map((band) => linesToRows(band, columnOf, C, text));
  const multiLines = sum(bodyBands.map((band, k) => (bandRows[k].length >= 2 ? band.length : 0)));
  const byLines = multiLines * 2 > body.length;
  const bodyRows = byLines ? bandRows.flat().map(draftOf) : bodyBands.map((band) => draftOf(mergeLines(band, columnOf, C)));

  // Header lines with a group heading are rows of their own; otherwise they are one row's wrapped cells.
  // Header text is placed by chunks (a header wider than its column reaches past the body's gap middle).
  let headerRows: RowDraft[] = [];
  if (header.length > 0) {
    const placed = header.map((slice) => spanningRow(slice, columns, xs, text));
    if (placed.some((row) => row === null) || staggered(header, text)) headerRows = [draftOf(mergeLines(header, columnOf, C))];
    else if (placed.some((row) => row!.cells.some((cell) => cell.span > 1))) headerRows = placed as RowDraft[];
    else headerRows = [mergeDrafts(placed as RowDraft[])];
  }
  const rows = [...headerRows, ...bodyRows];
  // Rules inside the region (a header rule, row rules) are evidence of a table; two rules alone may be a
  // frame or page separators around anything.
  if (!plausibleTable(draftTexts(rows, C, text), separators.length > 0)) return null;
  const grid = gridFromRows(rows, xs, area.top, area.bottom);
  // The header rule marks the header only where it is special: in a rule-per-row table it is one of many.
  if ((byLines || knownHeader === true) && headerRows.length > 0) grid.headerRows = headerRows.length;
  return grid;
}

// ---------------------------------------------------------------------------------------------------
// 3. Unruled tables
// ---------------------------------------------------------------------------------------------------

interface Run {
  start: number;
  end: number;
  columns: Interval[];
}

/**
 * Runs of text lines whose whitespace gaps line up. A run starts at a line of at least two chunks and
 * grows while every column gap found so far stays open: a paragraph line (one chunk across the gaps)
 * ends it. Left-aligned, right-aligned and centred columns all leave such gaps.
 */
function unruledGrids(text: PageText): Grid[] {
  const lines: (Slice & { chunks: Chunk[] })[] = text.lines.map((_, l) => {
    const slice = sliceOf(text, l, () => true) ?? { line: l, words: [], top: text.lines[l].top, bottom: text.lines[l].bottom };
    return { line: slice.line, words: slice.words, top: slice.top, bottom: slice.bottom, chunks: chunksOf(slice, text) };
  });
  const minGap = 0.3 * text.h;

  const grow = (start: number): Run | null => {
    // A table's first line (its header, mostly) has at least two short cells; lines of a multi-column
    // page hold long chunks and are rejected here, before any work.
    const first = lines[start];
    if (!first || first.chunks.filter((chunk) => chunk.words.length <= 6).length < 2) return null;
    let columns = mergeIntervals(first.chunks, minGap);
    let end = start;
    for (let j = start + 1; j < lines.length; j++) {
      const line = lines[j];
      if (line.chunks.length === 0) break; // a line taken by another table
      if (line.top - lines[j - 1].bottom > 2 * text.h) break; // a blank stretch ends a table
      const next = mergeIntervals([...columns, ...line.chunks], minGap);
      if (!gapsSurvive(columns, next)) break;
      columns = next;
      end = j;
    }
    return end > start ? { start, end, columns } : null;
  };

  const grids: Grid[] = [];
  // A line of headings over too few rows for their columns to show by themselves: a table all the same.
  const headed = (i: number) => {
    const made = headedGrid(i, lines, grow(i + 1), text);
    if (made) grids.push(claim(made.grid, text));
    return made ? made.lastLine + 1 : i + 1;
  };
  for (let i = 0; i < lines.length; ) {
    const run = grow(i);
    // Lines of long chunks are running text (a multi-column page): no table, and no need to look closer.
    if (!run || median(range(run.start, run.end + 1).flatMap((l) => lines[l].chunks.map((chunk) => chunk.words.length))) > 6) {
      i = headed(i);
      continue;
    }
    // A first line of group headings hides gaps (a heading across them), makes gaps of its own (a heading
    // centred in the whitespace between two right-aligned columns) or just fills few columns. Then start
    // at the next line; this line may join as a header with spanning cells.
    const later = grow(i + 1);
    // (A full header line that adds a column is the header of a column empty in the body: keep it.)
    const sparse = later && lines[i].chunks.length * 2 <= later.columns.length && lines[i + 1].chunks.length > lines[i].chunks.length;
    if (later && later.end >= run.end && (later.columns.length > run.columns.length || sparse)) {
      i = headed(i);
      continue;
    }
    const made = runGrid(run, lines, text);
    if (!made) {
      i = headed(i);
      continue;
    }
    // A contents list is text, and so is every part of it: its later lines are not tried again alone.
    if (!made.grid) {
      i = made.lastLine + 1;
      continue;
    }
    grids.push(claim(made.grid, text));
    i = made.lastLine + 1;
  }
  return grids;
}

function runGrid(run: Run, lines: (Slice & { chunks: Chunk[] })[], text: PageText): { grid: Grid | null; lastLine: number } | null {
  const columns = dropProseEdges(run, lines, text);
  // Lines of a multi-column page can line up for a while; but there, two or more of the "columns" go on
  // as running text above or below the run, while a table's columns end with the table.
  const nearby = [run.start - 2, run.start - 1, run.end + 1, run.end + 2].flatMap((l) => (lines[l] ? [lines[l]] : []));
  if (columns.filter((_, k) => nearby.some((line) => continuesAsText(line.words, columns, k, text))).length >= 2) return null;
  const C = columns.length;
  const xs = columnEdges(columns);
  const within = (w: number) => {
    const x = (text.left[w] + text.right[w]) / 2;
    return x >= xs[0] && x <= xs[C];
  };
  const slices: Slice[] = [];
  for (let l = run.start; l <= run.end; l++) {
    const slice = sliceOf(text, lines[l].line, within);
    if (slice) slices.push(slice);
  }
  const columnOf = (w: number) => position(xs, (text.left[w] + text.right[w]) / 2);
  const pieces = linePieces(slices, columnOf, C, text);
  if (!aligned(pieces, text)) return null;
  // Columns of running text (most lines a few words filling the column) are page columns, not a table's.
  const runningText = pieces.filter((column, k) => {
    const full = column.filter((piece) => piece.words >= 3 && piece.right - piece.left >= 0.6 * (columns[k].right - columns[k].left));
    return column.length >= 3 && full.length >= 0.7 * column.length;
  });
  if (runningText.length >= 2) return null;
  const rows = linesToRows(slices, columnOf, C, text);

  // A last row with a single cell after a wider gap than the rows keep is a note under the table.
  const rowGaps = rows.slice(1).map((row, k) => row.top - rows[k].bottom);
  const usualGap = median(rowGaps);
  while (rows.length > 1 && rows.at(-1)!.cells.filter((cell) => cell.length > 0).length === 1 && rows.at(-1)!.top - rows.at(-2)!.bottom > 1.3 * usualGap + 0.1 * text.h) {
    rows.pop();
  }
  const drafts = rows.map(draftOf);
  const texts = draftTexts(drafts, C, text);
  if (contentsList(texts)) return { grid: null, lastLine: run.end };
  if (!plausibleTable(texts, false)) return null;

  // A line just above whose chunks each cover whole columns, one at least spanning several: a header
  // with group headings.
  const above = lines[run.start - 1];
  if (above && above.chunks.length >= 2 && rows[0].top - above.bottom <= 2 * text.h) {
    const header = spanningRow(above, columns, xs, text);
    if (header && header.cells.some((cell) => cell.span > 1)) drafts.unshift(header);
  }
  return { grid: joinHeadingToColumn(gridFromRows(drafts, xs)), lastLine: Math.max(...rows.at(-1)!.lines) };
}

/**
 * A line of headings right over one or two rows of values (an invoice of one item, its name wrapped
 * under it): with so few rows, columns of values are no evidence by themselves; the headings are. The
 * line holds short headings and no number, the rows three columns or more, each headed by the words
 * over it, and the first row holds two numbers or more.
 */
function headedGrid(i: number, lines: (Slice & { chunks: Chunk[] })[], run: Run | null, text: PageText): { grid: Grid; lastLine: number } | null {
  const head = lines[i];
  const next = lines[i + 1];
  if (!head || !next || head.chunks.length === 0 || next.chunks.length === 0 || next.top - head.bottom > HEADED_ROWS.gap * text.h) return null;
  const headings = head.chunks.map((chunk) => wordsText(chunk.words, text));
  if (headings.some((heading) => /\d/.test(heading) || wordCount(heading) > HEADED_ROWS.headingWords)) return null;
  const end = run?.end ?? i + 1;
  const columns = run?.columns ?? mergeIntervals(next.chunks, 0.3 * text.h);
  if (columns.length < 3) return null;
  const xs = columnEdges(columns, Math.min(columns[0].left, head.chunks[0].left), Math.max(columns.at(-1)!.right, head.chunks.at(-1)!.right));
  const columnOf = (w: number) => position(xs, (text.left[w] + text.right[w]) / 2);
  // Every column headed, by the words whose middle is over it (two headings set close share a chunk).
  const headingCells = range(0, columns.length).map((c) => head.words.filter((w) => columnOf(w) === c));
  if (headingCells.some((words) => words.length === 0)) return null;
  const slices = range(i + 1, end + 1).map((l) => lines[l]).filter((line) => line.words.length > 0);
  const rows = linesToRows(slices, columnOf, columns.length, text);
  if (rows.length > HEADED_ROWS.rows) return null;
  const header: RowDraft = { top: head.top, bottom: head.bottom, cells: headingCells.map((words, column) => ({ column, span: 1, words })), lines: [head.line] };
  const drafts = [header, ...rows.map(draftOf)];
  const texts = draftTexts(drafts, columns.length, text);
  if (texts[1].filter(isNumeric).length < 2 || runningText(texts) || contentsList(texts)) return null;
  const grid = gridFromRows(drafts, xs);
  grid.headerRows = 1;
  return { grid, lastLine: Math.max(...rows.at(-1)!.lines) };
}

/** A grid at the foot of the page in small print or without numbers, or at its head without numbers (see PAGE_FURNITURE): letterhead. */
function letterhead(grid: Grid, text: PageText): boolean {
  const words = grid.cells.flatMap((cell) => cell.words);
  if (words.length === 0) return false;
  const top = Math.min(...words.map((w) => text.top[w]));
  const noNumbers = () => !gridTexts(grid, text).flat().some(isNumeric);
  if (top <= PAGE_FURNITURE.headerBand * text.pageHeight) return noNumbers();
  if (top < PAGE_FURNITURE.footerBand * text.pageHeight) return false;
  if (median(words.map((w) => text.bottom[w] - text.top[w])) <= PAGE_FURNITURE.smallText * text.h) return true;
  return noNumbers();
}

/**
 * A heading set apart from its column (left-aligned "Amount" over right-aligned amounts far to its
 * right) makes a column of its own, empty below the first row, beside a column with no heading. The two
 * are one column: headed, with values. Single cells only (no spans across them).
 */
function joinHeadingToColumn(grid: Grid): Grid {
  let { xs, cells } = grid;
  for (let c = 0; c + 1 < xs.length - 1; c++) {
    const column = (k: number) => cells.filter((cell) => cell.column <= k && k < cell.column + cell.columnSpan);
    const [left, right] = [column(c), column(c + 1)];
    if ([...left, ...right].some((cell) => cell.columnSpan > 1 || cell.rowSpan > 1)) continue;
    const filledRows = (of: GridCell[]) => of.filter((cell) => cell.words.length > 0).map((cell) => cell.row);
    const headingOnly = (of: GridCell[]) => filledRows(of).join() === '0';
    const valuesOnly = (of: GridCell[]) => filledRows(of).length >= 2 && !filledRows(of).includes(0);
    if (!((headingOnly(left) && valuesOnly(right)) || (valuesOnly(left) && headingOnly(right)))) continue;
    // Merge column c + 1 into c: its words join the cell of the same row, later columns shift left.
    const joined: GridCell[] = [];
    for (const cell of cells) {
      if (cell.column === c + 1) joined.find((other) => other.row === cell.row && other.column === c)!.words.push(...cell.words);
      else joined.push({ ...cell, words: cell.words.slice(), column: cell.column > c + 1 ? cell.column - 1 : cell.column });
    }
    cells = joined;
    xs = [...xs.slice(0, c + 1), ...xs.slice(c + 2)];
  }
  return { ...grid, xs, cells };
}

/**
 * A table beside a column of running text shares its lines with that text, which then looks like one
 * more column. An edge column of long lines that goes on above or below the run (without reaching into
 * the next column) is that text, not a table column.
 */
function dropProseEdges(run: Run, lines: (Slice & { chunks: Chunk[] })[], text: PageText): Interval[] {
  let columns = run.columns;
  const wordsPerLine = (column: Interval) =>
    median(
      range(run.start, run.end + 1)
        .map((l) => lines[l].words.filter((w) => text.left[w] >= column.left && text.right[w] <= column.right).length)
        .filter((n) => n > 0),
    );
  const goesOn = (column: Interval, neighbour: Interval) => {
    const clearOfNeighbour = (chunk: Chunk) => (neighbour.left < column.left ? chunk.left > neighbour.right : chunk.right < neighbour.left);
    return [lines[run.start - 1], lines[run.end + 1]].some((line) =>
      line?.chunks.some((chunk) => chunk.right > column.left && chunk.left < column.right && clearOfNeighbour(chunk)),
    );
  };
  if (columns.length > 2 && wordsPerLine(columns.at(-1)!) > 6 && goesOn(columns.at(-1)!, columns.at(-2)!)) columns = columns.slice(0, -1);
  if (columns.length > 2 && wordsPerLine(columns[0]) > 6 && goesOn(columns[0], columns[1])) columns = columns.slice(1);
  return columns;
}

/**
 * Whether a line has running text inside column k: the whitespace on both sides of the column stays
 * clear (a line across the table fills it), and the words between are at least three, together about
 * as wide as the column. Word by word rather than by chunks, so justified text with wide spaces counts.
 */
function continuesAsText(words: number[], columns: Interval[], k: number, text: PageText): boolean {
  const hits = (from: number, to: number) => {
    const middle = (from + to) / 2;
    const half = Math.max((to - from) / 2, 0.3 * text.h);
    return words.some((w) => text.left[w] < middle + half && text.right[w] > middle - half);
  };
  if ((k > 0 && hits(columns[k - 1].right, columns[k].left)) || (k + 1 < columns.length && hits(columns[k].right, columns[k + 1].left))) return false;
  const inside = words.filter((w) => text.right[w] > columns[k].left && text.left[w] < columns[k].right);
  if (inside.length < 3) return false;
  const width = Math.max(...inside.map((w) => text.right[w])) - Math.min(...inside.map((w) => text.left[w]));
  const ratio = width / (columns[k].right - columns[k].left);
  return ratio >= 0.6 && ratio <= 1.2;
}

/** Per column, what each line puts there: the extent of its words and how many. */
function linePieces(slices: Slice[], columnOf: (w: number) => number, columnCount: number, text: PageText): (Interval & { words: number })[][] {
  const pieces = range(0, columnCount).map(() => [] as (Interval & { words: number })[]);
  for (const slice of slices) {
    const extent = new Map<number, Interval & { words: number }>();
    for (const w of slice.words) {
      const c = columnOf(w);
      const e = extent.get(c);
      if (e) {
        e.right = Math.max(e.right, text.right[w]);
        e.words++;
      } else extent.set(c, { left: text.left[w], right: text.right[w], words: 1 });
    }
    for (const [c, e] of extent) pieces[c].push(e);
  }
  return pieces;
}

/**
 * Whether the columns line up as table columns do: in each, most cells share a left edge, a right edge
 * or a centre. Whitespace that merely happens to line up for a few lines of justified text leaves
 * "columns" of words at random positions. At most one column may be ragged (a header unlike its body,
 * a column of mixed content).
 */
function aligned(pieces: Interval[][], text: PageText): boolean {
  const tol = 0.4 * text.h;
  let good = 0;
  let ragged = 0;
  for (const column of pieces) {
    if (column.length < 2) continue;
    const best = Math.max(
      mostWithin(column.map((e) => e.left), tol),
      mostWithin(column.map((e) => e.right), tol),
      mostWithin(column.map((e) => (e.left + e.right) / 2), tol),
    );
    if (best >= Math.max(2, 0.5 * column.length)) good++;
    else ragged++;
  }
  return good >= 2 && ragged <= 1;
}

/** The most values that fit in one window `tol` wide. */
function mostWithin(values: number[], tol: number): number {
  const sorted = values.slice().sort((a, b) => a - b);
  let most = 0;
  for (let i = 0, j = 0; j < sorted.length; j++) {
    while (sorted[j] - sorted[i] > tol) i++;
    most = Math.max(most, j - i + 1);
  }
  return most;
}

/** Every gap between the old intervals still holds a gap between the new ones. */
function gapsSurvive(old: Interval[], next: Interval[]): boolean {
  for (let k = 0; k + 1 < old.length; k++) {
    const gapLeft = old[k].right;
    const gapRight = old[k + 1].left;
    const open = next.some((interval, m) => m + 1 < next.length && interval.right >= gapLeft && next[m + 1].left <= gapRight);
    if (!open) return false;
  }
  return true;
}

// ---------------------------------------------------------------------------------------------------
// Columns and rows from text lines (shared by passes 2 and 3, and by ruled bands)
// ---------------------------------------------------------------------------------------------------

/** Columns: the x-ranges the lines' chunks cover together; the whitespace between them separates columns. */
function columnsOf(slices: Slice[], text: PageText): Interval[] {
  return mergeIntervals(
    slices.flatMap((slice) => chunksOf(slice, text)),
    0.3 * text.h,
  );
}

/** Column boundaries: halfway across each gap, the outer ones at the content (or the given) edges. */
function columnEdges(columns: Interval[], left = columns[0].left, right = columns.at(-1)!.right): number[] {
  return [left, ...columns.slice(1).map((column, k) => (columns[k].right + column.left) / 2), right];
}

/**
 * Lines into rows. A line normally starts a row; it continues the row above when it is a wrapped cell:
 * most columns empty, every filled one continuing text already there, and the text could not have
 * fitted on the line above (the line above plus this line's first word is as wide as the column gets).
 * Also a wrapped row label whose values sit on its last line (common in financial statements).
 */
function linesToRows(slices: Slice[], columnOf: (w: number) => number, columnCount: number, text: PageText): TextRow[] {
  const lineCells = slices.map((slice) => {
    const cells: number[][] = Array.from({ length: columnCount }, () => []);
    for (const w of slice.words) cells[columnOf(w)].push(w);
    return cells;
  });
  const widthOf = (words: number[]) => (words.length === 0 ? 0 : text.right[words.at(-1)!] - text.left[words[0]]);
  const columnWidth = range(0, columnCount).map((c) => Math.max(0, ...lineCells.map((cells) => widthOf(cells[c]))));
  // A wrapped line sits no farther below than rows usually do; when the lines are spaced at two levels
  // (the leading inside cells, padding between rows), it sits at the tight one.
  const gaps = slices.slice(1).map((slice, k) => Math.max(0, slice.top - slices[k].bottom));
  const tight = gaps.length > 0 ? Math.min(...gaps) : 0;
  const usual = median(gaps);
  const maxGap = usual > 1.5 * tight + 0.1 * text.h ? (tight + usual) / 2 : Math.max(0.5 * text.h, 1.2 * usual);
  // The word did not fit: the line above, a space (a low estimate) and the word reach past the column's
  // widest line, which is no wider than the width the text was wrapped to. A number goes on a text's
  // line only in a column of text (a claim number wrapped under an article's name), not under amounts.
  const textColumn = range(0, columnCount).map((c) => {
    const texts = lineCells.map((cells) => cells[c]).filter((words) => words.length > 0).map((words) => wordsText(words, text));
    return texts.filter((t) => !isNumeric(t)).length > 0.5 * texts.length;
  });
  const wraps = (before: number[], after: number[], c: number) =>
    (textColumn[c] || !isNumeric(wordsText(after, text))) && widthOf(before) + 0.2 * text.h + widthOf(after.slice(0, 1)) >= columnWidth[c];

  const rows: TextRow[] = [];
  slices.forEach((slice, i) => {
    const cells = lineCells[i];
    const row = rows.at(-1);
    const filled = range(0, columnCount).filter((c) => cells[c].length > 0);
    let continues = false;
    if (row && slice.top - slices[i - 1].bottom <= maxGap) {
      const few = filled.length <= Math.max(1, Math.floor((columnCount - 1) / 2));
      const rowFilled = range(0, columnCount).filter((c) => row.cells[c].length > 0);
      // A further line of text in a cell of an item (its name, then a remark under it), the item's key in
      // the first column and its values on the first line: only text, only in columns the row fills, the
      // first column left empty.
      // Or, left of the item's values (two numbers or more after its key), its codes and name going on in
      // columns its first line left empty (an article number under the position, its GTIN under that).
      const valueColumns = range(1, columnCount).filter((c) => row.cells[c].length > 0 && isNumeric(wordsText(row.cells[c], text)));
      // A line putting a figure under one of the item's numbers is a note of its own ("Bruttopreis : 9,9000").
      const figureUnderValue = filled.some((c) => valueColumns.includes(c) && /\d/.test(wordsText(cells[c], text)));
      const itemLine =
        few &&
        columnCount >= 3 &&
        row.cells[0].length > 0 &&
        cells[0].length === 0 &&
        (filled.every((c) => row.cells[c].length > 0 && !isNumeric(wordsText(cells[c], text))) || (valueColumns.length >= 2 && filled.every((c) => c < valueColumns[0])));
      continues =
        (itemLine && !figureUnderValue) ||
        (few && !figureUnderValue && filled.every((c) => row.cells[c].length > 0 && wraps(row.lastLines[c], cells[c], c))) ||
        (row.lineCount === 1 &&
          rowFilled.length === 1 &&
          cells[rowFilled[0]].length > 0 &&
          !isNumeric(wordsText(row.cells[rowFilled[0]], text)) &&
          wraps(row.lastLines[rowFilled[0]], cells[rowFilled[0]], rowFilled[0]));
    }
    if (row && continues) {
      for (const c of filled) {
        row.cells[c].push(...cells[c]);
        row.lastLines[c] = cells[c];
      }
      row.bottom = Math.max(row.bottom, slice.bottom);
      row.lineCount++;
      row.lines.push(slice.line);
    } else {
      rows.push({ top: slice.top, bottom: slice.bottom, cells: cells.map((words) => words.slice()), lastLines: cells, lineCount: 1, lines: [slice.line] });
    }
  });
  return rows;
}

/** All the lines as one row (a band between two rules). */
function mergeLines(slices: Slice[], columnOf: (w: number) => number, columnCount: number): TextRow {
  const cells: number[][] = Array.from({ length: columnCount }, () => []);
  for (const slice of slices) for (const w of slice.words) cells[columnOf(w)].push(w);
  return {
    top: Math.min(...slices.map((s) => s.top)),
    bottom: Math.max(...slices.map((s) => s.bottom)),
    cells,
    lastLines: cells,
    lineCount: slices.length,
    lines: slices.map((s) => s.line),
  };
}

/**
 * A header line over known columns. Each chunk covers the columns its text overlaps; a chunk centred
 * in the whitespace between two columns also heads the other one when no other chunk does (a short
 * heading centred over right-aligned numbers barely touches them). A line of few headings (group
 * headings) is read as a partition: each heading runs up to the next one, and the last spans as many
 * columns as the one before it. Null when two chunks share a column or a chunk reads like prose.
 */
function spanningRow(slice: Slice, columns: Interval[], xs: number[], text: PageText): RowDraft | null {
  const chunks = chunksOf(slice, text).flatMap((chunk) => splitAtColumns(chunk, xs, text));
  if (chunks.some((chunk) => chunk.words.length > 6)) return null;
  const place = (chunk: Chunk) => {
    const touches = (column: Interval) => column.right > chunk.left && column.left < chunk.right;
    const first = columns.findIndex(touches);
    if (first >= 0) return { chunk, first, last: columns.findLastIndex(touches) };
    const nearest = position(xs, (chunk.left + chunk.right) / 2);
    return { chunk, first: nearest, last: nearest };
  };
  const placed: ReturnType<typeof place>[] = [];
  // A heading whose words are set wider apart than a word space ("Three   Months   Ended") reads as
  // pieces that meet in a column, less than two text heights apart; once two are joined, the next piece
  // at the same spacing is the same heading. Anything else sharing a column is no header.
  let headingGap = -1;
  for (const chunk of chunks) {
    const p = place(chunk);
    const previous = placed.at(-1);
    const gap = previous ? chunk.left - previous.chunk.right : Infinity;
    const sameSpacing = headingGap >= 0 && Math.abs(gap - headingGap) <= 0.25 * headingGap;
    if (previous && (p.first <= previous.last || sameSpacing)) {
      if (gap > 2 * text.h || previous.chunk.words.length + chunk.words.length > 6) return null;
      const words = [...previous.chunk.words, ...chunk.words];
      placed[placed.length - 1] = place({ left: previous.chunk.left, right: Math.max(previous.chunk.right, chunk.right), words });
      headingGap = gap;
    } else {
      placed.push(p);
      headingGap = -1;
    }
  }
  placed.forEach((p, k) => {
    const middle = (p.chunk.left + p.chunk.right) / 2;
    const gap = columns.findIndex((column, c) => c + 1 < columns.length && column.right <= middle && middle <= columns[c + 1].left);
    if (gap < 0) return;
    if (gap < p.first && (k === 0 || placed[k - 1].last < gap)) p.first = gap;
    if (gap + 1 > p.last && (k === placed.length - 1 || placed[k + 1].first > gap + 1)) p.last = gap + 1;
  });
  if (placed.length * 2 <= columns.length) {
    placed.forEach((p, k) => {
      const after = placed[k + 1];
      const before = placed[k - 1];
      if (after) p.last = Math.max(p.last, after.first - 1);
      else if (before) p.last = Math.min(columns.length - 1, Math.max(p.last, p.first + before.last - before.first));
    });
  }
  const cells: RowDraft['cells'] = [];
  let next = 0;
  for (const { chunk, first, last } of placed) {
    for (let c = next; c < first; c++) cells.push({ column: c, span: 1, words: [] });
    cells.push({ column: first, span: last - first + 1, words: chunk.words });
    next = last + 1;
  }
  for (let c = next; c < columns.length; c++) cells.push({ column: c, span: 1, words: [] });
  return { top: slice.top, bottom: slice.bottom, cells, lines: [slice.line] };
}

/**
 * Tightly set header cells ("Vehicle Tier Vehicle Tier Vehicle Tier" over three columns) read as one
 * chunk across the columns. They are cells of their own when, cut at every column edge it crosses (by
 * the words' middles), each column gets words and every cut is a gap wider than the other word gaps; a group
 * heading ("Three Months Ended" over two columns) has even word spaces and stays one chunk.
 */
function splitAtColumns(chunk: Chunk, xs: number[], text: PageText): Chunk[] {
  const words = chunk.words;
  if (words.length < 2) return [chunk];
  const edges = xs.slice(1, -1).filter((x) => x > chunk.left && x < chunk.right);
  if (edges.length === 0) return [chunk];
  // Each edge falls between two words by their middles (a header may reach a little past the body's gap middle).
  const middle = (w: number) => (text.left[w] + text.right[w]) / 2;
  const breaks: number[] = [];
  for (const x of edges) {
    const k = words.findIndex((w) => middle(w) > x);
    if (k <= 0 || breaks.includes(k)) return [chunk]; // a column with no word of its own
    breaks.push(k);
  }
  const gap = (i: number) => text.left[words[i]] - text.right[words[i - 1]];
  const inner = range(1, words.length).filter((i) => !breaks.includes(i)).map(gap);
  if (inner.length > 0 && breaks.some((k) => gap(k) < 1.3 * Math.max(...inner))) return [chunk];
  const cuts = [0, ...new Set(breaks), words.length].sort((a, b) => a - b);
  return cuts.slice(1).map((end, k) => {
    const part = words.slice(cuts[k], end);
    return { left: text.left[part[0]], right: Math.max(...part.map((w) => text.right[w])), words: part };
  });
}

/** Rows of single-column cells as one row, cell by cell. */
function mergeDrafts(rows: RowDraft[]): RowDraft {
  const cells = rows[0].cells.map((cell) => ({ ...cell, words: rows.flatMap((row) => row.cells.find((other) => other.column === cell.column)!.words) }));
  return { top: Math.min(...rows.map((r) => r.top)), bottom: Math.max(...rows.map((r) => r.bottom)), cells, lines: rows.flatMap((r) => r.lines) };
}

function draftOf(row: TextRow): RowDraft {
  return { top: row.top, bottom: row.bottom, cells: row.cells.map((words, column) => ({ column, span: 1, words })), lines: row.lines };
}

/** Rows stacked into a grid: row boundaries halfway between rows, the outer ones at the content (or the given) edges. */
function gridFromRows(rows: RowDraft[], xs: number[], top = rows[0].top, bottom = rows.at(-1)!.bottom): Grid {
  const ys = [top, ...rows.slice(1).map((row, k) => (rows[k].bottom + row.top) / 2), bottom];
  const cells = rows.flatMap((row, r) => row.cells.map((cell) => ({ row: r, column: cell.column, rowSpan: 1, columnSpan: cell.span, words: cell.words })));
  return { xs, ys, cells };
}

/** A grid's cell texts as rows (a merged cell's text in its first slot). */
function gridTexts(grid: Grid, text: PageText): string[][] {
  const rows = range(0, grid.ys.length - 1).map(() => new Array<string>(grid.xs.length - 1).fill(''));
  for (const cell of grid.cells) rows[cell.row][cell.column] = wordsText(cell.words, text);
  return rows;
}

function draftTexts(rows: RowDraft[], columnCount: number, text: PageText): string[][] {
  return rows.map((row) => {
    const texts = new Array<string>(columnCount).fill('');
    for (const cell of row.cells) texts[cell.column] = wordsText(cell.words, text);
    return texts;
  });
}

/**
 * Whether text rows make a table rather than prose, a list or a multi-column page: short cells, enough
 * columns and rows, a column of data or short labels, and with only two columns, one of them numbers or
 * a word or two. `ruled`: rules already mark the table, so two columns and two rows are enough.
 */
function plausibleTable(rows: string[][], ruled: boolean): boolean {
  const columnCount = rows[0]?.length ?? 0;
  const columnCells = (c: number) => rows.map((row) => row[c]).filter((cell) => cell !== '');
  // A column of list markers (bullets, "1.") stands beside list items, in prose too: it is no column of data.
  const markers = (cells: string[]) => cells.filter((cell) => LIST_MARKER.test(cell)).length >= 0.8 * cells.length;
  // A column counts when it holds a value in three rows (two when rules bracket the table): the lines
  // must share their column positions, not merely leave gaps in the same places.
  const columns = range(0, columnCount)
    .map(columnCells)
    .filter((cells) => cells.length >= Math.min(ruled ? 2 : 3, rows.length) && !markers(cells));
  const fullRows = rows.filter((row) => row.filter((cell) => cell !== '').length >= 2).length;
  const cellWords = rows.flat().filter((cell) => cell !== '').map(wordCount);
  if (median(cellWords) > 6) return false;
  // Most columns hold more than one value; "columns" of one word each come from whitespace lining up by chance.
  if (columns.length < 0.5 * columnCount) return false;
  // Some column must hold data or short labels; lines of running text (narrow page columns) hold neither.
  const dataColumn = (cells: string[]) => cells.filter((cell) => !LIST_MARKER.test(cell) && (isNumeric(cell) || wordCount(cell) <= 3)).length >= 0.6 * cells.length;
  if (!columns.some(dataColumn)) return false;
  if (contentsList(rows) || runningText(rows)) return false;
  if (ruled) return columns.length >= 2 && fullRows >= 2;
  if (columns.length >= 3) return fullRows >= 3;
  if (columns.length === 2) {
    const short = (cells: string[]) => median(cells.map(wordCount)) <= 6;
    const values = (cells: string[]) => cells.filter((cell) => isNumeric(cell) || wordCount(cell) <= 2).length >= 0.75 * cells.length;
    return fullRows >= 4 && columns.every(short) && columns.some(values);
  }
  return false;
}

/**
 * A table of contents (or an index): text, not a table. Either entries whose dot leaders run into their
 * page numbers, in the last cell (the section numbers in a column of their own are what made columns),
 * or, without leaders, entries of text each with a page number at the right — after the section's
 * number in a column of its own or not ("8.1 | Security Deposit | 53", "Definitions | 1") — the page
 * numbers small whole numbers that never go down.
 */
function contentsList(rows: string[][]): boolean {
  const filled = rows.map((row) => row.filter((cell) => cell !== '')).filter((cells) => cells.length > 0);
  // Entries whose title runs into its page number through a dot leader ('Definitions ....... 2'), the
  // section numbers in a column of their own: most rows end so.
  const leadered = filled.filter((cells) => LEADER_TO_PAGE.test(cells.at(-1)!)).length;
  if (leadered >= 3 && leadered >= 0.6 * filled.length) return true;
  const entry = (cells: string[]) =>
    (cells.length === 2 || (cells.length === 3 && SECTION_NUMBER.test(cells[0]!))) && /\p{L}/u.test(cells.at(-2)!) && /^\d{1,4}$/.test(cells.at(-1)!);
  const entries = filled.filter(entry);
  if (entries.length < 3 || entries.length < 0.8 * filled.length) return false;
  const pages = entries.map((cells) => Number(cells.at(-1)));
  return pages.every((page, k) => k === 0 || page >= pages[k - 1]!);
}

/**
 * Lines of running text whose word gaps line up (a justified paragraph, its lines underlined; two
 * columns of text side by side): most cells begin in the middle of a sentence, with a lower-case word,
 * phrases so begun stand in several columns ("coverage for", "states in which"), and the phrases are
 * made of a language's common words (knowledge/common-words.ts) as sentences are. A table's cells
 * begin with a capital or a figure, and its lower-case values are words of their own ("yes",
 * "closed", "feet"), the phrases of one column (the definitions beside a list of abbreviations) or
 * names without articles ("coastal winter sediment"); and a table read badly from a scan, lower-case
 * noise among its prices, holds numbers, which running text hardly does. Addresses and codes
 * ("cancervic.org.au", "mg/L") are no words of a sentence.
 */
function runningText(rows: string[][]): boolean {
  const filled = rows.flat().filter((cell) => cell !== '');
  if (filled.filter(isNumeric).length > RUNNING_TEXT.numbers * filled.length) return false;
  const word = (cell: string) => /^\p{L}/u.test(cell) && !/[@/]|\.\p{L}/u.test(cell.split(' ')[0]!);
  const lower = (cell: string) => word(cell) && /^\p{Ll}/u.test(cell);
  const cells = filled.filter(word);
  const lowerCells = cells.filter(lower).length;
  if (lowerCells < RUNNING_TEXT.cells || lowerCells < RUNNING_TEXT.share * cells.length) return false;
  const phrase = (cell: string) => lower(cell) && wordCount(cell) >= 2;
  const phraseColumns = range(0, rows[0]?.length ?? 0).filter((c) => rows.some((row) => phrase(row[c] ?? ''))).length;
  if (phraseColumns < RUNNING_TEXT.phraseColumns) return false;
  const phraseWords = filled.filter((cell) => wordCount(cell) >= 2).flatMap((cell) => cell.split(/\s+/).map((w) => plainWord(w.replace(/\p{P}/gu, ''))));
  return phraseWords.filter((w) => COMMON_WORDS.has(w)).length >= RUNNING_TEXT.commonWords * phraseWords.length;
}

/** A section's number in a contents list: "8", "8.1", "12.3.4.", "A", "IV", "A.2". */
const SECTION_NUMBER = /^(?:\d{1,3}|[A-Z]|[IVXLC]{1,6})(?:\.\d{1,3})*\.?$/;

// ---------------------------------------------------------------------------------------------------
// Grid → Table
// ---------------------------------------------------------------------------------------------------

function toTable(grid: Grid, text: PageText): Table {
  // A cell's words in reading order, by the cell's own lines: the page's lines are no guide inside a
  // cell, since a value centred beside a label wrapped over two lines makes the page see one line there.
  const readingOrder = (words: number[]) => (words.length <= 1 ? words.slice() : groupLines(words, text).flatMap((line) => line.words));
  const cells: Cell[] = grid.cells
    .slice()
    .sort((a, b) => a.row - b.row || a.column - b.column)
    .map((cell) => {
      const words = readingOrder(cell.words);
      return {
        row: cell.row,
        column: cell.column,
        rowSpan: cell.rowSpan,
        columnSpan: cell.columnSpan,
        text: wordsText(words, text),
        box: rectangle(grid.xs[cell.column], grid.ys[cell.row], grid.xs[cell.column + cell.columnSpan], grid.ys[cell.row + cell.rowSpan]),
        words,
      };
    });
  const rowCount = grid.ys.length - 1;
  const columnCount = grid.xs.length - 1;
  const table: Table = { rowCount, columnCount, headerRows: headerRowCount(grid, cells, text), cells, box: unionBox(cells.map((cell) => cell.box!)) };
  const captionRow = captionedBoxes(tableRows(table));
  if (captionRow !== undefined) table.form = { captionRow };
  else if (captionedCells(cells, text)) table.form = {};
  return table;
}

/**
 * A form's boxes each holding its caption atop its value ("NOME / RAZÃO SOCIAL" in small capitals over
 * the name: a Brazilian DANFE's boxes): most filled cells open with a line of capitals without a digit,
 * printed smaller than the grid's other words, with or without a value under it, on three rows of boxes
 * or more. A table's header of small capitals is one or two rows.
 */
function captionedCells(cells: Cell[], text: PageText): boolean {
  const filled = cells.filter((cell) => cell.words.length > 0);
  const firstLines = filled.map((cell) => groupLines(cell.words, text)[0]!.words);
  const captionLike = (words: number[]) => {
    const line = wordsText(words, text);
    return !/\d/.test(line) && /\p{Lu}/u.test(line) && line === line.toUpperCase();
  };
  const captioned = filled.filter((_, i) => captionLike(firstLines[i]!));
  if (captioned.length < 3 || captioned.length < CAPTIONED_CELLS.share * filled.length) return false;
  // Captions on every row of boxes, not a header's one or two over a sparse row of values.
  if (new Set(captioned.map((cell) => cell.row)).size < CAPTIONED_CELLS.rows) return false;
  const captionWords = new Set(filled.flatMap((_, i) => (captionLike(firstLines[i]!) ? firstLines[i]! : [])));
  const height = (w: number) => text.bottom[w] - text.top[w];
  const others = filled.flatMap((cell) => cell.words).filter((w) => !captionWords.has(w));
  return others.length > 0 && median([...captionWords].map(height)) <= CAPTIONED_CELLS.smaller * median(others.map(height));
}

/**
 * A form's captioned boxes, not a table of data: rows of captions ("NÚMERO DA NFS-e | COMPETÊNCIA DA
 * NFS-e": words, no digit) alternating with rows of their values ("999 | 07/04/2026"), at least two
 * caption rows of two cells or more, most value rows holding a digit or a dash ("-": nothing to
 * declare), and no column of numbers (a table's columns hold values of one kind; here each column
 * alternates captions and values). The first caption row (0 or 1), or undefined for a table.
 */
function captionedBoxes(rows: string[][]): 0 | 1 | undefined {
  const filled = (row: string[]) => row.filter((cell) => cell.trim() !== '');
  // A caption is words without a digit; a value has a digit, or is a dash: the form's "nothing here".
  const caption = (row: string[]) => filled(row).every((cell) => !/\d/.test(cell) && /\p{L}/u.test(cell));
  const value = (cell: string) => /\d/.test(cell) || NO_VALUE.test(cell);
  const alternating = ([0, 1] as const).find((parity) => {
    const captionRows = rows.filter((row, r) => r % 2 === parity && filled(row).length > 0);
    const valueRows = rows.filter((row, r) => r % 2 !== parity && filled(row).length > 0);
    const withValues = valueRows.filter((row) => filled(row).some(value)).length;
    return captionRows.every(caption) && captionRows.filter((row) => filled(row).length >= 2).length >= 2 && withValues > valueRows.length / 2;
  });
  if (alternating === undefined) return undefined;
  const columnCount = rows[0]?.length ?? 0;
  const numbers = range(0, columnCount).some((c) => {
    const cells = rows.map((row) => row[c] ?? '').filter((cell) => cell.trim() !== '');
    return cells.length >= 3 && cells.filter(isNumeric).length > 0.6 * cells.length;
  });
  return numbers ? undefined : alternating;
}

/** A box a form leaves empty with a dash or two ("-", "- -", "—"). */
const NO_VALUE = /^[-–—](\s*[-–—])*$/;

/**
 * Header rows: the first row (or a first band of rows joined by merged header cells) when it differs
 * from the body: text over a numeric column, taller words, or a double rule under it. Otherwise 0.
 */
function headerRowCount(grid: Grid, cells: Cell[], text: PageText): number {
  if (grid.headerRows !== undefined) return grid.headerRows;
  const rowCount = grid.ys.length - 1;
  const columnCount = grid.xs.length - 1;
  const first = cells.filter((cell) => cell.row === 0);
  // A row-0 cell spanning rows, or spanning columns over sub-headings, makes a two-row header band likely.
  let band = Math.max(...first.map((cell) => cell.rowSpan));
  if (first.some((cell) => cell.columnSpan > 1)) band = Math.max(band, 2);
  const doubles = grid.doubleRules ?? new Set<number>();
  const cellAt = (r: number, c: number) => cells.find((cell) => cell.row <= r && r < cell.row + cell.rowSpan && cell.column <= c && c < cell.column + cell.columnSpan);

  // A band of header rows drawn as merged cells: a heading standing beside the sub-headings (spanning the
  // band's rows) and a group heading over some of the columns, no cell crossing from the band into the
  // body. Body rows do not open a table that way, whatever their content (a permit's limits table is all
  // text and units).
  const closed = cells.every((cell) => cell.row >= band || cell.row + cell.rowSpan <= band);
  const standing = first.some((cell) => cell.rowSpan === band);
  const grouping = first.some((cell) => cell.columnSpan > 1 && cell.columnSpan < columnCount);
  if (band > 1 && band < rowCount && closed && standing && grouping) return band;

  for (const h of band > 1 ? [band, 1] : [1]) {
    if (rowCount - h < 1) continue;
    const body = cells.filter((cell) => cell.row >= h);
    // A double rule under the header band, when double rules are not simply the table's style.
    if (doubles.has(h) && (doubles.size === 1 || doubles.size < (rowCount - 1) / 2)) return h;
    // Text over a column of numbers (a year heads a column of amounts too, as in financial statements);
    // under a header of one row only, text over numbers in two columns (a tax summary's one rate).
    const oneRow = rowCount - h === 1;
    const textOverNumbers = range(0, columnCount).filter((c) => {
      const values = body.filter((cell) => cell.column === c && cell.columnSpan === 1 && cell.text !== '' && !PLACEHOLDER.test(cell.text));
      if (values.length < (oneRow ? 1 : 2) || values.filter((cell) => isNumeric(cell.text)).length < 0.8 * values.length) return false;
      const yearColumn = values.filter((cell) => YEAR.test(cell.text)).length >= 0.5 * values.length;
      return range(0, h).every((r) => {
        const heading = cellAt(r, c)?.text ?? '';
        return (/\p{L}/u.test(heading) && !isNumeric(heading)) || (YEAR.test(heading) && !yearColumn);
      });
    }).length;
    if (textOverNumbers >= (oneRow ? 2 : 1)) return h;
    // Larger type. OCR boxes vary with the letters (capitals, ascenders), so they need a larger margin.
    const heights = (from: Cell[]) => {
      const values: number[] = [];
      for (const cell of from) for (const w of cell.words) values.push(text.bottom[w] - text.top[w]);
      return values;
    };
    const headHeights = heights(cells.filter((cell) => cell.row < h));
    const bodyHeights = heights(body);
    const ocr = cells.some((cell) => cell.words.some((w) => text.words[w].confidence !== undefined));
    if (headHeights.length > 0 && bodyHeights.length >= 2 && median(headHeights) >= (ocr ? 1.3 : 1.15) * median(bodyHeights)) return h;
  }
  return 0;
}

// ---------------------------------------------------------------------------------------------------
// Small helpers
// ---------------------------------------------------------------------------------------------------

/** Numbers, amounts, percentages, dates: values a data column holds. */
function isNumeric(value: string): boolean {
  const v = value.replace(/\s+/g, '');
  return (
    /^[([]?[-+−–±]?[$€£¥]?[-+−–]?\.?\d[\d.,']*(%|‰|[kKmMbB]|bn|mn)?[)\]]?[$€£¥]?\*?$/.test(v) ||
    /^\d{1,4}[-/.]\d{1,2}[-/.]\d{1,4}$/.test(v)
  );
}

const YEAR = /^(19|20)\d\d$/;
/** A rule typed as text: five or more dashes, underscores or equals signs and nothing else. */
const TEXT_RULE = /^[-_=–—]{5,}$/;
/** A label and its value in one cell: a word, a colon, a space, more text ("Date : 30/01/2019"; not "10:30", "GLN:598…"). */
const LABELLED_VALUE = /\p{L}[\p{L}.)]*\s?:\s+\S/u;
/** A dot leader (four dots or more, spaced or not) and a page number ending a cell. */
const LEADER_TO_PAGE = /(\.\s?){4,}\s*\d{1,4}$/;

/** Cells that stand for "no value" and say nothing about the column's kind. */
const PLACEHOLDER = /^([-–—]+|n\/?a|N\/?A|nil)$/;

const LIST_MARKER = /^(\(?\d{1,3}[.)]|\(?[a-zA-Z][.)]|\(?[ivxlcIVXLC]{1,5}[.)]|[•◦▪▫■□●○·*–—-])$/;

function wordsText(words: number[], text: PageText): string {
  return words.map((w) => text.words[w].text.trim()).join(' ');
}

function wordCount(value: string): number {
  return value.split(/\s+/).filter(Boolean).length;
}

/** Intervals sorted and merged where they overlap or lie closer than `minGap`. */
function mergeIntervals(intervals: Interval[], minGap: number): Interval[] {
  const sorted = intervals.map((i) => ({ left: i.left, right: i.right })).sort((a, b) => a.left - b.left);
  const merged: Interval[] = [];
  for (const interval of sorted) {
    const last = merged.at(-1);
    if (last && interval.left - last.right < minGap) last.right = Math.max(last.right, interval.right);
    else merged.push(interval);
  }
  return merged;
}

function intervalLength(intervals: Interval[]): number {
  return sum(mergeIntervals(intervals, 0).map((i) => i.right - i.left));
}

function overlap(a: Segment, b: Segment): number {
  return Math.max(0, Math.min(a.to, b.to) - Math.max(a.from, b.from));
}

/** The index k with edges[k] <= value < edges[k + 1], clamped to 0..edges.length - 2. */
function position(edges: number[], value: number): number {
  let lo = 0;
  let hi = edges.length - 2;
  while (lo < hi) {
    const mid = (lo + hi + 1) >> 1;
    if (edges[mid] <= value) lo = mid;
    else hi = mid - 1;
  }
  return lo;
}

function rectangle(left: number, top: number, right: number, bottom: number): Box {
  return { left, top, width: right - left, height: bottom - top };
}

function range(from: number, to: number): number[] {
  const values: number[] = [];
  for (let i = from; i < to; i++) values.push(i);
  return values;
}

function sum(values: number[]): number {
  return values.reduce((total, v) => total + v, 0);
}

function mean(values: number[]): number {
  return sum(values) / values.length;
}

/** The median, 0 for no values. */
function median(values: number[]): number {
  return medianOf(values) ?? 0;
}
