/**
 * Block executions (the Retab SDK's workflows.blocks.executions) on the local cloud: one block of a
 * completed run run again on the inputs it received in that run, with the draft's config and
 * optional consensus votes, as a background run of its own (queued → running → completed); the
 * source run's steps and artifacts never change. check_eligibility refuses a re-run whose upstream
 * blocks changed since the run; every refusal is a 4xx naming the field.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { dataUrl, startTestCloud, until, type TestCloud } from '../../support/cloud.ts';

let cloud: TestCloud;
beforeAll(async () => {
  cloud = await startTestCloud();
});
afterAll(() => cloud?.close());

const INVOICE = 'INVOICE\nInvoice number: INV-3301\nTotal due: 980.00 EUR\nPlease pay within 30 days.';
const SCHEMA = { type: 'object', properties: { invoice_number: { type: ['string', 'null'] }, total_due: { type: ['string', 'null'] } } };
const CATEGORIES = [{ name: 'invoice', description: 'a bill with an invoice number and a total due' }, { name: 'other', description: 'letters and anything else' }];

const draft = {
  blocks: [
    { id: 'document', type: 'start_document', config: {} },
    { id: 'kind', type: 'classifier', config: { categories: CATEGORIES } },
    { id: 'fields', type: 'extract', config: { json_schema: SCHEMA } },
    { id: 'letter', type: 'extract', config: { json_schema: { type: 'object', properties: { sender: { type: ['string', 'null'] } } } } },
    { id: 'shape', type: 'function', config: { expression: 'input' } },
    { id: 'done', type: 'end', config: {} },
  ],
  edges: [
    { source: 'document', target: 'kind' },
    { source: 'kind', target: 'fields', source_handle: 'invoice' },
    { source: 'kind', target: 'letter', source_handle: 'other' },
    { source: 'fields', target: 'shape' },
    { source: 'shape', target: 'done' },
    { source: 'letter', target: 'done' },
  ],
};

async function ok(method: string, path: string, body?: unknown, status = 200) {
  const r = await cloud.api(method, path, { body });
  expect(r.status, `${method} ${path}: ${r.text}`).toBe(status);
  return r.body;
}

let workflowId: string;
let runId: string;
async function setUp() {
  const project = (await ok('POST', '/v1/projects', { name: 'Block executions' }, 201)).id;
  workflowId = (await ok('POST', '/v1/workflows', { project_id: project, name: 'Invoices' }, 201)).id;
  await ok('PUT', `/v1/workflows/${workflowId}/draft`, draft);
  const run = await ok('POST', '/v1/workflows/runs', { workflow_id: workflowId, version: 'draft', documents: { document: { filename: 'invoice.txt', url: dataUrl('text/plain', INVOICE) } } }, 201);
  runId = run.id;
  const ended = await until(async () => {
    const r = (await cloud.api('GET', `/v1/workflows/runs/${runId}`)).body;
    return ['completed', 'error', 'cancelled'].includes(r.lifecycle.status) ? r : undefined;
  }, 30_000, 'the run to end');
  expect(ended.lifecycle.status, JSON.stringify(ended)).toBe('completed');
}

const list = (query: Record<string, string | number>) => cloud.api('GET', `/v1/workflows/blocks/executions?${new URLSearchParams(Object.entries(query).map(([k, v]): [string, string] => [k, String(v)]))}`);

async function executionEnded(id: string, blockId: string) {
  return until(async () => {
    const r = await list({ run_id: runId, block_id: blockId, limit: 100 });
    expect(r.status, r.text).toBe(200);
    const e = r.body.data.find((x: { id: string }) => x.id === id);
    return e && ['completed', 'error', 'cancelled', 'skipped'].includes(e.lifecycle.status) ? e : undefined;
  }, 30_000, `execution ${id} to end`);
}

describe('block executions', () => {
  beforeAll(setUp, 60_000);

  it('re-runs an extract block on the inputs it received in the run, as a run of its own, leaving the run unchanged', async () => {
    const stepsBefore = (await ok('GET', `/v1/workflows/steps?run_id=${runId}&limit=100`)).data;
    const artifactsBefore = (await ok('GET', `/v1/workflows/artifacts?run_id=${runId}&limit=100`)).data;
    const fieldsStep = stepsBefore.find((s: { block_id: string }) => s.block_id === 'fields');

    const created = await ok('POST', '/v1/workflows/blocks/executions', { run_id: runId, block_id: 'fields' }, 201);
    expect(created).toMatchObject({ workflow_id: workflowId, workflow_version_id: 'draft', source_run_id: runId, block_id: 'fields', block_type: 'extract', source_step_id: fieldsStep.step_id, block_config: { json_schema: SCHEMA }, artifact: null, handle_outputs: null });
    expect(['queued', 'running']).toContain(created.lifecycle.status);
    expect(created.id).toMatch(/^bexe_/);
    expect(created.handle_inputs.document).toMatchObject({ type: 'file', document: { filename: 'invoice.txt', mime_type: 'text/plain' } });
    expect(created.handle_inputs).toEqual(fieldsStep.handle_inputs);
    for (const f of ['handle_inputs_fingerprint', 'workflow_draft_fingerprint', 'block_execution_fingerprint', 'execution_fingerprint']) expect(created[f]).toMatch(/^sha256:[0-9a-f]{64}$/);

    const done = await executionEnded(created.id, 'fields');
    expect(done.lifecycle, JSON.stringify(done)).toEqual({ status: 'completed' });
    expect(done.handle_outputs.output).toEqual({ type: 'json', data: { invoice_number: 'INV-3301', total_due: '980.00 EUR' } });
    expect(done.handle_outputs.document.type).toBe('file');
    expect(done.artifact).toMatchObject({ operation: 'extraction' });
    expect(done.duration_ms).toBeGreaterThanOrEqual(0);
    expect(Date.parse(done.started_at)).toBeGreaterThanOrEqual(Date.parse(done.created_at));
    expect(Date.parse(done.completed_at)).toBeGreaterThanOrEqual(Date.parse(done.started_at));
    const artifact = await ok('GET', `/v1/workflows/artifacts/${done.artifact.id}`);
    expect(artifact).toMatchObject({ operation: 'extraction', output: { invoice_number: 'INV-3301' }, source_run_id: runId });

    // The run's steps and artifacts are as they were.
    expect((await ok('GET', `/v1/workflows/steps?run_id=${runId}&limit=100`)).data).toEqual(stepsBefore);
    expect((await ok('GET', `/v1/workflows/artifacts?run_id=${runId}&limit=100`)).data).toEqual(artifactsBefore);
  });

  it('runs the draft config of the block, with n_consensus votes, and a function block on its JSON input', async () => {
    await ok('PATCH', `/v1/workflows/blocks/fields?workflow_id=${workflowId}`, { config: { json_schema: { type: 'object', properties: { invoice_number: { type: ['string', 'null'] } } } }, config_mode: 'replace' });
    const created = await ok('POST', '/v1/workflows/blocks/executions', { run_id: runId, block_id: 'fields', n_consensus: 3 }, 201);
    expect(created.block_config).toMatchObject({ n_consensus: 3, json_schema: { properties: { invoice_number: {} } } });
    const done = await executionEnded(created.id, 'fields');
    expect(done.lifecycle).toEqual({ status: 'completed' });
    expect(done.handle_outputs.output.data).toEqual({ invoice_number: 'INV-3301' });
    const artifact = await ok('GET', `/v1/workflows/artifacts/${done.artifact.id}`);
    expect(artifact.n_consensus).toBe(3);
    expect(artifact.consensus.likelihoods).toHaveProperty('invoice_number');

    // `fields` feeds `shape`, and its config changed since the run: the inputs `shape` received then are not what it would get now.
    const stale = await cloud.api('POST', '/v1/workflows/blocks/executions', { body: { run_id: runId, block_id: 'shape' } });
    expect(stale.status, stale.text).toBe(409);
    expect(stale.body.detail).toContain('(fields)');
    const shape = await ok('POST', '/v1/workflows/blocks/executions', { run_id: runId, block_id: 'shape', check_eligibility: false }, 201);
    const shaped = await executionEnded(shape.id, 'shape');
    expect(shaped.lifecycle).toEqual({ status: 'completed' });
    // What reached it in the run: the first extraction's output, not the re-run's.
    expect(shaped.handle_inputs.input).toEqual({ type: 'json', data: { invoice_number: 'INV-3301', total_due: '980.00 EUR' } });
    expect(shaped.handle_outputs.output.data).toEqual({ invoice_number: 'INV-3301', total_due: '980.00 EUR' });
    expect(shaped.artifact).toMatchObject({ operation: 'function_invocation' });

    // A block that fails ends its execution in `error` with the block's message; the run is untouched.
    await ok('PATCH', `/v1/workflows/blocks/shape?workflow_id=${workflowId}`, { config: { expression: 'number(input.invoice_number)' }, config_mode: 'replace' });
    const failing = await ok('POST', '/v1/workflows/blocks/executions', { run_id: runId, block_id: 'shape', check_eligibility: false }, 201);
    const failed = await executionEnded(failing.id, 'shape');
    expect(failed.lifecycle).toEqual({ status: 'error', message: expect.stringContaining('number() needs a number') });
    expect(failed).toMatchObject({ handle_outputs: null, artifact: null, block_config: { expression: 'number(input.invoice_number)' } });
    expect(failed.completed_at).toBeDefined();
    expect((await ok('GET', `/v1/workflows/runs/${runId}`)).lifecycle.status).toBe('completed');

    // A classifier: its routing decision is the category it chose.
    const kind = await ok('POST', '/v1/workflows/blocks/executions', { run_id: runId, block_id: 'kind', n_consensus: 5 }, 201);
    const classified = await executionEnded(kind.id, 'kind');
    expect(classified.lifecycle).toEqual({ status: 'completed' });
    expect(classified.routing_decisions).toEqual(['invoice']);
  });

  it('check_eligibility (default true) refuses a re-run whose upstream blocks changed since the run; false forces it', async () => {
    await ok('PATCH', `/v1/workflows/blocks/kind?workflow_id=${workflowId}`, { config: { categories: [...CATEGORIES, { name: 'receipt', description: 'a till receipt' }] }, config_mode: 'replace' });
    for (const body of [{ run_id: runId, block_id: 'fields' }, { run_id: runId, block_id: 'fields', check_eligibility: true }]) {
      const refused = await cloud.api('POST', '/v1/workflows/blocks/executions', { body });
      expect(refused.status, refused.text).toBe(409);
      expect(refused.body.detail).toContain('upstream of "fields"');
      expect(refused.body.detail).toContain('kind');
      expect(refused.body.detail).toContain('check_eligibility');
    }
    // The classifier itself has nothing upstream that changed: it stays eligible.
    expect((await cloud.api('POST', '/v1/workflows/blocks/executions', { body: { run_id: runId, block_id: 'kind' } })).status).toBe(201);
    const forced = await ok('POST', '/v1/workflows/blocks/executions', { run_id: runId, block_id: 'fields', check_eligibility: false }, 201);
    expect((await executionEnded(forced.id, 'fields')).lifecycle).toEqual({ status: 'completed' });
    await ok('PATCH', `/v1/workflows/blocks/kind?workflow_id=${workflowId}`, { config: { categories: CATEGORIES }, config_mode: 'replace' });
    expect((await cloud.api('POST', '/v1/workflows/blocks/executions', { body: { run_id: runId, block_id: 'fields' } })).status).toBe(201);
  });

  it('refuses bad input with a 4xx naming the field, never a 500', async () => {
    const post = (body: unknown) => cloud.api('POST', '/v1/workflows/blocks/executions', { body });
    const fieldsStep = (await ok('GET', `/v1/workflows/steps?run_id=${runId}&block_id=fields`)).data[0].step_id;
    const cases: Array<[unknown, number, string]> = [
      [{ run_id: 'run_01m7z0qenejn1pv4p44vpcbwww', block_id: 'fields' }, 404, 'run_id'],
      [{ run_id: runId, block_id: 'nope' }, 404, 'block_id'],
      [{ run_id: runId, block_id: 'fields', step_id: 'stp_0123456789abcdef0123456789' }, 404, 'step_id'],
      [{ run_id: runId, block_id: 'shape', step_id: fieldsStep }, 422, 'step_id'],
      [{ run_id: runId, block_id: 'letter' }, 409, 'did not run'],
      [{ run_id: runId, block_id: 'done' }, 422, 'block_id'],
      [{ run_id: runId, block_id: 'document' }, 422, 'block_id'],
      [{ run_id: runId, block_id: 'fields', n_consensus: 4 }, 422, 'n_consensus'],
      [{ run_id: runId, block_id: 'fields', n_consensus: 'three' }, 422, 'n_consensus'],
      [{ run_id: runId, block_id: 'shape', n_consensus: 3 }, 422, 'n_consensus'],
      [{ run_id: runId, block_id: 'fields', check_eligibility: 'yes' }, 422, 'check_eligibility'],
      [{ block_id: 'fields' }, 422, 'run_id'],
      [{ run_id: runId }, 422, 'block_id'],
    ];
    for (const [body, status, field] of cases) {
      const r = await post(body);
      expect(r.status, `${JSON.stringify(body)}: ${r.text}`).toBe(status);
      expect(r.text, JSON.stringify(body)).toContain(field);
    }
    expect((await list({ block_id: 'fields' })).status).toBe(422);
    expect((await list({ run_id: 'run_01m7z0qenejn1pv4p44vpcbwww', block_id: 'fields' })).status).toBe(404);
    expect((await list({ run_id: runId, block_id: 'fields', order: 'sideways' })).status).toBe(422);
    expect((await list({ run_id: runId, block_id: 'fields', after: 'bexe_01m7z0qenejn1pv4p44vpcbwww' })).status).toBe(422);
  });

  it('lists the executions of a block or of the whole run, newest first, in pages', async () => {
    const all = (await list({ run_id: runId, block_id: 'fields', limit: 100 })).body.data as Array<{ id: string; block_id: string; created_at: string }>;
    expect(all.length).toBeGreaterThanOrEqual(4);
    expect(all.every((e) => e.block_id === 'fields')).toBe(true);
    expect(all.map((e) => e.created_at)).toEqual([...all.map((e) => e.created_at)].sort().reverse());
    const asc = (await list({ run_id: runId, block_id: 'fields', limit: 100, order: 'asc' })).body.data.map((e: { id: string }) => e.id);
    expect(asc).toEqual(all.map((e) => e.id).reverse());

    const pages: string[] = [];
    let after: string | null = null;
    do {
      const r = await list({ run_id: runId, block_id: 'fields', limit: 2, ...(after ? { after } : {}) });
      expect(r.status, r.text).toBe(200);
      expect(r.body.data.length).toBeLessThanOrEqual(2);
      pages.push(...r.body.data.map((e: { id: string }) => e.id));
      after = r.body.list_metadata.after;
    } while (after);
    expect(pages).toEqual(all.map((e) => e.id));
    const back = await list({ run_id: runId, block_id: 'fields', limit: 2, before: all[2]!.id });
    expect(back.body.data.map((e: { id: string }) => e.id)).toEqual([all[0]!.id, all[1]!.id]);

    const kinds = (await list({ run_id: runId, block_id: 'kind', limit: 100 })).body.data;
    expect(kinds.length).toBeGreaterThanOrEqual(2);
    expect(kinds.every((e: { block_id: string }) => e.block_id === 'kind')).toBe(true);
    const everything = (await list({ run_id: runId, limit: 100 })).body.data;
    expect(everything.length).toBe(all.length + kinds.length + 2);
  });

  it('goes with its run: deleting the run deletes its executions and their artifacts', async () => {
    const one = (await list({ run_id: runId, block_id: 'fields', limit: 1 })).body.data[0];
    expect((await cloud.api('DELETE', `/v1/workflows/runs/${runId}`)).status).toBe(204);
    expect((await list({ run_id: runId, block_id: 'fields' })).status).toBe(404);
    expect((await cloud.api('GET', `/v1/workflows/artifacts/${one.artifact.id}`)).status).toBe(404);
  });
});
