/**
 * HTML reader: one page of text in reading (document) order — headings, paragraphs, list items and
 * data tables (the Doc's Table model, as the DOCX and XLSX readers build them). Scripts, styles,
 * the head and hidden elements are dropped. Parsed with parse5, the WHATWG tree builder browsers
 * follow, so unclosed `<p>`, `<li>` and `<td>` end where a browser ends them.
 *
 * Provenance: API §6.2 has no anchor of its own for HTML. Every word keeps a `text` origin (the
 * `text_span` of TXT files): 1-based lines and code-point offsets, end exclusive, into the decoded
 * HTML source — where the word is written in the file. A text node whose source differs from its
 * text other than by CRLF (an entity such as `&amp;`) anchors each of its words to the whole node.
 *
 * Tables: a `<table>` is a data table when it has at least two rows and two columns, no table inside
 * it, no heading in a cell and no `role="presentation"`. Anything else is a layout table (the way
 * e-mails and old pages place content) and its cells are read as ordinary blocks, one after another.
 */
import { parse, type DefaultTreeAdapterTypes } from 'parse5';
import { ReadFailure, type Cell, type Origin, type Page, type Table } from './doc.ts';
import { MAX_TABLE_CELLS, newPage } from './text.ts';

type Node = DefaultTreeAdapterTypes.Node;
type Element = DefaultTreeAdapterTypes.Element;
type TextNode = DefaultTreeAdapterTypes.TextNode;

/** Elements whose content is never shown as text. */
const SKIPPED = new Set([
  'head', 'title', 'script', 'style', 'noscript', 'template', 'meta', 'link', 'base',
  'svg', 'iframe', 'object', 'embed', 'canvas', 'audio', 'video', 'select', 'datalist', 'img',
]);
/** Elements that start and end a block of text (everything else is inline). */
const BLOCKS = new Set([
  'p', 'div', 'section', 'article', 'aside', 'main', 'header', 'footer', 'nav', 'address', 'blockquote',
  'pre', 'figure', 'figcaption', 'form', 'fieldset', 'legend', 'details', 'summary', 'dl', 'dt', 'dd',
  'ul', 'ol', 'menu', 'center', 'body', 'html', 'hr', 'tr', 'td', 'th', 'caption', 'thead', 'tbody', 'tfoot',
]);
const HEADING = /^h([1-6])$/;

/** A piece of text of a block, with where it sits in the source. */
interface Piece {
  /** The text node's value (newlines made spaces outside `<pre>`: the same length, so offsets hold). */
  text: string;
  /** UTF-16 offsets of the whole node in the source, end exclusive. */
  sourceStart: number;
  sourceEnd: number;
  /** Where each character of `text` is written, or null when only the whole node can be anchored. */
  spans: Spans | null;
}

/** Source offsets (UTF-16, end exclusive) of each character of a text. */
interface Spans {
  starts: number[];
  ends: number[];
}

/** A character reference as HTML writes one: named, decimal or hexadecimal, ended by `;`. */
const CHARACTER_REFERENCE = /^&(?:#[0-9]{1,8}|#[xX][0-9a-fA-F]{1,8}|[A-Za-z][A-Za-z0-9]{1,31});/;
/** A hard line break (`<br>`, a newline in `<pre>`, a block boundary inside a table cell). */
const BREAK = 'break' as const;
type Content = Piece | typeof BREAK;

/** Characters that are no text: controls, zero-width space, soft hyphen, BOM, lone surrogates. */
const INVISIBLE = /[\u0000-\u0008\u000b\u000c\u000e-\u001f\u007f-\u009f\u00ad\u034f\u200b\u2060\ufeff]|[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/g;

/** Maps UTF-16 source offsets to the 1-based lines and code-point offsets of API §6.2 text spans. */
class SourceMap {
  private readonly lineStarts: number[] = [0];
  /** UTF-16 indices of the second halves of surrogate pairs (each makes code points lag by one). */
  private readonly lowSurrogates: number[] = [];

  constructor(
    source: string,
    private readonly lineBase: number,
    private readonly charBase: number,
  ) {
    for (let i = 0; i < source.length; i++) {
      const unit = source.charCodeAt(i);
      // Lines end at \r\n, \n or \r, as text.ts counts them.
      if (unit === 0x0a || (unit === 0x0d && source.charCodeAt(i + 1) !== 0x0a)) this.lineStarts.push(i + 1);
      else if (unit >= 0xdc00 && unit <= 0xdfff && i > 0 && source.charCodeAt(i - 1) >= 0xd800 && source.charCodeAt(i - 1) <= 0xdbff) this.lowSurrogates.push(i);
    }
  }

  /** How many entries of a sorted array are ≤ value. */
  private static countUpTo(sorted: number[], value: number): number {
    let low = 0;
    let high = sorted.length;
    while (low < high) {
      const middle = (low + high) >> 1;
      if (sorted[middle]! <= value) low = middle + 1;
      else high = middle;
    }
    return low;
  }

  line(offset: number): number {
    return this.lineBase + SourceMap.countUpTo(this.lineStarts, offset);
  }

  codePoint(offset: number): number {
    return this.charBase + offset - SourceMap.countUpTo(this.lowSurrogates, offset - 1);
  }

  origin(start: number, end: number): Origin {
    return { kind: 'text', lineStart: this.line(start), lineEnd: this.line(Math.max(start, end - 1)), charStart: this.codePoint(start), charEnd: this.codePoint(end) };
  }
}

function attribute(element: Element, name: string): string | undefined {
  return element.attrs.find((a) => a.name === name)?.value;
}

function isElement(node: Node): node is Element {
  return 'tagName' in node;
}

function isHidden(element: Element): boolean {
  if (attribute(element, 'hidden') !== undefined) return true;
  const style = attribute(element, 'style')?.toLowerCase().replace(/\s+/g, '') ?? '';
  return style.includes('display:none') || style.includes('visibility:hidden');
}

/** Child elements with one of the tag names, looking through the row groups of a table. */
function tableRowsOf(table: Element): Element[] {
  const rows: Element[] = [];
  for (const child of table.childNodes) {
    if (!isElement(child)) continue;
    if (child.tagName === 'tr') rows.push(child);
    else if (child.tagName === 'thead' || child.tagName === 'tbody' || child.tagName === 'tfoot') {
      for (const row of child.childNodes) if (isElement(row) && row.tagName === 'tr') rows.push(row);
    }
  }
  return rows;
}

function cellsOf(row: Element): Element[] {
  return row.childNodes.filter((c): c is Element => isElement(c) && (c.tagName === 'td' || c.tagName === 'th'));
}

function contains(element: Element, test: (e: Element) => boolean): boolean {
  for (const child of element.childNodes) {
    if (isElement(child) && (test(child) || contains(child, test))) return true;
  }
  return false;
}

function spanOf(cell: Element, name: string, max: number): number {
  const value = Number.parseInt(attribute(cell, name) ?? '1', 10);
  // rowspan="0" spans to the end of the table (HTML §4.9.11); anything unreadable is 1.
  if (name === 'rowspan' && value === 0) return max;
  return Number.isFinite(value) && value >= 1 ? Math.min(value, max) : 1;
}

interface PendingBlock {
  kind: 'paragraph' | 'heading' | 'list_item';
  level?: number;
  marker?: string;
}

interface List {
  ordered: boolean;
  next: number;
}

class HtmlReader {
  readonly page: Page = newPage(1);
  private content: Content[] = [];
  private pending: PendingBlock = { kind: 'paragraph' };
  /** Inside a data table cell, block boundaries are line breaks within the cell. */
  private inCell = false;
  private preformatted = 0;
  private readonly lists: List[] = [];
  private visited = 0;

  constructor(
    /** The HTML source, for comparing a text node with what is written for it. */
    private readonly source: string,
    private readonly map: SourceMap,
    private readonly deadline: number,
  ) {}

  walk(node: Node): void {
    if (++this.visited % 1000 === 0 && Date.now() > this.deadline) throw new ReadFailure('Reading the HTML took longer than its time budget', 'timeout');
    if (node.nodeName === '#text') {
      this.text(node as TextNode);
      return;
    }
    if (!isElement(node)) {
      // The document itself (and fragments) hold elements; comments and doctypes hold no text.
      if (node.nodeName === '#document') for (const child of (node as DefaultTreeAdapterTypes.Document).childNodes) this.walk(child);
      return;
    }
    const tag = node.tagName;
    if (SKIPPED.has(tag) || isHidden(node)) return;
    if (tag === 'br') {
      this.content.push(BREAK);
      return;
    }
    if (tag === 'table') {
      this.table(node);
      return;
    }
    const heading = HEADING.exec(tag);
    if (heading) {
      this.openBlock({ kind: 'heading', level: Number(heading[1]) });
      this.children(node);
      this.closeBlock();
      return;
    }
    if (tag === 'ul' || tag === 'ol' || tag === 'menu') {
      const start = Number.parseInt(attribute(node, 'start') ?? '1', 10);
      this.lists.push({ ordered: tag === 'ol', next: Number.isFinite(start) ? start : 1 });
      this.flush();
      this.children(node);
      this.flush();
      this.lists.pop();
      return;
    }
    if (tag === 'li') {
      const list = this.lists[this.lists.length - 1];
      const marker = list?.ordered ? `${list.next++}.` : '-';
      this.openBlock({ kind: 'list_item', marker });
      this.children(node);
      this.closeBlock();
      return;
    }
    if (tag === 'pre') this.preformatted++;
    if (BLOCKS.has(tag)) this.flush();
    this.children(node);
    if (BLOCKS.has(tag)) this.flush();
    if (tag === 'pre') this.preformatted--;
  }

  private children(element: Element): void {
    for (const child of element.childNodes) this.walk(child);
  }

  private text(node: TextNode): void {
    const location = node.sourceCodeLocation;
    const text = this.preformatted > 0 ? node.value : node.value.replace(/[\r\n]/g, ' ');
    if (!location) {
      // Text the tree builder moved (e.g. out of a misplaced table position) has no location: anchor
      // it where its parent starts.
      const parent = node.parentNode && 'sourceCodeLocation' in node.parentNode ? node.parentNode.sourceCodeLocation : undefined;
      const at = parent?.startOffset ?? 0;
      this.pushText(text, at, at, null);
      return;
    }
    this.pushText(text, location.startOffset, location.endOffset, this.characterSpans(node.value, location.startOffset, location.endOffset));
  }

  /**
   * Where each character of a text node is written in the source: CRLF read as one newline, a
   * character reference (`&amp;`, `&#233;`) as the one or two characters it stands for. Null when the
   * two cannot be lined up (the caller then anchors to the whole node).
   */
  private characterSpans(value: string, start: number, end: number): Spans | null {
    const raw = this.source.slice(start, end);
    const spans: Spans = { starts: [], ends: [] };
    const add = (from: number, to: number) => {
      spans.starts.push(start + from);
      spans.ends.push(start + to);
    };
    let j = 0;
    for (let i = 0; i < raw.length; ) {
      if (raw[i] === '\r') {
        // The tree builder reads \r\n and a lone \r as \n.
        const width = raw[i + 1] === '\n' ? 2 : 1;
        if (value[j] !== '\n') return null;
        add(i, i + width);
        i += width;
        j++;
        continue;
      }
      const reference = raw[i] === '&' ? CHARACTER_REFERENCE.exec(raw.slice(i, i + 40))?.[0] : undefined;
      if (reference && !value.startsWith(reference, j)) {
        // A character outside the BMP (&#128512;) is two UTF-16 units of the text.
        const units = value.charCodeAt(j) >= 0xd800 && value.charCodeAt(j) <= 0xdbff ? 2 : 1;
        for (let k = 0; k < units; k++) add(i, i + reference.length);
        i += reference.length;
        j += units;
        continue;
      }
      if (value[j] !== raw[i]) return null;
      add(i, i + 1);
      i++;
      j++;
    }
    return j === value.length ? spans : null;
  }

  private pushText(text: string, sourceStart: number, sourceEnd: number, spans: Spans | null): void {
    if (this.preformatted > 0 && text.includes('\n')) {
      // Newlines in <pre> are line breaks: split the piece, keeping each part's spans.
      let from = 0;
      for (const part of text.split('\n')) {
        if (from > 0) this.content.push(BREAK);
        if (part !== '') {
          const partSpans = spans ? { starts: spans.starts.slice(from, from + part.length), ends: spans.ends.slice(from, from + part.length) } : null;
          this.content.push({ text: part, sourceStart: partSpans?.starts[0] ?? sourceStart, sourceEnd: partSpans?.ends[part.length - 1] ?? sourceEnd, spans: partSpans });
        }
        from += part.length + 1;
      }
      return;
    }
    this.content.push({ text, sourceStart, sourceEnd, spans });
  }

  /** Starts a heading or list item: whatever text came before ends as a block of its own. */
  private openBlock(block: PendingBlock): void {
    this.flush();
    if (!this.inCell) this.pending = block;
  }

  private closeBlock(): void {
    this.flush();
    // An empty heading or item must not lend its kind to the text after it (in a cell, there is none).
    if (!this.inCell) this.pending = { kind: 'paragraph' };
  }

  /**
   * Ends the text gathered so far as a block. When nothing was gathered the pending kind stays, so
   * `<li><p>text</p></li>` is one list item. Inside a table cell it is a line break instead.
   */
  private flush(): void {
    if (this.inCell) {
      if (this.content.length > 0 && this.content[this.content.length - 1] !== BREAK) this.content.push(BREAK);
      return;
    }
    const { lines, text } = this.addLines(this.content);
    this.content = [];
    if (lines.length === 0) return;
    const { kind, level, marker } = this.pending;
    if (kind === 'heading') this.page.blocks.push({ kind, level: level!, text: text.replace(/\n/g, ' '), lines });
    else if (kind === 'list_item') this.page.blocks.push({ kind, text: `${marker} ${text}`, lines });
    else this.page.blocks.push({ kind, text, lines });
    this.pending = { kind: 'paragraph' };
  }

  /** Adds the content as lines and words of the page; returns the line indices and the text. */
  private addLines(content: Content[]): { lines: number[]; words: number[]; text: string } {
    const lines: number[] = [];
    const words: number[] = [];
    const texts: string[] = [];
    let line: Piece[] = [];
    const endLine = () => {
      const added = this.addLine(line);
      if (added) {
        lines.push(added.line);
        words.push(...added.words);
        texts.push(this.page.lines[added.line]!.text);
      }
      line = [];
    };
    for (const item of content) {
      if (item === BREAK) endLine();
      else line.push(item);
    }
    endLine();
    return { lines, words, text: texts.join('\n') };
  }

  /** One line from its pieces: words split on whitespace (a word may run across pieces: `<b>Total</b>:`). */
  private addLine(pieces: Piece[]): { line: number; words: number[] } | undefined {
    const text = pieces.map((p) => p.text).join('');
    if (text.trim() === '') return undefined;
    // The piece each character of `text` came from, and its index in that piece.
    const starts: number[] = [];
    let at = 0;
    for (const piece of pieces) {
      starts.push(at);
      at += piece.text.length;
    }
    // Words come in order, so the search goes on from the piece of the last one.
    let p = 0;
    const locate = (index: number): { piece: Piece; at: number } => {
      while (p + 1 < pieces.length && starts[p + 1]! <= index) p++;
      return { piece: pieces[p]!, at: index - starts[p]! };
    };
    const words: number[] = [];
    const lineWords: string[] = [];
    for (const match of text.matchAll(/\S+/g)) {
      const clean = match[0].replace(INVISIBLE, '');
      if (clean === '') continue;
      const first = locate(match.index);
      const last = locate(match.index + match[0].length - 1);
      const start = first.piece.spans ? first.piece.spans.starts[first.at]! : first.piece.sourceStart;
      const end = last.piece.spans ? last.piece.spans.ends[last.at]! : last.piece.sourceEnd;
      words.push(this.page.words.length);
      this.page.words.push({ text: clean, origin: this.map.origin(start, Math.max(start, end)) });
      lineWords.push(clean);
    }
    if (words.length === 0) return undefined;
    this.page.lines.push({ text: lineWords.join(' '), words });
    return { line: this.page.lines.length - 1, words };
  }

  private table(table: Element): void {
    this.flush();
    const caption = table.childNodes.find((c): c is Element => isElement(c) && c.tagName === 'caption');
    if (caption) this.walk(caption);
    const rows = tableRowsOf(table);
    const columns = Math.max(0, ...rows.map((r) => cellsOf(r).reduce((n, c) => n + spanOf(c, 'colspan', 1000), 0)));
    const role = attribute(table, 'role');
    const layout =
      role === 'presentation' ||
      role === 'none' ||
      rows.length < 2 ||
      columns < 2 ||
      contains(table, (e) => e.tagName === 'table' || HEADING.test(e.tagName));
    if (layout) {
      // Cells read as blocks, row by row (what a reader sees top to bottom, left to right).
      for (const row of rows) {
        for (const cell of cellsOf(row)) {
          if (isHidden(cell)) continue;
          this.flush();
          this.children(cell);
          this.flush();
        }
      }
      return;
    }
    this.dataTable(rows);
  }

  private dataTable(rows: Element[]): void {
    const cells: Cell[] = [];
    const blockLines: number[] = [];
    /** Grid slots already taken by a cell from a row above (rowspan). */
    const taken = new Set<string>();
    let columnCount = 0;
    let headerRows = 0;
    let headerRowsOpen = true;
    rows.forEach((tr, row) => {
      const inHead = tr.parentNode !== null && 'tagName' in tr.parentNode && tr.parentNode.tagName === 'thead';
      const rowCells = cellsOf(tr).filter((c) => !isHidden(c));
      // Header rows: the rows of <thead>, else leading rows made only of <th> cells.
      if (headerRowsOpen && rowCells.length > 0 && (inHead || rowCells.every((c) => c.tagName === 'th'))) headerRows = row + 1;
      else headerRowsOpen = false;
      let column = 0;
      for (const td of rowCells) {
        while (taken.has(`${row},${column}`)) column++;
        const columnSpan = spanOf(td, 'colspan', 1000);
        const rowSpan = spanOf(td, 'rowspan', rows.length - row);
        for (let r = row; r < row + rowSpan; r++) for (let c = column; c < column + columnSpan; c++) taken.add(`${r},${c}`);
        if (taken.size > MAX_TABLE_CELLS) throw new ReadFailure(`The HTML has a table of more than ${MAX_TABLE_CELLS} cells`, 'document_unsupported');
        const { lines, words, text } = this.cellContent(td);
        blockLines.push(...lines);
        cells.push({ row, column, rowSpan, columnSpan, text, words });
        column += columnSpan;
        columnCount = Math.max(columnCount, column);
      }
    });
    // Grid slots no cell covers (short rows) become empty cells: the grid is whole, as in docx.ts.
    for (let row = 0; row < rows.length; row++) {
      for (let column = 0; column < columnCount; column++) {
        if (!taken.has(`${row},${column}`)) cells.push({ row, column, rowSpan: 1, columnSpan: 1, text: '', words: [] });
      }
    }
    cells.sort((a, b) => a.row - b.row || a.column - b.column);
    const table: Table = { rowCount: rows.length, columnCount, headerRows, cells };
    this.page.tables.push(table);
    const texts = Array.from({ length: table.rowCount }, () => Array<string>(columnCount).fill(''));
    for (const cell of cells) texts[cell.row]![cell.column] = cell.text.replace(/\n/g, ' ');
    this.page.blocks.push({ kind: 'table', text: texts.map((r) => r.join('\t')).join('\n'), lines: blockLines, table: this.page.tables.length - 1 });
  }

  /** A cell's text: its block children become lines of the cell. */
  private cellContent(td: Element): { lines: number[]; words: number[]; text: string } {
    const saved = this.content;
    this.content = [];
    this.inCell = true;
    try {
      this.children(td);
      return this.addLines(this.content);
    } finally {
      this.inCell = false;
      this.content = saved;
    }
  }

  finish(): Page {
    this.flush();
    return this.page;
  }
}

export interface HtmlOptions {
  deadline: number;
  /**
   * Where the HTML starts in a larger text (an e-mail's message text, see email.ts): added to every
   * origin's 1-based line (minus one) and code-point offset. Both 0 for an HTML file.
   */
  lineBase?: number;
  charBase?: number;
}

/** Reads HTML source text into one page. */
export function readHtmlText(html: string, options: HtmlOptions): Page {
  const document = parse(html, { sourceCodeLocationInfo: true });
  const reader = new HtmlReader(html, new SourceMap(html, options.lineBase ?? 0, options.charBase ?? 0), options.deadline);
  try {
    reader.walk(document);
  } catch (error) {
    // Thousands of nested elements exhaust the stack: a document we refuse, not a crash.
    if (error instanceof RangeError) throw new ReadFailure('The HTML is nested too deeply to be read', 'document_unsupported');
    throw error;
  }
  return reader.finish();
}

/** What windows-1252 puts at 0x80–0x9F (the C1 range ISO-8859-1 leaves to control characters). */
const WINDOWS_1252_C1 = '€\u0081‚ƒ„…†‡ˆ‰Š‹Œ\u008dŽ\u008f\u0090‘’“”•–—˜™š›œ\u009džŸ';

/**
 * C1 control characters as the windows-1252 characters they almost always are. Node 20's TextDecoder
 * decodes 'windows-1252' (and 'iso-8859-1', which WHATWG maps to it) as ISO-8859-1, so the € and the
 * curly quotes of such pages and e-mails arrive as U+0080–U+009F; real text never holds those.
 */
export function repairC1(text: string): string {
  return text.replace(/[\u0080-\u009f]/g, (c) => WINDOWS_1252_C1[c.charCodeAt(0) - 0x80]!);
}

/**
 * The text of HTML bytes: a byte order mark decides; else a `<meta charset>` in the first 1,024
 * bytes (the HTML prescan); else UTF-8 when the bytes are valid UTF-8; else windows-1252, what
 * browsers assume for legacy pages.
 */
export function decodeHtml(bytes: Uint8Array): string {
  if (bytes[0] === 0xef && bytes[1] === 0xbb && bytes[2] === 0xbf) return new TextDecoder('utf-8').decode(bytes.subarray(3));
  if (bytes[0] === 0xfe && bytes[1] === 0xff) return new TextDecoder('utf-16be').decode(bytes.subarray(2));
  if (bytes[0] === 0xff && bytes[1] === 0xfe) return new TextDecoder('utf-16le').decode(bytes.subarray(2));
  const head = Buffer.from(bytes.buffer, bytes.byteOffset, Math.min(1024, bytes.byteLength)).toString('latin1');
  const declared = /<meta[^>]+charset\s*=\s*["']?\s*([\w.:-]+)/i.exec(head)?.[1]?.toLowerCase();
  // A page declaring UTF-16 in ASCII cannot be UTF-16 (HTML §13.2.3.2 reads it as UTF-8).
  if (declared && !declared.startsWith('utf-16')) {
    try {
      return repairC1(new TextDecoder(declared).decode(bytes));
    } catch {
      // An unknown label: fall through to the guess below.
    }
  }
  try {
    return new TextDecoder('utf-8', { fatal: true }).decode(bytes);
  } catch {
    return repairC1(new TextDecoder('windows-1252').decode(bytes));
  }
}

/** Reads an HTML file into one page. */
export function readHtml(bytes: Uint8Array, options: { deadline: number }): Page[] {
  return [readHtmlText(decodeHtml(bytes), options)];
}
