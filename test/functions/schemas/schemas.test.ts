/** POST /v1/schemas/generate and its run routes (API §7), through the API. */
import { Ajv } from 'ajv';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { dataUrl, startTestCloud, until, type TestCloud } from '../../support/cloud.ts';
import { textPdf } from '../../support/text-pdf.ts';

let cloud: TestCloud;
beforeAll(async () => {
  cloud = await startTestCloud();
});
afterAll(() => cloud?.close());

const invoicePage = (n: number, total: string) => [
  'INVOICE',
  `Invoice number: INV-${4100 + n}`,
  `Invoice date: 2024-0${n}-15`,
  'Customer: Northwind Shipping',
  `Total due: ${total}`,
];
const invoice = async (n: number, total: string) => ({ filename: `inv-${n}.pdf`, url: dataUrl('application/pdf', Buffer.from(await textPdf([invoicePage(n, total)]))) });

describe('schema generation', () => {
  it('answers the schema keys at the top level next to the run keys, json_schema and strict', async () => {
    const r = await cloud.api('POST', '/v1/schemas/generate', { body: { documents: [await invoice(1, '1,250.00'), await invoice(2, '980.50')] } });
    expect(r.status).toBe(201);
    expect(r.body).toMatchObject({ object: 'schema', status: 'completed', error: null, model: 'quire-local', strict: true, type: 'object', additionalProperties: false });
    expect(r.body.id).toMatch(/^sch_/);
    expect(r.body.files).toHaveLength(2);
    expect(r.body).not.toHaveProperty('output');
    const { json_schema: schema } = r.body;
    expect(schema.properties).toEqual(r.body.properties);
    expect(typeof r.body.title).toBe('string');
    expect(typeof r.body['X-SchemaType']).toBe('string');
    const ajv = new Ajv({ strict: false });
    expect(() => ajv.compile(schema)).not.toThrow();
    const cheap = await cloud.api('GET', `/v1/schemas/generate/${r.body.id}?include_output=false`);
    expect(cheap.body.json_schema).toEqual({});
    expect(cheap.body).not.toHaveProperty('properties');
  });

  it('generates a schema that POST /v1/extractions can use as-is on the same examples', async () => {
    const examples = [await invoice(5, '1,250.00'), await invoice(6, '980.50'), await invoice(7, '42.00')];
    const generated = await cloud.api('POST', '/v1/schemas/generate', { body: { documents: examples } });
    expect(generated.body.status).toBe('completed');
    const extracted = await cloud.api('POST', '/v1/extractions', { body: { document: examples[0], json_schema: generated.body.json_schema } });
    expect(extracted.status).toBe(201);
    expect(extracted.body.status).toBe('completed');
    const values = Object.values(extracted.body.output as Record<string, unknown>).map(String);
    expect(values).toContain('INV-4105');
    expect(values).toContain('2024-05-15');
    expect(values).toContain('1250');
    expect(values).toContain('Northwind Shipping');
  });

  it('validates documents (1..10) and image_resolution_dpi (96..300)', async () => {
    const doc = await invoice(3, '10.00');
    for (const [body, loc] of [
      [{ documents: [] }, ['body', 'documents']],
      [{ documents: Array(11).fill(doc) }, ['body', 'documents']],
      [{ documents: [doc], image_resolution_dpi: 95 }, ['body', 'image_resolution_dpi']],
      [{ documents: [doc], image_resolution_dpi: 301 }, ['body', 'image_resolution_dpi']],
    ] as const) {
      const r = await cloud.api('POST', '/v1/schemas/generate', { body });
      expect(r.status).toBe(422);
      expect(r.body.detail[0].loc).toEqual(loc);
    }
    expect((await cloud.api('POST', '/v1/schemas/generate', { body: { documents: [doc], image_resolution_dpi: 300 } })).status).toBe(201);
  });

  it('runs in the background and can be cancelled when terminal (unchanged)', async () => {
    const r = await cloud.api('POST', '/v1/schemas/generate', { body: { documents: [await invoice(4, '5.00')], background: true } });
    expect(r.body).toMatchObject({ status: 'queued', json_schema: {} });
    const done = await until(async () => {
      const g = await cloud.api('GET', `/v1/schemas/generate/${r.body.id}`);
      return g.body.status === 'completed' ? g.body : undefined;
    });
    expect((await cloud.api('POST', `/v1/schemas/generate/${r.body.id}/cancel`)).body).toEqual(done);
    expect((await cloud.api('GET', '/v1/schemas/generate?limit=100')).body.data.some((d: { id: string }) => d.id === r.body.id)).toBe(true);
    expect((await cloud.api('DELETE', `/v1/schemas/generate/${r.body.id}`)).status).toBe(204);
  });
});
