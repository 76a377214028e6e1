/**
 * Page rendering for parses (API §3): Markdown blocks and tables in every `table_parsing_format`.
 */
import { describe, expect, it } from 'vitest';
import YAML from 'yaml';
import type { Block, Cell, Page, Table } from '../../../functions/documents/doc.ts';
import { columnLetters, renderDocText, renderPage, renderTable } from '../../../functions/documents/render.ts';

function tableOf(rows: string[][], headerRows: number): Table {
  const cells: Cell[] = rows.flatMap((row, r) => row.map((text, c) => ({ row: r, column: c, rowSpan: 1, columnSpan: 1, text, words: [] })));
  return { rowCount: rows.length, columnCount: rows[0]!.length, headerRows, cells };
}

function pageOf(blocks: Block[], tables: Table[] = []): Page {
  return { number: 1, width: 0, height: 0, unit: 'none', ocr: false, words: [], lines: [], blocks, tables };
}

/** 5 rows × 4 columns with a header row, and values that need escaping or quoting in each format. */
const ROWS = [
  ['Item', 'Code', 'Note', 'Price'],
  ['Pipe', 'A|B', 'a | b', '1.50'],
  ['Markup', '007', '<b>bold</b> & "quoted"', '2'],
  ['Yamlish', 'true', '- dash: colon #hash', 'null'],
  ['Lines', '', 'first\nsecond', '-3'],
];
const TABLE = tableOf(ROWS, 1);
const OBJECTS = ROWS.slice(1).map((row) => Object.fromEntries(ROWS[0]!.map((key, c) => [key, row[c]])));

describe('renderTable', () => {
  it('markdown: a pipe table with escaped pipes and <br> for newlines', () => {
    expect(renderTable(TABLE, 'markdown')).toBe(
      [
        '| Item | Code | Note | Price |',
        '| --- | --- | --- | --- |',
        '| Pipe | A\\|B | a \\| b | 1.50 |',
        '| Markup | 007 | <b>bold</b> & "quoted" | 2 |',
        '| Yamlish | true | - dash: colon #hash | null |',
        '| Lines |  | first<br>second | -3 |',
      ].join('\n'),
    );
  });

  it('html: <th> only in the header, everything escaped', () => {
    const html = renderTable(TABLE, 'html');
    expect(html.split('\n')[0]).toBe('<table>');
    const [head, body] = html.split('<tbody>');
    expect(head).toContain('<thead>\n<tr><th>Item</th><th>Code</th><th>Note</th><th>Price</th></tr>\n</thead>');
    expect(body!.match(/<th>/g)).toBeNull();
    expect(body!.match(/<tr>/g)).toHaveLength(4);
    expect(html).toContain('<td>&lt;b&gt;bold&lt;/b&gt; &amp; &quot;quoted&quot;</td>');
    expect(html).toContain('<td>first<br>second</td>');
    expect(html.endsWith('</tbody>\n</table>')).toBe(true);
  });

  it('json: an array of row objects keyed by the header that parses back to the same rows', () => {
    const json = renderTable(TABLE, 'json');
    expect(JSON.parse(json)).toEqual(OBJECTS);
    expect(json.split('\n')).toHaveLength(6); // "[", one row per line, "]"
  });

  it('yaml: the same list, parsed back with the yaml package', () => {
    const yaml = renderTable(TABLE, 'yaml');
    expect(YAML.parse(yaml)).toEqual(OBJECTS);
    expect(yaml.startsWith('- Item: Pipe')).toBe(true);
  });

  it('without a header row: markdown prints an empty header line (no invented A | B), json/yaml key columns A, B, …', () => {
    const table = tableOf([['x', 'y'], ['1', '2']], 0);
    expect(renderTable(table, 'markdown')).toBe('|  |  |\n| --- | --- |\n| x | y |\n| 1 | 2 |');
    expect(JSON.parse(renderTable(table, 'json'))).toEqual([{ A: 'x', B: 'y' }, { A: '1', B: '2' }]);
    expect(renderTable(table, 'html')).not.toContain('<th>');
    expect(renderTable(table, 'html')).not.toContain('<thead>');
  });

  it('makes keys unique: empty headers become col_<n>, repeats get _2, _3', () => {
    const table = tableOf([['Name', '', 'Name', 'Name'], ['a', 'b', 'c', 'd']], 1);
    expect(JSON.parse(renderTable(table, 'json'))).toEqual([{ Name: 'a', col_2: 'b', Name_2: 'c', Name_3: 'd' }]);
  });

  it('merged cells: a header spanning columns names each; html uses colspan/rowspan', () => {
    const table: Table = {
      rowCount: 3,
      columnCount: 3,
      headerRows: 1,
      cells: [
        { row: 0, column: 0, rowSpan: 1, columnSpan: 1, text: 'Region', words: [] },
        { row: 0, column: 1, rowSpan: 1, columnSpan: 2, text: 'Sales', words: [] },
        { row: 1, column: 0, rowSpan: 2, columnSpan: 1, text: 'North', words: [] },
        { row: 1, column: 1, rowSpan: 1, columnSpan: 1, text: '1', words: [] },
        { row: 1, column: 2, rowSpan: 1, columnSpan: 1, text: '2', words: [] },
        { row: 2, column: 1, rowSpan: 1, columnSpan: 1, text: '3', words: [] },
        { row: 2, column: 2, rowSpan: 1, columnSpan: 1, text: '4', words: [] },
      ],
    };
    expect(JSON.parse(renderTable(table, 'json'))).toEqual([
      { Region: 'North', Sales: '1', Sales_2: '2' },
      { Region: '', Sales: '3', Sales_2: '4' },
    ]);
    expect(renderTable(table, 'html')).toBe(
      [
        '<table>',
        '<thead>',
        '<tr><th>Region</th><th colspan="2">Sales</th></tr>',
        '</thead>',
        '<tbody>',
        '<tr><td rowspan="2">North</td><td>1</td><td>2</td></tr>',
        '<tr><td>3</td><td>4</td></tr>',
        '</tbody>',
        '</table>',
      ].join('\n'),
    );
    expect(renderTable(table, 'markdown')).toBe('| Region | Sales | Sales |\n| --- | --- | --- |\n| North | 1 | 2 |\n|  | 3 | 4 |');
  });

  it('column letters go past Z', () => {
    expect([0, 25, 26, 27, 701, 702].map(columnLetters)).toEqual(['A', 'Z', 'AA', 'AB', 'ZZ', 'AAA']);
  });
});

describe('renderPage', () => {
  const page = pageOf(
    [
      { kind: 'heading', level: 2, text: 'Title', lines: [] },
      { kind: 'paragraph', text: 'Intro text.', lines: [] },
      { kind: 'list_item', text: '• bullet one', lines: [] },
      { kind: 'list_item', text: '* bullet two\ncontinued', lines: [] },
      { kind: 'list_item', text: '3. numbered', lines: [] },
      { kind: 'list_item', text: 'no marker', lines: [] },
      { kind: 'table', text: '', lines: [], table: 0 },
      { kind: 'paragraph', text: 'After.', lines: [] },
    ],
    [TABLE],
  );

  it('joins blocks with a blank line and consecutive list items with a newline', () => {
    expect(renderPage(page, 'markdown')).toBe(
      [
        '## Title',
        '',
        'Intro text.',
        '',
        '- bullet one',
        '- bullet two\n  continued',
        '3. numbered',
        '- no marker',
        '',
        renderTable(TABLE, 'markdown'),
        '',
        'After.',
      ].join('\n'),
    );
  });

  it('renders tables in the requested format', () => {
    expect(renderPage(page, 'json')).toContain(renderTable(TABLE, 'json'));
    expect(renderPage(page, 'yaml')).toContain(renderTable(TABLE, 'yaml'));
    expect(renderPage(page, 'html')).toContain(renderTable(TABLE, 'html'));
  });

  it('renders an empty page as an empty string; the doc text joins pages with a blank line', () => {
    expect(renderPage(pageOf([]), 'html')).toBe('');
    expect(renderDocText(['page one', 'page two', ''])).toBe('page one\n\npage two\n\n');
  });
});
