/**
 * TXT and Markdown reader: one page; every word keeps a `text` origin (API §6.2 `text_span`): 1-based
 * line numbers and code-point offsets in the decoded text (BOM excluded), end exclusive.
 *
 * Also home of the small helpers every non-PDF reader shares (pages without geometry, words split
 * with code-point offsets, lines), so offsets are computed one way everywhere.
 */
import { ReadFailure, type Origin, type Page, type Table } from './doc.ts';

/** Cells a spreadsheet or CSV table may have (memory and output stay bounded). */
export const MAX_TABLE_CELLS = 1_000_000;

/** A page of a format without geometry (text, CSV, spreadsheets, DOCX). */
export function newPage(number: number, name?: string): Page {
  const page: Page = { number, width: 0, height: 0, unit: 'none', ocr: false, words: [], lines: [], blocks: [], tables: [] };
  if (name !== undefined) page.name = name;
  return page;
}

/** Code points in a string (a surrogate pair counts once, as API §6.2 offsets do). */
export function codePointLength(text: string): number {
  let count = 0;
  for (let i = 0; i < text.length; i++) {
    const unit = text.charCodeAt(i);
    // A low surrogate that follows a high one is the second half of a single code point.
    if (unit >= 0xdc00 && unit <= 0xdfff && i > 0 && isHighSurrogate(text.charCodeAt(i - 1))) continue;
    count++;
  }
  return count;
}

function isHighSurrogate(unit: number): boolean {
  return unit >= 0xd800 && unit <= 0xdbff;
}

/** A whitespace-separated word of `text`, with code-point offsets into `text` (end exclusive). */
export interface Span {
  text: string;
  start: number;
  end: number;
}

export function wordSpans(text: string): Span[] {
  const spans: Span[] = [];
  // Walk the matches once, converting UTF-16 positions to code points incrementally.
  let unitPosition = 0;
  let codePoint = 0;
  for (const match of text.matchAll(/\S+/gu)) {
    codePoint += codePointLength(text.slice(unitPosition, match.index));
    const length = codePointLength(match[0]);
    spans.push({ text: match[0], start: codePoint, end: codePoint + length });
    codePoint += length;
    unitPosition = match.index + match[0].length;
  }
  return spans;
}

/**
 * Adds `text` to the page as lines (one per `\n`-separated segment) and words.
 * `originOf` gets each word's code-point offsets relative to `text` and the segment's index.
 */
export function addTextLines(
  page: Page,
  text: string,
  originOf: (start: number, end: number, segment: number) => Origin,
): { lines: number[]; words: number[] } {
  const lines: number[] = [];
  const words: number[] = [];
  // Fast paths: most table cells are empty or one line.
  if (text.trim() === '') return { lines, words };
  const segments = text.includes('\n') ? text.split('\n') : [text];
  let base = 0;
  segments.forEach((segment, index) => {
    const lineWords: number[] = [];
    for (const span of wordSpans(segment)) {
      lineWords.push(page.words.length);
      page.words.push({ text: span.text, origin: originOf(base + span.start, base + span.end, index) });
    }
    if (lineWords.length > 0) {
      lines.push(page.lines.length);
      page.lines.push({ text: segment.trim(), words: lineWords });
      words.push(...lineWords);
    }
    base += codePointLength(segment) + 1;
  });
  return { lines, words };
}

/** Strict UTF-8 decoding without the BOM; anything else is not a text document we can read. */
export function decodeUtf8(bytes: Uint8Array, what: string): string {
  let text: string;
  try {
    // ignoreBOM: keep the BOM so we can drop it ourselves and be sure offsets start after it.
    text = new TextDecoder('utf-8', { fatal: true, ignoreBOM: true }).decode(bytes);
  } catch {
    throw new ReadFailure(`The ${what} is not valid UTF-8 text`);
  }
  return text.startsWith('\uFEFF') ? text.slice(1) : text;
}

// ---------------------------------------------------------------------------------------------
// The reader

interface SourceLine {
  /** 1-based. */
  number: number;
  text: string;
  /** Code-point offset of the line's first character in the decoded text. */
  start: number;
}

function splitLines(text: string): SourceLine[] {
  const lines: SourceLine[] = [];
  const breaks = /\r\n|\n|\r/g;
  let last = 0;
  let start = 0;
  for (let match = breaks.exec(text); ; match = breaks.exec(text)) {
    const end = match ? match.index : text.length;
    const line = text.slice(last, end);
    lines.push({ number: lines.length + 1, text: line, start });
    if (!match) break;
    start += codePointLength(line) + match[0].length;
    last = end + match[0].length;
  }
  return lines;
}

const LIST_ITEM_MD = /^(\s*)([-*+]|\d{1,9}[.)])(\s+)(.*)$/;
/** In plain text, bullets people type (and paste from word processors) or "1." / "1)". */
const LIST_ITEM_TXT = /^(\s*)([-*+•◦▪‣·–]|\d{1,9}[.)])(\s+)(.*)$/;
const ATX_HEADING = /^( {0,3})(#{1,6})(?:[ \t]+(.*?))?(?:[ \t]+#+)?[ \t]*$/;
const FENCE = /^ {0,3}(`{3,}|~{3,})/;
const TABLE_DELIMITER = /^\s*\|?\s*:?-+:?\s*(\|\s*:?-+:?\s*)*\|?\s*$/;

const isBlank = (line: SourceLine) => line.text.trim() === '';

/** Words of `line.text.slice(from)` (a UTF-16 index), with origins in the whole text. */
function addLineContent(page: Page, line: SourceLine, from: number): { lines: number[]; words: number[] } {
  const content = line.text.slice(from);
  const base = line.start + codePointLength(line.text.slice(0, from));
  return addTextLines(page, content, (start, end) => ({
    kind: 'text',
    lineStart: line.number,
    lineEnd: line.number,
    charStart: base + start,
    charEnd: base + end,
  }));
}

/** Adds the lines (whole) as one block of `kind` whose text is their trimmed text joined by newlines. */
function addLinesBlock(page: Page, kind: 'paragraph' | 'list_item', lines: SourceLine[], text: string): void {
  const lineIndices: number[] = [];
  for (const line of lines) lineIndices.push(...addLineContent(page, line, 0).lines);
  page.blocks.push({ kind, text, lines: lineIndices });
}

function listItem(page: Page, first: SourceLine, match: RegExpExecArray, continuation: SourceLine[]): void {
  const [, indent, marker, gap] = match as unknown as [string, string, string, string];
  // The words are the item's content: the marker is structure, not text a value could come from.
  const lines = addLineContent(page, first, indent.length + marker.length + gap.length).lines;
  for (const line of continuation) lines.push(...addLineContent(page, line, 0).lines);
  const text = [`${marker} ${match[4]!.trim()}`, ...continuation.map((l) => l.text.trim())].join('\n');
  page.blocks.push({ kind: 'list_item', text, lines });
}

/** Splits a pipe-table row into cells (UTF-16 start index in the line, raw text); `\|` does not split. */
function tableCells(text: string): { from: number; raw: string }[] {
  const cells: { from: number; raw: string }[] = [];
  const trimmed = text.trimEnd();
  // A leading pipe opens the first cell; a trailing one closes the last.
  let i = trimmed.length - trimmed.trimStart().length;
  if (trimmed[i] === '|') i++;
  let from = i;
  for (; i < trimmed.length; i++) {
    if (trimmed[i] === '\\') {
      i++;
    } else if (trimmed[i] === '|') {
      cells.push({ from, raw: trimmed.slice(from, i) });
      from = i + 1;
    }
  }
  if (from < trimmed.length) cells.push({ from, raw: trimmed.slice(from) });
  return cells;
}

function markdownTable(page: Page, rows: SourceLine[]): void {
  // rows[1] is the delimiter row; the header fixes the column count (as GitHub renders it).
  const header = tableCells(rows[0]!.text);
  const columnCount = header.length;
  const body = rows.slice(2);
  const table: Table = { rowCount: 1 + body.length, columnCount, headerRows: 1, cells: [] };
  const blockLines: number[] = [];
  [rows[0]!, ...body].forEach((line, row) => {
    const cells = tableCells(line.text);
    for (let column = 0; column < columnCount; column++) {
      const cell = cells[column];
      let text = '';
      let words: number[] = [];
      if (cell) {
        const leading = cell.raw.length - cell.raw.trimStart().length;
        // The line cut at the cell's end, read from the cell's first character: the cell's words only.
        const added = addLineContent(page, { ...line, text: line.text.slice(0, cell.from + cell.raw.length) }, cell.from + leading);
        words = added.words;
        blockLines.push(...added.lines);
        text = cell.raw.trim().replace(/\\\|/g, '|');
      }
      table.cells.push({ row, column, rowSpan: 1, columnSpan: 1, text, words });
    }
  });
  page.tables.push(table);
  const text = [rows[0]!, ...body].map((line) => tableCells(line.text).map((c) => c.raw.trim()).join('\t')).join('\n');
  page.blocks.push({ kind: 'table', text, lines: blockLines, table: page.tables.length - 1 });
}

function isTableStart(lines: SourceLine[], i: number): boolean {
  const next = lines[i + 1];
  return lines[i]!.text.includes('|') && next !== undefined && next.text.includes('-') && TABLE_DELIMITER.test(next.text) && (next.text.includes('|') || lines[i]!.text.trim().startsWith('|'));
}

function readMarkdown(page: Page, lines: SourceLine[]): void {
  /** Lines that start a block of their own (and so end a paragraph or a list item's continuation). */
  const startsBlock = (i: number) => {
    const text = lines[i]!.text;
    return isBlank(lines[i]!) || ATX_HEADING.test(text) || FENCE.test(text) || LIST_ITEM_MD.test(text) || isTableStart(lines, i);
  };
  let i = 0;
  while (i < lines.length) {
    const line = lines[i]!;
    if (isBlank(line)) {
      i++;
      continue;
    }
    const fence = FENCE.exec(line.text);
    if (fence) {
      // Code is kept verbatim (fences included) so `#` comments inside are never taken as headings.
      const close = new RegExp(`^ {0,3}${fence[1]![0] === '`' ? '`' : '~'}{${fence[1]!.length},}\\s*$`);
      let end = i + 1;
      while (end < lines.length && !close.test(lines[end]!.text)) end++;
      const block = lines.slice(i, Math.min(end + 1, lines.length));
      addLinesBlock(page, 'paragraph', block, block.map((l) => l.text).join('\n'));
      i = end + 1;
      continue;
    }
    const heading = ATX_HEADING.exec(line.text);
    if (heading) {
      const content = heading[3] ?? '';
      const from = content === '' ? line.text.length : line.text.indexOf(content, heading[1]!.length + heading[2]!.length);
      const added = addLineContent(page, { ...line, text: line.text.slice(0, from + content.length) }, from);
      page.blocks.push({ kind: 'heading', level: heading[2]!.length, text: content.trim(), lines: added.lines });
      i++;
      continue;
    }
    if (isTableStart(lines, i)) {
      let end = i + 2;
      while (end < lines.length && !isBlank(lines[end]!) && lines[end]!.text.includes('|')) end++;
      markdownTable(page, lines.slice(i, end));
      i = end;
      continue;
    }
    const item = LIST_ITEM_MD.exec(line.text);
    if (item) {
      let end = i + 1;
      while (end < lines.length && !startsBlock(end)) end++;
      listItem(page, line, item, lines.slice(i + 1, end));
      i = end;
      continue;
    }
    // A paragraph, or a setext heading when its lines are underlined with === or ---.
    let end = i + 1;
    while (end < lines.length && !startsBlock(end) && !/^ {0,3}(=+|-+)\s*$/.test(lines[end]!.text)) end++;
    const paragraph = lines.slice(i, end);
    const underline = lines[end] && /^ {0,3}(=+|-+)\s*$/.exec(lines[end]!.text);
    const text = paragraph.map((l) => l.text.trim()).join('\n');
    if (underline) {
      const lineIndices = paragraph.flatMap((l) => addLineContent(page, l, 0).lines);
      page.blocks.push({ kind: 'heading', level: underline[1]![0] === '=' ? 1 : 2, text: text.replace(/\n/g, ' '), lines: lineIndices });
      i = end + 1;
    } else {
      addLinesBlock(page, 'paragraph', paragraph, text);
      i = end;
    }
  }
}

function readPlainText(page: Page, lines: SourceLine[]): void {
  let i = 0;
  while (i < lines.length) {
    if (isBlank(lines[i]!)) {
      i++;
      continue;
    }
    const item = LIST_ITEM_TXT.exec(lines[i]!.text);
    if (item) {
      // Wrapped list items go on indented; an unindented line starts something new.
      let end = i + 1;
      while (end < lines.length && !isBlank(lines[end]!) && /^\s/.test(lines[end]!.text) && !LIST_ITEM_TXT.test(lines[end]!.text)) end++;
      listItem(page, lines[i]!, item, lines.slice(i + 1, end));
      i = end;
      continue;
    }
    let end = i + 1;
    while (end < lines.length && !isBlank(lines[end]!) && !LIST_ITEM_TXT.test(lines[end]!.text)) end++;
    const paragraph = lines.slice(i, end);
    addLinesBlock(page, 'paragraph', paragraph, paragraph.map((l) => l.text.trim()).join('\n'));
    i = end;
  }
}

/** Reads a UTF-8 text or Markdown file into one page. */
export function readText(bytes: Uint8Array, kind: 'txt' | 'md'): Page[] {
  const text = decodeUtf8(bytes, kind === 'md' ? 'Markdown file' : 'text file');
  const page = newPage(1);
  const lines = splitLines(text);
  if (kind === 'md') readMarkdown(page, lines);
  else readPlainText(page, lines);
  return [page];
}
