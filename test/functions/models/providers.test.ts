/**
 * The provider engine over an OpenAI-compatible endpoint: a local test server (test/support/openai-server.ts)
 * answers with canned structured outputs, or fails, stalls, or answers invalid JSON.
 */
import { withNullableValues } from '../../../functions/models/nullable-schema.ts';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { Doc } from '../../../functions/documents/doc.ts';
import { renderPageImages } from '../../../functions/documents/page-images.ts';
import { readDocument } from '../../../functions/documents/read.ts';
import type { PageImages } from '../../../functions/models/engine.ts';
import { ProviderEngine, type ProviderOptions } from '../../../functions/models/providers/engine.ts';
import { OpenAiCompatibleClient } from '../../../functions/models/providers/openai-compatible.ts';
import { isStrictCompatible } from '../../../functions/models/providers/validate.ts';
import type { OpenAiCompatibleSettings } from '../../../functions/models/registry.ts';
import { ModelFailure } from '../../../functions/models/engine.ts';
import { startOpenAiServer, systemPrompt, userImages, userText, type OpenAiServer } from '../../support/openai-server.ts';
import { pdfWithBrokenPages } from '../../support/damaged-pdf.ts';
import { textPdf } from '../../support/text-pdf.ts';

const API_KEY = 'sk-test-5ecret-k3y-do-not-leak';
const FAST = { baseDelayMs: 5, maxDelayMs: 20, maxAttempts: 4 };

let server: OpenAiServer;
beforeAll(async () => {
  server = await startOpenAiServer();
});
afterAll(async () => server.close());
beforeEach(() => server.reset());

function engine(options: Partial<OpenAiCompatibleSettings & ProviderOptions> = {}): ProviderEngine {
  const settings: OpenAiCompatibleSettings = {
    provider: 'openai-compatible',
    baseUrl: server.baseUrl,
    model: 'test-model',
    vision: false,
    structuredOutput: 'strict',
    timeoutMs: 5_000,
    ...options,
  } as OpenAiCompatibleSettings;
  return new ProviderEngine(new OpenAiCompatibleClient(settings, API_KEY), {
    vision: settings.vision,
    timeoutMs: settings.timeoutMs,
    retry: options.retry ?? FAST,
    secrets: [API_KEY],
    capabilities: options.capabilities,
  });
}

async function txtDoc(text: string): Promise<Doc> {
  return readDocument(Buffer.from(text), { kind: 'txt', dpi: 72, deadline: Date.now() + 10_000 });
}

const INVOICE_TEXT = 'ACME Corporation\nInvoice number: INV-2024-0042\nInvoice date: March 5, 2024\nTotal due: $1,250.00\n';
const INVOICE_SCHEMA = {
  type: 'object',
  properties: {
    invoice_number: { type: 'string' },
    invoice_date: { type: ['string', 'null'], format: 'date' },
    total: { type: 'number' },
  },
  required: ['invoice_number', 'invoice_date', 'total'],
  additionalProperties: false,
};
const INVOICE_ANSWER = { invoice_number: 'INV-2024-0042', invoice_date: '2024-03-05', total: 1250 };

async function failureOf(work: Promise<unknown>): Promise<ModelFailure> {
  const error = await work.then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(ModelFailure);
  return error as ModelFailure;
}

const fakeImages: PageImages = {
  render: async (pages) => pages.map((page) => ({ page, mediaType: 'image/png', data: new Uint8Array([0x89, 0x50, 0x4e, 0x47, page]) })),
};

describe('OpenAI-compatible provider: extraction', () => {
  it('sends the schema as a strict structured output, the text of the pages, and the instructions in the system prompt', async () => {
    server.answer('extraction', INVOICE_ANSWER);
    const doc = await txtDoc(INVOICE_TEXT);
    const result = await engine().extract({ doc, schema: INVOICE_SCHEMA, instructions: 'Dates in ISO format.', nConsensus: 1, seed: 's' });

    expect(server.requests).toHaveLength(1);
    const request = server.requests[0]!;
    expect(request.headers.authorization).toBe(`Bearer ${API_KEY}`);
    expect(request.body.model).toBe('test-model');
    expect(request.body.temperature).toBe(0);
    // The schema with every value nullable (API §6): the model may say "not in the document".
    expect(request.body.response_format).toEqual({ type: 'json_schema', json_schema: { name: 'extraction', schema: withNullableValues(INVOICE_SCHEMA), strict: true } });
    expect(systemPrompt(request)).toContain('Dates in ISO format.');
    expect(userText(request)).toContain('Invoice number: INV-2024-0042');
    expect(userImages(request)).toEqual([]);

    expect(result.output).toEqual(INVOICE_ANSWER);
    expect(result.choices).toEqual([INVOICE_ANSWER]);
    expect(result.likelihoods).toEqual({ invoice_number: 1, invoice_date: 1, total: 1 });
    // Provenance: the values are located in the Doc, whatever their printing.
    const sources = result.sources as Record<string, { content: string } | null>;
    expect(sources.invoice_number?.content).toBe('INV-2024-0042');
    expect(sources.invoice_date?.content).toBe('March 5, 2024');
    expect(sources.total?.content).toBe('$1,250.00');
  });

  it('sends a schema that strict mode cannot take as non-strict', async () => {
    const loose = { type: 'object', properties: { invoice_number: { type: 'string' } } };
    expect(isStrictCompatible(loose)).toBe(false);
    expect(isStrictCompatible(INVOICE_SCHEMA)).toBe(true);
    server.answer('extraction', { invoice_number: 'INV-2024-0042' });
    await engine().extract({ doc: await txtDoc(INVOICE_TEXT), schema: loose, instructions: null, nConsensus: 1, seed: 's' });
    expect(server.requests[0]!.body.response_format?.json_schema?.strict).toBe(false);
  });

  it('sends page images (not text) to a vision model', async () => {
    server.answer('extraction', INVOICE_ANSWER);
    await engine({ vision: true }).extract({ doc: await txtDoc(INVOICE_TEXT), schema: INVOICE_SCHEMA, instructions: null, nConsensus: 1, seed: 's', pageImages: fakeImages });
    const request = server.requests[0]!;
    expect(userImages(request)).toEqual([`data:image/png;base64,${Buffer.from([0x89, 0x50, 0x4e, 0x47, 1]).toString('base64')}`]);
    expect(userText(request)).not.toContain('INV-2024-0042');

    // More pages than a request may carry images: the text goes instead.
    server.reset();
    server.answer('extraction', INVOICE_ANSWER);
    const small = new ProviderEngine(new OpenAiCompatibleClient({ provider: 'openai-compatible', baseUrl: server.baseUrl, model: 'm', vision: true, structuredOutput: 'strict', timeoutMs: 5_000 }, undefined), {
      vision: true,
      timeoutMs: 5_000,
      maxImages: 0,
    });
    await small.extract({ doc: await txtDoc(INVOICE_TEXT), schema: INVOICE_SCHEMA, instructions: null, nConsensus: 1, seed: 's', pageImages: fakeImages });
    expect(userImages(server.requests[0]!)).toEqual([]);
    expect(userText(server.requests[0]!)).toContain('INV-2024-0042');
  });

  it('in JSON mode puts the schema in the prompt, and repairs an invalid answer once', async () => {
    server.script.push({ content: 'Sure! Here is the data: {invoice_number: INV' });
    server.answer('json', INVOICE_ANSWER);
    const result = await engine({ structuredOutput: 'json' }).extract({ doc: await txtDoc(INVOICE_TEXT), schema: INVOICE_SCHEMA, instructions: null, nConsensus: 1, seed: 's' });
    expect(result.output).toEqual(INVOICE_ANSWER);
    expect(server.requests).toHaveLength(2);
    const [first, repair] = server.requests;
    expect(first!.body.response_format).toEqual({ type: 'json_object' });
    expect(systemPrompt(first!)).toContain(JSON.stringify(withNullableValues(INVOICE_SCHEMA)));
    // The repair turn: the invalid answer, then what was wrong with it.
    const turns = repair!.body.messages.map((m) => m.role);
    expect(turns).toEqual(['system', 'user', 'assistant', 'user']);
    expect(repair!.body.messages[2]!.content).toBe('Sure! Here is the data: {invoice_number: INV');
    expect(repair!.body.messages[3]!.content).toMatch(/not valid: it is not JSON/);
  });

  it('keeps a null for a field the schema does not mark nullable: no repair turn, no failure, no source', async () => {
    server.answer('extraction', { ...INVOICE_ANSWER, total: null });
    const result = await engine().extract({ doc: await txtDoc(INVOICE_TEXT), schema: INVOICE_SCHEMA, instructions: null, nConsensus: 1, seed: 's' });
    expect(server.requests).toHaveLength(1);
    expect(result.output).toEqual({ ...INVOICE_ANSWER, total: null });
    expect((result.sources as Record<string, unknown>).total).toBeNull();
    expect(systemPrompt(server.requests[0]!)).toMatch(/null: never guess/);
  });

  it('repairs an answer that does not match the schema; a second invalid answer fails the run with model_error', async () => {
    server.answer('extraction', { invoice_number: 42 });
    const failure = await failureOf(engine().extract({ doc: await txtDoc(INVOICE_TEXT), schema: INVOICE_SCHEMA, instructions: null, nConsensus: 1, seed: 's' }));
    expect(failure.code).toBe('model_error');
    expect(failure.message).toMatch(/invalid answer twice/);
    expect(server.requests).toHaveLength(2);
    expect(server.requests[1]!.body.messages[3]!.content).toMatch(/does not match the schema/);
  });

  it('consolidates n_consensus parallel samples leaf by leaf', async () => {
    let n = 0;
    server.answer('extraction', () => ({ json: { ...INVOICE_ANSWER, total: n++ === 1 ? 1205 : 1250 } }));
    const result = await engine().extract({ doc: await txtDoc(INVOICE_TEXT), schema: INVOICE_SCHEMA, instructions: null, nConsensus: 3, seed: 's' });
    expect(server.requests).toHaveLength(3);
    expect(server.requests.every((r) => (r.body.temperature ?? 0) > 0)).toBe(true);
    expect(result.output).toEqual(INVOICE_ANSWER);
    expect(result.choices).toHaveLength(3);
    expect(result.likelihoods).toEqual({ invoice_number: 1, invoice_date: 1, total: 2 / 3 });
  });
});

describe('OpenAI-compatible provider: failures', () => {
  const extract = (e: ProviderEngine, doc: Doc, deadline?: number) => e.extract({ doc, schema: INVOICE_SCHEMA, instructions: null, nConsensus: 1, seed: 's', deadline });

  it('retries rate limits and 5xx with backoff, then answers', async () => {
    server.script.push({ status: 429, message: 'Rate limit reached' }, { status: 503, message: 'overloaded' });
    server.answer('extraction', INVOICE_ANSWER);
    const result = await extract(engine(), await txtDoc(INVOICE_TEXT));
    expect(result.output).toEqual(INVOICE_ANSWER);
    expect(server.requests).toHaveLength(3);
  });

  it('waits as long as Retry-After asks (capped by the backoff limit)', async () => {
    server.script.push({ status: 429, message: 'Rate limit reached', headers: { 'retry-after': '1' } });
    server.answer('extraction', INVOICE_ANSWER);
    const started = Date.now();
    await extract(engine({ retry: { baseDelayMs: 5, maxDelayMs: 600, maxAttempts: 3 } }), await txtDoc(INVOICE_TEXT));
    const elapsed = Date.now() - started;
    expect(elapsed).toBeGreaterThanOrEqual(600);
    expect(elapsed).toBeLessThan(1_000 + 500);
    expect(server.requests).toHaveLength(2);
  });

  it('gives up after its attempts with model_unavailable and the provider message, never the API key', async () => {
    server.answer('extraction', () => ({ status: 500, message: `upstream exploded (key ${API_KEY})` }));
    const failure = await failureOf(extract(engine(), await txtDoc(INVOICE_TEXT)));
    expect(failure.code).toBe('model_unavailable');
    expect(failure.message).toContain('upstream exploded');
    expect(failure.message).toContain('"test-model"');
    expect(failure.message).not.toContain(API_KEY);
    expect(server.requests).toHaveLength(FAST.maxAttempts);
  });

  it('stops retrying when the run has no time left for the next backoff', async () => {
    server.answer('extraction', () => ({ status: 429, message: 'Rate limit reached' }));
    const started = Date.now();
    const failure = await failureOf(extract(engine({ retry: { baseDelayMs: 200, maxDelayMs: 1000, maxAttempts: 50 } }), await txtDoc(INVOICE_TEXT), Date.now() + 1_200));
    expect(failure.code).toBe('model_unavailable');
    expect(Date.now() - started).toBeLessThan(1_200);
    expect(server.requests.length).toBeGreaterThanOrEqual(2);
    expect(server.requests.length).toBeLessThan(6);
  });

  it('does not retry a refused request (401): model_error, key redacted', async () => {
    server.answer('extraction', () => ({ status: 401, message: `Incorrect API key provided: ${API_KEY}` }));
    const failure = await failureOf(extract(engine(), await txtDoc(INVOICE_TEXT)));
    expect(failure.code).toBe('model_error');
    expect(failure.message).toContain('Incorrect API key provided');
    expect(failure.message).not.toContain(API_KEY);
    expect(failure.message).not.toContain('5ecret');
    expect(server.requests).toHaveLength(1);
  });

  it('honours the per-request timeout (a stalled endpoint is asked again) and the run deadline', async () => {
    server.script.push({ stall: true });
    server.answer('extraction', INVOICE_ANSWER);
    const result = await extract(engine({ timeoutMs: 200 }), await txtDoc(INVOICE_TEXT));
    expect(result.output).toEqual(INVOICE_ANSWER);
    expect(server.requests).toHaveLength(2);

    server.reset();
    server.answer('extraction', () => ({ stall: true }));
    const started = Date.now();
    const failure = await failureOf(extract(engine({ timeoutMs: 60_000, retry: { baseDelayMs: 10, maxDelayMs: 10, maxAttempts: 50 } }), await txtDoc(INVOICE_TEXT), Date.now() + 800));
    expect(failure.code).toBe('timeout');
    expect(Date.now() - started).toBeLessThan(1_500);
  });

  it('refuses an operation the model is not configured for, without calling it: configuration_error', async () => {
    const failure = await failureOf(engine({ capabilities: ['extract'] }).classify({ doc: await txtDoc(INVOICE_TEXT), categories: [{ name: 'a', description: '' }, { name: 'b', description: '' }], instructions: null, firstNPages: undefined, nConsensus: 1, seed: 's' }));
    expect(failure.code).toBe('configuration_error');
    expect(failure.message).toContain('not configured for classify');
    expect(server.requests).toHaveLength(0);
  });

  it('maps an unreachable endpoint to model_unavailable', async () => {
    const e = engine({ baseUrl: 'http://127.0.0.1:9/v1' });
    const failure = await failureOf(extract(e, await txtDoc(INVOICE_TEXT)));
    expect(failure.code).toBe('model_unavailable');
  });
});

describe('OpenAI-compatible provider: classify, split, partition, parse, schema generation', () => {
  const BUNDLE = ['INVOICE\nInvoice number INV-1\nTotal 10.00', 'INVOICE\nInvoice number INV-1 continued\nTax 1.00', 'RECEIPT\nThank you for shopping'];
  async function bundleDoc(): Promise<Doc> {
    const doc = await txtDoc(BUNDLE.join('\n'));
    // A three-page Doc: one page per text (txt reads as one page).
    const pages = await Promise.all(BUNDLE.map(async (text, i) => ({ ...(await txtDoc(text)).pages[0]!, number: i + 1 })));
    return { ...doc, pages };
  }

  it('classifies: categories as an enum, votes consolidated by majority with likelihood = vote share', async () => {
    const answers = [
      { reasoning: 'It says "INVOICE"', category: 'invoice', confidence: 0.9 },
      { reasoning: 'It says "RECEIPT"', category: 'receipt', confidence: 0.6 },
      { reasoning: '"Invoice number"', category: 'invoice', confidence: 0.8 },
    ];
    let i = 0;
    server.answer('classification', () => ({ json: answers[i++ % 3] }));
    const categories = [
      { name: 'invoice', description: 'a bill' },
      { name: 'receipt', description: '' },
    ];
    const doc = await bundleDoc();
    const result = await engine().classify({ doc, categories, instructions: 'Look at the title.', firstNPages: 1, nConsensus: 3, seed: 's' });
    expect(result.output.category).toBe('invoice');
    expect(result.consensus.choices).toHaveLength(3);
    expect(result.consensus.likelihoods).toBeCloseTo(2 / 3);
    expect(Object.values(result.scores).reduce((a, b) => a + b, 0)).toBeCloseTo(1);
    const request = server.requests[0]!;
    expect((request.body.response_format?.json_schema?.schema as any).properties.category.enum).toEqual(['invoice', 'receipt']);
    expect(systemPrompt(request)).toContain('- invoice: a bill');
    expect(systemPrompt(request)).toContain('Look at the title.');
    // first_n_pages: only page 1 is sent.
    expect(userText(request)).toContain('<page number="1">');
    expect(userText(request)).not.toContain('<page number="2">');
  });

  it('splits: pages normalized (every page once, unknown pages to "other"), one vote is its own answer', async () => {
    server.answer('split', { subdocuments: [{ name: 'invoice', pages: [1, 2, 9] }], confidence: 0.8 });
    const doc = await bundleDoc();
    const result = await engine().split({ doc, subdocuments: [{ name: 'invoice', description: '', allow_multiple_instances: false }, { name: 'receipt', description: '', allow_multiple_instances: false }], instructions: null, nConsensus: 1, seed: 's' });
    expect(result.output).toEqual([
      { name: 'invoice', pages: [1, 2] },
      { name: 'other', pages: [3] },
    ]);
    expect(result.consensus.choices).toHaveLength(1);
    expect(result.consensus.likelihoods[0]!.pages).toEqual([0.8, 0.8]);
  });

  it('partitions by key as printed', async () => {
    server.answer('partition', { partitions: [{ key: 'INV-1', pages: [1, 2] }], confidence: 0.9 });
    const result = await engine().partition({ doc: await bundleDoc(), key: 'invoice number', instructions: 'one per invoice', allowOverlap: false, nConsensus: 1, seed: 's' });
    expect(result.output).toEqual([{ key: 'INV-1', pages: [1, 2] }]);
    expect(systemPrompt(server.requests[0]!)).toContain('invoice number');
  });

  it('parses: a vision model transcribes each page image; a text-only model renders the Doc without a call', async () => {
    server.answer('page', (request) => ({ json: { text: `page from ${userImages(request).length} image` } }));
    const doc = await bundleDoc();
    const vision = await engine({ vision: true }).parse({ doc, tableFormat: 'html', instructions: null, pageImages: fakeImages });
    expect(vision.pages).toEqual(['page from 1 image', 'page from 1 image', 'page from 1 image']);
    expect(server.requests).toHaveLength(3);
    expect(systemPrompt(server.requests[0]!)).toContain('HTML <table>');

    server.reset();
    const text = await engine().parse({ doc, tableFormat: 'html', instructions: null, pageImages: fakeImages });
    expect(text.pages[0]).toContain('INV-1');
    expect(server.requests).toHaveLength(0);
  });

  it('generates a schema: every object level made strict (all properties required, no additional properties)', async () => {
    server.answer('schema', {
      title: 'Invoice',
      schema_type: 'invoice',
      json_schema: { type: 'object', properties: { invoice_number: { type: 'string', description: 'The number' }, buyer: { type: 'object', properties: { name: { type: 'string' } } } } },
    });
    const result = await engine().generateSchema({ docs: [await txtDoc(INVOICE_TEXT), await txtDoc('Invoice number: INV-7')], instructions: null });
    expect(result.title).toBe('Invoice');
    expect(result.schemaType).toBe('invoice');
    expect(result.schema).toMatchObject({ type: 'object', required: ['invoice_number', 'buyer'], additionalProperties: false, properties: { buyer: { required: ['name'], additionalProperties: false } } });
    expect(userText(server.requests[0]!)).toContain('Example document 2');
  });
});

describe('page images', () => {
  it('renders PDF pages as PNG at the requested dpi; image files go as they are; text kinds have none', async () => {
    const pdf = await textPdf([['Page one'], ['Page two']]);
    const images = await renderPageImages(pdf, 'pdf', [2, 5], 36);
    expect(images.map((i) => i.page)).toEqual([2]);
    expect(images[0]!.mediaType).toBe('image/png');
    expect(Buffer.from(images[0]!.data.subarray(0, 4)).toString('latin1')).toBe('\x89PNG');
    // 612 × 792 pt at 36 dpi: 306 × 396 px (PNG IHDR width/height at bytes 16..24).
    const view = Buffer.from(images[0]!.data);
    expect([view.readUInt32BE(16), view.readUInt32BE(20)]).toEqual([306, 396]);
    const png = new Uint8Array([1, 2, 3]);
    expect(await renderPageImages(png, 'png', [1], 192)).toEqual([{ page: 1, mediaType: 'image/png', data: png }]);
    expect(await renderPageImages(Buffer.from('x'), 'txt', [1], 192)).toEqual([]);
  });
});

describe('damaged pages with a vision model (issue 23: no silent loss)', () => {
  const read = (bytes: Uint8Array) => readDocument(bytes, { kind: 'pdf', dpi: 72, deadline: Date.now() + 60_000 });

  it('renders the pages that render and leaves a damaged one out instead of failing them all', async () => {
    const pdf = await pdfWithBrokenPages(3, [2]);
    const images = await renderPageImages(pdf, 'pdf', [1, 2, 3], 36);
    expect(images.map((i) => i.page)).toEqual([1]);
  });

  it('a page the reader could not read is not rendered nor asked about: parse gives it empty, others are told it is damaged', async () => {
    const doc = await read(await pdfWithBrokenPages(3, [2]));
    const asked: number[][] = [];
    const images: PageImages = { render: async (pages) => (asked.push(pages), fakeImages.render(pages)) };
    server.answer('page', (request) => ({ json: { text: `page from ${userImages(request).length} image` } }));
    const parsed = await engine({ vision: true }).parse({ doc, tableFormat: 'markdown', instructions: null, pageImages: images });
    expect(parsed.pages).toEqual(['page from 1 image', '', '']);
    expect(asked).toEqual([[1]]);
    expect(server.requests).toHaveLength(1);

    server.answer('extraction', INVOICE_ANSWER);
    await engine({ vision: true }).extract({ doc, schema: INVOICE_SCHEMA, instructions: null, nConsensus: 1, seed: 's', pageImages: images });
    expect(asked.at(-1)).toEqual([1]);
    const request = server.requests.at(-1)!;
    expect(userImages(request)).toHaveLength(1);
    expect(userText(request)).toContain('Page 2: this page of the file is damaged and cannot be read.');
    expect(userText(request)).toContain('Page 3: this page of the file is damaged and cannot be read.');
  });

  it('a page that reads but whose image cannot be rendered is given to the model as its text', async () => {
    const doc = await txtDoc(INVOICE_TEXT);
    const none: PageImages = { render: async () => [] };
    server.answer('page', (request) => ({ json: { text: `from ${userImages(request).length} image(s): ${userText(request).includes('INV-2024-0042') ? 'text seen' : 'no text'}` } }));
    const parsed = await engine({ vision: true }).parse({ doc, tableFormat: 'markdown', instructions: null, pageImages: none });
    expect(parsed.pages).toEqual(['from 0 image(s): text seen']);
    expect(userText(server.requests.at(-1)!)).toContain('Page 1 (its image cannot be rendered; its text):');
  });
});

describe('form filling (edit value matching)', () => {
  const fields = [
    { key: 'owner_name', type: 'text' as const, description: 'Name of the account owner' },
    { key: 'agree', type: 'checkbox' as const, description: 'I agree to the terms' },
    { key: 'colour', type: 'text' as const, description: 'Favourite colour', options: ['Red', 'Blue'] },
    { key: 'phone', type: 'text' as const, description: 'Phone number' },
  ];

  it('asks one question naming every field, and maps the answer back to the fields', async () => {
    server.answer('form_values', { f0: 'Jane Doe', f1: true, f2: 'Blue', f3: null });
    const result = await engine().fill({ fields, instructions: '{"owner": "Jane Doe", "agrees": true, "favourite colour": "blue"}' });
    expect(result.values).toEqual(['Jane Doe', 'true', 'Blue', null]);
    const request = server.requests[0]!;
    expect(userText(request)).toContain('key "owner_name", text — Name of the account owner');
    expect(userText(request)).toContain('(one of: Red, Blue)');
    expect(userText(request)).toContain('"favourite colour": "blue"');
    const schema = request.body.response_format!.json_schema!.schema as { properties: Record<string, { type: unknown; enum?: unknown[] }> };
    expect(schema.properties.f1!.type).toEqual(['boolean', 'null']);
    expect(schema.properties.f2!.enum).toEqual(['Red', 'Blue', null]);
  });

  it('asks again when a dropdown answer is not an option; blank text is nothing; refuses a model not configured for edits', async () => {
    server.script.push({ json: { f0: 'Jane', f1: false, f2: 'Green', f3: null } });
    server.answer('form_values', { f0: '  ', f1: false, f2: 'Red', f3: '555-0100' });
    expect((await engine().fill({ fields, instructions: 'x' })).values).toEqual([null, 'false', 'Red', '555-0100']);
    expect(server.requests).toHaveLength(2);
    await expect(engine({ capabilities: ['extract'] }).fill({ fields, instructions: 'x' })).rejects.toThrow(/not configured for edit/);
  });
});
