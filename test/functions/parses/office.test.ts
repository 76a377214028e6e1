/**
 * Office formats through POST /v1/parses (API §3): PPTX one page per slide, DOCX text boxes, shapes,
 * equations, headers and footers, XLSX sheet names and comments; any other ZIP a 422 naming it.
 */
import { afterAll, beforeAll, expect, it } from 'vitest';
import { MIME_OF } from '../../../functions/documents/sniff.ts';
import { dataUrl, startTestCloud, type TestCloud } from '../../support/cloud.ts';
import { annotatedWorkbook, quarterlyDeck, textBoxFlyer, wordRecall, zipArchive } from '../../support/office-fixtures.ts';

let cloud: TestCloud;
beforeAll(async () => {
  cloud = await startTestCloud();
});
afterAll(() => cloud?.close());

/** Parses with a generic declared type: the content alone must say what the document is. */
const parse = (filename: string, bytes: Buffer) =>
  cloud.api('POST', '/v1/parses', { body: { document: { filename, url: dataUrl('application/octet-stream', bytes) }, table_parsing_format: 'markdown' } });

it('a PPTX (with a chart embedding a workbook) gives one page per slide, in presentation order', async () => {
  const { bytes, written } = await quarterlyDeck();
  const r = await parse('deck.pptx', bytes);
  expect(r.status).toBe(201);
  expect(r.body.file.mime_type).toBe(MIME_OF.pptx);
  expect(r.body.usage.page_count).toBe(3);
  expect(r.body.output.pages.map((page: string) => page.split('\n')[0])).toEqual(['# Quarterly Review', '# Highlights', '# Results by region']);
  expect(r.body.output.pages[1]).toContain('## Speaker notes\n\nStress the churn figure.');
  expect(r.body.output.pages[2]).toContain('| North | 4.2 M | 12% |');
  expect(wordRecall(written, r.body.output.text)).toEqual({ read: 74, written: 74 });
});

it('a DOCX of text boxes gives every word once; an XLSX names its sheets and gives its comments', async () => {
  const flyer = await textBoxFlyer();
  const docx = await parse('flyer.docx', flyer.bytes);
  expect(docx.status).toBe(201);
  expect(docx.body.output.pages[0]).toContain('Tuesdays at 7 pm in Hall B with Maria.\n\nPottery');
  expect(docx.body.output.pages[0]).toContain('x = (a + b) / 2');
  expect(wordRecall(flyer.written, docx.body.output.text)).toEqual({ read: 61, written: 61 });

  const workbook = await annotatedWorkbook();
  const xlsx = await parse('budget.xlsx', workbook.bytes);
  expect(xlsx.status).toBe(201);
  expect(xlsx.body.output.pages.map((page: string) => page.split('\n')[0])).toEqual(['# Sheet: Budget 2025', '# Sheet: Staff']);
  expect(xlsx.body.output.pages[0]).toContain('- Comment on C3 by Priya Natarajan: Priya Natarajan: Includes two laptops ordered in March.');
  expect(wordRecall(workbook.written, xlsx.body.output.text)).toEqual({ read: 34, written: 34 });
});

it('a ZIP that is no office document: 422 naming it', async () => {
  const r = await parse('photos.zip', zipArchive([{ name: 'photos/cat.jpg', data: Buffer.from('not really a cat') }]));
  expect(r.status).toBe(422);
  expect(r.body.detail[0].loc).toEqual(['body', 'document', 'url']);
  expect(r.body.detail[0].type).toBe('document_unsupported');
  expect(r.body.detail[0].msg).toMatch(/ZIP archive, not a DOCX, XLSX, PPTX or EPUB file/);
});
