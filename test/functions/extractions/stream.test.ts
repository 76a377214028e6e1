/**
 * POST /v1/extractions/stream through the HTTP layer on the local emulators (issue 43 part 3): JSON
 * events one per line, each `\n`-terminated (what the Python SDK's line reader and the Node SDK's
 * text read), deltas for every value, a final event with the whole extraction; the 4xx of a create
 * before anything is streamed; a stream cut by the client leaves the run to complete and the
 * service healthy.
 */
import { request } from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { dataUrl, startTestCloud, until, type TestCloud } from '../../support/cloud.ts';
import { twoColumnPdf } from '../../support/pdf-fixtures.ts';

let cloud: TestCloud;
beforeAll(async () => {
  cloud = await startTestCloud();
});
afterAll(() => cloud?.close());

const TEXT = ['ACME Supplies Ltd', 'Invoice number: INV-2044', 'Invoice date: 2024-03-05', 'Total due: 1,250.00 EUR', 'Payment terms: 30 days'].join('\n');
const SCHEMA = {
  type: 'object',
  properties: {
    invoice_number: { type: ['string', 'null'] },
    invoice_date: { type: ['string', 'null'], format: 'date' },
    total: { type: ['number', 'null'] },
    purchase_order: { type: ['string', 'null'] },
  },
};

async function stream(body: unknown, key: string | null = cloud.keys.test) {
  const headers: Record<string, string> = { 'content-type': 'application/json' };
  if (key) headers.authorization = `Bearer ${key}`;
  const response = await fetch(`${cloud.url}/v1/extractions/stream`, { method: 'POST', headers, body: JSON.stringify(body) });
  return { status: response.status, headers: response.headers, text: await response.text() };
}

describe('POST /v1/extractions/stream', () => {
  it('streams started, status, a delta per value and done with the whole extraction, one JSON object per line', async () => {
    const r = await stream({ document: { filename: 'invoice.txt', url: dataUrl('text/plain', TEXT) }, json_schema: SCHEMA, stream: true, bust_cache: true });
    expect(r.status, r.text).toBe(200);
    expect(r.headers.get('content-type')).toBe('application/stream+json');
    expect(r.headers.get('x-request-id')).toMatch(/^req_/);
    // Line by line, as the Python SDK reads it: every line ends with \n and is one JSON object.
    expect(r.text.endsWith('\n')).toBe(true);
    const events = r.text.slice(0, -1).split('\n').map((line) => JSON.parse(line) as Record<string, any>);
    expect(events[0]!.type).toBe('started');
    const id = events[0]!.extraction.id as string;
    expect(id).toMatch(/^extr_/);
    expect(events[0]!.extraction.status).toBe('queued');
    expect(events.filter((e) => e.type === 'status').map((e) => e.status)).toContain('completed');
    const deltas = events.filter((e) => e.type === 'delta');
    expect(deltas).toEqual([
      { type: 'delta', extraction_id: id, path: 'invoice_number', value: 'INV-2044', likelihood: expect.any(Number) },
      { type: 'delta', extraction_id: id, path: 'invoice_date', value: '2024-03-05', likelihood: expect.any(Number) },
      { type: 'delta', extraction_id: id, path: 'total', value: 1250, likelihood: expect.any(Number) },
      { type: 'delta', extraction_id: id, path: 'purchase_order', value: null, likelihood: expect.any(Number) },
    ]);
    const done = events.at(-1)!;
    expect(done.type).toBe('done');
    expect(events.filter((e) => e.type === 'done')).toHaveLength(1);
    // The final event is the extraction as GET answers it; the run is an ordinary one.
    const got = await cloud.api('GET', `/v1/extractions/${id}`);
    expect(done.extraction).toEqual(got.body);
    expect(got.body).toMatchObject({ status: 'completed', output: { invoice_number: 'INV-2044', total: 1250 } });
  });

  it('a list in the output: a delta per leaf, paths by index', async () => {
    const schema = { type: 'object', properties: { invoice_number: { type: ['string', 'null'] }, notes: { type: 'array', items: { type: 'string' } } } };
    const r = await stream({ document: { filename: 'invoice.txt', url: dataUrl('text/plain', TEXT) }, json_schema: schema });
    const events = r.text.trim().split('\n').map((line) => JSON.parse(line));
    const done = events.at(-1);
    const deltas = events.filter((e: { type: string }) => e.type === 'delta').map((e: { path: string; value: unknown }) => [e.path, e.value]);
    const notes = done.extraction.output.notes as unknown[];
    expect(deltas).toEqual([['invoice_number', 'INV-2044'], ...(notes.length === 0 ? [['notes', []]] : notes.map((n, i) => [`notes.${i}`, n]))]);
  });

  it('refuses before streaming, as a create would: background → 422, a bad schema → 422, no key → 401; nothing stored', async () => {
    const before = (await cloud.api('GET', '/v1/extractions?limit=100')).body.data.length;
    const document = { filename: 'invoice.txt', url: dataUrl('text/plain', TEXT) };
    const background = await stream({ document, json_schema: SCHEMA, background: true });
    expect(background.status).toBe(422);
    expect(background.headers.get('content-type')).toBe('application/json');
    expect(JSON.parse(background.text).detail[0]).toMatchObject({ loc: ['body', 'background'], msg: expect.stringMatching(/background cannot be combined with streaming/) });
    const badSchema = await stream({ document, json_schema: { type: 'array' } });
    expect(badSchema.status).toBe(422);
    expect(JSON.parse(badSchema.text).detail[0].loc).toEqual(['body', 'json_schema']);
    const noDocument = await stream({ json_schema: SCHEMA });
    expect(noDocument.status).toBe(422);
    expect(JSON.parse(noDocument.text).detail[0].loc).toEqual(['body', 'document']);
    const badModel = await stream({ document, json_schema: SCHEMA, model: 'no-such-model' });
    expect(badModel.status).toBe(422);
    const gif = await stream({ document: { filename: 'a.gif', url: dataUrl('image/gif', Buffer.from('GIF89a......')) }, json_schema: SCHEMA });
    expect(gif.status).toBe(422);
    expect(JSON.parse(gif.text).detail[0].loc).toEqual(['body', 'document', 'url']);
    expect((await stream({ document, json_schema: SCHEMA }, null)).status).toBe(401);
    expect((await cloud.api('GET', '/v1/extractions?limit=100')).body.data.length).toBe(before);
  });

  it('a stream cut by the client: nothing crashes, the extraction completes and is read with GET', async () => {
    const pdf = Buffer.from((await twoColumnPdf({ pages: 12, seed: 43 })).bytes);
    const body = JSON.stringify({ document: { filename: 'long.pdf', url: dataUrl('application/pdf', pdf) }, json_schema: SCHEMA, bust_cache: true });
    const url = new URL(cloud.url);
    // Read the first line (the run's id), then go away.
    const id = await new Promise<string>((resolve, reject) => {
      const req = request(
        { host: url.hostname, port: url.port, path: '/v1/extractions/stream', method: 'POST', headers: { authorization: `Bearer ${cloud.keys.test}`, 'content-type': 'application/json', 'content-length': Buffer.byteLength(body) } },
        (res) => {
          let text = '';
          res.on('data', (chunk: Buffer) => {
            text += chunk.toString('utf8');
            const newline = text.indexOf('\n');
            if (newline < 0) return;
            const first = JSON.parse(text.slice(0, newline));
            req.destroy();
            resolve(first.extraction.id);
          });
          res.on('error', () => undefined);
        },
      );
      req.on('error', (error) => (error.message.includes('socket hang up') || error.message.includes('aborted') ? undefined : reject(error)));
      req.end(body);
    });
    const ended = await until(async () => {
      const r = await cloud.api('GET', `/v1/extractions/${id}?include_output=false`);
      return ['completed', 'failed', 'cancelled'].includes(r.body.status) ? r.body : undefined;
    }, 60_000, 'the cut extraction to end');
    expect(ended.status).toBe('completed');
    // The service is healthy: a new stream answers whole.
    const again = await stream({ document: { filename: 'invoice.txt', url: dataUrl('text/plain', TEXT) }, json_schema: SCHEMA });
    expect(again.status).toBe(200);
    expect(JSON.parse(again.text.trim().split('\n').at(-1)!).type).toBe('done');
  });
});
