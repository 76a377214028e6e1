/**
 * POST /v1/consensus through the HTTP layer on the local emulators: the wire shape the Retab SDK
 * reads (consensus, likelihoods by path, fields, alignment), bad input answered 422 naming the
 * problem, and a 1,000-input consensus well within API Gateway's 29 s.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestCloud, type TestCloud } from '../../support/cloud.ts';

let cloud: TestCloud;
beforeAll(async () => {
  cloud = await startTestCloud();
});
afterAll(() => cloud?.close());

const consensus = (body: unknown, key?: string | null) => cloud.api('POST', '/v1/consensus', { body, key });

describe('POST /v1/consensus', () => {
  it('aligns list items by content, votes every leaf, and answers the SDK\'s ReconciliationResult', async () => {
    const inputs = [
      { invoice_number: 'INV-7', total: 99.5, line_items: [{ description: 'Paper A4', amount: 10 }, { description: 'Toner', amount: 89.5 }] },
      { invoice_number: 'INV-7', total: 99.5, line_items: [{ description: 'Toner', amount: 89.5 }, { description: 'Paper A4', amount: 10 }] },
      { invoice_number: 'INV-1', total: null, line_items: [{ description: 'paper a4', amount: 10 }] },
    ];
    const r = await consensus({ inputs });
    expect(r.status, r.text).toBe(200);
    expect(r.body.consensus).toEqual({ invoice_number: 'INV-7', total: 99.5, line_items: [{ description: 'Paper A4', amount: 10 }, { description: 'Toner', amount: 89.5 }] });
    expect(r.body.likelihoods).toEqual({ invoice_number: 2 / 3, total: 2 / 3, 'line_items.0.description': 1, 'line_items.0.amount': 1, 'line_items.1.description': 2 / 3, 'line_items.1.amount': 2 / 3 });
    expect(r.body.fields[0]).toEqual({ path: 'invoice_number', value: 'INV-7', likelihood: 2 / 3, supporting_input_count: 2, total_input_count: 3 });
    expect(r.body.alignment).toEqual({ reference_index: 0, aligned_inputs: null, path_alignments: null });

    const aligned = await consensus({ inputs, include_alignment: true, json_schema: { type: 'object', properties: { invoice_number: { type: 'string' }, vendor: { type: 'string' }, total: { type: 'number' }, line_items: { type: 'array', items: { type: 'object' } } } } });
    expect(aligned.status, aligned.text).toBe(200);
    expect(Object.keys(aligned.body.consensus)).toEqual(['invoice_number', 'vendor', 'total', 'line_items']);
    expect(aligned.body.consensus.vendor).toBeNull();
    expect(aligned.body.fields.find((f: { path: string }) => f.path === 'vendor')).toEqual({ path: 'vendor', value: null, likelihood: 0, supporting_input_count: 0, total_input_count: 3 });
    expect(aligned.body.alignment.path_alignments).toEqual([
      { canonical_path: 'line_items.0', source_paths: ['line_items.0', 'line_items.1', 'line_items.0'] },
      { canonical_path: 'line_items.1', source_paths: ['line_items.1', 'line_items.0', null] },
    ]);
    expect(aligned.body.alignment.aligned_inputs[1].line_items).toEqual(inputs[0]!.line_items);
    expect(aligned.body.alignment.aligned_inputs[2].line_items).toEqual([{ description: 'paper a4', amount: 10 }, null]);
  });

  it('a single input is its own consensus, every likelihood 1', async () => {
    const r = await consensus({ inputs: [{ a: 'x', b: [1, 2] }] });
    expect(r.status).toBe(200);
    expect(r.body.consensus).toEqual({ a: 'x', b: [1, 2] });
    expect(r.body.likelihoods).toEqual({ a: 1, 'b.0': 1, 'b.1': 1 });
  });

  it('bad input → 422 naming the problem, never a 500', async () => {
    const cases: Array<[unknown, (string | number)[], RegExp]> = [
      [{}, ['body', 'inputs'], /required/i],
      [{ inputs: null }, ['body', 'inputs'], /list of JSON objects/],
      [{ inputs: [] }, ['body', 'inputs'], /at least one/],
      [{ inputs: [{ a: 1 }, 'text'] }, ['body', 'inputs', 1], /./],
      [{ inputs: 'abc' }, ['body', 'inputs'], /list of JSON objects/],
      [{ inputs: [{ a: 1 }], json_schema: { type: 'array' } }, ['body', 'json_schema'], /describe an object/],
      [{ inputs: [{ a: 1 }], json_schema: { type: 'object', properties: [1] } }, ['body', 'json_schema', 'properties'], /object of property schemas/],
      [{ inputs: [{ a: 1 }], include_alignment: 'yes' }, ['body', 'include_alignment'], /./],
      [{ inputs: Array.from({ length: 10_001 }, () => ({})) }, ['body', 'inputs'], /at most 10000/],
    ];
    for (const [body, loc, msg] of cases) {
      const r = await consensus(body);
      expect(r.status, JSON.stringify(body).slice(0, 80)).toBe(422);
      expect(r.body.detail[0].loc).toEqual(loc);
      expect(r.body.detail[0].msg).toMatch(msg);
    }
    expect((await cloud.api('POST', '/v1/consensus', { rawBody: '{"inputs": [', headers: { 'content-type': 'application/json' } })).status).toBe(422);
    expect((await consensus({ inputs: [{ a: 1 }] }, null)).status).toBe(401);
  });

  it('1,000 inputs of 20 list items each, shuffled and noisy, answer well within 29 s', async () => {
    const inputs = Array.from({ length: 1_000 }, (_, i) => {
      const items = Array.from({ length: 20 }, (_, k) => ({ description: `Item number ${k} of the order`, sku: `SKU-${1000 + k}`, quantity: k + 1, unit_price: 10 * k + (i % 7 === 0 ? 1 : 0) }));
      // Each input lists the items in an order of its own; every 9th misses one.
      for (let s = items.length - 1; s > 0; s--) {
        const j = (i * 31 + s * 17) % (s + 1);
        [items[s], items[j]] = [items[j]!, items[s]!];
      }
      if (i % 9 === 0) items.splice(i % 20, 1);
      return { invoice_number: i % 5 === 0 ? 'INV-9' : 'INV-1', date: '2026-01-01', vendor: { name: 'Acme', address: '1 Main St' }, total: 1234.5, line_items: items };
    });
    const started = Date.now();
    const r = await consensus({ inputs });
    const ms = Date.now() - started;
    expect(r.status, r.text.slice(0, 300)).toBe(200);
    console.log(`1,000-input consensus (20 items each): ${ms} ms`);
    expect(ms).toBeLessThan(10_000);
    expect(r.body.consensus.invoice_number).toBe('INV-1');
    expect(r.body.likelihoods.invoice_number).toBeCloseTo(0.8);
    const items = r.body.consensus.line_items as Array<{ sku: string; unit_price: number }>;
    expect(items).toHaveLength(20);
    expect(new Set(items.map((item) => item.sku)).size).toBe(20);
    for (const item of items) expect(item.unit_price).toBe(10 * (Number(item.sku.slice(4)) - 1000));
    expect(r.body.fields[0].total_input_count).toBe(1_000);
  });
});
