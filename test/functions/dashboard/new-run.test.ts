/**
 * Starting an extraction from the dashboard's upload form, over HTTP against the real local cloud:
 * the run is the API's (read back through /v1 with a key of that environment), the form's mistakes
 * are a 422 on the page naming them (never a 500, nothing stored), a schema ajv refuses fails the run
 * at its start with the reason on its page, viewers and requests without the session's CSRF token
 * are refused.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestCloud, until, type TestCloud } from '../../support/cloud.ts';
import { signIn, type Member } from '../../support/dashboard.ts';
import { textPdf } from '../../support/text-pdf.ts';

let cloud: TestCloud;
let owner: Member;
let pdf: Uint8Array;
const SCHEMA = JSON.stringify({ type: 'object', properties: { invoice_number: { type: 'string' }, total: { type: 'number' } } });

beforeAll(async () => {
  cloud = await startTestCloud();
  owner = await signIn(cloud.url, cloud.orgId, 'owner@new-run.example');
  pdf = await textPdf([['ACME Supplies Ltd', 'Invoice number: INV-5150', 'Total due: 88.20 EUR']]);
});
afterAll(() => cloud?.close());

/** The upload form POSTed as a browser sends it (multipart), by `member` (or with no session). */
async function start(member: Member | null, fields: Record<string, string>, file: { name: string; bytes: Uint8Array; type: string } | null, options: { csrf?: boolean } = {}) {
  const form = new FormData();
  if (member && options.csrf !== false) form.set('csrf', member.csrf);
  for (const [name, value] of Object.entries(fields)) form.set(name, value);
  if (file) form.set('file', new Blob([file.bytes], { type: file.type }), file.name);
  const response = await fetch(`${cloud.url}/dashboard/new`, { method: 'POST', headers: { origin: cloud.url, accept: 'text/html', ...(member ? { cookie: member.cookie } : {}) }, body: form, redirect: 'manual' });
  return { status: response.status, location: response.headers.get('location') ?? '', text: await response.text() };
}

const invoice = () => ({ name: 'invoice-5150.pdf', bytes: pdf, type: 'application/pdf' });
const extractionsOf = async (key: string) => (await cloud.api('GET', '/v1/extractions', { key })).body.data as Array<{ id: string }>;

describe('starting an extraction from the dashboard', () => {
  it('runs the extraction of the form: the API sees the same run in that environment, and its page boxes the values', async () => {
    const started = await start(owner, { env: 'production', kind: 'extraction', json_schema: SCHEMA }, invoice());
    expect(started.status, started.text).toBe(303);
    const id = /[?&]id=(extr?_[0-9a-z]+)/.exec(started.location)?.[1];
    expect(started.location).toMatch(/^\/dashboard\/run\?env=production&kind=extraction&id=/);
    expect(id).toBeDefined();
    const done = await until(async () => {
      const run = await cloud.api('GET', `/v1/extractions/${id}`, { key: cloud.keys.live });
      return ['completed', 'failed'].includes(run.body.status) ? run : undefined;
    }, 30_000, 'the extraction');
    expect(done.body.status, JSON.stringify(done.body.error)).toBe('completed');
    expect(done.body.output).toMatchObject({ invoice_number: 'INV-5150', total: 88.2 });
    expect(done.body.json_schema).toEqual(JSON.parse(SCHEMA));
    // Of production only.
    expect((await cloud.api('GET', `/v1/extractions/${id}`, { key: cloud.keys.test })).status).toBe(404);
    const page = await fetch(`${cloud.url}${started.location}`, { headers: { cookie: owner.cookie, accept: 'text/html' } });
    const html = await page.text();
    expect(html.match(/data-testid="source-box"/g)?.length).toBe(2);
    expect(html).toContain('data-value="invoice_number: INV-5150"');
  });

  it('answers a 422 on the page for a form it cannot start, naming the problem, and stores nothing', async () => {
    const cases: Array<[Record<string, string>, ReturnType<typeof invoice> | null, string]> = [
      [{ kind: 'extraction', json_schema: SCHEMA }, null, 'choose a file to upload'],
      [{ kind: 'extraction', json_schema: '{"type": "object", "properties": {' }, invoice(), 'json_schema is not valid JSON'],
      [{ kind: 'extraction', json_schema: '' }, invoice(), 'write the JSON Schema of what to extract'],
      [{ kind: 'extraction', json_schema: '[1, 2]' }, invoice(), 'json_schema must be a JSON object'],
      [{ kind: 'extraction', json_schema: '{"type": "string"}' }, invoice(), 'json_schema must describe an object'],
    ];
    for (const [fields, file, message] of cases) {
      const answer = await start(owner, { env: 'test', ...fields }, file);
      expect(answer.status, `${fields.json_schema}: ${answer.text.slice(0, 300)}`).toBe(422);
      expect(answer.text).toContain('role="alert"');
      expect(answer.text).toContain(message);
      // The form comes back as it was typed.
      if (fields.json_schema) expect(answer.text).toContain(fields.json_schema.replaceAll('"', '&quot;'));
    }
    expect(await extractionsOf(cloud.keys.test)).toEqual([]);
  });

  it('a schema ajv refuses (valid JSON of an object) fails the run at its start, with the reason on its page; the API refuses it at once', async () => {
    const bad = JSON.stringify({ type: 'object', properties: { total: { type: 'nombre' } } });
    const started = await start(owner, { env: 'test', kind: 'extraction', json_schema: bad }, invoice());
    expect(started.status, started.text).toBe(303);
    const id = /[?&]id=([a-z]+_[0-9a-z]+)/.exec(started.location)![1]!;
    const failed = await until(async () => {
      const run = await cloud.api('GET', `/v1/extractions/${id}`);
      return ['completed', 'failed'].includes(run.body.status) ? run : undefined;
    }, 30_000, 'the extraction');
    expect(failed.body.status).toBe('failed');
    expect(failed.body.error).toMatchObject({ code: 'configuration_error', message: expect.stringContaining('json_schema is not a valid JSON Schema') });
    const page = await (await fetch(`${cloud.url}${started.location}`, { headers: { cookie: owner.cookie, accept: 'text/html' } })).text();
    expect(page).toContain('configuration_error: json_schema is not a valid JSON Schema');
    // The API's create checks the same schema before storing anything.
    const viaApi = await cloud.api('POST', '/v1/extractions', { body: { document: { filename: 'x.pdf', url: `data:application/pdf;base64,${Buffer.from(pdf).toString('base64')}` }, json_schema: JSON.parse(bad) } });
    expect(viaApi.status).toBe(422);
  });

  it('viewers cannot start runs (403), nor a request without the session CSRF token; a developer can', async () => {
    const before = (await extractionsOf(cloud.keys.test)).length;
    const viewer = await signIn(cloud.url, cloud.orgId, 'viewer@new-run.example', 'viewer');
    const page = await fetch(`${cloud.url}/dashboard/new?env=test`, { headers: { cookie: viewer.cookie, accept: 'text/html' } });
    expect(page.status).toBe(403);
    expect((await start(viewer, { env: 'test', kind: 'extraction', json_schema: SCHEMA }, invoice())).status).toBe(403);
    const developer = await signIn(cloud.url, cloud.orgId, 'dev@new-run.example', 'developer');
    expect((await start(developer, { env: 'test', kind: 'extraction', json_schema: SCHEMA }, invoice(), { csrf: false })).status).toBe(403);
    expect((await start(null, { env: 'test', kind: 'extraction', json_schema: SCHEMA }, invoice())).status).not.toBe(303);
    expect(await extractionsOf(cloud.keys.test)).toHaveLength(before);
    const started = await start(developer, { env: 'test', kind: 'extraction', json_schema: SCHEMA }, invoice());
    expect(started.status, started.text).toBe(303);
    expect(await extractionsOf(cloud.keys.test)).toHaveLength(before + 1);
  });
});
