/**
 * Provenance for models that return only values (LLM providers): each leaf of an extraction's output
 * is looked for in the Doc, and the best occurrence becomes its `Found` (API §6.2 sources).
 *
 * How a value is looked for:
 *   - text is compared on a normalized key (case, whitespace, punctuation, quotes, dashes and
 *     diacritics ignored; "1.5" still differs from "15"), exactly first, then fuzzily (normalized
 *     edit distance ≤ 0.15) for values of 6 characters or more, so OCR typos still match;
 *   - numbers are compared by value, whatever the printing ("$1,250.00", "1 250,00", "1250", "20%");
 *   - dates are compared by value, whatever the format (ISO, "March 5, 2024", "5 Mar 2024",
 *     "03/05/2024", "05.03.2024"); a printing that can only be that date is preferred to an
 *     ambiguous one;
 *   - booleans only when a checkbox or a yes/no word sits next to the field's label.
 * A value may run over several consecutive words of a line, of one block (across a line break) or of
 * one table cell, never across cells or blocks.
 *
 * When a value occurs several times, the occurrence next to its label wins: the words of the field's
 * path (`invoice_date` → invoice, date) and of its schema title and description, looked for on the
 * value's line (just before it counts most), the line above, the table's column header and the
 * cells to its left. The items of an array of objects keep to one table row (or line) each: the row
 * where most of the item's values are found.
 *
 * The Doc is indexed once (normalized keys → positions, numbers and dates by value) and the index is
 * kept for the Doc's lifetime, so locating a second output (another consensus vote) costs only the
 * look-ups.
 */
import { type Box, type Doc, type Origin, type Page, unionBox } from '../documents/doc.ts';
import type { Found, Tree } from './engine.ts';
import { CURRENCIES, printingsOf } from './knowledge/currencies.ts';
import { MONTH_NUMBERS } from './knowledge/months.ts';
import { stemOf, STOP_WORDS } from './shared/words.ts';

/**
 * For every scalar leaf of `output` (objects keep their keys, arrays their items), where the Doc
 * backs it, or null (null and empty leaves, and values the document does not contain).
 * `schema` (the extraction's JSON Schema) lends each field's title and description as label words.
 */
export function locateValues(doc: Doc, output: Record<string, unknown>, schema?: Record<string, unknown>): Tree<Found | null> {
  const locator = new Locator(indexOf(doc), schema);
  return locator.node(output, schema, []);
}

// =============================================================================================
// Normalization

const ASCII = /^[\x00-\x7f]*$/;

const isDigit = (ch: string | undefined) => ch !== undefined && ch >= '0' && ch <= '9';

/** Lower case, no diacritics, one kind of quote and dash, single spaces. */
export function normalizeText(text: string): string {
  // Plain ASCII (most words) needs no Unicode work.
  if (ASCII.test(text)) return text.toLowerCase().replace(/\s+/g, ' ').trim();
  return text
    .normalize('NFKD')
    .replace(/\p{M}/gu, '')
    .toLowerCase()
    .replace(/[‘’‚‛′`´]/g, "'")
    .replace(/[“”„‟″«»]/g, '"')
    .replace(/[‐‑‒–—―−﹣－]/g, '-')
    .replace(/\s+/g, ' ')
    .trim();
}

/** Keys of word texts already seen (a document repeats its words; keys are asked for per word). */
const keyCache = new Map<string, string>();
const KEY_CACHE_LIMIT = 100_000;

/**
 * The comparison key of a text: its letters and digits only, so spacing and punctuation do not
 * matter ("INV - 001" = "inv-001"). A `.` `,` `/` `:` between two digits stays: "1.5" is not "15".
 */
export function keyOf(text: string): string {
  // Plain ASCII (most words): one pass, nothing to cache.
  const ascii = asciiKey(text);
  if (ascii !== undefined) return ascii;
  let key = keyCache.get(text);
  if (key === undefined) {
    const n = normalizeText(text);
    key = asciiKey(n) ?? n.replace(/[^\p{L}\p{N}]/gu, (ch, offset: number) => ('.,/:'.includes(ch) && isDigit(n[offset - 1]) && isDigit(n[offset + 1]) ? ch : ''));
    if (keyCache.size >= KEY_CACHE_LIMIT) keyCache.clear();
    keyCache.set(text, key);
  }
  return key;
}

/**
 * keyOf for ASCII text in one pass, without Unicode regexes (the common case, and the index's hot
 * path); undefined for any other text.
 */
function asciiKey(text: string): string | undefined {
  let key = '';
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c > 127) return undefined;
    if ((c >= 97 && c <= 122) || (c >= 48 && c <= 57)) key += text[i];
    else if (c >= 65 && c <= 90) key += String.fromCharCode(c + 32);
    else if ((c === 46 || c === 44 || c === 47 || c === 58) && isDigit(text[i - 1]) && isDigit(text[i + 1])) key += text[i];
  }
  return key;
}

/** Code points in a string (offsets in origins count code points, not UTF-16 units). */
function codePoints(text: string): number {
  if (!/[\uD800-\uDFFF]/.test(text)) return text.length;
  let n = 0;
  for (const _ of text) n++;
  return n;
}

// =============================================================================================
// Numbers and dates as printed

const CURRENCY_SYMBOLS = '$€£¥₹₽₩₺₪฿¢₫₴₦';
/** Codes and lettered marks of currencies, lower case ("usd", "rm", "rs", "us$"): the lexicon's and a few more. */
const CURRENCY_CODES = new Set([
  ...'usd eur gbp jpy chf cad aud nzd inr cny rmb sek nok dkk pln czk huf brl mxn zar rub try krw sgd hkd rs kr fr dh us$ r$ ca$ a$ c$'.split(' '),
  ...CURRENCIES.flatMap((c) => [c.code, ...c.marks])
    .map((mark) => mark.toLowerCase().replace(/\.$/, ''))
    .filter((mark) => /^[a-z]{1,3}\$?$/.test(mark)),
]);
/** A currency code or symbol at the start or end of a printed amount ("USD", "$", "1 250 €"). */
const LEADING_CURRENCY = new RegExp(`^(?:([a-z]{1,3}\\$?)|[${CURRENCY_SYMBOLS}])\\s*`);
const TRAILING_CURRENCY = new RegExp(`\\s*(?:([a-z]{1,3})|[${CURRENCY_SYMBOLS}])$`);

function stripCurrency(t: string): string {
  for (let i = 0; i < 2; i++) {
    const lead = LEADING_CURRENCY.exec(t);
    if (lead && (lead[1] === undefined || CURRENCY_CODES.has(lead[1]))) t = t.slice(lead[0].length);
    const trail = TRAILING_CURRENCY.exec(t);
    if (trail && (trail[1] === undefined || CURRENCY_CODES.has(trail[1]))) t = t.slice(0, t.length - trail[0].length);
  }
  return t;
}

/** Thousands groups (`,` `.` space `'`) with an optional decimal part using the other separator. */
const GROUPED = /^(\d{1,3})((?:([,. '’])\d{3})(?:\3\d{3})*)(?:([.,])(\d+))?$/;

/** The values a bare numeral can mean: "1,250" is 1250 or 1.25; "1 250,00" is 1250. */
function numeralValues(core: string): number[] {
  if (/^\d+$/.test(core)) return [Number(core)];
  const simple = /^(\d+)([.,])(\d+)$/.exec(core);
  if (simple) {
    const decimal = Number(`${simple[1]}.${simple[3]}`);
    // One separator before exactly three digits may be a thousands separator.
    const thousands = simple[3]!.length === 3 && simple[1]!.length <= 3 && !simple[1]!.startsWith('0');
    return thousands ? [decimal, Number(simple[1]! + simple[3]!)] : [decimal];
  }
  const grouped = GROUPED.exec(core);
  if (grouped && grouped[4] !== grouped[3]) {
    const integer = grouped[1]! + grouped[2]!.replace(/[,. '’]/g, '');
    return [Number(grouped[5] === undefined ? integer : `${integer}.${grouped[5]}`)];
  }
  return [];
}

/**
 * The numbers a printed amount can mean, or [] when it is not one. Currency marks, a sign or
 * accounting parentheses, and a percent sign are allowed around the numeral; a percentage means
 * both its number and its fraction ("20%" → 20 and 0.2). A negative amount also matches its
 * magnitude (models often drop the sign of "(1,250.00)").
 */
export function numberValues(text: string): number[] {
  let t = normalizeText(text).replace(/[\u00a0\u202f]/g, ' ');
  t = t.replace(/[;:,.]+$/, '');
  let negative = false;
  if (t.startsWith('(') && t.endsWith(')')) {
    negative = true;
    t = t.slice(1, -1).trim();
  }
  t = stripCurrency(t);
  if (/^[-+]/.test(t)) {
    negative = negative || t[0] === '-';
    t = t.slice(1).trim();
  } else if (t.endsWith('-')) {
    negative = true;
    t = t.slice(0, -1).trim();
  }
  t = stripCurrency(t);
  const percent = t.endsWith('%');
  if (percent) t = t.slice(0, -1).trim();
  // OCR reads a space after the decimal point ("RM 39. 80").
  t = t.replace(/^(\d+)\. (\d{2})$/, '$1.$2');
  if (!/^\d/.test(t)) return [];
  const values: number[] = [];
  for (const v of numeralValues(t)) {
    for (const scaled of percent ? [v, v / 100] : [v]) {
      values.push(scaled);
      if (negative && scaled !== 0) values.push(-scaled);
    }
  }
  return values;
}

/** Numbers are compared on a canonical string (six decimals are more than amounts ever carry). */
function numberKey(n: number): string {
  const rounded = Math.round(n * 1e6) / 1e6;
  return String(Object.is(rounded, -0) ? 0 : rounded);
}

/** Month names and abbreviations in the engine's languages → month number (./knowledge/months.ts). */
const MONTHS = MONTH_NUMBERS;
/** Month abbreviations that are common English words ("set", "out", "ago"): they start no date run. */
const ENGLISH_WORDS = new Set(['set', 'out', 'ago']);
const WEEKDAYS = new Set('mon monday tue tues tuesday wed wednesday thu thur thurs thursday fri friday sat saturday sun sunday'.split(' '));

function dateKey(y: number, m: number, d: number): string | undefined {
  if (m < 1 || m > 12 || d < 1) return undefined;
  const days = new Date(Date.UTC(y, m, 0)).getUTCDate();
  if (d > days) return undefined;
  return `${String(y).padStart(4, '0')}-${String(m).padStart(2, '0')}-${String(d).padStart(2, '0')}`;
}

/** Two-digit years: 00–69 are 2000s, 70–99 the 1900s. */
function fullYear(y: string): number {
  const n = Number(y);
  return y.length === 2 ? (n < 70 ? 2000 + n : 1900 + n) : n;
}

export interface DateReading {
  /** The dates it can be, as `YYYY-MM-DD`. */
  keys: string[];
  /** Whether it could be two different dates (03/05/2024: US or European order). */
  ambiguous: boolean;
}

/** The dates a printed text can be (the whole text must be the date), or undefined. */
export function dateValues(text: string): DateReading | undefined {
  const t = normalizeText(text).replace(/[;:,.]+$/, '');
  const iso = /^(\d{4})[-/.](\d{1,2})[-/.](\d{1,2})(?:t[\d:.]+(?:z|[+-][\d:]+)?)?$/.exec(t);
  if (iso) {
    const key = dateKey(Number(iso[1]), Number(iso[2]), Number(iso[3]));
    return key ? { keys: [key], ambiguous: false } : undefined;
  }
  const numeric = /^(\d{1,2})([-/.])(\d{1,2})\2(\d{4}|\d{2})$/.exec(t);
  if (!numeric && !/[a-z]/.test(t)) return undefined;
  if (numeric) {
    const a = Number(numeric[1]);
    const b = Number(numeric[3]);
    const y = fullYear(numeric[4]!);
    const keys = [...new Set([dateKey(y, b, a), dateKey(y, a, b)].filter((k): k is string => k !== undefined))];
    return keys.length > 0 ? { keys, ambiguous: keys.length > 1 } : undefined;
  }
  // Month names: "March 5, 2024", "5 Mar 2024", "5th of March 2024", "Tue, 5 March 2024", "05-MAR-24".
  const parts = t
    .split(/[\s,./-]+/)
    .filter((p) => p !== '' && p !== 'of' && p !== 'de' && !WEEKDAYS.has(p))
    .map((p) => p.replace(/^(\d{1,2})(?:st|nd|rd|th|er)$/, '$1'));
  if (parts.length !== 3) return undefined;
  const [p0, p1, p2] = parts as [string, string, string];
  const day = (p: string) => (/^\d{1,2}$/.test(p) ? Number(p) : undefined);
  const year = (p: string) => (/^(\d{4}|\d{2})$/.test(p) ? fullYear(p) : undefined);
  let key: string | undefined;
  const month = (p: string) => MONTHS.get(p);
  if (month(p0) && day(p1) && year(p2)) key = dateKey(year(p2)!, month(p0)!, day(p1)!);
  else if (day(p0) && month(p1) && year(p2)) key = dateKey(year(p2)!, month(p1)!, day(p0)!);
  else if (/^\d{4}$/.test(p0) && month(p1) && day(p2)) key = dateKey(Number(p0), month(p1)!, day(p2)!);
  return key ? { keys: [key], ambiguous: false } : undefined;
}

/** Checkbox marks and yes/no words, by what they say. */
const TRUE_MARKS = new Set(['☑', '☒', '✓', '✔', '✅', '⊠', '■', '[x]', '(x)', 'yes', 'y', 'true']);
const FALSE_MARKS = new Set(['☐', '□', '▢', '[]', '[ ]', '()', 'no', 'n', 'false']);

function markValue(text: string): boolean | undefined {
  // The raw text only: "No." and "No:" are "number", not a no.
  const t = text.trim().toLowerCase();
  if (TRUE_MARKS.has(t)) return true;
  if (FALSE_MARKS.has(t)) return false;
  return undefined;
}

// =============================================================================================
// The index

/**
 * A word of the Doc, or part of one: a word that glues a label to its value ("Date:05/03/2024")
 * is split after the colon, so the value alone can be the content. The index keeps pieces as
 * parallel arrays (documents have up to a million words: no object each); `DocIndex.piece` gives
 * one as an object where speed does not matter.
 */
interface Piece {
  text: string;
  key: string;
  /** Index into `doc.pages`, and the word in `page.words`. */
  page: number;
  word: number;
  /** The piece's code points within the word, and the word's length in code points. */
  from: number;
  to: number;
  size: number;
  /** Index into `page.lines` (-1: in no line) and the word's position in that line. */
  line: number;
  linePosition: number;
  /** The table and the index in `table.cells` (-1: not in a table). */
  table: number;
  cell: number;
  /** Consecutive pieces a value may run over: one table cell, one block, or one loose line. */
  stream: number;
}

interface Spot {
  start: number;
  /** Exclusive. */
  end: number;
}

interface ValueSpot extends Spot {
  ambiguous: boolean;
}

interface TableGrid {
  /** Row → the cells covering it, left to right. */
  rows: Map<number, number[]>;
  /** Column → the header cells over it. */
  headers: Map<number, number[]>;
  /** The header rows; a table without detected ones has its first row taken as a weak header. */
  headerRows: number;
}

/** Runs of up to this many pieces are read as one amount or date ("1 250,00 €", "Tue, 5 March 2024"). */
const MAX_VALUE_RUN = 4;

/**
 * The Doc read once for locating: its pieces in reading order (parallel arrays by piece number; a
 * stream's pieces are consecutive), normalized keys → pieces, and, built on first use, amounts and
 * dates by value, checkbox marks, and label stems.
 */
class DocIndex {
  count = 0;
  readonly text: string[] = [];
  readonly key: string[] = [];
  readonly page: Int32Array;
  readonly word: Int32Array;
  readonly from: Int32Array;
  readonly to: Int32Array;
  readonly size: Int32Array;
  readonly line: Int32Array;
  readonly linePosition: Int32Array;
  readonly table: Int32Array;
  readonly cell: Int32Array;
  readonly stream: Int32Array;
  private streamCount = 0;

  /** Per page, per line: the line's pieces in order. */
  readonly linePieces: number[][][] = [];
  /** Normalized key → pieces with exactly that key. */
  readonly byKey = new Map<string, number[]>();
  /** Distinct keys by length, for fuzzy look-ups (built on first use). */
  private keysByLength?: Map<number, string[]>;
  private numbers?: Map<string, ValueSpot[]>;
  private dates?: Map<string, ValueSpot[]>;
  private marks?: Array<Spot & { value: boolean }>;
  private readonly stems: (string[] | undefined)[] = [];
  private readonly cellStems = new Map<string, string[]>();
  private readonly fuzzyCache = new Map<string, string[]>();
  private readonly grids = new Map<string, TableGrid>();

  constructor(readonly doc: Doc) {
    // At most two pieces a word, and only words with a colon are split.
    let capacity = 0;
    for (const page of doc.pages) for (const word of page.words) capacity += word.text.includes(':') ? 2 : 1;
    this.page = new Int32Array(capacity);
    this.word = new Int32Array(capacity);
    this.from = new Int32Array(capacity);
    this.to = new Int32Array(capacity);
    this.size = new Int32Array(capacity);
    this.line = new Int32Array(capacity);
    this.linePosition = new Int32Array(capacity);
    this.table = new Int32Array(capacity);
    this.cell = new Int32Array(capacity);
    this.stream = new Int32Array(capacity);
    doc.pages.forEach((page, p) => this.addPage(page, p));
  }

  piece(i: number): Piece {
    return {
      text: this.text[i]!,
      key: this.key[i]!,
      page: this.page[i]!,
      word: this.word[i]!,
      from: this.from[i]!,
      to: this.to[i]!,
      size: this.size[i]!,
      line: this.line[i]!,
      linePosition: this.linePosition[i]!,
      table: this.table[i]!,
      cell: this.cell[i]!,
      stream: this.stream[i]!,
    };
  }

  private addPiece(text: string, from: number, to: number, size: number, p: number, w: number, line: number, linePosition: number, table: number, cell: number): void {
    const i = this.count++;
    const key = keyOf(text);
    this.text.push(text);
    this.key.push(key);
    this.page[i] = p;
    this.word[i] = w;
    this.from[i] = from;
    this.to[i] = to;
    this.size[i] = size;
    this.line[i] = line;
    this.linePosition[i] = linePosition;
    this.table[i] = table;
    this.cell[i] = cell;
    this.stream[i] = this.streamCount;
    if (line >= 0) this.linePieces[p]![line]!.push(i);
    if (key !== '') {
      const list = this.byKey.get(key);
      if (list) list.push(i);
      else this.byKey.set(key, [i]);
    }
  }

  private addPage(page: Page, p: number): void {
    const n = page.words.length;
    const wordLine = new Int32Array(n).fill(-1);
    const wordLinePosition = new Int32Array(n);
    page.lines.forEach((line, l) =>
      line.words.forEach((w, position) => {
        if (w < n && wordLine[w] === -1) {
          wordLine[w] = l;
          wordLinePosition[w] = position;
        }
      }),
    );
    const wordTable = new Int32Array(n).fill(-1);
    const wordCell = new Int32Array(n).fill(-1);
    page.tables.forEach((table, t) =>
      table.cells.forEach((cell, c) => {
        for (const w of cell.words) {
          if (w < n && wordTable[w] === -1) {
            wordTable[w] = t;
            wordCell[w] = c;
          }
        }
      }),
    );
    this.linePieces[p] = page.lines.map(() => []);

    const taken = new Uint8Array(n);
    /** Adds word `w` to the current stream, unless taken (or, unless `cells`, a table's word). */
    const add = (w: number, cells: boolean) => {
      const word = page.words[w];
      if (!word || taken[w] || (!cells && wordTable[w] !== -1)) return;
      taken[w] = 1;
      for (const part of splitWord(word.text)) {
        this.addPiece(part.text, part.from, part.to, part.size, p, w, wordLine[w]!, wordLinePosition[w]!, wordTable[w]!, wordCell[w]!);
      }
    };
    /** Ends the current stream (a new one starts with the next piece). */
    const end = (streamStart: number) => {
      if (this.count > streamStart) this.streamCount++;
    };
    const tableDone = new Set<number>();
    const addTable = (t: number) => {
      if (tableDone.has(t) || !page.tables[t]) return;
      tableDone.add(t);
      for (const cell of page.tables[t]!.cells) {
        const start = this.count;
        for (const w of cell.words) add(w, true);
        end(start);
      }
    };
    const addLines = (lines: number[]) => {
      const start = this.count;
      for (const l of lines) for (const w of page.lines[l]?.words ?? []) add(w, false);
      end(start);
    };
    // Reading order: blocks in order, a table block's cells at its place; then whatever no block
    // holds (tables, lines, loose words).
    for (const block of page.blocks) {
      if (block.table !== undefined) addTable(block.table);
      if (block.kind === 'table') for (const l of block.lines) addLines([l]);
      else addLines(block.lines);
    }
    page.tables.forEach((_, t) => addTable(t));
    page.lines.forEach((_, l) => addLines([l]));
    const start = this.count;
    for (let w = 0; w < n; w++) add(w, true);
    end(start);
    // Line pieces in line order (streams may have visited a line's words out of order).
    for (const list of this.linePieces[p]!) list.sort((a, b) => this.linePosition[a]! - this.linePosition[b]! || a - b);
  }

  /** The label stems of a piece (computed on demand: only pieces near candidates are ever read). */
  stemsOf(piece: number): string[] {
    let stems = this.stems[piece];
    if (!stems) {
      stems = stemsOfText(this.text[piece]!);
      this.stems[piece] = stems;
    }
    return stems;
  }

  stemsOfCell(page: number, table: number, cell: number): string[] {
    const id = `${page}:${table}:${cell}`;
    let stems = this.cellStems.get(id);
    if (!stems) {
      stems = stemsOfText(this.doc.pages[page]!.tables[table]!.cells[cell]!.text);
      this.cellStems.set(id, stems);
    }
    return stems;
  }

  /** A table's cells by the rows they cover and its header cells by the columns they cover. */
  grid(page: number, t: number): TableGrid {
    const id = `${page}:${t}`;
    let grid = this.grids.get(id);
    if (!grid) {
      const table = this.doc.pages[page]!.tables[t]!;
      grid = { rows: new Map(), headers: new Map(), headerRows: table.headerRows > 0 ? table.headerRows : 1 };
      const add = (map: Map<number, number[]>, at: number, cell: number) => {
        const list = map.get(at);
        if (list) list.push(cell);
        else map.set(at, [cell]);
      };
      table.cells.forEach((cell, c) => {
        for (let r = cell.row; r < cell.row + Math.max(1, cell.rowSpan); r++) add(grid!.rows, r, c);
        if (cell.row < grid!.headerRows) for (let k = cell.column; k < cell.column + Math.max(1, cell.columnSpan); k++) add(grid!.headers, k, c);
      });
      for (const list of grid.rows.values()) list.sort((a, b) => table.cells[a]!.column - table.cells[b]!.column);
      this.grids.set(id, grid);
    }
    return grid;
  }

  /** Pieces a..b-1 as printed: pieces of one word joined as they are, words by a space. */
  printed(a: number, b: number): string {
    let text = this.text[a]!;
    for (let i = a + 1; i < b; i++) text += this.word[i - 1] === this.word[i] && this.page[i - 1] === this.page[i] ? this.text[i]! : ` ${this.text[i]!}`;
    return text;
  }

  /** Every run of up to MAX_VALUE_RUN pieces of one line read as amounts and as dates (built on first use). */
  private buildValues(): void {
    const numbers = new Map<string, ValueSpot[]>();
    const dates = new Map<string, ValueSpot[]>();
    const add = (map: Map<string, ValueSpot[]>, key: string, spot: ValueSpot) => {
      const list = map.get(key);
      if (list) list.push(spot);
      else map.set(key, [spot]);
    };
    // What each piece can be part of: amounts are made of digits, currency marks and codes, signs
    // and percent signs; dates of digits, month and weekday names and "of". Most words are neither,
    // so most runs end (or never start) at once.
    const AMOUNT = 1;
    const DATE = 2;
    const DIGIT = 4;
    const classOf = (text: string): number => {
      if (/\d/.test(text)) return AMOUNT | DATE | DIGIT;
      const word = (ASCII.test(text) ? text : text.normalize('NFKD').replace(/\p{M}/gu, '')).toLowerCase().replace(/[^a-z]/g, '');
      if (/^[-+(]?[$€£¥₹₽₩₺₪฿¢₫₴₦%)-]+$/.test(text) || (CURRENCY_CODES.has(word) && word.length === text.replace(/[^A-Za-z]/g, '').length)) return AMOUNT;
      if ((MONTHS.has(word) && !ENGLISH_WORDS.has(word)) || WEEKDAYS.has(word) || word === 'of' || word === 'de') return DATE;
      return 0;
    };
    // Printed amounts and dates repeat (dates on every page, small quantities): each is read once.
    const amounts = new Map<string, string[]>();
    const amountKeys = (text: string): string[] => {
      let keys = amounts.get(text);
      if (!keys) {
        keys = [...new Set(numberValues(text).map(numberKey))];
        amounts.set(text, keys);
      }
      return keys;
    };
    const readings = new Map<string, DateReading | null>();
    const readDate = (text: string): DateReading | undefined => {
      let reading = readings.get(text);
      if (reading === undefined) {
        reading = dateValues(text) ?? null;
        readings.set(text, reading);
      }
      return reading ?? undefined;
    };
    // Texts repeat (prose), so each distinct text is classified once.
    const known = new Map<string, number>();
    const classes = new Uint8Array(this.count);
    for (let i = 0; i < this.count; i++) {
      const text = this.text[i]!;
      let kind = known.get(text);
      if (kind === undefined) {
        kind = classOf(text);
        known.set(text, kind);
      }
      classes[i] = kind;
    }
    for (let start = 0; start < this.count; start++) {
      let kinds = classes[start]!;
      if (kinds === 0) continue;
      let digits = false;
      for (let end = start + 1; end <= Math.min(this.count, start + MAX_VALUE_RUN); end++) {
        const last = end - 1;
        if (this.stream[last] !== this.stream[start] || this.line[last] !== this.line[start]) break;
        kinds &= classes[last]! | DIGIT;
        if ((kinds & (AMOUNT | DATE)) === 0) break;
        digits ||= (classes[last]! & DIGIT) !== 0;
        if (!digits) continue;
        const text = this.printed(start, end);
        if (kinds & AMOUNT) for (const v of amountKeys(text)) add(numbers, v, { start, end, ambiguous: false });
        const date = kinds & DATE ? readDate(text) : undefined;
        if (date) for (const key of date.keys) add(dates, key, { start, end, ambiguous: date.ambiguous });
      }
    }
    this.numbers = numbers;
    this.dates = dates;
  }

  numberSpots(key: string): ValueSpot[] {
    if (!this.numbers) this.buildValues();
    return this.numbers!.get(key) ?? [];
  }

  dateSpots(key: string): ValueSpot[] {
    if (!this.dates) this.buildValues();
    return this.dates!.get(key) ?? [];
  }

  /** Checkbox marks and yes/no words ("[ ]" may be printed as two pieces). */
  markSpots(): Array<Spot & { value: boolean }> {
    if (!this.marks) {
      const marks: Array<Spot & { value: boolean }> = [];
      for (let i = 0; i < this.count; i++) {
        const value = markValue(this.text[i]!);
        if (value !== undefined) marks.push({ start: i, end: i + 1, value });
        if (this.text[i] === '[' && this.text[i + 1] === ']' && this.stream[i + 1] === this.stream[i]) marks.push({ start: i, end: i + 2, value: false });
      }
      this.marks = marks;
    }
    return this.marks;
  }

  /** Distinct keys of the Doc within `max` edits of `word` (memoized: array items repeat words). */
  similarKeys(word: string, max: number): string[] {
    const id = `${max}:${word}`;
    let keys = this.fuzzyCache.get(id);
    if (!keys) {
      if (!this.keysByLength) {
        this.keysByLength = new Map();
        for (const key of this.byKey.keys()) {
          const list = this.keysByLength.get(key.length);
          if (list) list.push(key);
          else this.keysByLength.set(key.length, [key]);
        }
      }
      keys = [];
      for (let length = word.length - max; length <= word.length + max; length++) {
        for (const key of this.keysByLength.get(length) ?? []) if (editDistance(word, key, max) <= max) keys.push(key);
      }
      this.fuzzyCache.set(id, keys);
    }
    return keys;
  }
}

/** A word's pieces: the word itself, or a label glued to its value split after the colon. */
function splitWord(text: string): Array<{ text: string; from: number; to: number; size: number }> {
  const size = codePoints(text);
  if (!text.includes(':')) return [{ text, from: 0, to: size, size }];
  const glued = /^([^:]*\p{L}[^:]*:)([^:].*)$/u.exec(text);
  if (!glued || /^\p{L}+:\/\//u.test(text)) return [{ text, from: 0, to: size, size }];
  const cut = codePoints(glued[1]!);
  return [
    { text: glued[1]!, from: 0, to: cut, size },
    { text: glued[2]!, from: cut, to: size, size },
  ];
}

const indexes = new WeakMap<Doc, DocIndex>();

/** The Doc's index, built once per Doc (Docs are not changed after reading). */
function indexOf(doc: Doc): DocIndex {
  let index = indexes.get(doc);
  if (!index) {
    index = new DocIndex(doc);
    indexes.set(doc, index);
  }
  return index;
}

/** Rows of the edit-distance table, reused (grown as needed) so look-ups allocate nothing. */
let rowA = new Int32Array(64);
let rowB = new Int32Array(64);

/** Levenshtein distance, or max + 1 as soon as it must exceed `max`. */
export function editDistance(a: string, b: string, max: number): number {
  if (Math.abs(a.length - b.length) > max) return max + 1;
  if (a === b) return 0;
  if (rowA.length <= b.length) {
    rowA = new Int32Array(b.length * 2 + 1);
    rowB = new Int32Array(b.length * 2 + 1);
  }
  let previous = rowA;
  let current = rowB;
  for (let j = 0; j <= b.length; j++) previous[j] = j;
  for (let i = 1; i <= a.length; i++) {
    current[0] = i;
    let rowMin = i;
    for (let j = 1; j <= b.length; j++) {
      const cost = a.charCodeAt(i - 1) === b.charCodeAt(j - 1) ? 0 : 1;
      const value = Math.min(previous[j]! + 1, current[j - 1]! + 1, previous[j - 1]! + cost);
      current[j] = value;
      if (value < rowMin) rowMin = value;
    }
    if (rowMin > max) return max + 1;
    [previous, current] = [current, previous];
  }
  return previous[b.length]!;
}

// =============================================================================================
// Labels

const stemsCache = new Map<string, string[]>();

/** Stems of a text's words ("Invoice Date:" → invoic, date), for comparing labels. */
function stemsOfText(text: string): string[] {
  let stems = stemsCache.get(text);
  if (!stems) {
    stems = [];
    for (const match of normalizeText(text).matchAll(/[\p{L}\p{N}]+/gu)) stems.push(stemOf(match[0]));
    if (stemsCache.size >= KEY_CACHE_LIMIT) stemsCache.clear();
    stemsCache.set(text, stems);
  }
  return stems;
}

/** How documents abbreviate common field words ("Invoice No.", "Qty"). */
const SYNONYMS = new Map<string, string[]>([
  ['number', ['no', 'num', 'nr', 'nbr']],
  ['no', ['number', 'num', 'nr']],
  ['quantity', ['qty']],
  ['amount', ['amt']],
  ['description', ['desc']],
  ['reference', ['ref']],
  ['telephone', ['tel', 'phone']],
  ['phone', ['tel', 'telephone']],
  ['address', ['addr']],
  ['identifier', ['id']],
  ['percentage', ['percent', 'pct']],
  ['total', ['sum']],
]);

/** A label word: its stem and the stems of its abbreviations; found when any of them is. */
type Term = string[];

/** Words of a field name: snake_case, kebab-case, camelCase and digits split ("invoiceDate2" → invoice, date). */
function nameWords(name: string): string[] {
  return name
    .replace(/([\p{Ll}\d])(\p{Lu})/gu, '$1 $2')
    .replace(/(\p{Lu})(\p{Lu}\p{Ll})/gu, '$1 $2')
    .split(/[^\p{L}\p{N}]+/u)
    .filter(Boolean);
}

/**
 * Words a field name may carry that no label prints ("is_paid", "has_discount"). Field names keep
 * other short words ("invoice_no"); titles and descriptions drop all stop words.
 */
const NAME_STOP_WORDS = new Set(['is', 'has', 'the', 'of', 'a', 'an', 'in', 'on', 'at', 'to', 'for', 'and', 'or', 'by']);

function termsOf(words: string[], stop: ReadonlySet<string>, limit = 12): Term[] {
  const terms: Term[] = [];
  const seen = new Set<string>();
  for (const word of words) {
    const lower = normalizeText(word);
    if (lower.length < 2 || stop.has(lower)) continue;
    const stem = stemOf(lower);
    if (seen.has(stem)) continue;
    seen.add(stem);
    terms.push([stem, ...(SYNONYMS.get(lower) ?? []).map((s) => stemOf(s))]);
    if (terms.length >= limit) break;
  }
  return terms;
}

/** What a leaf's label may say: its key, its schema title and description, its parents' keys. */
interface Label {
  key: Term[];
  title: Term[];
  description: Term[];
  parents: Term[];
}

/** How much each part of the label counts (the key is what documents print most). */
const LABEL_WEIGHTS = { key: 1, title: 0.6, description: 0.4, parents: 0.3 } as const;

function labelOf(path: readonly (string | number)[], schema: SchemaNode | undefined): Label {
  const keys = path.filter((p): p is string => typeof p === 'string');
  const leaf = keys.at(-1);
  return {
    key: termsOf(leaf === undefined ? [] : nameWords(leaf), NAME_STOP_WORDS),
    title: termsOf(typeof schema?.title === 'string' ? nameWords(schema.title) : [], STOP_WORDS),
    description: termsOf(typeof schema?.description === 'string' ? nameWords(schema.description) : [], STOP_WORDS),
    parents: termsOf(keys.slice(0, -1).flatMap(nameWords), NAME_STOP_WORDS),
  };
}

/** Where label words were seen around a candidate: stem → the best weight of its places. */
type Places = Map<string, number>;

/** Weights of the places a label can be, relative to the value. */
const PLACE = {
  /** On the value's line, just before it ("Total: 1,250.00"). */
  justBefore: 1,
  /** Earlier on the value's line. */
  before: 0.8,
  /** After the value on its line ("1,250.00 total"). */
  after: 0.7,
  /** The cell to the value's left in its row (key–value tables). */
  leftCell: 1,
  /** Other cells to its left. */
  rowCell: 0.8,
  /** The table's header cell of the value's column. */
  header: 0.9,
  /** The first row of a table without detected header rows. */
  firstRow: 0.7,
  /** The line above (labels set over their values in forms). */
  above: 0.6,
} as const;

/** Pieces this close before a value count as "just before" (labels sit next to their values). */
const NEAR = 4;

function labelScore(label: Label, places: Places): number {
  const part = (terms: Term[]) => {
    if (terms.length === 0) return 0;
    let sum = 0;
    for (const term of terms) {
      let best = 0;
      for (const stem of term) best = Math.max(best, places.get(stem) ?? 0);
      sum += best;
    }
    return sum / terms.length;
  };
  return (
    LABEL_WEIGHTS.key * part(label.key) +
    LABEL_WEIGHTS.title * part(label.title) +
    LABEL_WEIGHTS.description * part(label.description) +
    LABEL_WEIGHTS.parents * part(label.parents)
  );
}

// =============================================================================================
// Candidates

interface Candidate extends Spot {
  /** How well the text matches the value, a small tie-breaker next to the label (0..0.3). */
  quality: number;
  /** Label score plus quality, set when scored. */
  score: number;
  /**
   * Punctuation the document prints around a text value but the value does not have ("Oakland,"
   * for "Oakland"): code points left out of the content at the first piece's start and the last
   * piece's end.
   */
  trimStart: number;
  trimEnd: number;
}

/** A fuzzy match may differ from the value by this share of its characters. */
const FUZZY_RATIO = 0.15;
/** Values shorter than this (in key characters) must match exactly. */
const FUZZY_MIN = 6;
/** Longer values are matched exactly only (fuzzy matching cost grows with the square of the length). */
const FUZZY_MAX = 200;
/** A value may run over at most this many pieces. */
const MAX_RUN = 80;

const QUALITY = {
  /** Printed exactly as the model wrote it. */
  verbatim: 0.3,
  /** The same text once normalized, or the same number or date. */
  equal: 0.2,
  /** A date that could also be another date. */
  ambiguous: 0.15,
  /** A fuzzy match at distance 0.15 gets 0.2 × 0.85. */
  fuzzy: 0.2,
  /** Taken off a match that runs across a line break. */
  lineBreak: 0.05,
} as const;

/** Items of an array keep to their row: a candidate in the item's row gets this much more. */
const ROW_BONUS = 2;
/** An occurrence an earlier item of the same array already took gets this much less. */
const REUSE_PENALTY = 0.5;

type SchemaNode = Record<string, unknown>;

/** Sets an own property, even one named "__proto__" (output keys are the model's: any string). */
function put<T>(target: Record<string, T>, key: string, value: T): void {
  Object.defineProperty(target, key, { value, writable: true, enumerable: true, configurable: true });
}

const isObject = (value: unknown): value is Record<string, unknown> => typeof value === 'object' && value !== null && !Array.isArray(value);

/** A leaf waiting for its Found: its candidates, and where its result goes. */
interface Leaf {
  candidates: Candidate[];
  set: (found: Found | null) => void;
}

/** State shared by the items of one array: rows and occurrences earlier items took. */
interface ArrayState {
  usedRows: Set<string>;
  usedSpots: Set<string>;
  lastRowOrder: number;
}

class Locator {
  constructor(
    private readonly ix: DocIndex,
    private readonly root: SchemaNode | undefined,
  ) {}

  /** The Found tree of any node of the output. */
  node(value: unknown, schema: SchemaNode | undefined, path: (string | number)[]): Tree<Found | null> {
    if (Array.isArray(value)) return this.array(value, schema, path);
    if (isObject(value)) {
      const result: { [key: string]: Tree<Found | null> } = {};
      for (const [key, child] of Object.entries(value)) put(result, key, this.node(child, this.property(schema, key), [...path, key]));
      return result;
    }
    const candidates = this.candidates(value, schema, path);
    return candidates ? this.best(candidates) : null;
  }

  private array(items: unknown[], schema: SchemaNode | undefined, path: (string | number)[]): Tree<Found | null>[] {
    const state: ArrayState = { usedRows: new Set(), usedSpots: new Set(), lastRowOrder: -1 };
    return items.map((item, i) => {
      const itemSchema = this.item(schema, i, item);
      if (isObject(item)) return this.arrayObject(item, itemSchema, [...path, i], state);
      if (Array.isArray(item)) return this.node(item, itemSchema, [...path, i]);
      const candidates = this.candidates(item, itemSchema, [...path, i]);
      return candidates ? this.best(candidates, undefined, state) : null;
    });
  }

  /**
   * An item of an array of objects: its leaves (nested objects included; nested arrays are items of
   * their own) are located together, preferring the row where most of them are found.
   */
  private arrayObject(item: Record<string, unknown>, schema: SchemaNode | undefined, path: (string | number)[], state: ArrayState): Tree<Found | null> {
    const leaves: Leaf[] = [];
    const collect = (value: Record<string, unknown>, node: SchemaNode | undefined, at: (string | number)[]) => {
      const result: { [key: string]: Tree<Found | null> } = {};
      for (const [key, child] of Object.entries(value)) {
        const childSchema = this.property(node, key);
        if (isObject(child)) put(result, key, collect(child, childSchema, [...at, key]));
        else if (Array.isArray(child)) put(result, key, this.node(child, childSchema, [...at, key]));
        else {
          put(result, key, null);
          const candidates = this.candidates(child, childSchema, [...at, key]);
          if (candidates) leaves.push({ candidates, set: (found) => put(result, key, found) });
        }
      }
      return result;
    };
    const tree = collect(item, schema, path);

    // Votes: each leaf counts once for every row it occurs in.
    const votes = new Map<string, { count: number; order: number }>();
    for (const leaf of leaves) {
      const seen = new Set<string>();
      for (const c of leaf.candidates) {
        const row = this.rowOf(c);
        if (seen.has(row)) continue;
        seen.add(row);
        const vote = votes.get(row);
        if (vote) {
          vote.count++;
          vote.order = Math.min(vote.order, c.start);
        } else votes.set(row, { count: 1, order: c.start });
      }
    }
    const located = leaves.filter((l) => l.candidates.length > 0).length;
    let chosen: string | undefined;
    let best: { count: number; order: number } | undefined;
    for (const [row, vote] of votes) {
      if (!best || this.betterRow(row, vote, chosen!, best, state)) {
        chosen = row;
        best = vote;
      }
    }
    // One value alone says nothing about the row unless it is all the item has.
    if (best && (best.count >= 2 || located === 1)) {
      state.usedRows.add(chosen!);
      state.lastRowOrder = best.order;
    } else chosen = undefined;

    for (const leaf of leaves) leaf.set(this.best(leaf.candidates, chosen, state));
    return tree;
  }

  /** Rows with more of the item's values first; then rows no earlier item took; then the next row down. */
  private betterRow(row: string, vote: { count: number; order: number }, bestRow: string, best: { count: number; order: number }, state: ArrayState): boolean {
    if (vote.count !== best.count) return vote.count > best.count;
    const fresh = !state.usedRows.has(row);
    const bestFresh = !state.usedRows.has(bestRow);
    if (fresh !== bestFresh) return fresh;
    const after = vote.order > state.lastRowOrder;
    const bestAfter = best.order > state.lastRowOrder;
    if (after !== bestAfter) return after;
    return vote.order < best.order;
  }

  /** A table row, or a line outside tables: what one array item is expected to keep to. */
  private rowOf(c: Spot): string {
    const piece = this.ix.piece(c.start);
    if (piece.table >= 0) {
      const cell = this.ix.doc.pages[piece.page]!.tables[piece.table]!.cells[piece.cell]!;
      return `t${piece.page}:${piece.table}:${cell.row}`;
    }
    return piece.line >= 0 ? `l${piece.page}:${piece.line}` : `s${piece.stream}`;
  }

  /** The best candidate as a Found (ties: first in reading order), or null. */
  private best(candidates: Candidate[], row?: string, state?: ArrayState): Found | null {
    let best: Candidate | undefined;
    let bestScore = -Infinity;
    for (const c of candidates) {
      let score = c.score;
      if (row !== undefined && this.rowOf(c) === row) score += ROW_BONUS;
      if (state?.usedSpots.has(`${c.start}:${c.end}`)) score -= REUSE_PENALTY;
      if (score > bestScore || (score === bestScore && best && c.start < best.start)) {
        best = c;
        bestScore = score;
      }
    }
    if (!best) return null;
    state?.usedSpots.add(`${best.start}:${best.end}`);
    return this.found(best);
  }

  /** A scalar leaf's scored candidates, or undefined for null, empty and non-scalar leaves. */
  private candidates(value: unknown, schema: SchemaNode | undefined, path: (string | number)[]): Candidate[] | undefined {
    if (typeof value === 'string' && value.trim() === '') return undefined;
    if (typeof value === 'number' && !Number.isFinite(value)) return undefined;
    const label = labelOf(path, this.branch(schema, 'scalar'));
    if (typeof value === 'boolean') return this.booleanCandidates(value, label);
    if (typeof value !== 'string' && typeof value !== 'number') return undefined;
    const candidates = this.valueCandidates(value);
    for (const c of candidates) c.score = c.quality + labelScore(label, this.places(c));
    return candidates;
  }

  // -------------------------------------------------------------------------------------------
  // Schema walking

  /** Follows local `$ref`s (`#/$defs/...`, `#/definitions/...`, any JSON pointer into the root). */
  private resolve(node: unknown): SchemaNode | undefined {
    let current = isObject(node) ? node : undefined;
    for (let depth = 0; current && typeof current.$ref === 'string' && depth < 16; depth++) {
      const ref = current.$ref;
      if (!ref.startsWith('#')) return current;
      let target: unknown = this.root;
      for (const part of ref.slice(1).split('/').filter(Boolean)) {
        const name = part.replace(/~1/g, '/').replace(/~0/g, '~');
        target = isObject(target) && Object.hasOwn(target, name) ? target[name] : undefined;
      }
      if (!isObject(target)) return current;
      // The referring node's own title/description describe this use of the definition.
      const { $ref: _, ...own } = current;
      current = { ...target, ...own };
    }
    return current;
  }

  /** The branch of an `anyOf`/`oneOf` (nullable fields) that fits a value of this shape. */
  private branch(node: SchemaNode | undefined, shape: 'object' | 'array' | 'scalar'): SchemaNode | undefined {
    const resolved = this.resolve(node);
    if (!resolved) return undefined;
    const options = [resolved.anyOf, resolved.oneOf].find(Array.isArray) as unknown[] | undefined;
    const merged = Array.isArray(resolved.allOf)
      ? (resolved.allOf as unknown[]).map((s) => this.resolve(s)).reduce<SchemaNode>((acc, s) => mergeSchemas(acc, s), resolved)
      : resolved;
    if (!options) return merged;
    const fits = (s: SchemaNode | undefined) => {
      if (!s || s.type === 'null') return false;
      if (shape === 'object') return isObject(s.properties) || s.type === 'object';
      if (shape === 'array') return s.items !== undefined || s.type === 'array';
      return !isObject(s.properties) && s.items === undefined;
    };
    const chosen = options.map((o) => this.branch(o as SchemaNode, shape)).find(fits);
    return chosen ? { ...chosen, ...describing(merged) } : merged;
  }

  private property(schema: SchemaNode | undefined, key: string): SchemaNode | undefined {
    const node = this.branch(schema, 'object');
    const properties = node?.properties;
    if (isObject(properties) && Object.hasOwn(properties, key)) return this.resolve(properties[key]);
    if (isObject(node?.additionalProperties)) return this.resolve(node.additionalProperties);
    return undefined;
  }

  private item(schema: SchemaNode | undefined, index: number, value: unknown): SchemaNode | undefined {
    const node = this.branch(schema, 'array');
    const prefix = node?.prefixItems;
    const raw = Array.isArray(prefix) && index < prefix.length ? prefix[index] : node?.items;
    const shape = isObject(value) ? 'object' : Array.isArray(value) ? 'array' : 'scalar';
    return this.branch(this.resolve(raw), shape);
  }

  // -------------------------------------------------------------------------------------------
  // Finding values

  /** Where a string or number occurs: by text (exact, else fuzzy) and by number and date value. */
  private valueCandidates(value: string | number): Candidate[] {
    const spots: Candidate[] = [];
    if (typeof value === 'number') {
      const key = numberKey(value);
      for (const s of this.ix.numberSpots(key)) spots.push(candidate(s, QUALITY.equal));
      return minimal(spots);
    }
    const text = value.trim();
    const key = keyOf(text);
    if (key === '') return [];
    spots.push(...this.exactText(key, text));
    for (const n of new Set(numberValues(text).map(numberKey))) for (const s of this.ix.numberSpots(n)) spots.push(candidate(s, QUALITY.equal));
    const date = dateValues(text);
    if (date) for (const k of date.keys) for (const s of this.ix.dateSpots(k)) spots.push(candidate(s, s.ambiguous ? QUALITY.ambiguous : QUALITY.equal));
    if (spots.length === 0 && /^[A-Z]{3}$/.test(text)) spots.push(...this.currencyCandidates(text));
    if (spots.length === 0 && key.length >= FUZZY_MIN && key.length <= FUZZY_MAX) spots.push(...this.fuzzyText(key, text));
    return minimal(spots);
  }

  /**
   * A currency answered as its ISO code but printed as a mark or a name ("$", "RM", "Rs.", "€",
   * "US Dollars"): the mark alone where it stands alone, else the amount it is printed against.
   */
  private currencyCandidates(code: string): Candidate[] {
    const ix = this.ix;
    const found: Candidate[] = [];
    for (const printing of printingsOf(code)) {
      const key = keyOf(printing);
      // Words and letter marks ("US Dollars", "RM", "Rs."); a mark with a symbol ("US$") is looked for as printed below.
      if (key !== '' && printing !== code && /^[\p{L}\s.]+$/u.test(printing)) {
        // Letters: the words themselves (short marks only as printed, in their case: "RM", not "rm").
        for (const c of this.exactText(key, printing)) if (printing.length > 3 || ix.printed(c.start, c.end).replace(/[^A-Za-z]/g, '') === printing.replace(/[^A-Za-z]/g, '')) found.push({ ...c, quality: printing.includes(' ') ? QUALITY.verbatim : QUALITY.equal });
      }
      if (key !== '' && printing.length > 3) continue;
      // A symbol or a short mark: alone, against an amount ("$1,250.00", "RM9.00"), or in brackets ("Amount (RM)").
      for (let i = 0; i < ix.count; i++) {
        const text = ix.text[i]!;
        if (text === printing) found.push(candidate({ start: i, end: i + 1 }, QUALITY.equal));
        else if ((text.startsWith(printing) && isDigit(text[printing.length])) || text.includes(`(${printing})`)) found.push(candidate({ start: i, end: i + 1 }, QUALITY.ambiguous));
      }
    }
    return found;
  }

  /** Runs of pieces whose keys, concatenated, are exactly the value's key. */
  private exactText(key: string, text: string): Candidate[] {
    const ix = this.ix;
    const found: Candidate[] = [];
    const printed = text.replace(/\s+/g, ' ');
    // A run starts with a piece whose key is a prefix of the value's key: at most key.length look-ups.
    for (let length = 1; length <= key.length; length++) {
      for (const start of ix.byKey.get(key.slice(0, length)) ?? []) {
        // Extend while the keys so far are a prefix of the value's key (no string building).
        let matched = 0;
        for (let end = start; end < ix.count && end - start < MAX_RUN && ix.stream[end] === ix.stream[start]; end++) {
          const piece = ix.key[end]!;
          if (!key.startsWith(piece, matched)) break;
          matched += piece.length;
          if (matched === key.length) {
            const spot = { start, end: end + 1 };
            const trim = edgeTrim(ix.text[start]!, ix.text[end]!, printed);
            found.push(candidate(spot, ix.printed(start, end + 1) === printed ? QUALITY.verbatim : QUALITY.equal, this.crossesLine(spot), trim));
            break;
          }
        }
      }
    }
    return found;
  }

  /**
   * Runs within FUZZY_RATIO edits of the value's key. Runs are anchored on the value's words: a run
   * with at most `budget` edits leaves at least one of any budget + 1 words intact, so the budget + 1
   * rarest words, looked up exactly, find every such run; each is also looked up fuzzily, for values
   * of few words with a typo in each.
   */
  private fuzzyText(key: string, text: string): Candidate[] {
    const ix = this.ix;
    const budget = Math.floor(FUZZY_RATIO * key.length);
    // The value's words, each with where its key starts in the value's key.
    const words: Array<{ key: string; offset: number }> = [];
    let offset = 0;
    for (const w of normalizeText(text).split(' ')) {
      const k = keyOf(w);
      if (k === '') continue;
      words.push({ key: k, offset });
      offset += k.length;
    }
    const count = (w: string) => ix.byKey.get(w)?.length ?? 0;
    const anchors = [...words].sort((a, b) => count(a.key) - count(b.key)).slice(0, budget + 1);

    const best = new Map<string, { spot: Spot; distance: number }>();
    const tryAround = (anchor: number, offsetInKey: number) => {
      const stream = ix.stream[anchor];
      // Starts: pieces before the anchor whose keys add up to about the anchor word's offset.
      let before = 0;
      for (let start = anchor; start >= 0 && ix.stream[start] === stream && anchor - start < MAX_RUN; start--) {
        if (start < anchor) before += ix.key[start]!.length;
        if (before > offsetInKey + budget) break;
        if (Math.abs(before - offsetInKey) > budget || ix.key[start] === '') continue;
        let joined = '';
        for (let end = start; end < ix.count && ix.stream[end] === stream && end - start < MAX_RUN; end++) {
          joined += ix.key[end]!;
          if (joined.length > key.length + budget) break;
          if (ix.key[end] === '' || end < anchor || joined.length < key.length - budget) continue;
          const limit = Math.floor(FUZZY_RATIO * Math.max(key.length, joined.length));
          const distance = editDistance(key, joined, limit);
          if (distance > limit) continue;
          const id = `${start}:${end + 1}`;
          const seen = best.get(id);
          if (!seen || distance < seen.distance) best.set(id, { spot: { start, end: end + 1 }, distance });
        }
      }
    };
    for (const word of anchors) {
      const keys = new Set([word.key]);
      if (word.key.length >= 4) for (const k of this.ix.similarKeys(word.key, Math.min(budget, Math.max(1, Math.floor(word.key.length / 3))))) keys.add(k);
      for (const k of keys) for (const anchor of this.ix.byKey.get(k) ?? []) tryAround(anchor, word.offset);
    }
    return [...best.values()].map(({ spot, distance }) => {
      const length = Math.max(key.length, this.keyLength(spot));
      const trim = edgeTrim(ix.text[spot.start]!, ix.text[spot.end - 1]!, text);
      return candidate(spot, QUALITY.fuzzy * (1 - distance / length), this.crossesLine(spot), trim);
    });
  }

  private keyLength(spot: Spot): number {
    let n = 0;
    for (let i = spot.start; i < spot.end; i++) n += this.ix.key[i]!.length;
    return n;
  }

  private crossesLine(spot: Spot): boolean {
    return this.ix.line[spot.start] !== this.ix.line[spot.end - 1];
  }

  /**
   * A boolean is backed only by a checkbox or yes/no word saying the same, next to the field's label
   * (a few words away on its line, or the label cell left of it or over its column): a bare "Yes"
   * elsewhere says nothing about this field.
   */
  private booleanCandidates(value: boolean, label: Label): Candidate[] {
    const found: Candidate[] = [];
    for (const mark of this.ix.markSpots()) {
      if (mark.value !== value) continue;
      const places = this.places(mark, true);
      const score = labelScore({ ...label, description: [], parents: [] }, places);
      if (score > 0) found.push({ ...candidate(mark, QUALITY.equal), score: score + QUALITY.equal });
    }
    return found;
  }

  // -------------------------------------------------------------------------------------------
  // Label places

  /**
   * The label stems around a candidate and the weight of where each was seen. `nearOnly`: only the
   * places next to it (a few words on its line, the cell to its left, its column header).
   */
  private places(spot: Spot, nearOnly = false): Places {
    const { ix } = this;
    const places: Places = new Map();
    const see = (stems: string[], weight: number) => {
      for (const stem of stems) if ((places.get(stem) ?? 0) < weight) places.set(stem, weight);
    };
    const first = ix.piece(spot.start);
    const page = ix.doc.pages[first.page]!;

    if (first.line >= 0) {
      const line = ix.linePieces[first.page]![first.line]!;
      const at = line.indexOf(spot.start);
      line.forEach((piece, i) => {
        if (piece >= spot.start && piece < spot.end) return;
        const distance = i < at ? at - i : i - at;
        if (nearOnly && distance > NEAR - 1) return;
        see(ix.stemsOf(piece), i < at ? (distance <= NEAR ? PLACE.justBefore : PLACE.before) : PLACE.after);
      });
    }

    if (first.table >= 0) {
      const table = page.tables[first.table]!;
      const cell = table.cells[first.cell]!;
      const grid = ix.grid(first.page, first.table);
      const stems = (c: number) => ix.stemsOfCell(first.page, first.table, c);
      if (cell.row >= grid.headerRows) {
        for (const c of grid.headers.get(cell.column) ?? []) see(stems(c), table.headerRows > 0 ? PLACE.header : PLACE.firstRow);
      }
      // Cells to the left, nearest (non-empty) last: it is the label of a key–value row.
      const left = (grid.rows.get(cell.row) ?? []).filter((c) => table.cells[c]!.column < cell.column && table.cells[c]!.text.trim() !== '');
      left.forEach((c, i) => {
        if (i === left.length - 1) see(stems(c), PLACE.leftCell);
        else if (!nearOnly) see(stems(c), PLACE.rowCell);
      });
    } else if (!nearOnly && first.line > 0) {
      for (const piece of ix.linePieces[first.page]![first.line - 1]!) see(ix.stemsOf(piece), PLACE.above);
    }
    return places;
  }

  // -------------------------------------------------------------------------------------------
  // Found

  private found(c: Candidate): Found {
    const printed = this.ix.printed(c.start, c.end);
    const content = printed.slice(c.trimStart, printed.length - c.trimEnd);
    return { content, context: clip(this.contextOf(c), content), origin: this.originOf(c) };
  }

  /** The table row (cells joined by " | ") or the line(s) of the value. */
  private contextOf(spot: Spot): string {
    const { ix } = this;
    const first = ix.piece(spot.start);
    const page = ix.doc.pages[first.page]!;
    if (first.table >= 0) {
      const table = page.tables[first.table]!;
      const row = table.cells[first.cell]!.row;
      return (ix.grid(first.page, first.table).rows.get(row) ?? [])
        .map((c) => table.cells[c]!.text.replace(/\s+/g, ' ').trim())
        .filter(Boolean)
        .join(' | ');
    }
    const lines: string[] = [];
    let last = -2;
    for (let i = spot.start; i < spot.end; i++) {
      const line = ix.line[i]!;
      if (line === last) continue;
      last = line;
      lines.push(line >= 0 ? page.lines[line]!.text : ix.text[i]!);
    }
    return lines.join(' ').replace(/\s+/g, ' ').trim();
  }

  /**
   * Boxes: the union of exactly the matched words' boxes (a piece of a word gets its share of the
   * word's width; punctuation left out of the content stays in: it is inside its word's box). Cells:
   * the cell. Spans: exactly the content, from the first piece's start to the last piece's end.
   */
  private originOf(spot: Candidate): Origin {
    const { ix } = this;
    const firstPiece = ix.piece(spot.start);
    const lastPiece = ix.piece(spot.end - 1);
    const wordOf = (piece: Piece) => ix.doc.pages[piece.page]!.words[piece.word]!;
    const first = wordOf(firstPiece).origin;
    const last = wordOf(lastPiece).origin;
    switch (first.kind) {
      case 'box': {
        const boxes: Box[] = [];
        for (let i = spot.start; i < spot.end; i++) {
          const piece = ix.piece(i);
          const word = wordOf(piece);
          const box = word.origin.kind === 'box' ? word.origin.box : word.box;
          if (box) boxes.push(pieceBox(box, piece));
        }
        return { kind: 'box', page: first.page, box: unionBox(boxes) ?? { ...first.box } };
      }
      case 'cell':
        return { ...first };
      case 'docx_paragraph':
      case 'docx_cell':
      case 'text': {
        // A value never leaves its block or cell, so both ends are in one paragraph, cell or file;
        // should a reader ever break that, the span is the first word's alone.
        const together = sameSpanContainer(first, last);
        const end = together ? last : first;
        const endPiece = together ? lastPiece : firstPiece;
        const charStart = first.charStart + firstPiece.from + spot.trimStart;
        const charEnd = end.charEnd - (endPiece.size - endPiece.to) - spot.trimEnd;
        if (first.kind === 'text' && end.kind === 'text') return { ...first, lineEnd: end.lineEnd, charStart, charEnd };
        return { ...first, charStart, charEnd };
      }
    }
  }
}

/** Whether two span origins are in the same paragraph, table cell or text file. */
function sameSpanContainer<T extends Origin>(a: T, b: Origin): b is T {
  if (a.kind === 'docx_paragraph' && b.kind === 'docx_paragraph') return a.paragraph === b.paragraph;
  if (a.kind === 'docx_cell' && b.kind === 'docx_cell') return a.table === b.table && a.row === b.row && a.column === b.column;
  return a.kind === 'text' && b.kind === 'text';
}

/** A piece's share of its word's box (the whole box for a whole word). */
function pieceBox(box: Box, piece: Piece): Box {
  if (piece.from === 0 && piece.to === piece.size) return { ...box };
  const unit = box.width / Math.max(1, piece.size);
  return { left: box.left + unit * piece.from, top: box.top, width: unit * (piece.to - piece.from), height: box.height };
}

/** The title and description a referring node gives to what it refers to. */
function describing(node: SchemaNode): SchemaNode {
  const out: SchemaNode = {};
  if (node.title !== undefined) out.title = node.title;
  if (node.description !== undefined) out.description = node.description;
  return out;
}

/** `allOf` branches merged: properties joined, the first title and description kept. */
function mergeSchemas(a: SchemaNode, b: SchemaNode | undefined): SchemaNode {
  if (!b) return a;
  const properties = { ...(isObject(b.properties) ? b.properties : {}), ...(isObject(a.properties) ? a.properties : {}) };
  return { ...b, ...a, ...(Object.keys(properties).length > 0 ? { properties } : {}) };
}

function candidate(spot: Spot, quality: number, crossesLine = false, trim = { start: 0, end: 0 }): Candidate {
  return { start: spot.start, end: spot.end, quality: crossesLine ? quality - QUALITY.lineBreak : quality, score: 0, trimStart: trim.start, trimEnd: trim.end };
}

const OPENING = /^[("'«“‘\[{]+/;
const CLOSING = /[)"'»”’\]},;:.!?]+$/;

/**
 * How much sentence punctuation to leave out at the ends of a text match: what the document has
 * beyond what the value itself has there ("Corp.," for "Corp." leaves out only the comma).
 */
function edgeTrim(first: string, last: string, value: string): { start: number; end: number } {
  // Compared with quotes normalized (a model writes "Initech" for “Initech”); one character each.
  const opening = normalizeText(OPENING.exec(first)?.[0] ?? '');
  const valueOpening = normalizeText(OPENING.exec(value)?.[0] ?? '');
  let keepStart = 0;
  while (keepStart < Math.min(opening.length, valueOpening.length) && opening[opening.length - 1 - keepStart] === valueOpening[valueOpening.length - 1 - keepStart]) keepStart++;
  const closing = normalizeText(CLOSING.exec(last)?.[0] ?? '');
  const valueClosing = normalizeText(CLOSING.exec(value)?.[0] ?? '');
  let keepEnd = 0;
  while (keepEnd < Math.min(closing.length, valueClosing.length) && closing[keepEnd] === valueClosing[keepEnd]) keepEnd++;
  return { start: opening.length - keepStart, end: closing.length - keepEnd };
}

/**
 * The smallest matches: of candidates that overlap, the better and then the shorter one stays
 * ("1,250.00" rather than "USD 1,250.00", the same run found by two look-ups once).
 */
function minimal(candidates: Candidate[]): Candidate[] {
  const sorted = [...candidates].sort((a, b) => b.quality - a.quality || a.end - a.start - (b.end - b.start) || a.start - b.start);
  const kept: Candidate[] = [];
  const taken = new Set<number>();
  for (const c of sorted) {
    let free = true;
    for (let i = c.start; i < c.end && free; i++) free = !taken.has(i);
    if (!free) continue;
    for (let i = c.start; i < c.end; i++) taken.add(i);
    kept.push(c);
  }
  return kept.sort((a, b) => a.start - b.start);
}

/** At most CONTEXT_MAX characters of context, cut around the content. */
const CONTEXT_MAX = 200;

function clip(context: string, content: string): string {
  if (context.length <= CONTEXT_MAX) return context;
  const at = Math.max(0, context.indexOf(content));
  const room = CONTEXT_MAX - 2;
  // The content in the middle; a content longer than the room from its start.
  let start = content.length >= room ? at : Math.max(0, at - Math.floor((room - content.length) / 2));
  start = Math.min(start, context.length - room);
  const end = Math.min(context.length, start + room);
  return `${start > 0 ? '…' : ''}${context.slice(start, end).trim()}${end < context.length ? '…' : ''}`;
}
