/**
 * Spreadsheet splits with regions and POST /v1/splits/reconstruct through the HTTP layer on the
 * local emulators (issue 43 part 4): a split of a workbook says where each subdocument is; its
 * regions (or one's own) give back tables (header, rows, CSV) with the enrichments; a region that
 * names no sheet or no cell is a 422 naming it; nothing is left behind.
 */
import ExcelJS from 'exceljs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { dataUrl, startTestCloud, type TestCloud } from '../../support/cloud.ts';

let cloud: TestCloud;
beforeAll(async () => {
  cloud = await startTestCloud();
});
afterAll(() => cloud?.close());

const XLSX = 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet';

/** Orders (a table from B2, under a title row), Returns (a two-row header, section rows, a key written once per span). */
async function workbook(): Promise<Buffer> {
  const book = new ExcelJS.Workbook();
  const orders = book.addWorksheet('Orders');
  orders.getCell('B2').value = 'Order';
  orders.getCell('C2').value = 'Customer';
  orders.getCell('D2').value = 'Total';
  orders.getCell('B3').value = 'PO-1';
  orders.getCell('C3').value = 'Acme, Inc.';
  orders.getCell('D3').value = 120.5;
  orders.getCell('B4').value = 'PO-2';
  orders.getCell('C4').value = 'Globex';
  orders.getCell('D4').value = 80;
  const returns = book.addWorksheet('Returns');
  returns.addRows([
    ['Return', 'Item', '', 'Reason'],
    ['', 'SKU', 'Qty', ''],
    ['North', '', '', ''],
    ['R-1', 'SKU-9', 2, 'damaged'],
    ['', 'SKU-7', 1, 'late'],
    ['South', '', '', ''],
    ['R-2', 'SKU-1', 5, 'wrong "size"'],
  ]);
  return Buffer.from(await book.xlsx.writeBuffer());
}

async function uploadWorkbook(): Promise<{ id: string; filename: string; mime_type: string }> {
  const r = await cloud.api('POST', '/v1/files', { body: { document: { filename: 'book.xlsx', url: dataUrl(XLSX, await workbook()) } } });
  expect(r.status, r.text).toBe(201);
  return { id: r.body.id, filename: r.body.filename, mime_type: r.body.mime_type };
}

const reconstruct = (body: unknown) => cloud.api('POST', '/v1/splits/reconstruct', { body });

describe('splits of spreadsheets', () => {
  it('each entry says where it is: a region per sheet (its used range and header rows)', async () => {
    const r = await cloud.api('POST', '/v1/splits', { body: { document: { filename: 'book.xlsx', url: dataUrl(XLSX, await workbook()) }, subdocuments: [{ name: 'orders' }, { name: 'returns' }] } });
    expect(r.status, r.text).toBe(201);
    const regions = (r.body.output as Array<{ pages: number[]; regions: unknown[] }>).flatMap((entry) => entry.regions);
    expect(regions).toHaveLength(2);
    expect(regions).toContainEqual({ sheet_index: 0, sheet_name: 'Orders', row_start: 2, row_end: 4, col_start: 2, col_end: 4, header_rows: [2] });
    expect(regions).toContainEqual(expect.objectContaining({ sheet_index: 1, sheet_name: 'Returns', row_start: 1, row_end: 7, col_start: 1, col_end: 4 }));
    // A split's regions are a reconstruct's input as they are.
    const file = { id: r.body.file.id, filename: r.body.file.filename, mime_type: r.body.file.mime_type };
    const tables = await reconstruct({ document: file, subdocuments: (r.body.output as Array<{ name: string; regions: unknown[] }>).map((e) => ({ name: e.name, regions: e.regions })) });
    expect(tables.status, tables.text).toBe(200);
    expect(tables.body.tables.find((t: { header: string[] }) => t.header[0] === 'Order')).toMatchObject({ header: ['Order', 'Customer', 'Total'], rows: [{ cells: ['PO-1', 'Acme, Inc.', '120.5'] }, { cells: ['PO-2', 'Globex', '80'] }] });
  });

  it('a split of a PDF has no regions', async () => {
    const r = await cloud.api('POST', '/v1/splits', { body: { document: { filename: 'a.txt', url: dataUrl('text/plain', 'Invoice INV-1\nTotal 10') }, subdocuments: [{ name: 'invoice' }] } });
    expect(r.status).toBe(201);
    expect(r.body.output[0].regions).toBeUndefined();
  });
});

describe('POST /v1/splits/reconstruct', () => {
  it('a region gives header, rows and RFC 4180 CSV; several header rows are flattened', async () => {
    const document = await uploadWorkbook();
    const r = await reconstruct({
      document,
      subdocuments: [
        { name: 'orders', regions: [{ sheet_index: 0, sheet_name: 'Orders', row_start: 2, row_end: 4, header_rows: [2] }] },
        { name: 'returns', regions: [{ sheet_index: 1, sheet_name: 'Returns', row_start: 1, row_end: 7, col_start: 1, col_end: 4, header_rows: [1, 2] }] },
      ],
    });
    expect(r.status, r.text).toBe(200);
    const [orders, returns] = r.body.tables;
    expect(orders).toEqual({
      label: 'orders',
      header: ['Order', 'Customer', 'Total'],
      rows: [{ cells: ['PO-1', 'Acme, Inc.', '120.5'] }, { cells: ['PO-2', 'Globex', '80'] }],
      csv: 'Order,Customer,Total\nPO-1,"Acme, Inc.",120.5\nPO-2,Globex,80\n',
    });
    // "Item" spans SKU and Qty (a merged group header): flattened per column.
    expect(returns.header).toEqual(['Return', 'Item / SKU', 'Item / Qty', 'Reason']);
    expect(returns.rows).toHaveLength(5);
    expect(returns.csv.split('\n').at(-2)).toBe('R-2,SKU-1,5,"wrong ""size"""');
  });

  it('enrichments: section rows promoted to a column, the key written once filled down', async () => {
    const document = await uploadWorkbook();
    const r = await reconstruct({
      document,
      subdocuments: [
        {
          name: 'returns',
          enrichment: { promote_sections: true, flatten_header: false },
          regions: [{ sheet_index: 1, sheet_name: 'Returns', row_start: 1, row_end: 7, header_rows: [1, 2] }],
        },
      ],
    });
    expect(r.status, r.text).toBe(200);
    // flatten_header false keeps the last header row.
    expect(r.body.tables[0].header).toEqual(['Section', '', 'SKU', 'Qty', '']);
    expect(r.body.tables[0].rows[1].cells).toEqual(['North', '', 'SKU-7', '1', 'late']);
    const withKey = await reconstruct({
      document,
      subdocuments: [{ name: 'returns', partition_key: 'Return', enrichment: { promote_sections: true, fill_key_spans: true }, regions: [{ sheet_index: 1, sheet_name: 'Returns', row_start: 1, row_end: 7, header_rows: [1, 2] }] }],
    });
    expect(withKey.body.tables[0].header).toEqual(['Section', 'Return', 'Item / SKU', 'Item / Qty', 'Reason']);
    expect(withKey.body.tables[0].rows.map((row: { cells: string[] }) => row.cells)).toEqual([
      ['North', 'R-1', 'SKU-9', '2', 'damaged'],
      ['North', 'R-1', 'SKU-7', '1', 'late'],
      ['South', 'R-2', 'SKU-1', '5', 'wrong "size"'],
    ]);
    // Without header rows the columns are named by their letters.
    const bare = await reconstruct({ document, subdocuments: [{ name: 'o', regions: [{ sheet_index: 0, sheet_name: 'Orders', row_start: 3, row_end: 4, col_start: 2, col_end: 3 }] }] });
    expect(bare.body.tables[0]).toMatchObject({ header: ['B', 'C'], rows: [{ cells: ['PO-1', 'Acme, Inc.'] }, { cells: ['PO-2', 'Globex'] }] });
  });

  it('unknown regions → 422 naming the region; bad bodies → 422; a non-spreadsheet → 422; nothing kept', async () => {
    const document = await uploadWorkbook();
    const region = { sheet_index: 0, sheet_name: 'Orders', row_start: 2, row_end: 4 };
    const cases: Array<[unknown, (string | number)[], RegExp]> = [
      [{ document, subdocuments: [{ name: 'x', regions: [{ ...region, sheet_index: 5 }] }] }, ['body', 'subdocuments', 0, 'regions', 0, 'sheet_index'], /not a sheet of the workbook.*0 "Orders", 1 "Returns"/],
      [{ document, subdocuments: [{ name: 'x', regions: [region, { ...region, sheet_name: 'Order' }] }] }, ['body', 'subdocuments', 0, 'regions', 1, 'sheet_name'], /named "Orders", not "Order"/],
      [{ document, subdocuments: [{ name: 'x', regions: [{ ...region, row_start: 50, row_end: 60 }] }] }, ['body', 'subdocuments', 0, 'regions', 0, 'row_start'], /hold no cells.*rows 2–4/],
      [{ document, subdocuments: [{ name: 'x', regions: [{ ...region, col_start: 9, col_end: 12 }] }] }, ['body', 'subdocuments', 0, 'regions', 0, 'col_start'], /columns 9–12 \(I–L\)/],
      [{ document, subdocuments: [{ name: 'x', partition_key: 'Nope', enrichment: { fill_key_spans: true }, regions: [{ ...region, header_rows: [2] }] }] }, ['body', 'subdocuments', 0, 'partition_key'], /not a column.*"Order"/],
      [{ document, subdocuments: [{ name: 'x', regions: [{ ...region, row_end: 1 }] }] }, ['body', 'subdocuments', 0, 'regions', 0, 'row_end'], /before row_start/],
      [{ document, subdocuments: [{ name: 'x', regions: [{ ...region, header_rows: [9] }] }] }, ['body', 'subdocuments', 0, 'regions', 0, 'header_rows', 0], /outside the region/],
      [{ document, subdocuments: [{ name: 'x', regions: [{ ...region, row_start: 0 }] }] }, ['body', 'subdocuments', 0, 'regions', 0, 'row_start'], /./],
      [{ document, subdocuments: [{ name: 'x', regions: [] }] }, ['body', 'subdocuments', 0, 'regions'], /at least 1 region/],
      [{ document, subdocuments: [] }, ['body', 'subdocuments'], /at least 1 subdocument/],
      [{ subdocuments: [{ name: 'x', regions: [region] }] }, ['body', 'document'], /./],
      [{ document: { id: 'file_01m7z0qenejn1pv4p44vpcbwww', filename: 'x.xlsx' }, subdocuments: [{ name: 'x', regions: [region] }] }, ['body', 'document', 'id'], /not found/],
    ];
    for (const [body, loc, msg] of cases) {
      const r = await reconstruct(body);
      expect(r.status, `${JSON.stringify(loc)}: ${r.text}`).toBe(422);
      expect(r.body.detail[0].loc).toEqual(loc);
      expect(r.body.detail[0].msg).toMatch(msg);
    }
    const pdf = await cloud.api('POST', '/v1/files', { body: { document: { filename: 'a.txt', url: dataUrl('text/plain', 'not a sheet') } } });
    const text = await reconstruct({ document: { id: pdf.body.id, filename: 'a.txt' }, subdocuments: [{ name: 'x', regions: [region] }] });
    expect(text.status).toBe(422);
    expect(text.body.detail[0]).toMatchObject({ loc: ['body', 'document'], msg: expect.stringMatching(/XLSX or CSV/) });
    // The internal runs are gone, and free.
    const usage = await cloud.api('GET', '/v1/usage');
    expect(usage.body.by_operation.split_reconstruct).toBeUndefined();
  });

  it('a CSV is one sheet, index 0, named after its file', async () => {
    const csv = 'sku,qty\nA,1\nB,2\n';
    const file = await cloud.api('POST', '/v1/files', { body: { document: { filename: 'stock.csv', url: dataUrl('text/csv', csv) } } });
    const r = await reconstruct({ document: { id: file.body.id, filename: 'stock.csv' }, subdocuments: [{ name: 'stock', regions: [{ sheet_index: 0, sheet_name: 'stock.csv', row_start: 1, row_end: 3, header_rows: [1] }] }] });
    expect(r.status, r.text).toBe(200);
    expect(r.body.tables[0]).toMatchObject({ label: 'stock', header: ['sku', 'qty'], csv });
  });
});
