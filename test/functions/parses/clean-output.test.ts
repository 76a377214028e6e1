/**
 * Parse output carries no control characters or lone surrogates (issue 23), whatever the document
 * held: through the real API, for a DOCX with character references to them and a CSV in every table
 * format.
 */
import { afterAll, beforeAll, expect, it } from 'vitest';
import { dataUrl, startTestCloud, type TestCloud } from '../../support/cloud.ts';
import { buildDocx, para } from '../../support/office-fixtures.ts';

let cloud: TestCloud;
beforeAll(async () => {
  cloud = await startTestCloud();
});
afterAll(() => cloud?.close());

const DOCX = 'application/vnd.openxmlformats-officedocument.wordprocessingml.document';
const UNSAFE = /[\u0000-\u0008\u000B-\u001F\u007F-\u009F]/;
const LONE_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;

function expectClean(output: { pages: string[]; text: string }): void {
  for (const text of [...output.pages, output.text]) {
    expect(UNSAFE.test(text), JSON.stringify(text)).toBe(false);
    expect(LONE_SURROGATE.test(text), JSON.stringify(text)).toBe(false);
  }
}

it('a DOCX holding &#x1;, &#x85; and a lone &#xD800; parses to clean text', async () => {
  const docx = await buildDocx({ body: para('<w:r><w:t xml:space="preserve">Total&#xD800; due&#x1; now&#x85; end</w:t></w:r>') });
  const r = await cloud.api('POST', '/v1/parses', { body: { document: { filename: 'controls.docx', url: dataUrl(DOCX, docx) } } });
  expect(r.status, r.text).toBe(201);
  expectClean(r.body.output);
  expect(r.body.output.text).toMatch(/Total\ufffd due +now +end/);
});

it('a CSV with control characters in its cells parses to clean tables in every format', async () => {
  const csv = 'name,note\nAcme\u0001,paid\u0090 in full\u0007\n';
  for (const format of ['html', 'markdown', 'json', 'yaml']) {
    const r = await cloud.api('POST', '/v1/parses', { body: { document: { filename: 'controls.csv', url: dataUrl('text/csv', csv) }, table_parsing_format: format } });
    expect(r.status, r.text).toBe(201);
    expectClean(r.body.output);
    expect(r.body.output.text, format).toContain('paid  in full');
  }
});
