/**
 * CSV reader: one page holding one table (the first record is the header row), every word keeping its
 * cell (API §6.2 `csv_cell`: 1-based record number with the header as 1, 0-based column).
 */
import Papa from 'papaparse';
import { ReadFailure, type Page, type Table } from './doc.ts';
import { addTextLines, decodeUtf8, MAX_TABLE_CELLS, newPage } from './text.ts';

/** One page holding the rows as one table, header first. */
function tablePage(rows: string[][]): Page {
  const page = newPage(1);
  if (rows.length === 0) return page;
  const columnCount = rows.reduce((most, r) => Math.max(most, r.length), 0);
  if (rows.length * columnCount > MAX_TABLE_CELLS) {
    throw new ReadFailure(`The CSV file has ${rows.length} rows of ${columnCount} columns, more than the ${MAX_TABLE_CELLS} cells that can be read`);
  }
  const table: Table = { rowCount: rows.length, columnCount, headerRows: 1, cells: [] };
  const lines: number[] = [];
  rows.forEach((fields, row) => {
    for (let column = 0; column < columnCount; column++) {
      const text = fields[column] ?? '';
      // Row numbers count records, not physical lines: a quoted field may span several lines.
      const added = addTextLines(page, text, () => ({ kind: 'cell', row: row + 1, column }));
      lines.push(...added.lines);
      table.cells.push({ row, column, rowSpan: 1, columnSpan: 1, text, words: added.words });
    }
  });
  page.tables.push(table);
  page.blocks.push({ kind: 'table', text: rows.map((r) => r.join('\t')).join('\n'), lines, table: 0 });
  return page;
}

/** Reads a UTF-8 CSV (delimiter `,` `;` tab or `|`, sniffed) into one page with one table. */
export function readCsv(bytes: Uint8Array): Page[] {
  const text = decodeUtf8(bytes, 'CSV file');
  const parsed = Papa.parse<string[]>(text, {
    // Papa picks the candidate that splits the first rows into the most consistent field counts.
    delimitersToGuess: [',', ';', '\t', '|'],
    // Blank lines stay rows so record numbers match what a spreadsheet shows for the file.
    skipEmptyLines: false,
  });
  const rows = parsed.data;
  // A final newline (or trailing blank lines) is not a record.
  while (rows.length > 0 && rows[rows.length - 1]!.every((field) => field === '')) rows.pop();
  return [tablePage(rows)];
}
