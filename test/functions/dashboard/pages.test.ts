/**
 * The dashboard's secrets and usage pages over HTTP against the real local cloud: secrets set from
 * the page are the API's secrets of that environment (read back through /v1 with a key), never
 * shown on the page, by role; usage per day of each environment apart.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { dataUrl, startTestCloud, until, type TestCloud } from '../../support/cloud.ts';
import { dash, signIn, type Member } from '../../support/dashboard.ts';
import { startReceiver } from '../../support/receiver.ts';
import { acroFormPdf } from '../../support/form-fixtures.ts';
import { tablesPdf } from '../../support/table-fixtures.ts';
import { readDocument } from '../../../functions/documents/read.ts';
import { layoutOf } from '../../../functions/parses/layout.ts';
import { verifyWebhook } from '../../../functions/webhooks/verify.ts';
import { parseKind } from '../../../functions/parses/kind.ts';
import { platform } from '../../../functions/platform/platform.ts';

let cloud: TestCloud;
let owner: Member;
beforeAll(async () => {
  cloud = await startTestCloud();
  owner = await signIn(cloud.url, cloud.orgId, 'owner@pages.example');
});
afterAll(() => cloud?.close());

describe('secrets', () => {
  it('set from the page in one environment: readable through the API there only, never shown back', async () => {
    const value = 'sk-very-secret-value-123';
    const set = await dash(cloud.url, owner, 'POST', '/dashboard/secrets', { env: 'test', name: 'VENDOR_TOKEN', value });
    expect(set.status).toBe(200);
    expect(set.text).toContain('VENDOR_TOKEN');
    expect(set.text).not.toContain(value);
    const read = await cloud.api('GET', '/v1/secrets/VENDOR_TOKEN/value');
    expect(read.status, read.text).toBe(200);
    expect(read.body.secret.value).toBe(value);
    expect((await cloud.api('GET', '/v1/secrets/VENDOR_TOKEN', { key: cloud.keys.live })).status).toBe(404);
    expect((await dash(cloud.url, owner, 'GET', '/dashboard/secrets?env=production')).text).not.toContain('VENDOR_TOKEN');
    // Rotate: a new value, same name.
    expect((await dash(cloud.url, owner, 'POST', '/dashboard/secrets', { env: 'test', name: 'VENDOR_TOKEN', value: 'rotated-value' })).status).toBe(200);
    expect((await cloud.api('GET', '/v1/secrets/VENDOR_TOKEN/value')).body.secret.value).toBe('rotated-value');
    // A bad name is refused, naming the problem.
    const bad = await dash(cloud.url, owner, 'POST', '/dashboard/secrets', { env: 'test', name: '1-bad name', value: 'x' });
    expect(bad.status).toBe(422);
    expect(bad.text).toContain('name');
    // Delete; the other environment cannot delete it (404).
    expect((await dash(cloud.url, owner, 'POST', '/dashboard/secrets/delete', { env: 'production', name: 'VENDOR_TOKEN' })).status).toBe(404);
    expect((await dash(cloud.url, owner, 'POST', '/dashboard/secrets/delete', { env: 'test', name: 'VENDOR_TOKEN' })).status).toBe(303);
    expect((await cloud.api('GET', '/v1/secrets/VENDOR_TOKEN')).status).toBe(404);
  });

  it('viewers cannot set secrets; developers only in test', async () => {
    const viewer = await signIn(cloud.url, cloud.orgId, 'viewer@pages.example', 'viewer');
    expect((await dash(cloud.url, viewer, 'POST', '/dashboard/secrets', { env: 'test', name: 'X', value: 'y' })).status).toBe(403);
    const developer = await signIn(cloud.url, cloud.orgId, 'dev@pages.example', 'developer');
    expect((await dash(cloud.url, developer, 'POST', '/dashboard/secrets', { env: 'production', name: 'X', value: 'y' })).status).toBe(403);
    expect((await dash(cloud.url, developer, 'POST', '/dashboard/secrets', { env: 'test', name: 'X', value: 'y' })).status).toBe(200);
  });
});

describe('webhooks', () => {
  it('saves the endpoint, shows the signing secret on demand, rotates it, sends a test event and logs its delivery', async () => {
    const receiver = await startReceiver();
    try {
      const saved = await dash(cloud.url, owner, 'POST', '/dashboard/webhooks', { env: 'production', url: `${receiver.url}/hooks`, events: '*', enabled: '1' });
      expect(saved.status).toBe(200);
      const secretOf = (text: string) => /data-testid="signing-secret" id="signing-secret">(whsec_[^<]+)</.exec(text)?.[1];
      const first = secretOf(saved.text)!;
      expect(first).toMatch(/^whsec_/);
      // The API of that environment sees the same endpoint; the other environment has none.
      expect((await cloud.api('GET', '/v1/webhooks/endpoint', { key: cloud.keys.live })).body.url).toBe(`${receiver.url}/hooks`);
      expect((await cloud.api('GET', '/v1/webhooks/endpoint', { key: cloud.keys.test })).status).toBe(404);
      // Not shown again unless asked for.
      const page = await dash(cloud.url, owner, 'GET', '/dashboard/webhooks?env=production');
      expect(page.text).not.toContain(first);
      expect(secretOf((await dash(cloud.url, owner, 'POST', '/dashboard/webhooks/action', { env: 'production', action: 'reveal' })).text)).toBe(first);
      const rotated = secretOf((await dash(cloud.url, owner, 'POST', '/dashboard/webhooks/action', { env: 'production', action: 'rotate' })).text)!;
      expect(rotated).not.toBe(first);
      expect((await dash(cloud.url, owner, 'POST', '/dashboard/webhooks/action', { env: 'production', action: 'test' })).text).toContain('Test event');
      const [delivered] = await receiver.waitFor('/hooks', 1);
      const event = verifyWebhook(delivered!.body, delivered!.headers as Record<string, string>, rotated);
      expect(event.type).toBe('webhook.test');
      const log = await dash(cloud.url, owner, 'GET', '/dashboard/webhooks?env=production');
      expect(log.text).toContain('webhook.test');
      expect(log.text).toMatch(/status-completed">succeeded</);
      // Resend: the same event (same id, same body) delivered again; another environment's delivery is unknown.
      const deliveryId = /<code>(whd_[0-9a-z]{26})<\/code>/.exec(log.text)![1]!;
      expect((await dash(cloud.url, owner, 'POST', '/dashboard/webhooks/action', { env: 'test', action: 'resend', delivery_id: deliveryId })).status).toBe(404);
      const resent = await dash(cloud.url, owner, 'POST', '/dashboard/webhooks/action', { env: 'production', action: 'resend', delivery_id: deliveryId });
      expect(resent.text).toContain('Sent again as delivery');
      const [, again] = await receiver.waitFor('/hooks', 2);
      expect(again!.body).toBe(delivered!.body);
      // A developer cannot change production's webhooks.
      const developer = await signIn(cloud.url, cloud.orgId, 'dev2@pages.example', 'developer');
      expect((await dash(cloud.url, developer, 'POST', '/dashboard/webhooks/action', { env: 'production', action: 'reveal' })).status).toBe(403);
    } finally {
      await receiver.close();
    }
  });
});

describe('tables and workflows', () => {
  it('lists the tables and the workflows (published versions, runs) of the environment shown only', async () => {
    const table = await cloud.api('POST', '/v1/tables', { body: { name: 'customers', document: { filename: 'customers.csv', url: dataUrl('text/csv', 'id,name\n1,Ada\n2,Grace\n') } } });
    expect(table.status, table.text).toBe(201);
    const tables = await dash(cloud.url, owner, 'GET', '/dashboard/tables?env=test');
    expect(tables.text).toContain('customers.csv');
    expect(tables.text).toContain('Grace');
    // The profile: 2 distinct names, no nulls.
    expect(tables.text).toMatch(/<td>name<\/td><td>[^<]*<\/td><td>0<\/td><td>2<\/td>/);
    expect((await dash(cloud.url, owner, 'GET', '/dashboard/tables?env=production')).text).not.toContain('customers.csv');

    const project = await cloud.api('POST', '/v1/projects', { body: { name: 'p' } });
    const workflow = await cloud.api('POST', '/v1/workflows', { body: { project_id: project.body.id, name: 'intake flow' } });
    expect(workflow.status, workflow.text).toBe(201);
    const draft = { blocks: [{ id: 'in', type: 'start_json', config: {} }, { id: 'out', type: 'end', config: {} }], edges: [{ source: 'in', target: 'out' }] };
    expect((await cloud.api('PUT', `/v1/workflows/${workflow.body.id}/draft`, { body: draft })).status).toBe(200);
    const published = await cloud.api('POST', `/v1/workflows/${workflow.body.id}/publish`, { body: { description: 'first release' } });
    expect(published.status, published.text).toBe(200);
    const run = await cloud.api('POST', '/v1/workflows/runs', { body: { workflow_id: workflow.body.id, version: 'draft', json_inputs: { in: { n: 1 } } } });
    expect(run.status, run.text).toBe(201);
    const page = await dash(cloud.url, owner, 'GET', '/dashboard/workflows?env=test');
    expect(page.text).toContain('intake flow');
    expect(page.text).toContain('first release');
    expect(page.text).toContain(run.body.id);
    const other = await dash(cloud.url, owner, 'GET', '/dashboard/workflows?env=production');
    expect(other.text).not.toContain('intake flow');
    expect(other.text).not.toContain(run.body.id);
  });
});

describe('workflow runs', () => {
  it("a workflow run's page shows its inputs and each block's output, as the API does; the list links to it; other environments answer 404", async () => {
    const project = await cloud.api('POST', '/v1/projects', { body: { name: 'runs project' } });
    const workflow = await cloud.api('POST', '/v1/workflows', { body: { project_id: project.body.id, name: 'echo flow' } });
    const draft = { blocks: [{ id: 'in', type: 'start_json', config: {} }, { id: 'out', type: 'end', config: {} }], edges: [{ source: 'in', target: 'out' }] };
    expect((await cloud.api('PUT', `/v1/workflows/${workflow.body.id}/draft`, { body: draft })).status).toBe(200);
    const started = await cloud.api('POST', '/v1/workflows/runs', { body: { workflow_id: workflow.body.id, version: 'draft', json_inputs: { in: { customer: 'Initech', amount: 42 } } } });
    expect(started.status, started.text).toBe(201);
    const id = started.body.id as string;
    const done = await until(async () => {
      const run = await cloud.api('GET', `/v1/workflows/runs/${id}`);
      return ['completed', 'error', 'cancelled'].includes(run.body.lifecycle.status) ? run.body : undefined;
    }, 20_000, 'the workflow run');
    expect(done.lifecycle.status).toBe('completed');
    const list = await dash(cloud.url, owner, 'GET', '/dashboard/workflows?env=test');
    expect(list.text).toContain(`href="/dashboard/workflow-run?env=test&amp;id=${id}"`);
    const page = await dash(cloud.url, owner, 'GET', `/dashboard/workflow-run?env=test&id=${id}`);
    expect(page.status).toBe(200);
    expect(page.text).toContain('echo flow');
    expect(page.text).toMatch(/status-completed">completed</);
    expect(page.text).toContain('&quot;customer&quot;: &quot;Initech&quot;');
    const blocks = Object.keys(done.outputs);
    expect(blocks.length).toBeGreaterThan(0);
    for (const block of blocks) {
      const shown = new RegExp(`<pre class="output" data-block="${block}">([^<]*)</pre>`).exec(page.text)?.[1];
      expect(shown, block).toBeDefined();
      expect(JSON.parse(shown!.replaceAll('&quot;', '"').replaceAll('&amp;', '&').replaceAll('&#39;', "'").replaceAll('&lt;', '<').replaceAll('&gt;', '>'))).toEqual(done.outputs[block]);
    }
    // The status poll of the page.
    const polled = await dash(cloud.url, owner, 'GET', `/dashboard/workflow-run?env=test&id=${id}`, {}, { accept: 'application/json' });
    expect(JSON.parse(polled.text)).toEqual({ id, status: 'completed' });
    expect((await dash(cloud.url, owner, 'GET', `/dashboard/workflow-run?env=production&id=${id}`)).status).toBe(404);
  });
});

describe('table validation', () => {
  it("validates a table by rules typed on the page: the API's report, errors named, every member may, other environments' tables unknown", async () => {
    const csv = 'id,email,amount\n1,ada@example.com,10\n2,not-an-email,-5\n2,grace@example.com,7\n';
    const created = await cloud.api('POST', '/v1/tables', { body: { name: 'orders', document: { filename: 'orders.csv', url: dataUrl('text/csv', csv) } } });
    expect(created.status, created.text).toBe(201);
    const id = created.body.tables[0].id as string;
    // The page offers rules to start from: every column required, of the type it was read as.
    const listed = await dash(cloud.url, owner, 'GET', '/dashboard/tables?env=test');
    expect(listed.text).toContain(`action="/dashboard/tables/validate"`);
    expect(listed.text).toMatch(/&quot;required_columns&quot;: \[\s*&quot;id&quot;,\s*&quot;email&quot;,\s*&quot;amount&quot;/);

    const rules = { required_columns: ['id', 'customer'], columns: { email: { format: 'email' }, amount: { minimum: 0 } }, unique: [['id']] };
    const expected = await cloud.api('POST', `/v1/tables/${id}/validate`, { body: rules });
    expect(expected.status, expected.text).toBe(200);
    expect(expected.body.has_errors).toBe(true);
    const page = await dash(cloud.url, owner, 'POST', '/dashboard/tables/validate', { env: 'test', table_id: id, rules: JSON.stringify(rules) });
    expect(page.status, page.text.slice(0, 500)).toBe(200);
    expect(page.text).toContain('aria-label="Validation of orders"');
    expect(page.text).toContain('The table breaks some rules');
    const rows = page.text.match(/<tr><td><span class="badge[^"]*">(error|warning)<\/span><\/td><td>([^<]*)<\/td><td><code>([^<]+)<\/code>/g) ?? [];
    expect(rows).toHaveLength(expected.body.diagnostics.length);
    for (const d of expected.body.diagnostics as Array<{ rule: string; column: string | null }>) expect(page.text).toContain(`<td>${d.column ?? '—'}</td><td><code>${d.rule}</code>`);
    expect((expected.body.diagnostics as Array<{ rule: string }>).map((d) => d.rule)).toEqual(expect.arrayContaining(['required_column', 'format', 'minimum', 'unique']));

    // Rules that hold: said so.
    const ok = await dash(cloud.url, owner, 'POST', '/dashboard/tables/validate', { env: 'test', table_id: id, rules: JSON.stringify({ required_columns: ['id', 'email', 'amount'] }) });
    expect(ok.text).toContain('data-testid="validation-ok"');
    // Mistakes in the rules: a 422 naming them, the rules kept as typed.
    const notJson = await dash(cloud.url, owner, 'POST', '/dashboard/tables/validate', { env: 'test', table_id: id, rules: '{"unique": [' });
    expect(notJson.status).toBe(422);
    expect(notJson.text).toContain('rules are not valid JSON');
    expect(notJson.text).toContain('{&quot;unique&quot;: [');
    const badRule = await dash(cloud.url, owner, 'POST', '/dashboard/tables/validate', { env: 'test', table_id: id, rules: '{"columns": {"amount": {"minimum": "zero"}}}' });
    expect(badRule.status).toBe(422);
    expect(badRule.text).toContain('columns.amount.minimum');
    // A viewer may validate (it changes nothing); not without the session's CSRF token; not a table of production.
    const viewer = await signIn(cloud.url, cloud.orgId, 'viewer-tables@pages.example', 'viewer');
    expect((await dash(cloud.url, viewer, 'POST', '/dashboard/tables/validate', { env: 'test', table_id: id, rules: '{}' })).status).toBe(200);
    expect((await dash(cloud.url, viewer, 'POST', '/dashboard/tables/validate', { env: 'test', table_id: id, rules: '{}', csrf: '' })).status).toBe(403);
    expect((await dash(cloud.url, owner, 'POST', '/dashboard/tables/validate', { env: 'production', table_id: id, rules: '{}' })).status).toBe(404);
  });
});

describe('table rows', () => {
  it('downloads every row of a table as its CSV, as the API gives it; another environment\'s table is unknown', async () => {
    const csv = `sku,qty\n${Array.from({ length: 40 }, (_, i) => `SKU-${i},${i}`).join('\n')}\n`;
    const created = await cloud.api('POST', '/v1/tables', { body: { name: 'stock', document: { filename: 'stock.csv', url: dataUrl('text/csv', csv) } } });
    expect(created.status, created.text).toBe(201);
    const id = created.body.tables[0].id as string;
    const listed = await dash(cloud.url, owner, 'GET', '/dashboard/tables?env=test');
    expect(listed.text).toContain(`href="/dashboard/tables/download?env=test&amp;table_id=${id}"`);
    const api = await cloud.api('GET', `/v1/tables/${id}/download`);
    const page = await dash(cloud.url, owner, 'GET', `/dashboard/tables/download?env=test&table_id=${id}`);
    expect(page.status).toBe(200);
    expect(page.headers.get('content-type')).toMatch(/^text\/csv/);
    expect(page.text).toBe(api.text);
    expect(page.text.trim().split('\n')).toHaveLength(41);
    expect((await dash(cloud.url, owner, 'GET', `/dashboard/tables/download?env=production&table_id=${id}`)).status).toBe(404);
    expect((await dash(cloud.url, null, 'GET', `/dashboard/tables/download?env=test&table_id=${id}`)).status).not.toBe(200);
  });
});

describe('classification runs', () => {
  it("a classification's run page names its category on the page", async () => {
    const doc = { filename: 'bill.png', url: dataUrl('image/png', Buffer.from('iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg==', 'base64')) };
    const run = await cloud.api('POST', '/v1/classifications', { body: { document: doc, categories: [{ name: 'invoice' }, { name: 'receipt' }] } });
    expect(run.status, run.text).toBe(201);
    const page = await dash(cloud.url, owner, 'GET', `/dashboard/run?env=test&kind=classification&id=${run.body.id}`);
    expect(page.status).toBe(200);
    expect(page.text).toContain(`<span class="page-part">${run.body.output.category}</span>`);
  });
});

describe('parse runs', () => {
  it("a parse's run page boxes its words and tables (the reader's, kept with the output, never on the wire)", async () => {
    const { bytes } = await tablesPdf();
    const parse = await cloud.api('POST', '/v1/parses', { body: { document: { filename: 'survey.pdf', url: dataUrl('application/pdf', Buffer.from(bytes)) } } });
    expect(parse.status, parse.text).toBe(201);
    expect(parse.text).not.toContain('layout');
    expect((await cloud.api('GET', `/v1/parses/${parse.body.id}`)).text).not.toContain('layout');
    const run = await dash(cloud.url, owner, 'GET', `/dashboard/run?env=test&kind=parse&id=${parse.body.id}`);
    expect(run.status).toBe(200);
    const data = JSON.parse(/<script type="application\/json" id="run-data">([^]*?)<\/script>/.exec(run.text)![1]!);
    // What the reader gives, word for word and table for table.
    const expected = layoutOf(await readDocument(bytes, { kind: 'pdf', dpi: 192, deadline: Date.now() + 60_000 }));
    expect(data.layout).toEqual(expected);
    expect(data.layout[0].tables).toHaveLength(3);
    const survey = data.layout[0].words.find(([text]: [string]) => text === 'survey');
    expect(survey[1][0]).toBeCloseTo(0.147, 2); // 90 pt of 612 from the left
    expect(survey[1][1]).toBeCloseTo(0.077, 2); // 61 pt of 792 from the top
    expect(run.text).toContain(`${expected[0]!.words.length} words and 3 table(s) boxed on 1 page(s)`);
    expect(run.text).toContain('data-layer="words"');
  });
});

describe('edit runs', () => {
  it("an edit's run page boxes each form field on its page", async () => {
    const acro = await acroFormPdf();
    const edit = await cloud.api('POST', '/v1/edits', { body: { document: { filename: 'form.pdf', url: dataUrl('application/pdf', Buffer.from(acro.bytes)) }, instructions: JSON.stringify(acro.instructions) } });
    expect(edit.status, edit.text).toBe(201);
    const fields = edit.body.output.form_data as Array<{ key: string; bbox: unknown }>;
    expect(fields.length).toBeGreaterThan(0);
    const run = await dash(cloud.url, owner, 'GET', `/dashboard/run?env=test&kind=edit&id=${edit.body.id}`);
    expect(run.status).toBe(200);
    expect(run.text.match(/data-testid="field-box"/g)?.length).toBe(fields.filter((f) => f.bbox).length);
    expect(run.text).toContain('Form fields');
    expect(run.text).toContain(`data-value="${fields[0]!.key}:`);
  });
});

describe('usage', () => {
  it('shows the credits of each environment apart', async () => {
    const before = await dash(cloud.url, owner, 'GET', '/dashboard/usage?env=test');
    expect(before.status).toBe(200);
    const total = (text: string, env: string) => Number(new RegExp(`data-testid="usage-${env}">([^<]+)<`).exec(text)![1]);
    const parse = await cloud.api('POST', '/v1/parses', { body: { document: { filename: 'a.txt', url: dataUrl('text/plain', 'hello usage') } } });
    expect(parse.status, parse.text).toBe(201);
    const after = await dash(cloud.url, owner, 'GET', '/dashboard/usage?env=test');
    expect(parse.body.usage.credits).toBeGreaterThan(0);
    expect(total(after.text, 'test')).toBeCloseTo(total(before.text, 'test') + parse.body.usage.credits, 6);
    expect(total(after.text, 'production')).toBe(total(before.text, 'production'));
    expect(after.text).toContain(new Date().toISOString().slice(0, 10));
  });
});

describe('a run reading its document', () => {
  it('shows on its page, and in the page\'s live look, how many pages are read', async () => {
    const parse = await cloud.api('POST', '/v1/parses', { body: { document: { filename: 'long.txt', url: dataUrl('text/plain', 'A long report\n') }, bust_cache: true } });
    expect(parse.status, parse.text).toBe(201);
    const id = parse.body.id as string;
    // The record as a long read leaves it at a look (functions/runs/document.ts): in progress, pages read so far.
    const status = (await cloud.api('GET', '/v1/auth/status')).body;
    const scope = { orgId: status.organization_id, envId: status.environment_id };
    await platform().store.moveStatus(scope, parseKind.type, id, ['completed'], 'in_progress', { progress: { pages_done: 3, pages_total: 7 } });
    const page = await dash(cloud.url, owner, 'GET', `/dashboard/run?env=test&kind=parse&id=${id}`);
    expect(page.status).toBe(200);
    expect(page.text).toContain('in_progress · 3 of 7 pages read');
    const live = await dash(cloud.url, owner, 'GET', `/dashboard/run?env=test&kind=parse&id=${id}`, {}, { accept: 'application/json' });
    expect(JSON.parse(live.text)).toEqual({ id, status: 'in_progress', progress: { pages_done: 3, pages_total: 7 } });
    // Ended, it shows no progress.
    await platform().store.moveStatus(scope, parseKind.type, id, ['in_progress'], 'completed');
    expect(JSON.parse((await dash(cloud.url, owner, 'GET', `/dashboard/run?env=test&kind=parse&id=${id}`, {}, { accept: 'application/json' })).text)).toEqual({ id, status: 'completed', progress: null });
  });
});
