/**
 * XLSX reader: one page per sheet (in workbook order, named after the sheet), the sheet's used range
 * as one table, every word keeping its cell (API §6.2 `spreadsheet_cell`: 0-based sheet index, sheet
 * name, 1-based row, 0-based column). Each page starts with a "Sheet: <name>" heading (the name is
 * not in any cell, so it has no words to anchor) and ends with the sheet's cell comments, one list
 * item each, whose words point at the commented cell.
 *
 * Uses exceljs's streaming WorkbookReader so a big workbook is never loaded whole. exceljs inflates the
 * archive itself with no limit, so the XML parts are first checked (declared sizes, then actual
 * inflated sizes) with the ZIP helpers of the DOCX reader, and handed to it in the order it needs.
 *
 * Values are rendered as displayed where that matters for meaning: dates ISO 8601 (`YYYY-MM-DD`, with
 * `THH:MM:SS` when the format shows a time), percentages, fixed decimals; formulas give their cached
 * result; rich text its plain text. Currency symbols and thousands separators are not reproduced.
 */
import { Readable } from 'node:stream';
import ExcelJS from 'exceljs';
import { ReadFailure, type Page, type Table } from './doc.ts';
import { elements, textOf, XmlPackage, type XmlElement } from './ooxml.ts';
import { addTextLines, MAX_TABLE_CELLS as MAX_CELLS, newPage } from './text.ts';
import { checkInflatedSizes, entryData, readZipDirectory, verifyInflatedSize, type ZipEntry } from './zip.ts';

/** Streamed XML may be larger than the DOCX limit: exceljs never holds a sheet's XML whole. */
const MAX_XML_BYTES = 256 * 1024 * 1024;

type ValueKind = 'text' | 'number' | 'date' | 'boolean' | 'error';

interface Value {
  text: string;
  kind: ValueKind;
}

/** A number format with its quoted literals and [colour]/[locale] sections removed (first section only). */
function formatCode(numFmt: string | undefined): string {
  return (numFmt ?? '').split(';')[0]!.replace(/"[^"]*"/g, '').replace(/\[[^\]]*\]/g, '').replace(/\\./g, '');
}

/** Whether a number format shows a date or time (the test exceljs applies to plain cells). */
function isDateFormat(numFmt: string | undefined): boolean {
  return /[ymdhsb]/i.test(formatCode(numFmt));
}

/** Excel keeps 15 significant digits; more would print binary noise like 0.30000000000000004. */
function general(n: number): string {
  return String(Number(n.toPrecision(15)));
}

function displayNumber(n: number, numFmt: string | undefined): string {
  if (!Number.isFinite(n)) return '';
  const code = formatCode(numFmt).trim();
  if (code === '' || /^general$/i.test(code) || /E[+-]/i.test(code)) return general(n);
  const decimals = /\.(0+)/.exec(code)?.[1]!.length ?? 0;
  if (code.includes('%')) return `${(n * 100).toFixed(decimals)}%`;
  if (/0/.test(code)) return n.toFixed(decimals);
  return general(n);
}

function displayDate(date: Date, numFmt: string | undefined): string {
  // exceljs builds dates in UTC from the serial number; round to the second Excel shows.
  const iso = new Date(Math.round(date.getTime() / 1000) * 1000).toISOString();
  const code = formatCode(numFmt);
  const hasTime = /[hs]/i.test(code);
  const hasDate = code.trim() === '' || /[dy]/i.test(code) || (/m/i.test(code) && !hasTime);
  if (hasDate && hasTime) return `${iso.slice(0, 10)}T${iso.slice(11, 19)}`;
  if (hasTime) return iso.slice(11, 19);
  return iso.slice(0, 10);
}

/** Serial number → Date, as exceljs does for plain cells (for formula results it leaves numbers). */
function serialToDate(serial: number, date1904: boolean): Date {
  return new Date(Math.round((serial - 25569 + (date1904 ? 1462 : 0)) * 86_400_000));
}

function richTextOf(value: { richText: { text?: string | null }[] }): string {
  return value.richText.map((run) => run.text ?? '').join('');
}

/** A cell's value as displayed, or undefined when the cell shows nothing. */
function cellValue(raw: unknown, numFmt: string | undefined, date1904: boolean): Value | undefined {
  if (raw === null || raw === undefined) return undefined;
  if (typeof raw === 'string') return raw === '' ? undefined : { text: raw, kind: 'text' };
  if (typeof raw === 'number') {
    if (Number.isNaN(raw)) return undefined;
    return { text: displayNumber(raw, numFmt), kind: 'number' };
  }
  if (typeof raw === 'boolean') return { text: raw ? 'TRUE' : 'FALSE', kind: 'boolean' };
  if (raw instanceof Date) return Number.isNaN(raw.getTime()) ? undefined : { text: displayDate(raw, numFmt), kind: 'date' };
  if (typeof raw === 'object') {
    const value = raw as Record<string, unknown>;
    if (Array.isArray(value.richText)) {
      const text = richTextOf(value as { richText: { text?: string }[] });
      return text === '' ? undefined : { text, kind: 'text' };
    }
    if ('formula' in value || 'sharedFormula' in value) {
      // The streaming reader parses a formula's cached result as a number unless it is a string.
      const result = value.result;
      if (typeof result === 'number' && isDateFormat(numFmt)) return cellValue(serialToDate(result, date1904), numFmt, date1904);
      return cellValue(result, numFmt, date1904);
    }
    if (typeof value.error === 'string') return { text: value.error, kind: 'error' };
    if ('text' in value) return cellValue(value.text, numFmt, date1904); // hyperlink
  }
  return undefined;
}

interface SheetCells {
  name: string;
  /** 1-based row → 1-based column → value. */
  rows: Map<number, Map<number, Value>>;
}

/**
 * Header row: the first row of the used range, when all its values are text and some column below it
 * holds another type (a number, date, …); an all-text sheet gives no evidence either way, so none.
 */
function detectHeaderRows(grid: (Value | undefined)[][]): number {
  if (grid.length < 2) return 0;
  const first = grid[0]!;
  if (first.some((v) => v !== undefined && v.kind !== 'text')) return 0;
  for (let row = 1; row < grid.length; row++) {
    if (grid[row]!.some((v, column) => v !== undefined && v.kind !== 'text' && first[column] !== undefined)) return 1;
  }
  return 0;
}

/**
 * The table's extent: from the first to the last row with a value, and from column A (not the first
 * used column) to the last used one, so generated keys A, B, … match the sheet's own letters.
 */
function usedRange(sheet: SheetCells): { firstRow: number; rowCount: number; columnCount: number } {
  if (sheet.rows.size === 0) return { firstRow: 1, rowCount: 0, columnCount: 0 };
  // Loops, not Math.max(...): a spread of a million rows overflows the stack.
  let firstRow = Infinity;
  let lastRow = 0;
  let columnCount = 0;
  for (const [number, row] of sheet.rows) {
    firstRow = Math.min(firstRow, number);
    lastRow = Math.max(lastRow, number);
    for (const column of row.keys()) columnCount = Math.max(columnCount, column);
  }
  return { firstRow, rowCount: lastRow - firstRow + 1, columnCount };
}

function sheetPage(sheet: SheetCells, sheetIndex: number, comments: SheetComment[]): Page {
  const page = newPage(sheetIndex + 1, sheet.name);
  page.blocks.push({ kind: 'heading', level: 1, text: `Sheet: ${sheet.name}`, lines: [] });
  addTable(page, sheet, sheetIndex);
  for (const comment of comments) {
    const origin = { kind: 'cell' as const, sheetIndex, sheetName: sheet.name, row: comment.row, column: comment.column };
    const { lines } = addTextLines(page, comment.text, () => origin);
    const by = comment.author ? ` by ${comment.author}` : '';
    page.blocks.push({ kind: 'list_item', text: `- Comment on ${comment.ref}${by}: ${comment.text.replace(/\s*\n\s*/g, ' ')}`, lines });
  }
  return page;
}

function addTable(page: Page, sheet: SheetCells, sheetIndex: number): void {
  const { firstRow, rowCount, columnCount } = usedRange(sheet);
  if (rowCount === 0) return;
  const grid = Array.from({ length: rowCount }, (_, r) => Array.from({ length: columnCount }, (_, c) => sheet.rows.get(firstRow + r)?.get(c + 1)));

  const table: Table = { rowCount, columnCount, headerRows: detectHeaderRows(grid), cells: [] };
  const lines: number[] = [];
  grid.forEach((values, row) =>
    values.forEach((value, column) => {
      const text = value?.text ?? '';
      const added = addTextLines(page, text, () => ({ kind: 'cell', sheetIndex, sheetName: sheet.name, row: firstRow + row, column }));
      lines.push(...added.lines);
      table.cells.push({ row, column, rowSpan: 1, columnSpan: 1, text, words: added.words });
    }),
  );
  page.tables.push(table);
  page.blocks.push({ kind: 'table', text: grid.map((values) => values.map((v) => v?.text ?? '').join('\t')).join('\n'), lines, table: 0 });
}

// ---------------------------------------------------------------------------------------------
// Cell comments (exceljs's streaming reader skips them): workbook.xml names each sheet's part, and a
// sheet's relationships name its comments part. SpreadsheetML is usually written in the default
// namespace, but some writers prefix it (`x:`), so elements are matched by local name.

interface SheetComment {
  /** The commented cell: `B2`, its 1-based row and 0-based column. */
  ref: string;
  row: number;
  column: number;
  author: string;
  text: string;
}

const localName = (name: string) => name.slice(name.indexOf(':') + 1);
const childNamed = (node: XmlElement | undefined, name: string) => (node ? elements(node).find((e) => localName(e.name) === name) : undefined);
const childrenNamed = (node: XmlElement | undefined, name: string) => (node ? elements(node).filter((e) => localName(e.name) === name) : []);

/** `B12` → row 12, column 1 (0-based). */
function parseCellRef(ref: string): { row: number; column: number } | undefined {
  const match = /^\$?([A-Z]{1,3})\$?(\d+)$/i.exec(ref.trim());
  if (!match) return undefined;
  const column = [...match[1]!.toUpperCase()].reduce((n, letter) => n * 26 + letter.charCodeAt(0) - 64, 0) - 1;
  return { row: Number(match[2]), column };
}

/**
 * A comment's text. Excel's threaded comments are also written as a legacy comment whose text is a
 * notice ("[Threaded comment] Your version of Excel allows you to read …") followed by "Comment:"
 * and the real text (and "Reply:" sections); only the comments and replies are kept.
 */
function commentText(comment: XmlElement): string {
  // Plain text is a `t`; rich text is runs (`r`), each with its `t`. Phonetic guides (`rPh`) are not text.
  const text = childNamed(comment, 'text');
  const raw = [...childrenNamed(text, 't'), ...childrenNamed(text, 'r').flatMap((r) => childrenNamed(r, 't'))].map(textOf).join('');
  if (!raw.startsWith('[Threaded comment]')) return raw.trim();
  const thread = raw.slice(raw.indexOf('\nComment:') + 1);
  return thread.replace(/^(Comment|Reply):\s*/gm, '').replace(/\n[ \t]+/g, '\n').trim();
}

/** Sheet name → its comments, in the order the comments part lists them. */
function readComments(pkg: XmlPackage): Map<string, SheetComment[]> {
  const found = new Map<string, SheetComment[]>();
  const workbook = childNamed(pkg.part('xl/workbook.xml'), 'workbook');
  const workbookRelationships = pkg.relationships('xl/workbook.xml');
  for (const sheet of childrenNamed(childNamed(workbook, 'sheets'), 'sheet')) {
    const id = Object.entries(sheet.attrs).find(([key]) => key.endsWith(':id'))?.[1];
    const sheetPart = workbookRelationships.get(id ?? '');
    if (!sheetPart || sheetPart.external) continue;
    const comments: SheetComment[] = [];
    for (const relationship of pkg.relationships(sheetPart.target).values()) {
      if (relationship.type !== 'comments' || relationship.external) continue;
      const part = childNamed(pkg.part(relationship.target), 'comments');
      const authors = childrenNamed(childNamed(part, 'authors'), 'author').map((a) => textOf(a).trim());
      for (const comment of childrenNamed(childNamed(part, 'commentList'), 'comment')) {
        const ref = comment.attrs.ref ?? '';
        const cell = parseCellRef(ref);
        const text = commentText(comment);
        if (cell && text !== '') comments.push({ ref: ref.toUpperCase(), ...cell, author: authors[Number(comment.attrs.authorId)] ?? '', text });
      }
    }
    found.set(sheet.attrs.name ?? '', comments);
  }
  return found;
}

/**
 * The parts exceljs reads, rewritten as a stream of ZIP local records in the order its streaming reader
 * needs: it parses sheets as they arrive, so the workbook (sheet names), its relationships, styles
 * (number formats, hence dates) and shared strings must come first. Writers order parts as they like
 * (OPC does not fix an order). Sizes are written in each header from the central directory, so no data
 * descriptors are needed; media is left out, as the reader never uses it.
 */
function orderedParts(bytes: Uint8Array, parts: ZipEntry[], what: string): Readable {
  const FIRST = ['xl/_rels/workbook.xml.rels', 'xl/workbook.xml', 'xl/styles.xml', 'xl/sharedStrings.xml'];
  const rank = (entry: ZipEntry) => (FIRST.includes(entry.name) ? FIRST.indexOf(entry.name) : FIRST.length);
  const ordered = [...parts].sort((a, b) => rank(a) - rank(b) || a.localHeaderOffset - b.localHeaderOffset);
  const chunks: Buffer[] = [];
  for (const entry of ordered) {
    const name = Buffer.from(entry.name, 'utf8');
    const header = Buffer.alloc(30);
    header.writeUInt32LE(0x04034b50, 0);
    header.writeUInt16LE(20, 4);
    header.writeUInt16LE(0x0800, 6); // UTF-8 name; sizes are known, so no data descriptor
    header.writeUInt16LE(entry.method, 8);
    header.writeUInt32LE(entry.compressedSize, 18);
    header.writeUInt32LE(entry.uncompressedSize, 22);
    header.writeUInt16LE(name.length, 26);
    chunks.push(header, name, entryData(bytes, entry, what));
  }
  return Readable.from(chunks, { objectMode: false });
}

/** What the streaming reader exposes beyond its typings: workbook order of sheets, the 1904 date flag. */
interface WorkbookReaderInternals {
  model?: { sheets?: { name: string }[] };
  properties?: { model?: { date1904?: boolean } };
}

/** Reads an XLSX workbook: one page per sheet. */
export async function readXlsx(bytes: Uint8Array, options: { deadline: number }): Promise<Page[]> {
  const what = 'XLSX file';
  const entries = readZipDirectory(bytes, what);
  if (!entries.has('xl/workbook.xml')) throw new ReadFailure(`The ${what} is corrupt (it has no xl/workbook.xml)`);
  const xmlParts = [...entries.values()].filter((e) => /\.(xml|rels)$/i.test(e.name));
  checkInflatedSizes(xmlParts, what, MAX_XML_BYTES);
  for (const part of xmlParts) {
    await verifyInflatedSize(bytes, part, what);
    if (Date.now() > options.deadline) throw new ReadFailure('Reading the XLSX file took too long', 'timeout');
  }

  const reader = new ExcelJS.stream.xlsx.WorkbookReader(orderedParts(bytes, xmlParts, what), {
    sharedStrings: 'cache',
    // Styles carry the number formats that tell dates and percentages from plain numbers.
    styles: 'cache',
    hyperlinks: 'ignore',
    worksheets: 'emit',
    entries: 'ignore',
  });
  const internals = reader as unknown as WorkbookReaderInternals;
  const sheets: SheetCells[] = [];
  let cellCount = 0;
  try {
    for await (const worksheet of reader) {
      const sheet: SheetCells = { name: (worksheet as unknown as { name: string }).name, rows: new Map() };
      sheets.push(sheet);
      const date1904 = internals.properties?.model?.date1904 === true;
      for await (const row of worksheet) {
        if (Date.now() > options.deadline) throw new ReadFailure('Reading the XLSX file took too long', 'timeout');
        const values = new Map<number, Value>();
        row.eachCell({ includeEmpty: false }, (cell, column) => {
          const value = cellValue(cell.value, cell.numFmt, date1904);
          if (value) values.set(column, value);
        });
        if (values.size === 0) continue;
        cellCount += values.size;
        if (cellCount > MAX_CELLS) throw new ReadFailure(`The ${what} has more than ${MAX_CELLS} non-empty cells, more than can be read`);
        sheet.rows.set(row.number, values);
      }
    }
  } catch (error) {
    if (error instanceof ReadFailure) throw error;
    throw new ReadFailure(`The ${what} is corrupt (${error instanceof Error ? error.message : String(error)})`);
  }

  // Pages in workbook order; a sheet without cell data (a chart sheet) is still a page, empty.
  const order = internals.model?.sheets?.map((s) => s.name) ?? [];
  const byName = new Map(sheets.map((s) => [s.name, s]));
  const ordered = [...order.map((name) => byName.get(name) ?? { name, rows: new Map() }), ...sheets.filter((s) => !order.includes(s.name))];
  // Every workbook has at least one sheet; none read means xl/workbook.xml is damaged.
  if (ordered.length === 0) throw new ReadFailure(`The ${what} has no readable sheets (its xl/workbook.xml is damaged or empty)`);
  // Sparse sheets (a value in A1 and another in XFD1000000) would make a huge grid: bound the areas.
  const area = ordered.reduce((sum, sheet) => sum + usedRange(sheet).rowCount * usedRange(sheet).columnCount, 0);
  if (area > MAX_CELLS) throw new ReadFailure(`The ${what}'s used ranges span ${area} cells, more than the ${MAX_CELLS} that can be read`);
  const comments = readComments(new XmlPackage(bytes, what, options.deadline));
  return ordered.map((sheet, index) => sheetPage(sheet, index, comments.get(sheet.name) ?? []));
}
