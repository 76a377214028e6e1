/**
 * POST /v1/extractions and GET /v1/extractions/{id}/sources through the API (API §6).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { platform, setPlatform } from '../../../functions/platform/platform.ts';
import { dataUrl, startTestCloud, until, type TestCloud } from '../../support/cloud.ts';

let cloud: TestCloud;
beforeAll(async () => {
  cloud = await startTestCloud();
});
afterAll(() => cloud?.close());

const TEXT = ['ACME Supplies Ltd', 'Invoice number: INV-2044', 'Invoice date: 2024-03-05', 'Total due: 1,250.00 EUR', 'Payment terms: 30 days'].join('\n');
const document = { filename: 'invoice.txt', url: dataUrl('text/plain', TEXT) };
const SCHEMA = {
  type: 'object',
  properties: {
    invoice_number: { type: ['string', 'null'], description: 'The invoice number' },
    invoice_date: { type: ['string', 'null'], format: 'date' },
    total: { type: ['number', 'null'], description: 'Total amount due' },
    purchase_order: { type: ['string', 'null'], description: 'Purchase order number' },
  },
  required: ['invoice_number', 'invoice_date', 'total', 'purchase_order'],
  additionalProperties: false,
};

describe('create', () => {
  it('extracts by the schema; the output validates; include_output=false empties it', async () => {
    const r = await cloud.api('POST', '/v1/extractions', { body: { document, json_schema: SCHEMA, metadata: { customer: 'acme' } } });
    expect(r.status).toBe(201);
    expect(r.body).toMatchObject({ status: 'completed', error: null, n_consensus: 1, instructions: null, metadata: { customer: 'acme' }, json_schema: SCHEMA });
    expect(r.body.id).toMatch(/^extr_/);
    expect(r.body.output).toEqual({ invoice_number: 'INV-2044', invoice_date: '2024-03-05', total: 1250, purchase_order: null });
    expect(r.body.consensus.choices).toHaveLength(1);
    const cheap = await cloud.api('GET', `/v1/extractions/${r.body.id}?include_output=false`);
    expect(cheap.body.output).toEqual({});
    expect(cheap.body.consensus).toEqual({ choices: [], likelihoods: {} });
  });

  it('refuses bad schemas with a 422 naming the problem, storing nothing', async () => {
    const before = (await cloud.api('GET', '/v1/extractions?limit=100')).body.data.length;
    const huge = { type: 'object', properties: Object.fromEntries(Array.from({ length: 10_000 }, (_, i) => [`p${i}`, { type: 'string' }])) };
    const cases: Array<[unknown, RegExp]> = [
      [[1, 2], /object|record|expected/i],
      [{ type: 'array', items: {} }, /must describe an object/],
      [{ type: 'object', properties: { a: { type: 'strng' } } }, /not a valid JSON Schema/],
      [{ type: 'object', properties: { a: { $ref: '#/$defs/Missing' } } }, /can't resolve reference/],
      [huge, /more than 5000 properties/],
    ];
    for (const [json_schema, message] of cases) {
      const r = await cloud.api('POST', '/v1/extractions', { body: { document, json_schema } });
      expect(r.status).toBe(422);
      expect(r.body.detail[0].loc).toEqual(['body', 'json_schema']);
      expect(r.body.detail[0].msg).toMatch(message);
    }
    expect((await cloud.api('GET', '/v1/extractions?limit=100')).body.data.length).toBe(before);
  });

  it('a recursive schema is accepted and the work stays bounded', async () => {
    const recursive = {
      type: 'object',
      properties: { invoice_number: { type: ['string', 'null'] }, node: { $ref: '#/$defs/Node' } },
      $defs: { Node: { type: ['object', 'null'], properties: { name: { type: ['string', 'null'] }, child: { $ref: '#/$defs/Node' } } } },
    };
    const started = Date.now();
    const r = await cloud.api('POST', '/v1/extractions', { body: { document, json_schema: recursive } });
    expect(r.status).toBe(201);
    expect(r.body.status).toBe('completed');
    expect(Date.now() - started).toBeLessThan(20_000);
  });
});

describe('sources', () => {
  it('gives every leaf its value and source; text spans slice out exactly the content', async () => {
    const r = await cloud.api('POST', '/v1/extractions', { body: { document, json_schema: SCHEMA } });
    const s = await cloud.api('GET', `/v1/extractions/${r.body.id}/sources`);
    expect(s.status).toBe(200);
    expect(s.body).toMatchObject({ object: 'extraction.sources', extraction_id: r.body.id, document_type: 'txt', file: r.body.file });
    expect(s.body.extraction).toEqual(r.body.output);
    expect(s.body.sources.purchase_order).toEqual({ value: null, source: null });
    const number = s.body.sources.invoice_number;
    expect(number.value).toBe('INV-2044');
    expect(number.source).toMatchObject({ content: 'INV-2044', file_id: r.body.file.id, anchor: { kind: 'text_span', line_start: 2, line_end: 2 } });
    const chars = [...TEXT];
    expect(chars.slice(number.source.anchor.char_start, number.source.anchor.char_end).join('')).toBe('INV-2044');
    const total = s.body.sources.total;
    expect(chars.slice(total.source.anchor.char_start, total.source.anchor.char_end).join('')).toBe(total.source.content);
    expect(total.source.content).toContain('1,250.00');
    expect(total.source.context).toContain('Total due');
  });

  it('unknown → 404 naming the id; not completed → 409 with the status', async () => {
    const unknown = await cloud.api('GET', '/v1/extractions/extr_01m7z0qenejn1pv4p44vpcbwww/sources');
    expect(unknown.status).toBe(404);
    expect(unknown.body).toEqual({ detail: 'Extraction extr_01m7z0qenejn1pv4p44vpcbwww not found' });
    const real = platform();
    let release!: () => void;
    const held = new Promise<void>((resolve) => (release = resolve));
    setPlatform({ ...real, runner: { ...real.runner, start: async (m, e) => { await held; return real.runner.start(m, e); } } });
    // bust_cache: an identical earlier request would be answered from the cache, never queued.
    const creating = cloud.api('POST', '/v1/extractions', { body: { document, json_schema: SCHEMA, background: true, bust_cache: true } });
    try {
      const queued = await until(async () => (await cloud.api('GET', '/v1/extractions?status=queued&limit=1')).body.data[0]);
      const early = await cloud.api('GET', `/v1/extractions/${queued.id}/sources`);
      expect(early.status).toBe(409);
      expect(early.body).toEqual({ detail: `Extraction ${queued.id} has no output to source (status: queued)` });
    } finally {
      setPlatform(real);
      release();
      await creating;
    }
  });
});

describe('list', () => {
  it('filters by metadata (a JSON object that must match) and rejects a malformed filter', async () => {
    const a = await cloud.api('POST', '/v1/extractions', { body: { document, json_schema: SCHEMA, metadata: { customer: 'globex', batch: '7' }, bust_cache: true } });
    await cloud.api('POST', '/v1/extractions', { body: { document, json_schema: SCHEMA, metadata: { customer: 'initech' }, bust_cache: true } });
    const q = encodeURIComponent(JSON.stringify({ customer: 'globex' }));
    const r = await cloud.api('GET', `/v1/extractions?metadata=${q}&limit=100`);
    expect(r.body.data.map((d: { id: string }) => d.id)).toEqual([a.body.id]);
    const both = encodeURIComponent(JSON.stringify({ customer: 'globex', batch: '8' }));
    expect((await cloud.api('GET', `/v1/extractions?metadata=${both}`)).body.data).toEqual([]);
    const bad = await cloud.api('GET', '/v1/extractions?metadata=notjson');
    expect(bad.status).toBe(422);
    expect(bad.body.detail[0].loc).toEqual(['query', 'metadata']);
  });
});
