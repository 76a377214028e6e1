/**
 * Workflow runs end to end (API §9.3, §9.4, §12) on the local cloud and its workflow-run state
 * machine: start_document → classifier → (invoice: extract → api_call with secret://CRM_TOKEN) /
 * (other: end), in test and, after promotion, in production with production's own secret; a
 * production run without the secret fails before any block; each environment's webhook is signed
 * with its own secret.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { verifyWebhook } from '../../../functions/webhooks/verify.ts';
import { dataUrl, startTestCloud, type TestCloud } from '../../support/cloud.ts';
import { startReceiver, type Receiver } from '../../support/receiver.ts';
import { acroFormPdf } from '../../support/form-fixtures.ts';

let cloud: TestCloud;
let crm: Receiver;
let hooks: Receiver;
beforeAll(async () => {
  cloud = await startTestCloud({ webhooks: { retryScale: 0.001, timeoutMs: 2_000 } });
  crm = await startReceiver();
  hooks = await startReceiver();
});
afterAll(async () => {
  await crm?.close();
  await hooks?.close();
  await cloud?.close();
});

const INVOICE = 'INVOICE\nInvoice number: INV-3301\nTotal due: 980.00 EUR\nPlease pay within 30 days.';
const LETTER = 'Dear Ms. Raman,\nThank you for your visit last week. We enjoyed the conversation.\nKind regards, Daniel';

function definition(crmUrl: string) {
  return {
    blocks: [
      { id: 'document', type: 'start_document', config: {} },
      { id: 'kind', type: 'classifier', config: { categories: [{ name: 'invoice', description: 'a bill with an invoice number and a total due' }, { name: 'other', description: 'letters and anything else' }] } },
      { id: 'fields', type: 'extract', config: { json_schema: { type: 'object', properties: { invoice_number: { type: ['string', 'null'] }, total_due: { type: ['string', 'null'] } } } } },
      { id: 'crm', type: 'api_call', config: { url: crmUrl, method: 'POST', headers: { authorization: 'secret://CRM_TOKEN' } } },
      { id: 'done', type: 'end', config: {} },
    ],
    edges: [
      { source: 'document', target: 'kind' },
      { source: 'kind', target: 'fields', source_handle: 'invoice' },
      { source: 'kind', target: 'done', source_handle: 'other' },
      { source: 'fields', target: 'crm' },
      { source: 'crm', target: 'done' },
    ],
  };
}

async function waitForEnd(key: string, runId: string) {
  for (let i = 0; i < 600; i++) {
    const r = await cloud.api('GET', `/v1/workflows/runs/${runId}`, { key });
    if (['completed', 'error', 'cancelled'].includes(r.body.lifecycle?.status)) return r.body;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  throw new Error(`run ${runId} did not end`);
}

async function run(key: string, workflowId: string, text: string, version?: string, block = 'document') {
  const r = await cloud.api('POST', '/v1/workflows/runs', { key, body: { workflow_id: workflowId, version, documents: { [block]: { filename: 'doc.txt', url: dataUrl('text/plain', text) } }, metadata: { batch: '1' } } });
  expect(r.status, r.text).toBe(201);
  expect(r.body.lifecycle.status).toBe('pending');
  return waitForEnd(key, r.body.id);
}

async function endpoint(key: string, path: string): Promise<string> {
  const r = await cloud.api('PUT', '/v1/webhooks/endpoint', { key, body: { url: `${hooks.url}${path}`, events: ['workflow.run.completed', 'workflow.run.failed', 'workflow.run.cancelled'] } });
  expect(r.status, r.text).toBe(200);
  return r.body.signing_secret;
}

describe('a workflow with routing, secrets and an api_call, in test then in production', () => {
  it('runs in each environment with that environment’s secret, and fails fast without it', async () => {
    const testSigning = await endpoint(cloud.keys.test, '/test-hooks');
    const liveSigning = await endpoint(cloud.keys.live, '/live-hooks');
    expect((await cloud.api('PUT', '/v1/secrets/CRM_TOKEN', { body: { value: 'Bearer test-token-1' } })).status).toBe(200);

    const project = (await cloud.api('POST', '/v1/projects', { body: { name: 'AP' } })).body.id;
    const workflowId = (await cloud.api('POST', '/v1/workflows', { body: { project_id: project, name: 'Invoices to CRM' } })).body.id;
    expect((await cloud.api('PUT', `/v1/workflows/${workflowId}/draft`, { body: definition(`${crm.url}/crm`) })).status).toBe(200);
    expect((await cloud.api('POST', `/v1/workflows/${workflowId}/publish`, { body: {} })).status).toBe(200);

    // Test: an invoice goes through extract and the CRM call with the test secret.
    const invoiceRun = await run(cloud.keys.test, workflowId, INVOICE);
    expect(invoiceRun.lifecycle, JSON.stringify(invoiceRun)).toMatchObject({ status: 'completed' });
    expect(invoiceRun.timing.started_at).not.toBeNull();
    expect(invoiceRun.timing.completed_at).not.toBeNull();
    expect(invoiceRun.inputs.documents.document).toMatchObject({ filename: 'doc.txt' });
    expect(invoiceRun.outputs.kind).toMatchObject({ category: 'invoice' });
    expect(invoiceRun.outputs.fields).toEqual({ invoice_number: 'INV-3301', total_due: '980.00 EUR' });
    const [call] = await crm.waitFor('/crm', 1);
    expect(call!.headers.authorization).toBe('Bearer test-token-1');
    expect(JSON.parse(call!.body)).toEqual({ invoice_number: 'INV-3301', total_due: '980.00 EUR' });
    expect(invoiceRun.outputs.done).toEqual({ crm: 'ok' });
    // The resolved value is nowhere in the run.
    expect(JSON.stringify(invoiceRun)).not.toContain('test-token-1');

    // A letter takes the other branch: no extract, no CRM call.
    const letterRun = await run(cloud.keys.test, workflowId, LETTER);
    expect(letterRun.lifecycle.status).toBe('completed');
    expect(letterRun.outputs.kind).toMatchObject({ category: 'other' });
    expect(letterRun.outputs).not.toHaveProperty('fields');
    expect(letterRun.outputs).not.toHaveProperty('crm');
    expect(crm.received.filter((r) => r.path === '/crm')).toHaveLength(1);

    // The test webhook is signed with the test secret only.
    const [testHook] = await hooks.waitFor('/test-hooks', 1);
    const testEvent = verifyWebhook(testHook!.body, testHook!.headers as Record<string, string>, testSigning);
    expect(testEvent).toMatchObject({ type: 'workflow.run.completed', environment: 'test', data: { id: invoiceRun.id } });
    expect(() => verifyWebhook(testHook!.body, testHook!.headers as Record<string, string>, liveSigning)).toThrow();

    // Promote to production: the CRM token is missing there.
    const bundle = (await cloud.api('GET', `/v1/workflows/${workflowId}/export`)).body;
    const liveProject = (await cloud.api('POST', '/v1/projects', { key: cloud.keys.live, body: { name: 'AP' } })).body.id;
    const promotion = await cloud.api('POST', '/v1/workflows/promotions', { key: cloud.keys.live, body: { bundle, target_project_id: liveProject, idempotency_key: 'ap-invoices-1' } });
    expect(promotion.status, promotion.text).toBe(201);
    expect(promotion.body.missing_secrets).toEqual(['CRM_TOKEN']);
    const liveWorkflow = promotion.body.target_workflow_id;

    // A production run without the production secret fails before any block; the CRM sees nothing.
    const failed = await run(cloud.keys.live, liveWorkflow, INVOICE, 'draft');
    expect(failed.lifecycle).toMatchObject({ status: 'error', stage: 'input_collection', category: 'permanent', details: { error_code: 'missing_secret', missing_secrets: ['CRM_TOKEN'] } });
    expect(failed.timing.started_at).toBeNull();
    expect(failed.outputs).toEqual({});
    expect(crm.received.filter((r) => r.path === '/crm')).toHaveLength(1);
    const [failedHook] = await hooks.waitFor('/live-hooks', 1);
    expect(verifyWebhook(failedHook!.body, failedHook!.headers as Record<string, string>, liveSigning)).toMatchObject({ type: 'workflow.run.failed', environment: 'production' });

    // With production's own value it runs and uses that value, never the test one.
    expect((await cloud.api('PUT', '/v1/secrets/CRM_TOKEN', { key: cloud.keys.live, body: { value: 'Bearer live-token-9' } })).status).toBe(200);
    expect((await cloud.api('POST', `/v1/workflows/${liveWorkflow}/publish`, { key: cloud.keys.live, body: {} })).status).toBe(200);
    const liveRun = await run(cloud.keys.live, liveWorkflow, INVOICE);
    expect(liveRun.lifecycle.status).toBe('completed');
    const calls = await crm.waitFor('/crm', 2);
    expect(calls[1]!.headers.authorization).toBe('Bearer live-token-9');
    const liveHooks = await hooks.waitFor('/live-hooks', 2);
    const liveEvent = verifyWebhook(liveHooks[1]!.body, liveHooks[1]!.headers as Record<string, string>, liveSigning);
    expect(liveEvent).toMatchObject({ type: 'workflow.run.completed', environment: 'production', data: { id: liveRun.id } });
    expect(() => verifyWebhook(liveHooks[1]!.body, liveHooks[1]!.headers as Record<string, string>, testSigning)).toThrow();
    // The test environment never saw production's run or hooks.
    expect((await cloud.api('GET', `/v1/workflows/runs/${liveRun.id}`)).status).toBe(404);
    expect(hooks.received.filter((r) => r.path === '/test-hooks')).toHaveLength(2);
  });
});

describe('runs', () => {
  it('check their inputs, fail on a failing block with its id, list and cancel', async () => {
    const project = (await cloud.api('POST', '/v1/projects', { body: { name: 'runs' } })).body.id;
    const workflowId = (await cloud.api('POST', '/v1/workflows', { body: { project_id: project } })).body.id;
    crm.answer('/down', { status: 503 });
    await cloud.api('PUT', `/v1/workflows/${workflowId}/draft`, {
      body: {
        blocks: [
          { id: 'in', type: 'start_document', config: {} },
          { id: 'text', type: 'parse', config: {} },
          { id: 'call', type: 'api_call', config: { url: `${crm.url}/down` } },
        ],
        edges: [
          { source: 'in', target: 'text' },
          { source: 'text', target: 'call' },
        ],
      },
    });
    // Unpublished: the default version (production) does not exist yet.
    expect((await cloud.api('POST', '/v1/workflows/runs', { body: { workflow_id: workflowId, documents: { in: { filename: 'a.txt', url: dataUrl('text/plain', 'hello') } } } })).status).toBe(409);
    const missingDoc = await cloud.api('POST', '/v1/workflows/runs', { body: { workflow_id: workflowId, version: 'draft' } });
    expect(missingDoc.status).toBe(422);
    expect(missingDoc.body.detail[0].loc).toEqual(['body', 'documents', 'in']);
    const wrongBlock = await cloud.api('POST', '/v1/workflows/runs', { body: { workflow_id: workflowId, version: 'draft', documents: { nope: { filename: 'a.txt', url: dataUrl('text/plain', 'x') } } } });
    expect(wrongBlock.status).toBe(422);
    expect((await cloud.api('POST', '/v1/workflows/runs', { body: { workflow_id: 'wrk_01m7z0qenejn1pv4p44vpcbwww' } })).status).toBe(422);

    const ended = await run(cloud.keys.test, workflowId, 'Some text to parse', 'draft', 'in');
    expect(ended.lifecycle).toMatchObject({ status: 'error', stage: 'block_execution', category: 'transient', details: { block_id: 'call', error_code: 'api_call_failed', status_code: 503 } });

    const listed = await cloud.api('GET', `/v1/workflows/runs?workflow_id=${workflowId}&status=error&limit=100`);
    expect(listed.body.data.map((r: { id: string }) => r.id)).toEqual([ended.id]);
    const cancelEnded = await cloud.api('POST', `/v1/workflows/runs/${ended.id}/cancel`);
    expect(cancelEnded.body).toMatchObject({ cancellation_status: 'cancellation_failed', run: { id: ended.id, lifecycle: { status: 'error' } } });
  });
});

describe('cancel and permissions', () => {
  it('a running run is cancelled (and stays so when its block ends); operators run, viewers only read', async () => {
    const { createApiKey } = await import('../../../functions/auth/service.ts');
    const { platform } = await import('../../../functions/platform/platform.ts');
    const viewer = (await createApiKey(platform(), { orgId: cloud.orgId, environment: 'test', name: 'v', role: 'viewer' })).key;
    const operator = (await createApiKey(platform(), { orgId: cloud.orgId, environment: 'test', name: 'o', role: 'operator' })).key;
    crm.answer('/slow', 'hang');
    const project = (await cloud.api('POST', '/v1/projects', { body: { name: 'cancel' } })).body.id;
    const workflowId = (await cloud.api('POST', '/v1/workflows', { body: { project_id: project } })).body.id;
    await cloud.api('PUT', `/v1/workflows/${workflowId}/draft`, {
      body: { blocks: [{ id: 'in', type: 'start_json' }, { id: 'call', type: 'api_call', config: { url: `${crm.url}/slow` } }], edges: [{ source: 'in', target: 'call' }] },
    });
    const body = { workflow_id: workflowId, version: 'draft', json_inputs: { in: { n: 1 } } };
    expect((await cloud.api('POST', '/v1/workflows/runs', { key: viewer, body })).status).toBe(403);
    const created = await cloud.api('POST', '/v1/workflows/runs', { key: operator, body });
    expect(created.status, created.text).toBe(201);
    const id = created.body.id;
    expect((await cloud.api('GET', `/v1/workflows/runs/${id}`, { key: viewer })).status).toBe(200);
    expect((await cloud.api('POST', `/v1/workflows/runs/${id}/cancel`, { key: viewer })).status).toBe(403);
    await crm.waitFor('/slow', 1);
    const cancelled = await cloud.api('POST', `/v1/workflows/runs/${id}/cancel`, { key: operator });
    expect(cancelled.body).toMatchObject({ cancellation_status: 'cancelled', run: { lifecycle: { status: 'cancelled' } } });
    expect(cancelled.body.run.timing.completed_at).not.toBeNull();
    const again = await cloud.api('POST', `/v1/workflows/runs/${id}/cancel`);
    expect(again.body.cancellation_status).toBe('cancelled');
    // The hanging call ends at its 10 s timeout; the run stays cancelled.
    await new Promise((r) => setTimeout(r, 500));
    expect((await cloud.api('GET', `/v1/workflows/runs/${id}`)).body.lifecycle.status).toBe('cancelled');
  });
});

describe('edit blocks', () => {
  it('fill the form that flows in with the values that flow in, and pass the filled PDF on', async () => {
    const form = await acroFormPdf();
    const project = (await cloud.api('POST', '/v1/projects', { body: { name: 'forms' } })).body.id;
    const workflowId = (await cloud.api('POST', '/v1/workflows', { body: { project_id: project } })).body.id;
    const draft = {
      blocks: [
        { id: 'form', type: 'start_document' },
        { id: 'values', type: 'start_json' },
        { id: 'fill', type: 'edit', config: { color: '#FF0000' } },
        { id: 'text', type: 'parse' },
      ],
      edges: [
        { source: 'form', target: 'fill' },
        { source: 'values', target: 'fill' },
        { source: 'fill', target: 'text' },
      ],
    };
    expect((await cloud.api('PUT', `/v1/workflows/${workflowId}/draft`, { body: draft })).status).toBe(200);
    const created = await cloud.api('POST', '/v1/workflows/runs', {
      body: { workflow_id: workflowId, version: 'draft', documents: { form: { filename: 'form.pdf', url: `data:application/pdf;base64,${Buffer.from(form.bytes).toString('base64')}` } }, json_inputs: { values: form.instructions } },
    });
    expect(created.status, created.text).toBe(201);
    const done = await waitForEnd(cloud.keys.test, created.body.id);
    expect(done.lifecycle, JSON.stringify(done.lifecycle)).toMatchObject({ status: 'completed' });
    const written = (done.outputs.fill.form_data as Array<{ value: string | null }>).filter((f) => f.value !== null);
    expect(written.length).toBeGreaterThan(5);
    expect(done.outputs.fill.filled_document_ref).toMatchObject({ mime_type: 'application/pdf' });
    // The parse after the edit read the filled PDF: a written value is in its text.
    const aText = written.find((f) => f.value && f.value.length > 3 && f.value !== 'true' && f.value !== 'false')!.value!;
    expect(done.outputs.text.text).toContain(aText);
  });
});
