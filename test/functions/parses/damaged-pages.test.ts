/**
 * No silent loss through the API (issue 23 item 6): a PDF with a damaged page parses, the other
 * pages' text comes back and the damaged page is listed in `failed_pages` with its reason; a PDF
 * none of whose pages reads is a 422; extractions read the same Doc and do not fail on the damage.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { pageLine, pdfWithBrokenPages } from '../../support/damaged-pdf.ts';
import { dataUrl, startTestCloud, until, type TestCloud } from '../../support/cloud.ts';

let cloud: TestCloud;
beforeAll(async () => {
  cloud = await startTestCloud();
});
afterAll(() => cloud?.close());

const pdf = (bytes: Uint8Array, filename = 'damaged.pdf') => ({ filename, url: dataUrl('application/pdf', Buffer.from(bytes)) });
const parse = (body: Record<string, unknown>) => cloud.api('POST', '/v1/parses', { body });
const REASON = 'The page cannot be read (Page dictionary kid reference points to wrong type of object); rendering it for OCR failed the same way';

describe('a PDF with a damaged page', () => {
  it('parses synchronously: the other pages come back, the damaged one is listed with its reason', async () => {
    const r = await parse({ document: pdf(await pdfWithBrokenPages(4, [3])) });
    expect(r.status).toBe(201);
    expect(r.body.status).toBe('completed');
    expect(r.body.error).toBeNull();
    expect(r.body.output.pages).toHaveLength(4);
    expect(r.body.output.pages[0]).toContain(pageLine(1));
    expect(r.body.output.pages[1]).toContain(pageLine(2));
    expect(r.body.output.pages[2]).toBe('');
    expect(r.body.usage.page_count).toBe(4);
    expect(r.body.failed_pages).toEqual([
      { page: 3, reason: REASON },
      { page: 4, reason: 'The page cannot be read (the page tree is damaged before it: pdf.js reaches only 3 of the 4 pages it declares)' },
    ]);
    // Read back, listed and answered from the cache alike; include_output=false leaves it out with the output.
    expect((await cloud.api('GET', `/v1/parses/${r.body.id}`)).body.failed_pages).toEqual(r.body.failed_pages);
    expect((await cloud.api('GET', `/v1/parses/${r.body.id}?include_output=false`)).body.failed_pages).toBeUndefined();
    const again = await parse({ document: pdf(await pdfWithBrokenPages(4, [3])) });
    expect(again.body.id).not.toBe(r.body.id);
    expect(again.body.failed_pages).toEqual(r.body.failed_pages);
  });

  it('in the background too; a document whose pages all read has no failed_pages field', async () => {
    const created = await parse({ document: pdf(await pdfWithBrokenPages(2, [2])), background: true, bust_cache: true });
    expect(created.body.failed_pages).toBeUndefined();
    const done = await until(async () => {
      const g = await cloud.api('GET', `/v1/parses/${created.body.id}`);
      return g.body.status === 'completed' ? g.body : undefined;
    });
    expect(done.output.pages[0]).toContain(pageLine(1));
    expect(done.failed_pages).toEqual([{ page: 2, reason: REASON }]);
    const clean = await parse({ document: pdf(await pdfWithBrokenPages(2, [])) });
    expect(clean.body.output.pages[1]).toContain(pageLine(2));
    expect('failed_pages' in clean.body).toBe(false);
  });

  it('a PDF none of whose pages reads is a 422 that names why', async () => {
    const r = await parse({ document: pdf(await pdfWithBrokenPages(1, [1])) });
    expect(r.status).toBe(422);
    expect(r.body.detail).toEqual([
      { loc: ['body', 'document'], msg: 'The PDF is damaged: page 1 cannot be read (Page dictionary kid reference points to wrong type of object); rendering it for OCR failed the same way', type: 'document_invalid' },
    ]);
  });

  it('an extraction reads the other pages instead of failing', async () => {
    const lines = ['ACME Supplies Ltd\nInvoice number: INV-2044\nTotal due: 1,250.00 EUR', 'Terms and conditions'];
    const json_schema = {
      type: 'object',
      properties: { invoice_number: { type: ['string', 'null'], description: 'The invoice number' } },
      required: ['invoice_number'],
      additionalProperties: false,
    };
    const r = await cloud.api('POST', '/v1/extractions', { body: { document: pdf(await pdfWithBrokenPages(2, [2], lines)), json_schema } });
    expect(r.status).toBe(201);
    expect(r.body.status).toBe('completed');
    expect(r.body.output.invoice_number).toBe('INV-2044');
  });
});
