/**
 * Fields of a flat ("paper") form, found on a page of the Doc (API §8): where a value would be
 * written, and the label that says what goes there.
 *
 * - Boxes: two horizontal rules of the same extent joined by vertical rules at both ends. A small
 *   square is a tick box (its label is the text to its right; the text before the first box of the
 *   line names the group); a larger one is a text box (label inside at its top, to its left, or above).
 * - Underlines: a run of underscores or dot leaders in the text, or a drawn horizontal rule that no box claims; the
 *   writing area is the band just above it; the label is the text before it on the line (or, for a
 *   line with nothing before it, the text just below — a signature line — or stacked just above it,
 *   whichever is closer).
 * - Tick boxes printed as text: "☐", "□", "[ ]"; radio buttons drawn as small rings ("○", page.rings).
 * - Comb fields: a ruled row of four or more narrow boxes of one width, each holding at most one
 *   character ("|_|_|_|_|"), is one field of that many characters, labelled like a text box.
 * - Ruled tables (a box with column rules inside): a cell with a caption at its top and room below it
 *   is a field; an empty cell is one too, named by its row's first cell and its column's header (the
 *   nearest row above with text in every cell).
 * Words just after a field in parentheses ("(MM/DD/YYYY)") join its description.
 *
 * Works the same on OCRed pages (scanned): words come from OCR and rules from the raster.
 */
import type { Box, Page, Rule, Word } from '../../documents/doc.ts';
import { DETECT_SETTINGS } from './weights/form-detect.ts';

export interface DetectedField {
  type: 'text' | 'checkbox';
  /** The printed label ("Date of birth"), or "Group: Option" for a tick box in a group. */
  label: string;
  /** The label and any nearby instruction text. */
  description: string;
  /** The writing area, in page units, top-left origin. */
  box: Box;
  /** What was found: a writing line, a drawn text box, a table cell, a tick box. */
  kind: 'line' | 'box' | 'cell' | 'tick';
  /** A comb field: how many character boxes it prints (one character in each). */
  comb?: number;
}

interface Segment {
  at: number;
  from: number;
  to: number;
}

const right = (b: Box) => b.left + b.width;
const bottom = (b: Box) => b.top + b.height;
const centerY = (b: Box) => b.top + b.height / 2;

function median(values: number[], fallback: number): number {
  if (values.length === 0) return fallback;
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)]!;
}

/** Horizontal and vertical rules, collinear pieces joined. */
function segments(rules: Rule[]): { horizontal: Segment[]; vertical: Segment[]; pieces: Segment[] } {
  const horizontal: Segment[] = [];
  const vertical: Segment[] = [];
  for (const r of rules) {
    if (Math.abs(r.y1 - r.y2) < 1 && Math.abs(r.x2 - r.x1) >= DETECT_SETTINGS.tickMin) horizontal.push({ at: (r.y1 + r.y2) / 2, from: Math.min(r.x1, r.x2), to: Math.max(r.x1, r.x2) });
    else if (Math.abs(r.x1 - r.x2) < 1 && Math.abs(r.y2 - r.y1) >= DETECT_SETTINGS.tickMin) vertical.push({ at: (r.x1 + r.x2) / 2, from: Math.min(r.y1, r.y2), to: Math.max(r.y1, r.y2) });
  }
  return { horizontal: join(horizontal), vertical: join(vertical), pieces: horizontal };
}

function join(list: Segment[]): Segment[] {
  const out: Segment[] = [];
  for (const s of [...list].sort((a, b) => a.from - b.from)) {
    const same = out.find((o) => Math.abs(o.at - s.at) <= DETECT_SETTINGS.sameRule && s.from <= o.to + DETECT_SETTINGS.ruleGap && s.to >= o.from - DETECT_SETTINGS.ruleGap);
    if (same) {
      same.from = Math.min(same.from, s.from);
      same.to = Math.max(same.to, s.to);
    } else {
      out.push({ ...s });
    }
  }
  return out;
}

/** How much of [from, to] the vertical rules at x cover, 0..1. */
function verticalCover(vertical: Segment[], x: number, from: number, to: number, tol: number): number {
  let covered = 0;
  for (const v of vertical) {
    if (Math.abs(v.at - x) > tol) continue;
    covered += Math.max(0, Math.min(to, v.to) - Math.max(from, v.from));
  }
  return Math.min(1, covered / Math.max(1, to - from));
}

/** A row of a ruled table: its top and bottom, and the x of its column rules (outer edges included). */
interface GridRow {
  top: number;
  bottom: number;
  xs: number[];
}

/**
 * Rectangles drawn with rules; each horizontal rule serves at most one rectangle as its top and one
 * as its bottom. Boxes stacked on one another share an edge (the bottom of "Address 1" is the top of
 * "Address 2"); the stacked box's bottom may be drawn as its own rule while the joined rule there is
 * longer (the top edges of the next row's boxes run on from it): for it the rules as drawn (`pieces`)
 * are bottoms too. A rectangle with vertical rules across its inside is a row of a ruled table (its cells are read apart).
 */
function rectangles(horizontal: Segment[], vertical: Segment[], pieces: Segment[]): { boxes: Box[]; used: Set<Segment>; rows: GridRow[] } {
  const boxes: Box[] = [];
  const rows: GridRow[] = [];
  const usedAsTop = new Set<Segment>();
  /** Rules that closed a box, with the height of that box. */
  const usedAsBottom = new Map<Segment, number>();
  const tableRules = new Set<Segment>();
  const tol = DETECT_SETTINGS.edgeTolerance;
  for (const top of [...horizontal].sort((a, b) => a.at - b.at || a.from - b.from)) {
    if (usedAsTop.has(top)) continue;
    // On another box's bottom edge: a box stacked under it ("Address 2" under "Address 1"), a row
    // like it. Its own bottom may be drawn as a rule of its own that joined a longer one.
    const under = [...usedAsBottom].find(([s]) => Math.abs(s.at - top.at) <= DETECT_SETTINGS.sameRule && s.from <= top.to && s.to >= top.from)?.[1];
    const below = [...horizontal, ...(under !== undefined ? pieces : [])]
      .filter((b) => b !== top && !usedAsBottom.has(b) && b.at - top.at >= DETECT_SETTINGS.tickMin && b.at - top.at <= DETECT_SETTINGS.maxBoxHeight && Math.abs(b.from - top.from) <= tol && Math.abs(b.to - top.to) <= tol)
      .sort((a, b) => a.at - b.at);
    for (const b of below) {
      const left = Math.min(top.from, b.from);
      const right = Math.max(top.to, b.to);
      // A rule across the whole width between them: two boxes stacked, not one (nor one over a gap).
      if (horizontal.some((m) => m !== top && m !== b && m.at > top.at + 1 && m.at < b.at - 1 && m.from <= left + tol && m.to >= right - tol)) break;
      // (Not a taller stretch of a ruled column.)
      if (under !== undefined && b.at - top.at > DETECT_SETTINGS.stackedStretch * under) break;
      if (verticalCover(vertical, left, top.at, b.at, tol) < DETECT_SETTINGS.sideCover || verticalCover(vertical, right, top.at, b.at, tol) < DETECT_SETTINGS.sideCover) continue;
      const inner = vertical.filter((v) => v.at > left + DETECT_SETTINGS.innerMargin && v.at < right - DETECT_SETTINGS.innerMargin && verticalCover([v], v.at, top.at, b.at, DETECT_SETTINGS.innerRuleTolerance) >= DETECT_SETTINGS.sideCover).map((v) => v.at);
      if (inner.length > 0) {
        rows.push({ top: top.at, bottom: b.at, xs: [left, ...[...new Set(inner)].sort((x, y) => x - y), right] });
        tableRules.add(top);
        tableRules.add(b);
      } else {
        boxes.push({ left, top: top.at, width: right - left, height: b.at - top.at });
        usedAsTop.add(top);
        usedAsBottom.set(b, b.at - top.at);
      }
      break;
    }
  }
  return { boxes, used: new Set([...usedAsTop, ...usedAsBottom.keys(), ...tableRules]), rows };
}

/** A writing line printed as text: underscores or dot leaders ("Name: ______", "NOM ..........."). */
const LEADER_RUN = /_{3,}|\.{5,}|…{3,}/;
const isUnderscores = (text: string) => LEADER_RUN.test(text);
/** A tick box printed as text, or as OCR reads a drawn one ("[J", "[]", "LI"). */
const isTickGlyph = (text: string) => /^(☐|□|❑|❒|\[\s*_?\s*\]|\[[\]J1lI|]|LI|LJ)$/.test(text);
/** What OCR makes of a closing bracket glued to the next word ("1Send" for "] Send"). */
const CLOSING = /^[\]J1lI|]/;
/** Words that are marks, not text (OCR of lines, stray punctuation). */
const isMark = (text: string) => !/[\p{L}\p{N}]/u.test(text);

function overlaps(a: Box, b: Box): number {
  const w = Math.min(right(a), right(b)) - Math.max(a.left, b.left);
  const h = Math.min(bottom(a), bottom(b)) - Math.max(a.top, b.top);
  if (w <= 0 || h <= 0) return 0;
  return (w * h) / Math.min(a.width * a.height, b.width * b.height || 1);
}

function cleanLabel(text: string): string {
  return text
    .replace(/_{2,}/g, ' ')
    .replace(/\s+/g, ' ')
    .trim()
    .replace(/[:.\s]+$/, '')
    .trim();
}

/** A page as field detection reads it: its words with boxes, its text height, the writing band, its rules. */
interface PageScan {
  words: Array<Word & { box: Box }>;
  textHeight: number;
  /** The writing band: how tall the area above a writing line is. */
  band: number;
  horizontal: Segment[];
  vertical: Segment[];
  /** Rectangles drawn with rules, and the rows of ruled tables. */
  boxes: Box[];
  rows: GridRow[];
  /** Horizontal rules that are a rectangle's or a shaded box's edges (no writing lines). */
  used: Set<Segment>;
  /** Words that are part of a field (underscores, box glyphs, table rows) or inside a text box: no labels of other fields. */
  fieldWords: Set<Word>;
  /** Words OCR glued to a box glyph, with the glyph cut off. */
  relabel: Map<Word, Word & { box: Box }>;
}

/**
 * The fields of a page, in steps: what the page prints (words, rules, rectangles); the places to
 * write (text underscores, drawn boxes, text tick boxes, drawn lines, table cells); then each one's
 * label, read from the words around it that are no part of a field; in reading order.
 */
export function detectPageFields(page: Page): DetectedField[] {
  const scan = scanPage(page);
  const underscores = underscoreRuns(scan);
  const { tickBoxes, textBoxes } = drawnBoxes(scan, page);
  addTextTickBoxes(scan, tickBoxes);
  const { lines, combCells } = writingLines(scan, underscores, tickBoxes, textBoxes);
  const { cellFields, combBoxes } = tableCells(scan);
  // Words inside text boxes are their captions, not labels of other fields.
  for (const w of scan.words) if (textBoxes.some((t) => overlaps(w.box, t) > DETECT_SETTINGS.wordInside)) scan.fieldWords.add(w);
  const taken = [...lines, ...tickBoxes, ...textBoxes, ...combBoxes.map((c) => c.box)];
  for (const w of scan.words) if (tickBoxes.some((t) => overlaps(w.box, t) > DETECT_SETTINGS.sameBox)) scan.fieldWords.add(w);
  const labels = labelReader(scan, taken);

  const fields: Array<DetectedField & { group?: string }> = [
    ...lineFields(scan, labels, lines, combCells),
    ...textBoxFields(scan, labels, textBoxes),
    ...combBoxes.map(({ box, cells }): DetectedField => {
      const label = cleanLabel(labels.textBefore(box) || labels.textAbove(box));
      return { kind: 'box', type: 'text', label, description: describe(label, labels.hintAfter(box)), box, comb: cells };
    }),
    ...cellFields.map(({ box, label }): DetectedField => ({ kind: 'cell', type: 'text', label, description: label, box })),
    ...tickFields(scan, labels, tickBoxes),
  ];
  // Reading order: top to bottom, then left to right.
  fields.sort((a, b) => (Math.abs(a.box.top - b.box.top) < scan.band / 2 ? a.box.left - b.box.left : a.box.top - b.box.top));
  return fields.map(({ type, label, description, box, kind, comb }) => ({ type, label, description, box, kind, ...(comb ? { comb } : {}) }));
}

const describe = (label: string, hint: string) => (hint ? `${label} ${hint}`.trim() : label);

/** The page's words with boxes, its text height and writing band, its rules and the rectangles they draw. */
function scanPage(page: Page): PageScan {
  const words = page.words.filter((w): w is Word & { box: Box } => w.box !== undefined);
  const textHeight = median(
    words.filter((w) => !isMark(w.text)).map((w) => w.box.height),
    DETECT_SETTINGS.defaultTextHeight,
  );
  const band = Math.min(DETECT_SETTINGS.bandMax, Math.max(DETECT_SETTINGS.bandMin, textHeight * DETECT_SETTINGS.bandPerTextHeight));
  const { horizontal, vertical, pieces } = segments(page.rules ?? []);
  const { boxes, used, rows } = rectangles(horizontal, vertical, pieces);
  // A rule along a shaded box's top or bottom edge is that box's border, not an underline of its own.
  for (const h of horizontal) {
    const along = (page.shaded ?? []).some(
      (b) => (Math.abs(h.at - b.top) <= DETECT_SETTINGS.edgeTolerance || Math.abs(h.at - bottom(b)) <= DETECT_SETTINGS.edgeTolerance) && Math.min(h.to, right(b)) - Math.max(h.from, b.left) >= DETECT_SETTINGS.shadedEdgeShare * Math.min(h.to - h.from, b.width),
    );
    if (along) used.add(h);
  }
  return { words, textHeight, band, horizontal, vertical, boxes, rows, used, fieldWords: new Set(), relabel: new Map() };
}

/** 1. Text underscores: "Name: ________" or "Name:______"; the band above each run is a writing line. */
function underscoreRuns({ words, band, fieldWords }: PageScan): Box[] {
  const out: Box[] = [];
  for (const w of words) {
    if (!isUnderscores(w.text)) continue;
    fieldWords.add(w);
    const run = LEADER_RUN.exec(w.text)!;
    const start = run.index;
    const end = run.index + run[0].length;
    const charWidth = w.box.width / Math.max(1, w.text.length);
    const left = w.box.left + start * charWidth;
    const width = (end - start) * charWidth;
    if (width < DETECT_SETTINGS.minUnderline / 2) continue;
    out.push({ left, top: bottom(w.box) - band, width, height: band });
  }
  return out;
}

/**
 * 2. Drawn boxes: tick boxes (rings, small squares) and text boxes. Shaded boxes (a form that marks
 * its fields by shading) come before the rectangles its rules make (the gap between two shaded boxes
 * inside a ruled cell is no field).
 */
function drawnBoxes({ words, textHeight, band, boxes }: PageScan, page: Page): { tickBoxes: Box[]; textBoxes: Box[] } {
  const tickBoxes: Box[] = [];
  const textBoxes: Box[] = [];
  // A frame around printed paragraphs (a section of the form, with its own fields inside) is no field.
  // Paragraphs: three rows of text or more, two of them across half the frame at least (a few short
  // words, one a line, are what was written in a box).
  const isFrame = (b: Box) => {
    const rows = new Map<number, Box[]>();
    for (const w of words) {
      if (isMark(w.text) || overlaps(w.box, b) <= DETECT_SETTINGS.wordInside) continue;
      const row = Math.round(w.box.top / textHeight);
      rows.set(row, [...(rows.get(row) ?? []), w.box]);
    }
    const wide = [...rows.values()].filter((r) => Math.max(...r.map(right)) - Math.min(...r.map((x) => x.left)) >= DETECT_SETTINGS.frameRowWidth * b.width).length;
    return rows.size >= DETECT_SETTINGS.frameRows && wide >= DETECT_SETTINGS.frameWideRows;
  };
  // A ring (a radio button printed "○") is a tick box like a square.
  for (const b of page.rings ?? []) if (!tickBoxes.some((t) => overlaps(t, b) > DETECT_SETTINGS.sameTick)) tickBoxes.push(b);
  for (const b of [...(page.shaded ?? []), ...boxes]) {
    if ([...tickBoxes, ...textBoxes].some((t) => overlaps(t, b) > DETECT_SETTINGS.sameBox)) continue;
    if (b.height > DETECT_SETTINGS.frameMinBands * band && isFrame(b)) continue;
    if (b.width <= DETECT_SETTINGS.tickMax && b.height <= DETECT_SETTINGS.tickMax && Math.abs(b.width - b.height) <= Math.max(DETECT_SETTINGS.tickSquarePoints, DETECT_SETTINGS.tickSquareShare * b.width)) tickBoxes.push(b);
    else if (b.width >= DETECT_SETTINGS.textBoxMinWidth && b.height >= DETECT_SETTINGS.textBoxMinHeight) textBoxes.push(b);
  }
  return { tickBoxes, textBoxes };
}

/** Tick boxes printed as text: ☐, or "[" and "]" side by side (a "]" OCR glued to the next word is cut off it). */
function addTextTickBoxes({ words, fieldWords, relabel }: PageScan, tickBoxes: Box[]): void {
  for (let i = 0; i < words.length; i++) {
    const w = words[i]!;
    if (isTickGlyph(w.text)) {
      if (!tickBoxes.some((t) => overlaps(t, w.box) > DETECT_SETTINGS.sameTick)) tickBoxes.push(w.box);
      fieldWords.add(w);
    } else if (w.text === '[') {
      const close = words
        .filter((o) => CLOSING.test(o.text) && Math.abs(centerY(o.box) - centerY(w.box)) < w.box.height / 2 && o.box.left > w.box.left && o.box.left - right(w.box) < w.box.height * DETECT_SETTINGS.bracketGap)
        .sort((a, b) => a.box.left - b.box.left)[0];
      if (close) {
        // The bracket alone, or glued to the label that follows it (OCR): the box ends after its first character.
        const glued = close.text.length > 1 && close.text !== ']';
        const closeRight = glued ? close.box.left + close.box.width / close.text.length : right(close.box);
        tickBoxes.push({ left: w.box.left, top: Math.min(w.box.top, close.box.top), width: closeRight - w.box.left, height: Math.max(w.box.height, close.box.height) });
        fieldWords.add(w);
        if (glued) relabel.set(close, { ...close, text: close.text.slice(1), box: { ...close.box, left: closeRight, width: right(close.box) - closeRight } });
        else fieldWords.add(close);
      }
    }
  }
}

/**
 * 3. Writing lines: the underscore runs, and drawn underlines no box claims (and that underline no
 * text), none inside a box. A line with ticks standing on it at even steps is a comb field.
 */
function writingLines({ words, textHeight, band, horizontal, vertical, used }: PageScan, underscores: Box[], tickBoxes: Box[], textBoxes: Box[]): { lines: Box[]; combCells: Map<Box, number> } {
  const lineFields: Box[] = [];
  /** Comb lines: how many character boxes their evenly standing ticks make. */
  const combCells = new Map<Box, number>();
  for (const h of horizontal) {
    if (used.has(h)) continue;
    const box = { left: h.from, top: h.at - band, width: h.to - h.from, height: band };
    const standing = (v: Segment) => Math.abs(v.to - h.at) <= DETECT_SETTINGS.sameRule && v.to - v.from <= band && !horizontal.some((o) => Math.abs(o.at - v.from) <= DETECT_SETTINGS.sameRule && o.from <= v.at + 1 && o.to >= v.at - 1);
    const ticks = [...new Set(vertical.filter((v) => v.at > h.from + DETECT_SETTINGS.innerMargin && v.at < h.to - DETECT_SETTINGS.innerMargin && standing(v)).map((v) => Math.round(v.at)))].sort((a, b) => a - b);
    // Ticks at even steps along the whole rule, a character's width apart, make a comb (a scan's stray
    // marks on a line do not).
    const step = (h.to - h.from) / (ticks.length + 1);
    const comb = ticks.length > 0 && step >= DETECT_SETTINGS.combMinStep && step <= Math.max(DETECT_SETTINGS.combMaxStep, DETECT_SETTINGS.combStepPerTextHeight * textHeight) && ticks.every((x, k) => Math.abs(x - (h.from + (k + 1) * step)) <= DETECT_SETTINGS.combEvenness * step);
    // A short line is a writing line only when it is a comb of a few boxes ("|_|_|") with no text on
    // it (on a scan, strokes of letters read as short rules).
    if (h.to - h.from < DETECT_SETTINGS.minUnderline && (!comb || h.to - h.from < DETECT_SETTINGS.minUnderline / 3 || words.some((w) => overlaps(w.box, box) > 0))) continue;
    // A rule right under text that spans it is an underline of that text (a heading), or a table border.
    const sitting = words.filter((w) => !isMark(w.text) && !isUnderscores(w.text) && w.box.left >= h.from - DETECT_SETTINGS.underlineSlack && right(w.box) <= h.to + DETECT_SETTINGS.underlineSlack && bottom(w.box) <= h.at + DETECT_SETTINGS.underlineSlack && bottom(w.box) >= h.at - band);
    const covered = sitting.reduce((sum, w) => sum + w.box.width, 0);
    if (covered > DETECT_SETTINGS.underlinedShare * (h.to - h.from)) continue;
    // The same place as a text underscore run: one field.
    if (underscores.some((u) => overlaps(u, box) > DETECT_SETTINGS.sameBox)) continue;
    // Part of a table grid: rules crossing it. Short ticks standing on it with nothing across their
    // tops are the boxes of a comb field ("|_|_|_|", one character per box), not a grid.
    if (vertical.filter((v) => v.at > h.from + DETECT_SETTINGS.innerMargin && v.at < h.to - DETECT_SETTINGS.innerMargin && v.from <= h.at + 1 && v.to >= h.at - 1 && !standing(v)).length >= DETECT_SETTINGS.gridCrossings) continue;
    lineFields.push(box);
    if (comb) combCells.set(box, ticks.length + 1);
  }
  // Tick-box sides are rules too; they are not underlines.
  const notInside = (b: Box) =>
    !tickBoxes.some((t) => overlaps(t, b) > DETECT_SETTINGS.sameTick) &&
    !textBoxes.some((t) => b.top >= t.top - DETECT_SETTINGS.insideSlack && bottom(b) <= bottom(t) + DETECT_SETTINGS.insideSlack && b.left >= t.left - DETECT_SETTINGS.insideSlack && right(b) <= right(t) + DETECT_SETTINGS.insideSlack);
  return { lines: [...underscores, ...lineFields].filter(notInside), combCells };
}

/**
 * 4. Cells of ruled tables: a cell with a caption at its top and room below it, or an empty cell named
 * by its column's header (the cell above) and its row's first cell. A row of narrow boxes of one
 * width, each holding at most a character, is a comb field ("|A|B|C|").
 */
function tableCells({ words, textHeight, rows, fieldWords }: PageScan): { cellFields: Array<{ box: Box; label: string }>; combBoxes: Array<{ box: Box; cells: number }> } {
  const cellFields: Array<{ box: Box; label: string }> = [];
  const cellOf = (row: GridRow, i: number): Box => ({ left: row.xs[i]!, top: row.top, width: row.xs[i + 1]! - row.xs[i]!, height: row.bottom - row.top });
  const wordsIn = (cell: Box) =>
    words.filter((w) => !isMark(w.text) && overlaps(w.box, cell) > DETECT_SETTINGS.wordInside).sort((a, b) => (Math.abs(a.box.top - b.box.top) < textHeight / 2 ? a.box.left - b.box.left : a.box.top - b.box.top));
  const combBoxes: Array<{ box: Box; cells: number }> = [];
  for (const row of rows) {
    for (const w of words) if (w.box.top >= row.top - 1 && bottom(w.box) <= row.bottom + 1 && w.box.left >= row.xs[0]! - 1 && right(w.box) <= row.xs.at(-1)! + 1) fieldWords.add(w);
    const widths = row.xs.slice(1).map((x, i) => x - row.xs[i]!);
    const typical = median(widths, 0);
    const comb =
      widths.length >= DETECT_SETTINGS.combMinCells &&
      typical <= Math.max(DETECT_SETTINGS.combMaxStep, DETECT_SETTINGS.combStepPerTextHeight * textHeight) &&
      widths.every((w) => Math.abs(w - typical) <= Math.max(DETECT_SETTINGS.combWidthPoints, DETECT_SETTINGS.combWidthShare * typical)) &&
      widths.every((_, i) => wordsIn(cellOf(row, i)).reduce((n, w) => n + w.text.length, 0) <= 1);
    if (comb) {
      combBoxes.push({ box: { left: row.xs[0]!, top: row.top, width: row.xs.at(-1)! - row.xs[0]!, height: row.bottom - row.top }, cells: widths.length });
      continue;
    }
    for (let i = 0; i + 1 < row.xs.length; i++) {
      const cell = cellOf(row, i);
      if (cell.width < DETECT_SETTINGS.cellMinWidth) continue;
      const inside = wordsIn(cell);
      if (inside.length > 0) {
        const captionBottom = Math.max(...inside.map((w) => bottom(w.box)));
        if (captionBottom <= cell.top + DETECT_SETTINGS.captionTopShare * cell.height && bottom(cell) - captionBottom >= Math.max(DETECT_SETTINGS.cellRoom, textHeight)) {
          cellFields.push({ label: cleanLabel(inside.map((w) => w.text).join(' ')), box: { ...cell, top: captionBottom + 1, height: bottom(cell) - captionBottom - 1 } });
        }
        continue;
      }
      // The header: going up the rows of this table, the first row with text in every cell.
      let header = '';
      for (let above = rows.find((r) => Math.abs(r.bottom - row.top) <= DETECT_SETTINGS.rowJoin); above; above = rows.find((r) => Math.abs(r.bottom - above!.top) <= DETECT_SETTINGS.rowJoin)) {
        const texts = above.xs.slice(0, -1).map((_, j) => cleanLabel(wordsIn(cellOf(above!, j)).map((w) => w.text).join(' ')));
        if (texts.every((t) => t !== '')) {
          header = cleanLabel(wordsIn({ left: cell.left, top: above.top, width: cell.width, height: above.bottom - above.top }).map((w) => w.text).join(' '));
          break;
        }
      }
      const rowLabel = i > 0 ? cleanLabel(wordsIn(cellOf(row, 0)).map((w) => w.text).join(' ')) : '';
      const label = [rowLabel, header].filter(Boolean).join(' ');
      if (header !== '') cellFields.push({ label, box: cell });
    }
  }
  return { cellFields, combBoxes };
}

/** Reading a field's label from the words around it that are no part of a field. */
interface LabelReader {
  /** The words that may label a field. */
  labelWords: Array<Word & { box: Box }>;
  /** Text before a field on its line, back to the previous field or a wide gap. */
  textBefore: (target: Box, baseline?: Box) => string;
  /** Text after a field on its line, up to the next field or a wide gap. */
  textAfter: (target: Box, maxGap: number) => Array<Word & { box: Box }>;
  /** Text just below a box (a signature line's caption, or a hint under a field). */
  textBelow: (target: Box) => string;
  /** Text just above a box (a caption over a text box). */
  textAbove: (target: Box) => string;
  /** A hint in brackets after a field ("(MM/DD/YYYY)"). */
  hintAfter: (target: Box) => string;
  /** Words stacked just above a line, starting near its left end (a label printed over the line). */
  stackedAbove: (line: Box) => Array<Word & { box: Box }>;
  /** Words that label a field on their own line ("Le |_|_|"): no caption of the line above them. */
  leadsAField: (w: Word) => boolean;
  /** Whether two boxes are on one line. */
  sameLineBox: (a: Box, b: Box) => boolean;
}

/** 5. The label reader of a page whose fields (`taken`) are all found. */
function labelReader({ words, textHeight, band, fieldWords, relabel }: PageScan, taken: Box[]): LabelReader {
  const labelWords = words.filter((w) => !fieldWords.has(w)).map((w) => relabel.get(w) ?? w).filter((w) => !isMark(w.text) && w.text !== '');
  const sameLine = (w: Word & { box: Box }, target: Box) => {
    const c = centerY(w.box);
    return c >= target.top - DETECT_SETTINGS.sameLineSlack && c <= bottom(target) + DETECT_SETTINGS.sameLineSlack;
  };
  const sameLineBox = (a: Box, b: Box) => Math.abs(centerY(a) - centerY(b)) < Math.max(a.height, b.height) / DETECT_SETTINGS.sameLineDivisor;
  const wordsBefore = (target: Box, baseline: Box = target): Word[] => {
    const previousRight = Math.max(0, ...taken.filter((b) => b !== target && right(b) <= target.left + 1 && sameLineBox(b, baseline)).map(right));
    const candidates = labelWords.filter((w) => sameLine(w, baseline) && right(w.box) <= target.left + DETECT_SETTINGS.beforeSlack && w.box.left >= previousRight - 1).sort((a, b) => b.box.left - a.box.left);
    const picked: Word[] = [];
    let edge = target.left;
    for (const w of candidates) {
      if (edge - right(w.box) > Math.max(DETECT_SETTINGS.labelGap, DETECT_SETTINGS.labelGapPerTextHeight * textHeight)) break;
      picked.unshift(w);
      edge = w.box.left;
    }
    return picked;
  };
  const textBefore = (target: Box, baseline: Box = target): string =>
    wordsBefore(target, baseline)
      .map((w) => w.text)
      .join(' ');
  let leading: Set<Word> | undefined;
  const leadsAField = (w: Word) => (leading ??= new Set(taken.flatMap((t) => wordsBefore(t, { ...t, height: t.height + DETECT_SETTINGS.lineBaselineExtra })))).has(w);
  const textAfter = (target: Box, maxGap: number): Array<Word & { box: Box }> => {
    const nextLeft = Math.min(Infinity, ...taken.filter((b) => b !== target && b.left >= right(target) - 1 && sameLineBox(b, target)).map((b) => b.left));
    const beside = labelWords.filter((w) => sameLine(w, target) && w.box.left >= right(target) - DETECT_SETTINGS.afterSlack && right(w.box) <= nextLeft + 1);
    // One printed row: the one nearest the box's middle (a tall box spans two rows of small print).
    const nearest = [...beside].sort((a, b) => Math.abs(centerY(a.box) - centerY(target)) - Math.abs(centerY(b.box) - centerY(target)))[0];
    const candidates = beside.filter((w) => !nearest || Math.abs(centerY(w.box) - centerY(nearest.box)) < DETECT_SETTINGS.sameRowShare * Math.min(w.box.height, nearest.box.height)).sort((a, b) => a.box.left - b.box.left);
    const picked: Array<Word & { box: Box }> = [];
    let edge = right(target);
    for (const w of candidates) {
      if (w.box.left - edge > maxGap) break;
      picked.push(w);
      edge = right(w.box);
    }
    return picked;
  };
  const textBelow = (target: Box): string =>
    labelWords
      .filter((w) => w.box.top >= bottom(target) - 1 && w.box.top <= bottom(target) + DETECT_SETTINGS.belowReach * textHeight && w.box.left >= target.left - DETECT_SETTINGS.besideSlack && right(w.box) <= right(target) + DETECT_SETTINGS.besideSlack && !leadsAField(w))
      .sort((a, b) => a.box.left - b.box.left)
      .map((w) => w.text)
      .join(' ');
  const textAbove = (target: Box): string =>
    labelWords
      .filter((w) => bottom(w.box) <= target.top + 1 && bottom(w.box) >= target.top - DETECT_SETTINGS.aboveReach * textHeight && w.box.left >= target.left - DETECT_SETTINGS.besideSlack && w.box.left <= target.left + DETECT_SETTINGS.aboveStartShare * target.width)
      .sort((a, b) => a.box.left - b.box.left)
      .map((w) => w.text)
      .join(' ');
  const hintAfter = (target: Box): string => {
    const after = textAfter(target, DETECT_SETTINGS.hintGap);
    return after.length > 0 && after[0]!.text.startsWith('(') ? after.map((w) => w.text).join(' ') : '';
  };
  const stackedAbove = (line: Box) => {
    const rule = bottom(line);
    const near = labelWords.filter(
      (w) =>
        bottom(w.box) <= rule - 1 &&
        bottom(w.box) >= rule - band - DETECT_SETTINGS.aboveReach * textHeight &&
        w.box.left >= line.left - DETECT_SETTINGS.besideSlack &&
        w.box.left <= line.left + DETECT_SETTINGS.aboveStartShare * line.width &&
        right(w.box) <= right(line) + DETECT_SETTINGS.besideSlack,
    );
    // The printed line nearest the rule only (not words of the line over it, read in between).
    const lowest = Math.max(...near.map((w) => bottom(w.box)));
    return near.filter((w) => bottom(w.box) >= lowest - DETECT_SETTINGS.nearestRowShare * textHeight).sort((a, b) => a.box.left - b.box.left);
  };
  return { labelWords, textBefore, textAfter, textBelow, textAbove, hintAfter, stackedAbove, leadsAField, sameLineBox };
}

/**
 * Writing lines, top to bottom: labelled by the text before them; else as the continuation of the
 * line above ("Address (line 2)"); else by the caption under them (a signature line) or the label
 * stacked over them, whichever is closer.
 */
function lineFields({ textHeight, band }: PageScan, labels: LabelReader, lines: Box[], combCells: Map<Box, number>): DetectedField[] {
  const { labelWords, textBefore, textBelow, hintAfter, stackedAbove, leadsAField } = labels;
  const fields: DetectedField[] = [];
  /** Each line's label, to continue it on a bare line under it. */
  const lineLabels = new Map<Box, string>();
  /** A line with nothing before it, right under a line of the same right end with nothing between: its continuation. */
  const continued = (line: Box): string => {
    const prev = lines
      .filter((p) => p !== line && lineLabels.get(p) && bottom(p) < bottom(line) - DETECT_SETTINGS.continuedSlack && bottom(line) - bottom(p) <= DETECT_SETTINGS.continuedReach * band && Math.abs(right(p) - right(line)) <= DETECT_SETTINGS.continuedRightEnd)
      .sort((a, b) => bottom(b) - bottom(a))[0];
    if (!prev) return '';
    const between = labelWords.some((w) => w.box.top > bottom(prev) - 1 && bottom(w.box) < bottom(line) - 1 && right(w.box) > line.left && w.box.left < right(line));
    if (between) return '';
    const base = lineLabels.get(prev)!.replace(/ \(line (\d+)\)$/, '');
    const n = Number(/ \(line (\d+)\)$/.exec(lineLabels.get(prev)!)?.[1] ?? 1) + 1;
    return `${base} (line ${n})`;
  };
  lines.sort((a, b) => a.top - b.top || a.left - b.left);
  for (const line of lines) {
    let box = line;
    let label = cleanLabel(textBefore(line, { ...line, top: line.top, height: line.height + DETECT_SETTINGS.lineBaselineExtra }));
    const below = textBelow(line);
    let hint = hintAfter(line);
    if (label === '') label = continued(line);
    if (label === '') {
      // No label before the line: the caption under it (a signature line) or the label stacked over
      // it, whichever is closer to the line.
      const above = stackedAbove(line);
      const belowGap = below === '' ? Infinity : Math.min(...labelWords.filter((w) => w.box.top >= bottom(line) - 1 && w.box.top <= bottom(line) + DETECT_SETTINGS.belowReach * textHeight && !leadsAField(w)).map((w) => w.box.top - bottom(line)));
      const aboveGap = above.length === 0 ? Infinity : bottom(line) - Math.max(...above.map((w) => bottom(w.box)));
      if (aboveGap < belowGap) {
        label = cleanLabel(above.map((w) => w.text).join(' '));
        // Values are written between the label and the line.
        const labelBottom = Math.max(...above.map((w) => bottom(w.box)));
        if (labelBottom > line.top && bottom(line) - labelBottom >= DETECT_SETTINGS.roomUnderLabel) box = { ...line, top: labelBottom + 1, height: bottom(line) - labelBottom - 1 };
      } else if (below !== '' && (below.split(/\s+/).length <= DETECT_SETTINGS.maxCaptionWords || /:\s*$/.test(below))) {
        label = cleanLabel(below);
      }
    } else if (/^\(.*\)$/.test(below.trim())) {
      hint = `${hint} ${below}`.trim();
    }
    lineLabels.set(line, label);
    const cells = combCells.get(line);
    fields.push({ kind: 'line', type: 'text', label, description: describe(label, hint), box, ...(cells ? { comb: cells } : {}) });
  }
  return fields;
}

/** Text boxes: a caption inside at the top (values go below it), else the text before or above the box. */
function textBoxFields({ words, textHeight, band }: PageScan, labels: LabelReader, textBoxes: Box[]): DetectedField[] {
  const { textBefore, textAbove, hintAfter } = labels;
  const fields: DetectedField[] = [];
  for (const box of textBoxes) {
    const inside = words.filter((w) => !isMark(w.text) && overlaps(w.box, box) > DETECT_SETTINGS.wordInside).sort((a, b) => a.box.top - b.box.top || a.box.left - b.box.left);
    let writeBox = box;
    let label = '';
    const outside = textBefore(box, { ...box, top: box.top, height: Math.min(box.height, band + DETECT_SETTINGS.boxBaselineExtra) });
    if (inside.length > 0) {
      // A caption inside the box: it labels the box, and values go below it. Text on further lines
      // under it fills the box (what was written in it): then the whole box is the field, labelled
      // from outside (./labels.ts reads further to its left), the text only when nothing is there.
      const caption = inside.filter((w) => w.box.top < box.top + DETECT_SETTINGS.captionLines * textHeight);
      const captionBottom = Math.max(...caption.map((w) => bottom(w.box)), box.top);
      const filled = caption.length > 0 && inside.some((w) => w.box.top >= captionBottom - 1);
      label = filled ? outside || textAbove(box) || caption.map((w) => w.text).join(' ') : caption.map((w) => w.text).join(' ');
      if (!filled && box.top + box.height - captionBottom >= DETECT_SETTINGS.roomUnderCaption) writeBox = { left: box.left, top: captionBottom, width: box.width, height: bottom(box) - captionBottom };
    }
    if (label === '') label = outside;
    if (label === '') label = textAbove(box);
    label = cleanLabel(label);
    fields.push({ kind: 'box', type: 'text', label, description: describe(label, hintAfter(box)), box: writeBox });
  }
  return fields;
}

/** Tick boxes: the option after the box; the group before the line's first box. */
function tickFields({ textHeight }: PageScan, labels: LabelReader, tickBoxes: Box[]): Array<DetectedField & { group: string }> {
  const { textBefore, textAfter, sameLineBox } = labels;
  const fields: Array<DetectedField & { group: string }> = [];
  const sortedTicks = [...tickBoxes].sort((a, b) => a.top - b.top || a.left - b.left);
  for (const box of sortedTicks) {
    const option = cleanLabel(
      textAfter(box, Math.max(DETECT_SETTINGS.optionGap, DETECT_SETTINGS.optionGapPerTextHeight * textHeight))
        .map((w) => w.text)
        .join(' '),
    );
    const rowTicks = sortedTicks.filter((t) => sameLineBox(t, box));
    const first = rowTicks.reduce((a, b) => (b.left < a.left ? b : a), box);
    // Nothing after the box: the form prints its options before the boxes ("oui ○ non ○"), each
    // option the text back to the previous box.
    const before = option === '' ? cleanLabel(textBefore(box)) : '';
    const group = before === '' ? cleanLabel(textBefore(first)) : '';
    const label = before || (group && option ? `${group}: ${option}` : option || group);
    // A square with no text beside it is a drawing (or a letter of a bold title, on a scan), not a field.
    if (label === '') continue;
    fields.push({ kind: 'tick', type: 'checkbox', label, description: label, box, group });
  }
  return fields;
}
