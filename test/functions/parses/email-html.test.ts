/**
 * E-mail and HTML through POST /v1/parses on the real local stack (API §3, §0.4): the stored File's
 * type, one output page per Doc page (the message, then each attachment's pages), page_count, and a
 * clear 422 for an Outlook file that holds no message.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { dataUrl, startTestCloud, type TestCloud } from '../../support/cloud.ts';
import { INVOICE_SUBJECT, invoiceEmail, outlookMessage } from '../../support/mail-fixtures.ts';

let cloud: TestCloud;
beforeAll(async () => {
  cloud = await startTestCloud();
});
afterAll(() => cloud?.close());

const parse = (body: Record<string, unknown>) => cloud.api('POST', '/v1/parses', { body });

describe('parse an e-mail', () => {
  it('page 1 is the message, pages 2-3 the PDF attachment; page_count counts them all', async () => {
    // A generic MIME type: the content says it is an e-mail.
    const r = await parse({ document: { filename: 'invoice.eml', url: dataUrl('application/octet-stream', await invoiceEmail()) } });
    expect(r.status).toBe(201);
    expect(r.body).toMatchObject({ status: 'completed', error: null, file: { filename: 'invoice.eml', mime_type: 'message/rfc822' }, usage: { page_count: 3 } });
    const pages: string[] = r.body.output.pages;
    expect(pages).toHaveLength(3);
    expect(pages[0]).toContain(`Subject: ${INVOICE_SUBJECT}`);
    expect(pages[0]).toContain('From: Acme Billing <billing@acme.example>');
    expect(pages[0]).toContain('The total of EUR 12,480.00 is due on 2 April 2026.');
    expect(pages[1]).toMatch(/^## Attachment 1: INV-2026-031\.pdf\n\n/);
    expect(pages[1]).toContain('INVOICE INV-2026-031');
    expect(pages[2]).toContain('IBAN DE89 3704 0044 0532 0130 00');
    expect(r.body.output.text).toBe(pages.join('\n\n'));
  });

  it('an Outlook .msg: the message, the 2 pages of its PDF, the embedded message; an OLE file with no message → 422 naming the format', async () => {
    const r = await parse({ document: { filename: 'offer.msg', url: dataUrl('application/vnd.ms-outlook', Buffer.from(await outlookMessage())) } });
    expect(r.status).toBe(201);
    expect(r.body).toMatchObject({ status: 'completed', file: { mime_type: 'application/vnd.ms-outlook' }, usage: { page_count: 4 } });
    const pages: string[] = r.body.output.pages;
    expect(pages[0]).toContain('Cc: Accounts <accounts@example.org>');
    expect(pages[1]).toMatch(/^## Attachment 1: INV-2026-031\.pdf/);
    expect(pages[3]).toContain('All 3 desk lamps are in stock.');

    const empty = Buffer.concat([Buffer.from([0xd0, 0xcf, 0x11, 0xe0, 0xa1, 0xb1, 0x1a, 0xe1]), Buffer.alloc(600)]);
    const refused = await parse({ document: { filename: 'offer.msg', url: dataUrl('application/octet-stream', empty) } });
    expect(refused.status).toBe(422);
    expect(refused.body.detail[0]).toMatchObject({ loc: ['body', 'document'], type: 'document_invalid' });
    expect(refused.body.detail[0].msg).toMatch(/\.msg file holds no Outlook message/);
  });
});

describe('parse HTML', () => {
  it('one page with the heading, the paragraph and the table in the requested format', async () => {
    const html = `<!DOCTYPE html><html><head><title>Prices</title><script>var tracking = 1;</script></head><body>
      <h1>Price list</h1><p>Valid from <time>1 May 2026</time>.</p>
      <table><tr><th>Product</th><th>Price</th></tr><tr><td>Tea</td><td>3.50</td></tr><tr><td>Coffee</td><td>4.20</td></tr></table>
      </body></html>`;
    const r = await parse({ document: { filename: 'prices.html', url: dataUrl('text/html', html) }, table_parsing_format: 'json' });
    expect(r.status).toBe(201);
    expect(r.body).toMatchObject({ status: 'completed', file: { mime_type: 'text/html' }, usage: { page_count: 1 } });
    const [page] = r.body.output.pages as string[];
    expect(page).toBe('# Price list\n\nValid from 1 May 2026.\n\n[\n{"Product":"Tea","Price":"3.50"},\n{"Product":"Coffee","Price":"4.20"}\n]');
  });
});
