/**
 * CSV reader: sniffed delimiter, BOM, quoted newlines, one table with the header row, and exact
 * `cell` origins (API §6.2 `csv_cell`: 1-based record number with the header as 1, 0-based column).
 */
import { describe, expect, it } from 'vitest';
import { ReadFailure, tableRows, type Page } from '../../../functions/documents/doc.ts';
import { readCsv } from '../../../functions/documents/csv.ts';
import { renderPage } from '../../../functions/documents/render.ts';

const csv = (text: string) => readCsv(Buffer.from(text, 'utf8'));
const originsOf = (page: Page, text: string) => page.words.filter((w) => w.text === text).map((w) => w.origin);

describe('readCsv', () => {
  it('reads a semicolon CSV with a BOM and a quoted newline exactly', () => {
    const pages = csv('\uFEFFName;City;Note\r\n"Doe; Jane";Paris;"line one\nline two"\r\nBob;Lyon;ok\r\n');
    expect(pages).toHaveLength(1);
    const [page] = pages;
    expect([page!.number, page!.unit, page!.width, page!.height, page!.ocr]).toEqual([1, 'none', 0, 0, false]);
    expect(page!.tables).toHaveLength(1);
    const table = page!.tables[0]!;
    expect([table.rowCount, table.columnCount, table.headerRows]).toEqual([3, 3, 1]);
    expect(tableRows(table)).toEqual([
      ['Name', 'City', 'Note'],
      ['Doe; Jane', 'Paris', 'line one\nline two'],
      ['Bob', 'Lyon', 'ok'],
    ]);
    expect(renderPage(page!, 'markdown')).toBe(
      ['| Name | City | Note |', '| --- | --- | --- |', '| Doe; Jane | Paris | line one<br>line two |', '| Bob | Lyon | ok |'].join('\n'),
    );
    // The BOM is not part of the first word; records, not physical lines, are counted.
    expect(originsOf(page!, 'Name')).toEqual([{ kind: 'cell', row: 1, column: 0 }]);
    expect(originsOf(page!, 'Jane')).toEqual([{ kind: 'cell', row: 2, column: 0 }]);
    expect(originsOf(page!, 'two')).toEqual([{ kind: 'cell', row: 2, column: 2 }]);
    expect(originsOf(page!, 'Lyon')).toEqual([{ kind: 'cell', row: 3, column: 1 }]);
    expect(page!.blocks.map((b) => [b.kind, b.table])).toEqual([['table', 0]]);
  });

  it.each([
    ['comma', 'a,b,c\n1,2,3\n4,5,6\n'],
    ['tab', 'a\tb\tc\n1\t2\t3\n4\t5\t6\n'],
    ['pipe', 'a|b|c\n1|2|3\n4|5|6\n'],
    ['semicolon with commas in values', 'a;b;c\n1,5;2,5;3,5\n4;5;6\n'],
  ])('sniffs the %s delimiter', (_, text) => {
    const rows = tableRows(csv(text)[0]!.tables[0]!);
    expect(rows[0]).toEqual(['a', 'b', 'c']);
    expect(rows).toHaveLength(3);
  });

  it('keeps blank lines as rows so record numbers stay those of the file, and pads ragged rows', () => {
    const [page] = csv('h1,h2,h3\nx,y\n\nlast,row,here,extra\n');
    expect(tableRows(page!.tables[0]!)).toEqual([
      ['h1', 'h2', 'h3', ''],
      ['x', 'y', '', ''],
      ['', '', '', ''],
      ['last', 'row', 'here', 'extra'],
    ]);
    expect(originsOf(page!, 'extra')).toEqual([{ kind: 'cell', row: 4, column: 3 }]);
  });

  it('gives an empty file a page without blocks', () => {
    expect(csv('')[0]!.blocks).toEqual([]);
    expect(csv('\uFEFF\r\n')[0]!.blocks).toEqual([]);
  });

  it('refuses text that is not UTF-8', () => {
    expect(() => readCsv(Buffer.from('name,city\nJosé,Zürich\n', 'latin1'))).toThrow(ReadFailure);
    expect(() => readCsv(Buffer.from('name,city\nJosé,Zürich\n', 'latin1'))).toThrow(/not valid UTF-8/);
  });
});
