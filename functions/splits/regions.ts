/**
 * Spreadsheet regions (issue 43 part 4): where a split's subdocuments sit in a workbook, and the
 * tables rebuilt from such regions (POST /v1/splits/reconstruct). Pure functions over the Doc a
 * reader made of an XLSX (one page per sheet) or a CSV (one page, one sheet).
 *
 * Coordinates are a spreadsheet's: `sheet_index` counts sheets from 0 in workbook order (as the
 * `spreadsheet_cell` anchors of API §6.2), rows and columns count from 1 (row 1 is the first row, column 1
 * is A), and every range includes both ends. A CSV is one sheet, index 0, named after its file.
 */
import type { Doc, Page } from '../documents/doc.ts';
import { RunFailure } from '../platform/errors.ts';

export interface SheetRegion {
  sheet_index: number;
  sheet_name: string;
  row_start: number;
  row_end: number;
  col_start?: number | null;
  col_end?: number | null;
  header_rows?: number[];
}

export interface ReconstructEnrichment {
  /** Blank cells of the key column take the value above (a key written once for a span of rows, as merged cells are). */
  fill_key_spans?: boolean | null;
  /** Several header rows make one header: each column's non-empty parts joined with " / " (blank parts of a merged group header taken from the left). */
  flatten_header?: boolean | null;
  /** A row with one value in its first cell and nothing else is a section title: it becomes a "Section" column of the rows under it. */
  promote_sections?: boolean | null;
}

export interface ReconstructSubdocument {
  name: string;
  regions: SheetRegion[];
  /** The key column, by its header (case aside): what fill_key_spans fills. Default: the region's first column. */
  partition_key?: string | null;
  enrichment?: ReconstructEnrichment | null;
}

export interface ReconstructedTable {
  label: string;
  header: string[];
  rows: Array<{ cells: string[] }>;
  csv: string;
}

/** The cells of one sheet: text by 1-based row and column, and the range they span. */
export interface SheetGrid {
  index: number;
  name: string;
  cells: Map<number, Map<number, string>>;
  /** The used range (0 when the sheet is empty). */
  firstRow: number;
  lastRow: number;
  firstColumn: number;
  lastColumn: number;
  /** The header rows the reader found at the top of the used range (absolute row numbers). */
  headerRows: number[];
}

/** The sheets of a spreadsheet Doc (XLSX: its sheets; CSV: one sheet named `filename`). */
export function sheetsOf(doc: Doc, filename: string): SheetGrid[] {
  return doc.pages.map((page, index) => gridOf(page, index, doc.kind === 'csv' ? filename : (page.name ?? `Sheet${index + 1}`)));
}

function gridOf(page: Page, index: number, name: string): SheetGrid {
  const grid: SheetGrid = { index, name, cells: new Map(), firstRow: 0, lastRow: 0, firstColumn: 0, lastColumn: 0, headerRows: [] };
  const table = page.tables[0];
  if (!table) return grid;
  // The reader's grid starts at the sheet's first used row (XLSX) or row 1 (CSV); its words say where.
  let offset: number | undefined;
  for (const cell of table.cells) {
    const origin = cell.words.length > 0 ? page.words[cell.words[0]!]?.origin : undefined;
    if (origin?.kind === 'cell') {
      offset = origin.row - cell.row;
      break;
    }
  }
  if (offset === undefined) return grid;
  for (const cell of table.cells) {
    const text = cell.text.trim();
    if (text === '') continue;
    const row = offset + cell.row;
    const column = cell.column + 1;
    let cells = grid.cells.get(row);
    if (!cells) grid.cells.set(row, (cells = new Map()));
    cells.set(column, cell.text);
    grid.firstRow = grid.firstRow === 0 ? row : Math.min(grid.firstRow, row);
    grid.lastRow = Math.max(grid.lastRow, row);
    grid.firstColumn = grid.firstColumn === 0 ? column : Math.min(grid.firstColumn, column);
    grid.lastColumn = Math.max(grid.lastColumn, column);
  }
  if (grid.firstRow > 0) grid.headerRows = Array.from({ length: table.headerRows }, (_, i) => offset! + i).filter((row) => row >= grid.firstRow && row <= grid.lastRow);
  return grid;
}

/** The region of a whole sheet: its used range, with the header rows its reader found. Undefined for an empty sheet. */
export function sheetRegion(sheet: SheetGrid): SheetRegion | undefined {
  if (sheet.firstRow === 0) return undefined;
  return {
    sheet_index: sheet.index,
    sheet_name: sheet.name,
    row_start: sheet.firstRow,
    row_end: sheet.lastRow,
    col_start: sheet.firstColumn,
    col_end: sheet.lastColumn,
    header_rows: sheet.headerRows,
  };
}

/** A column's letters: 1 → A, 27 → AA. */
export function columnLetters(column: number): string {
  let letters = '';
  for (let n = column; n > 0; n = Math.floor((n - 1) / 26)) letters = String.fromCharCode(65 + ((n - 1) % 26)) + letters;
  return letters;
}

/** A refusal of a region that names it: the request's 422, at its place in the body. */
function unknownRegion(s: number, r: number, field: string, message: string): RunFailure {
  return new RunFailure('configuration_error', message, { loc: ['body', 'subdocuments', s, 'regions', r, field] });
}

/**
 * The tables of the subdocuments' regions. A region's rows between row_start and row_end (its
 * columns between col_start and col_end, by default the sheet's used columns): the header rows make
 * the header (without any, the columns' letters), the other rows the data, rows with no value left
 * out. The regions of one subdocument make one table when their headers agree, else one each.
 * Throws a RunFailure naming the region when it names no sheet of the workbook or no cell of it.
 */
export function reconstructTables(sheets: SheetGrid[], subdocuments: ReconstructSubdocument[]): ReconstructedTable[] {
  const tables: ReconstructedTable[] = [];
  subdocuments.forEach((sub, s) => {
    const enrichment = sub.enrichment ?? {};
    const flatten = enrichment.flatten_header ?? true;
    const groups: Array<{ label: string; header: string[]; rows: string[][]; key: string }> = [];
    sub.regions.forEach((region, r) => {
      const sheet = sheets[region.sheet_index];
      if (!sheet) {
        throw unknownRegion(s, r, 'sheet_index', `sheet_index ${region.sheet_index} is not a sheet of the workbook (it has ${sheets.length}: ${sheets.map((x) => `${x.index} "${x.name}"`).join(', ')})`);
      }
      if (sheet.name !== region.sheet_name) {
        throw unknownRegion(s, r, 'sheet_name', `sheet ${region.sheet_index} is named "${sheet.name}", not "${region.sheet_name}"`);
      }
      if (sheet.firstRow === 0) throw unknownRegion(s, r, 'row_start', `sheet "${sheet.name}" has no cells`);
      const colStart = region.col_start ?? sheet.firstColumn;
      const colEnd = region.col_end ?? sheet.lastColumn;
      if (region.row_start > sheet.lastRow || region.row_end < sheet.firstRow) {
        throw unknownRegion(s, r, 'row_start', `rows ${region.row_start}–${region.row_end} of "${sheet.name}" hold no cells (its cells span rows ${sheet.firstRow}–${sheet.lastRow})`);
      }
      if (colStart > sheet.lastColumn || colEnd < sheet.firstColumn) {
        throw unknownRegion(
          s,
          r,
          'col_start',
          `columns ${colStart}–${colEnd} (${columnLetters(colStart)}–${columnLetters(colEnd)}) of "${sheet.name}" hold no cells (its cells span columns ${sheet.firstColumn}–${sheet.lastColumn}, ${columnLetters(sheet.firstColumn)}–${columnLetters(sheet.lastColumn)})`,
        );
      }
      const columns = Array.from({ length: colEnd - colStart + 1 }, (_, i) => colStart + i);
      const rowOf = (row: number) => columns.map((column) => sheet.cells.get(row)?.get(column) ?? '');
      const headerRows = [...new Set(region.header_rows ?? [])].sort((a, b) => a - b);
      const header = headerRows.length === 0 ? columns.map(columnLetters) : headerOf(headerRows.map(rowOf), flatten);
      const rows: string[][] = [];
      for (let row = region.row_start; row <= region.row_end; row++) {
        if (headerRows.includes(row)) continue;
        const cells = rowOf(row);
        if (cells.some((cell) => cell.trim() !== '')) rows.push(cells);
      }
      const key = JSON.stringify(header);
      const same = groups.find((g) => g.key === key);
      if (same) same.rows.push(...rows);
      else groups.push({ label: sheet.name, header, rows, key });
    });
    for (const group of groups) {
      let { header, rows } = group;
      if (enrichment.promote_sections) ({ header, rows } = promoteSections(header, rows));
      if (enrichment.fill_key_spans) rows = fillKeySpans(header, rows, keyColumn(header, sub.partition_key, s, enrichment.promote_sections === true));
      const label = groups.length === 1 ? sub.name : `${sub.name} (${group.label})`;
      tables.push({ label, header, rows: rows.map((cells) => ({ cells })), csv: toCsv([header, ...rows]) });
    }
  });
  return tables;
}

/** The header from the header rows: one row as it is; several flattened (or the last one alone). */
function headerOf(rows: string[][], flatten: boolean): string[] {
  if (rows.length === 1 || !flatten) return rows.at(-1)!.map((cell) => cell.trim());
  // A group header written once over several columns (a merged cell) applies to the columns to its right.
  const filled = rows.slice(0, -1).map((row) => {
    let last = '';
    return row.map((cell) => (cell.trim() !== '' ? (last = cell.trim()) : last));
  });
  filled.push(rows.at(-1)!.map((cell) => cell.trim()));
  return filled[0]!.map((_, c) => {
    const parts: string[] = [];
    for (const row of filled) if (row[c] !== '' && parts.at(-1) !== row[c]) parts.push(row[c]!);
    return parts.join(' / ');
  });
}

function promoteSections(header: string[], rows: string[][]): { header: string[]; rows: string[][] } {
  const out: string[][] = [];
  let section = '';
  for (const row of rows) {
    const filled = row.filter((cell) => cell.trim() !== '');
    if (filled.length === 1 && row[0]!.trim() !== '' && row.length > 1) {
      section = row[0]!.trim();
      continue;
    }
    out.push([section, ...row]);
  }
  return { header: ['Section', ...header], rows: out };
}

/** The key column: `partition_key` as a header (case aside); by default the region's first column (after a promoted Section). */
function keyColumn(header: string[], partitionKey: string | null | undefined, s: number, promoted: boolean): number {
  if (!partitionKey) return promoted ? 1 : 0;
  const wanted = partitionKey.trim().toLowerCase();
  const byHeader = header.findIndex((h) => h.toLowerCase() === wanted);
  if (byHeader >= 0) return byHeader;
  throw new RunFailure('configuration_error', `partition_key "${partitionKey}" is not a column of the table (its columns: ${header.map((h) => `"${h}"`).join(', ')})`, {
    loc: ['body', 'subdocuments', s, 'partition_key'],
  });
}

function fillKeySpans(header: string[], rows: string[][], column: number): string[][] {
  let last = '';
  return rows.map((row) => {
    if (column >= header.length) return row;
    if (row[column]!.trim() !== '') {
      last = row[column]!;
      return row;
    }
    const filled = [...row];
    filled[column] = last;
    return filled;
  });
}

/** RFC 4180: fields with a comma, quote or line break are quoted, quotes doubled; lines end with \n. */
export function toCsv(rows: string[][]): string {
  const field = (value: string) => (/[",\r\n]/.test(value) ? `"${value.replace(/"/g, '""')}"` : value);
  return rows.map((row) => row.map(field).join(',')).join('\n') + '\n';
}
