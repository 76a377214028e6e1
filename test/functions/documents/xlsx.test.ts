/**
 * XLSX reader: one page per sheet in workbook order, values as displayed (numbers, dates, formula
 * results, rich text), header detection, exact `cell` origins (API §6.2 `spreadsheet_cell`).
 */
import ExcelJS from 'exceljs';
import JSZip from 'jszip';
import { describe, expect, it } from 'vitest';
import { ReadFailure, tableRows, type Page } from '../../../functions/documents/doc.ts';
import { renderPage } from '../../../functions/documents/render.ts';
import { readXlsx } from '../../../functions/documents/xlsx.ts';
import { annotatedWorkbook, buildDocx, declareSize, para, wordRecall } from '../../support/office-fixtures.ts';
import { failure } from '../../support/read-failure.ts';

const read = (bytes: Uint8Array) => readXlsx(bytes, { deadline: Date.now() + 10_000 });

async function workbookBytes(build: (workbook: ExcelJS.Workbook) => void): Promise<Buffer> {
  const workbook = new ExcelJS.Workbook();
  build(workbook);
  return Buffer.from(await workbook.xlsx.writeBuffer());
}


function salesAndNotes(workbook: ExcelJS.Workbook): void {
  const sales = workbook.addWorksheet('Sales');
  sales.addRow(['Product', 'Units', 'Price', 'Sold on', 'Discount', 'Total']);
  sales.addRow(['Widget', 3, 2.5, new Date(Date.UTC(2024, 2, 15)), 0.15, { formula: 'B2*C2', result: 7.5 }]);
  sales.addRow(['Gadget 😀', 10, 1.25, new Date(Date.UTC(2024, 11, 1)), 0.075, { formula: 'B3*C3', result: 12.5 }]);
  sales.getColumn(3).numFmt = '0.00';
  sales.getColumn(4).numFmt = 'yyyy-mm-dd';
  sales.getColumn(5).numFmt = '0.0%';

  // Starts at B2: the table still starts at column A so its letters are the sheet's.
  const notes = workbook.addWorksheet('Notes');
  notes.getCell('B2').value = 'Remember';
  notes.getCell('B3').value = { richText: [{ text: 'bold ', font: { bold: true } }, { text: 'plain' }] };
  notes.getCell('C3').value = 'a “quoted” note';
}

describe('readXlsx', () => {
  it('gives one page per sheet, named after it, with values as displayed', async () => {
    const pages = await read(await workbookBytes(salesAndNotes));
    expect(pages.map((p) => [p.number, p.name, p.unit, p.ocr])).toEqual([
      [1, 'Sales', 'none', false],
      [2, 'Notes', 'none', false],
    ]);
    expect(renderPage(pages[0]!, 'markdown')).toBe(
      [
        '# Sheet: Sales',
        '',
        '| Product | Units | Price | Sold on | Discount | Total |',
        '| --- | --- | --- | --- | --- | --- |',
        '| Widget | 3 | 2.50 | 2024-03-15 | 15.0% | 7.5 |',
        '| Gadget 😀 | 10 | 1.25 | 2024-12-01 | 7.5% | 12.5 |',
      ].join('\n'),
    );
    // An all-text sheet gives no evidence of a header: columns are named by letter.
    expect(pages[1]!.tables[0]!.headerRows).toBe(0);
    expect(renderPage(pages[1]!, 'markdown')).toBe(['# Sheet: Notes', '', '| A | B | C |', '| --- | --- | --- |', '|  | Remember |  |', '|  | bold plain | a “quoted” note |'].join('\n'));
  });

  it('gives exact cell origins', async () => {
    const [sales, notes] = await read(await workbookBytes(salesAndNotes));
    const origin = (page: Page, text: string) => page.words.filter((w) => w.text === text).map((w) => w.origin);
    expect(origin(sales!, 'Product')).toEqual([{ kind: 'cell', sheetIndex: 0, sheetName: 'Sales', row: 1, column: 0 }]);
    expect(origin(sales!, '😀')).toEqual([{ kind: 'cell', sheetIndex: 0, sheetName: 'Sales', row: 3, column: 0 }]);
    expect(origin(sales!, '2024-12-01')).toEqual([{ kind: 'cell', sheetIndex: 0, sheetName: 'Sales', row: 3, column: 3 }]);
    expect(origin(sales!, '12.5')).toEqual([{ kind: 'cell', sheetIndex: 0, sheetName: 'Sales', row: 3, column: 5 }]);
    expect(origin(notes!, 'Remember')).toEqual([{ kind: 'cell', sheetIndex: 1, sheetName: 'Notes', row: 2, column: 1 }]);
    expect(origin(notes!, 'plain')).toEqual([{ kind: 'cell', sheetIndex: 1, sheetName: 'Notes', row: 3, column: 1 }]);
    const table = sales!.tables[0]!;
    expect([table.rowCount, table.columnCount, table.headerRows]).toEqual([3, 6, 1]);
    expect(tableRows(table)[2]).toEqual(['Gadget 😀', '10', '1.25', '2024-12-01', '7.5%', '12.5']);
  });

  it('renders the header row as <th> and the JSON as rows keyed by header', async () => {
    const [sales] = await read(await workbookBytes(salesAndNotes));
    expect(JSON.parse(renderPage(sales!, 'json').replace('# Sheet: Sales\n\n', ''))).toEqual([
      { Product: 'Widget', Units: '3', Price: '2.50', 'Sold on': '2024-03-15', Discount: '15.0%', Total: '7.5' },
      { Product: 'Gadget 😀', Units: '10', Price: '1.25', 'Sold on': '2024-12-01', Discount: '7.5%', Total: '12.5' },
    ]);
    expect(renderPage(sales!, 'html')).toMatch(/^# Sheet: Sales\n\n<table>\n<thead>\n<tr><th>Product<\/th>/);
  });

  it('shows dates with times, booleans, errors, general numbers and string formula results', async () => {
    const bytes = await workbookBytes((workbook) => {
      const sheet = workbook.addWorksheet('Mixed');
      sheet.addRow([new Date(Date.UTC(2024, 0, 2, 13, 45, 30)), true, { error: '#DIV/0!' }, 0.1 + 0.2, { formula: 'A9&"x"', result: 'abcx' }]);
      sheet.getCell('A1').numFmt = 'yyyy-mm-dd hh:mm:ss';
    });
    const [page] = await read(bytes);
    expect(tableRows(page!.tables[0]!)).toEqual([['2024-01-02T13:45:30', 'TRUE', '#DIV/0!', '0.3', 'abcx']]);
  });

  it('gives an empty sheet a page with only its name, in workbook order', async () => {
    const bytes = await workbookBytes((workbook) => {
      workbook.addWorksheet('First').addRow(['x']);
      workbook.addWorksheet('Blank');
      workbook.addWorksheet('Last').addRow(['y']);
    });
    const pages = await read(bytes);
    expect(pages.map((p) => [p.number, p.name, p.blocks.length])).toEqual([
      [1, 'First', 2],
      [2, 'Blank', 1],
      [3, 'Last', 2],
    ]);
    expect(pages[2]!.words[0]!.origin).toEqual({ kind: 'cell', sheetIndex: 2, sheetName: 'Last', row: 1, column: 0 });
  });

  it('refuses corrupt, encrypted, non-spreadsheet and bomb-like files', async () => {
    const good = await workbookBytes(salesAndNotes);
    expect((await failure(read(Buffer.from('garbage, not a workbook')))).message).toMatch(/corrupt/);
    expect((await failure(read(good.subarray(0, good.length - 40)))).message).toMatch(/corrupt/);
    expect((await failure(read(await buildDocx({ body: para('a docx') })))).message).toMatch(/no xl\/workbook\.xml/);
    const ole = Buffer.concat([Buffer.from([0xd0, 0xcf, 0x11, 0xe0, 0xa1, 0xb1, 0x1a, 0xe1]), Buffer.alloc(512)]);
    expect((await failure(read(ole))).code).toBe('document_unsupported');
    // A sheet whose header understates its size: refused before exceljs inflates it.
    const lying = declareSize(good, 'xl/worksheets/sheet1.xml', 10);
    expect((await failure(read(lying))).message).toMatch(/sheet1\.xml does not match its declared size/);
  });

  it('reads parts in any ZIP order (sheets before the workbook and styles)', async () => {
    const source = await JSZip.loadAsync(await workbookBytes(salesAndNotes));
    const names = Object.keys(source.files).filter((name) => !source.files[name]!.dir);
    const rank = (name: string) => (name.endsWith('workbook.xml.rels') ? 0 : name.endsWith('sharedStrings.xml') ? 1 : name.includes('worksheets/') ? 2 : 3);
    const reordered = new JSZip();
    for (const name of names.sort((a, b) => rank(a) - rank(b))) reordered.file(name, await source.file(name)!.async('nodebuffer'));
    const pages = await read(await reordered.generateAsync({ type: 'nodebuffer', compression: 'DEFLATE' }));
    expect(pages.map((p) => p.name)).toEqual(['Sales', 'Notes']);
    expect(tableRows(pages[0]!.tables[0]!)[1]).toEqual(['Widget', '3', '2.50', '2024-03-15', '15.0%', '7.5']);
  });

  it('refuses a workbook whose sheet XML is broken', async () => {
    const zip = await JSZip.loadAsync(await workbookBytes(salesAndNotes));
    zip.file('xl/worksheets/sheet1.xml', '<worksheet xmlns="http://schemas.openxmlformats.org/spreadsheetml/2006/main"><sheetData><row r="1"><c r="A1" t="s"><v>0</v></c></row></oops>');
    const broken = await zip.generateAsync({ type: 'nodebuffer', compression: 'DEFLATE' });
    expect((await failure(read(broken))).message).toMatch(/corrupt/);
  });

  it('refuses sheets whose used range is beyond the cell limit', async () => {
    const bytes = await workbookBytes((workbook) => {
      const sheet = workbook.addWorksheet('Sparse');
      sheet.getCell('A1').value = 'corner';
      sheet.getCell('ZZ5000').value = 'far corner';
    });
    expect((await failure(read(bytes))).message).toMatch(/more than the 1000000 that can be read/);
  });

  it('times out past its deadline', async () => {
    const bytes = await workbookBytes(salesAndNotes);
    expect((await failure(readXlsx(bytes, { deadline: Date.now() - 1 }))).code).toBe('timeout');
  });

  it('says which sheet each page is and reads cell comments, their words pointing at the commented cell', async () => {
    const { bytes, written } = await annotatedWorkbook();
    const [budget, staff] = await read(bytes);
    expect(renderPage(budget!, 'markdown')).toBe(
      [
        '# Sheet: Budget 2025',
        '',
        '| Line | Owner | Amount |',
        '| --- | --- | --- |',
        '| Travel | Dana | 1200 |',
        '| Hardware | Lee | 5400 |',
        '',
        '- Comment on C3 by Priya Natarajan: Priya Natarajan: Includes two laptops ordered in March.',
      ].join('\n'),
    );
    // A threaded comment's notice for older readers is dropped; the comment and its reply are kept.
    expect(renderPage(staff!, 'markdown')).toMatch(/^# Sheet: Staff\n\n[^]*\n\n- Comment on B2 by tc=\{6A0E\}: Promoted to senior engineer in April\. Confirmed by HR\.$/);
    expect(budget!.words.filter((w) => w.text === 'laptops').map((w) => w.origin)).toEqual([{ kind: 'cell', sheetIndex: 0, sheetName: 'Budget 2025', row: 3, column: 2 }]);
    expect(staff!.words.filter((w) => w.text === 'HR.').map((w) => w.origin)).toEqual([{ kind: 'cell', sheetIndex: 1, sheetName: 'Staff', row: 2, column: 1 }]);
    const text = [budget!, staff!].map((page) => renderPage(page, 'markdown')).join('\n\n');
    expect(wordRecall(written, text)).toEqual({ read: 34, written: 34 });
  });
});
