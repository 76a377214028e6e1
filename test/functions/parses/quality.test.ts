/**
 * The quality bars of the documents issue, measured through the API (POST /v1/parses) on documents
 * the tests generate with known content.
 */
import ExcelJS from 'exceljs';
import { parse as parseYaml } from 'yaml';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { startTestCloud, dataUrl, type TestCloud } from '../../support/cloud.ts';
import { buildDocx, heading, para, PAGE_BREAK_RUN } from '../../support/office-fixtures.ts';
import { twoColumnPdf, wordEditDistance, words } from '../../support/pdf-fixtures.ts';
import { greyToPng, normalizeWord, renderScan, scanToPdf, wordAccuracy } from '../../support/scan-fixtures.ts';
import { tablesPdf } from '../../support/table-fixtures.ts';

let cloud: TestCloud;
beforeAll(async () => {
  cloud = await startTestCloud();
});
afterAll(() => cloud?.close());

async function parse(filename: string, mime: string, bytes: Uint8Array, extra: Record<string, unknown> = {}) {
  const r = await cloud.api('POST', '/v1/parses', { body: { document: { filename, url: dataUrl(mime, Buffer.from(bytes)) }, table_parsing_format: 'markdown', ...extra } });
  expect(r.status, r.text.slice(0, 300)).toBe(201);
  expect(r.body.status, JSON.stringify(r.body.error)).toBe('completed');
  return r.body as { output: { pages: string[]; text: string }; usage: { page_count: number } };
}

/** The words of rendered Markdown, without heading and list markers. */
const textWords = (markdown: string) => words(markdown.replace(/^#+\s/gm, '').replace(/^[-*]\s/gm, ''));

it('reads two-column pages whose content stream interleaves the columns in reading order (≤ 1% word edits)', async () => {
  const fixture = await twoColumnPdf({ pages: 3 });
  const parsed = await parse('columns.pdf', 'application/pdf', fixture.bytes);
  expect(parsed.usage.page_count).toBe(3);
  let edits = 0;
  let total = 0;
  fixture.expectedText.forEach((expected, i) => {
    // "Page N of M" recurs at the foot of every page: a running foot, which the reader drops.
    const truth = words(expected.replace(/Page \d+ of \d+/, ''));
    edits += wordEditDistance(textWords(parsed.output.pages[i]!), truth);
    total += truth.length;
  });
  console.log(`two-column reading order: ${edits} word edits in ${total} words (${((100 * edits) / total).toFixed(2)}%)`);
  expect(edits / total).toBeLessThanOrEqual(0.01);
});

it('OCRs a page rendered at 200 dpi and wrapped in a PDF with no text layer (≥ 97% words)', async () => {
  const scan = renderScan({ dpi: 200 });
  const pdf = await scanToPdf(scan.image);
  const parsed = await parse('scan.pdf', 'application/pdf', pdf, { image_resolution_dpi: 200 });
  const accuracy = wordAccuracy(textWords(parsed.output.text).map(normalizeWord), scan.words.map(normalizeWord));
  console.log(`OCR of a 200 dpi page in a PDF: ${(100 * accuracy).toFixed(1)}% word accuracy`);
  expect(accuracy).toBeGreaterThanOrEqual(0.97);
}, 60_000);

it('OCRs a noisy 150 dpi scan sent as an image (≥ 90% words)', async () => {
  const scan = renderScan({ dpi: 150, noise: { rotateDegrees: 0.6, blur: true, contrast: 0.8, speckles: 0.003, seed: 7 } });
  const parsed = await parse('scan.png', 'image/png', greyToPng(scan.image));
  const accuracy = wordAccuracy(textWords(parsed.output.text).map(normalizeWord), scan.words.map(normalizeWord));
  console.log(`OCR of a noisy 150 dpi PNG: ${(100 * accuracy).toFixed(1)}% word accuracy`);
  expect(accuracy).toBeGreaterThanOrEqual(0.9);
}, 60_000);

it('a DOCX with a page break gives two pages, headings as Markdown', async () => {
  const docx = await buildDocx({ body: heading(1, 'Annual Review') + para('First page text.') + para(['Before the break.', PAGE_BREAK_RUN]) + para('Second page text.') });
  const parsed = await parse('review.docx', 'application/vnd.openxmlformats-officedocument.wordprocessingml.document', docx);
  expect(parsed.output.pages).toHaveLength(2);
  expect(parsed.output.pages[0]).toContain('# Annual Review');
  expect(parsed.output.pages[0]).toContain('First page text.');
  expect(parsed.output.pages[1]).toContain('Second page text.');
});

it('an XLSX with two sheets gives two pages, one table each', async () => {
  const workbook = new ExcelJS.Workbook();
  const prices = workbook.addWorksheet('Prices');
  prices.addRows([['Item', 'Price'], ['Tea', 3.5], ['Cake', 4.25]]);
  const stock = workbook.addWorksheet('Stock');
  stock.addRows([['Item', 'Count'], ['Tea', 40]]);
  const bytes = new Uint8Array(await workbook.xlsx.writeBuffer());
  const parsed = await parse('shop.xlsx', 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet', bytes, { table_parsing_format: 'json' });
  expect(parsed.usage.page_count).toBe(2);
  // Each page says which sheet it is, then gives its table.
  const [first, second] = parsed.output.pages.map((page: string) => /^# Sheet: (.*)\n\n([^]*)$/.exec(page)!.slice(1));
  expect(first![0]).toBe('Prices');
  expect(JSON.parse(first![1]!.trim())).toEqual([
    { Item: 'Tea', Price: '3.5' },
    { Item: 'Cake', Price: '4.25' },
  ]);
  expect(second![0]).toBe('Stock');
  expect(JSON.parse(second![1]!.trim())).toEqual([{ Item: 'Tea', Count: '40' }]);
});

it('reconstructs ruled, unruled and booktabs tables cell-exact, in every table_parsing_format', async () => {
  const { bytes, expected } = await tablesPdf();
  const asRows = (records: Array<Record<string, string>>) => [Object.keys(records[0]!), ...records.map((r) => Object.values(r))];

  const json = await parse('tables.pdf', 'application/pdf', bytes, { table_parsing_format: 'json' });
  const jsonTables = json.output.pages[0]!.split('\n\n').filter((block) => block.startsWith('[')).map((block) => JSON.parse(block) as Array<Record<string, string>>);
  expect(jsonTables.map(asRows)).toEqual(expected);

  const yamlOut = await parse('tables.pdf', 'application/pdf', bytes, { table_parsing_format: 'yaml' });
  const yamlTables = yamlOut.output.pages[0]!.split('\n\n').filter((block) => block.startsWith('- ')).map((block) => parseYaml(block) as Array<Record<string, string>>);
  expect(yamlTables.map((t) => asRows(t).map((row) => row.map(String)))).toEqual(expected);

  const html = await parse('tables.pdf', 'application/pdf', bytes, { table_parsing_format: 'html' });
  const tables = [...html.output.pages[0]!.matchAll(/<table>[\s\S]*?<\/table>/g)].map((m) => m[0]);
  expect(tables).toHaveLength(3);
  tables.forEach((table, i) => {
    const headers = [...table.matchAll(/<th(?:\s[^>]*)?>([\s\S]*?)<\/th>/g)].map((m) => m[1]);
    expect(headers).toEqual(expected[i]![0]);
  });

  const markdown = await parse('tables.pdf', 'application/pdf', bytes, { table_parsing_format: 'markdown' });
  for (const table of expected) {
    for (const row of table) expect(markdown.output.pages[0]).toContain(`| ${row.join(' | ')} |`);
  }
});
