/**
 * Provider-backed models through the API (API §14): a test cloud configured with QUIRE_MODELS pointing
 * at a loopback OpenAI-compatible test server. Runs with the provider's model name reach the server;
 * runs with quire-local never do.
 */
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { resetModelRegistry } from '../../../functions/models/registry.ts';
import { dataUrl, startTestCloud, type TestCloud } from '../../support/cloud.ts';
import { startOpenAiServer, userImages, userText, type OpenAiServer } from '../../support/openai-server.ts';
import { pdfWithBrokenPages } from '../../support/damaged-pdf.ts';
import { textPdf } from '../../support/text-pdf.ts';

const API_KEY = 'sk-e2e-very-secret-key';
let cloud: TestCloud;
let server: OpenAiServer;

beforeAll(async () => {
  server = await startOpenAiServer();
  process.env.QUIRE_TEST_PROVIDER_KEY = API_KEY;
  process.env.QUIRE_MODELS = JSON.stringify({
    'test-gpt': { provider: 'openai-compatible', baseUrl: server.baseUrl, apiKeyEnv: 'QUIRE_TEST_PROVIDER_KEY', model: 'gpt-test', creditsPerPage: 2, timeoutMs: 5_000 },
    'test-vision': { provider: 'openai-compatible', baseUrl: server.baseUrl, model: 'gpt-vision-test', vision: true, timeoutMs: 5_000 },
    'retab-large': { alias: 'test-gpt' },
  });
  resetModelRegistry();
  cloud = await startTestCloud();
});
afterAll(async () => {
  await cloud?.close();
  await server?.close();
  delete process.env.QUIRE_MODELS;
  delete process.env.QUIRE_TEST_PROVIDER_KEY;
  resetModelRegistry();
});
beforeEach(() => server.reset());

const TEXT = ['ACME Supplies Ltd', 'Invoice number: INV-2044', 'Invoice date: 2024-03-05', 'Total due: 1,250.00 EUR'].join('\n');
const document = { filename: 'invoice.txt', url: dataUrl('text/plain', TEXT) };
const SCHEMA = {
  type: 'object',
  properties: { invoice_number: { type: ['string', 'null'] }, total: { type: ['number', 'null'] } },
  required: ['invoice_number', 'total'],
  additionalProperties: false,
};

describe('provider models through the API', () => {
  it('lists the configured models with their provider, capabilities and credits', async () => {
    const r = await cloud.api('GET', '/v1/models');
    expect(r.status).toBe(200);
    const byId = Object.fromEntries((r.body.data as Array<{ id: string; capabilities: string[] }>).map((m) => [m.id, m]));
    expect(byId['test-gpt']).toMatchObject({ provider: 'openai-compatible', credits_per_page: 2 });
    expect(byId['test-gpt'].capabilities).toEqual(expect.arrayContaining(['parse', 'classify', 'extract', 'generate_schema']));
    expect(byId['retab-large']).toMatchObject({ provider: 'openai-compatible', credits_per_page: 2 });
    expect(byId['quire-local']).toMatchObject({ provider: 'quire-local' });
    const unknown = await cloud.api('POST', '/v1/extractions', { body: { document, json_schema: SCHEMA, model: 'gpt-5' } });
    expect(unknown.status).toBe(422);
    expect(unknown.body.detail[0].msg).toContain('test-gpt');
  });

  it('runs an extraction on the provider: output, provenance, credits at the model rate', async () => {
    server.answer('extraction', { invoice_number: 'INV-2044', total: 1250 });
    const r = await cloud.api('POST', '/v1/extractions', { body: { document, json_schema: SCHEMA, model: 'test-gpt', instructions: 'Amounts as numbers.', bust_cache: true } });
    expect(r.status).toBe(201);
    expect(r.body).toMatchObject({ status: 'completed', error: null, model: 'test-gpt', output: { invoice_number: 'INV-2044', total: 1250 }, usage: { credits: 2 } });
    expect(server.requests).toHaveLength(1);
    expect(server.requests[0]!.body.model).toBe('gpt-test');
    expect(server.requests[0]!.headers.authorization).toBe(`Bearer ${API_KEY}`);
    expect(userText(server.requests[0]!)).toContain('Invoice number: INV-2044');
    const sources = await cloud.api('GET', `/v1/extractions/${r.body.id}/sources`);
    expect(sources.body.sources.invoice_number.source).toMatchObject({ content: 'INV-2044', anchor: { kind: 'text_span', line_start: 2 } });
    expect(sources.body.sources.total.source).toMatchObject({ content: '1,250.00' });

    // An alias of the provider model goes to the same endpoint.
    const aliased = await cloud.api('POST', '/v1/extractions', { body: { document, json_schema: SCHEMA, model: 'retab-large', bust_cache: true } });
    expect(aliased.body).toMatchObject({ status: 'completed', model: 'retab-large' });
    expect(server.requests).toHaveLength(2);
  });

  it('fails the run with model_error and the provider message (no key) when the provider refuses', async () => {
    server.answer('classification', () => ({ status: 401, message: `Incorrect API key provided: ${API_KEY}` }));
    const r = await cloud.api('POST', '/v1/classifications', {
      body: { document, categories: [{ name: 'invoice' }, { name: 'receipt' }], model: 'test-gpt', bust_cache: true },
    });
    expect(r.status).toBe(201);
    expect(r.body.status).toBe('failed');
    expect(r.body.error).toMatchObject({ code: 'model_error', details: null });
    expect(r.body.error.message).toContain('Incorrect API key provided');
    expect(r.body.error.message).not.toContain(API_KEY);
  });

  it('parses a PDF with a vision model from page images rendered at image_resolution_dpi', async () => {
    server.answer('page', (request) => ({ json: { text: `# Page\n\n${userImages(request).length} image(s)` } }));
    const pdf = await textPdf([['First page'], ['Second page']]);
    const r = await cloud.api('POST', '/v1/parses', { body: { document: { filename: 'two.pdf', url: dataUrl('application/pdf', Buffer.from(pdf)) }, model: 'test-vision', image_resolution_dpi: 72, bust_cache: true } });
    expect(r.body).toMatchObject({ status: 'completed', output: { pages: ['# Page\n\n1 image(s)', '# Page\n\n1 image(s)'] }, usage: { page_count: 2, credits: 2 } });
    expect(server.requests).toHaveLength(2);
    const image = userImages(server.requests[0]!)[0]!;
    expect(image.startsWith('data:image/png;base64,')).toBe(true);
    // 612 pt wide at 72 dpi: a 612 px wide PNG.
    expect(Buffer.from(image.slice('data:image/png;base64,'.length), 'base64').readUInt32BE(16)).toBe(612);
  });

  it('a vision parse of a PDF with damaged pages completes the others and lists the damaged ones in failed_pages, as the text path does', async () => {
    server.answer('page', (request) => ({ json: { text: `Seen: ${userText(request).replace(/\s+/g, ' ').trim()} with ${userImages(request).length} image(s)` } }));
    const pdf = await pdfWithBrokenPages(4, [3]);
    const r = await cloud.api('POST', '/v1/parses', { body: { document: { filename: 'damaged.pdf', url: dataUrl('application/pdf', Buffer.from(pdf)) }, model: 'test-vision', image_resolution_dpi: 72, bust_cache: true } });
    expect(r.status, r.text).toBe(201);
    expect(r.body).toMatchObject({ status: 'completed', error: null, usage: { page_count: 4 } });
    expect(r.body.output.pages).toEqual(['Seen: Page: 1 page, as images. Page 1: with 1 image(s)', 'Seen: Page: 1 page, as images. Page 2: with 1 image(s)', '', '']);
    // The same pages and reasons as a parse with the built-in engine gives.
    const local = await cloud.api('POST', '/v1/parses', { body: { document: { filename: 'damaged.pdf', url: dataUrl('application/pdf', Buffer.from(pdf)) }, bust_cache: true } });
    expect(local.body.failed_pages).toHaveLength(2);
    expect(r.body.failed_pages).toEqual(local.body.failed_pages);
    // The model is asked about the pages that read, never about a damaged one.
    expect(server.requests).toHaveLength(2);
  });

  it('never calls a provider when quire-local is chosen', async () => {
    server.answer('extraction', { invoice_number: 'WRONG', total: 0 });
    server.answer('classification', { reasoning: 'x', category: 'receipt', confidence: 1 });
    const runs = await Promise.all([
      cloud.api('POST', '/v1/extractions', { body: { document, json_schema: SCHEMA, bust_cache: true } }),
      cloud.api('POST', '/v1/classifications', { body: { document, categories: [{ name: 'invoice' }, { name: 'receipt' }], model: 'quire-local', bust_cache: true } }),
      cloud.api('POST', '/v1/splits', { body: { document, subdocuments: [{ name: 'invoice' }], model: 'retab-small', bust_cache: true } }),
      cloud.api('POST', '/v1/parses', { body: { document, bust_cache: true } }),
    ]);
    for (const r of runs) expect(r.body.status).toBe('completed');
    expect(runs[0]!.body.output.invoice_number).toBe('INV-2044');
    expect(server.requests).toHaveLength(0);
  });
});
