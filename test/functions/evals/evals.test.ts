/**
 * Workflow evals end to end (API §9.5) on the local cloud: an eval saved on an extract block of a
 * workflow's draft (manual inputs, an assertion), checked when saved (every bad input a 422 naming
 * it), then run in the background by an eval run (the run kit's state machine): its results, one per
 * eval, with verdicts; the run's counts; the eval's latest summary and freshness; cancel.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { EVALUABLE_BLOCKS } from '../../../functions/evals/evals.ts';
import { RUNNABLE_ALONE } from '../../../functions/workflows/blocks.ts';
import { dataUrl, startTestCloud, until, type TestCloud } from '../../support/cloud.ts';

let cloud: TestCloud;
beforeAll(async () => {
  cloud = await startTestCloud();
});
afterAll(() => cloud?.close());

const INVOICE = 'INVOICE\nInvoice number: INV-3301\nTotal due: 980.00 EUR\nPlease pay within 30 days.';
const SCHEMA = { type: 'object', properties: { invoice_number: { type: ['string', 'null'] }, total_due: { type: ['string', 'null'] } } };

const DRAFT = {
  blocks: [
    { id: 'document', type: 'start_document', config: {} },
    { id: 'fields', type: 'extract', config: { json_schema: SCHEMA } },
    { id: 'done', type: 'end', config: {} },
  ],
  edges: [
    { source: 'document', target: 'fields' },
    { source: 'fields', target: 'done' },
  ],
};

async function workflow(key = cloud.keys.test): Promise<string> {
  const project = (await cloud.api('POST', '/v1/projects', { key, body: { name: 'Evals' } })).body.id;
  const id = (await cloud.api('POST', '/v1/workflows', { key, body: { project_id: project, name: 'Invoices' } })).body.id;
  const draft = await cloud.api('PUT', `/v1/workflows/${id}/draft`, { key, body: DRAFT });
  expect(draft.status, draft.text).toBe(200);
  return id;
}

const invoiceInputs = (text = INVOICE) => ({ document: { type: 'file', document: { filename: 'invoice.txt', url: dataUrl('text/plain', text) } } });
const equalsAssertion = (path: string, expected: unknown) => ({ target: { output_handle_id: 'output', path }, condition: { kind: 'equals', expected } });

async function createEval(workflowId: string, assertion: Record<string, unknown>, name?: string) {
  const r = await cloud.api('POST', '/v1/workflows/evals', { body: { workflow_id: workflowId, target: { type: 'block', block_id: 'fields' }, source: { type: 'manual', handle_inputs: invoiceInputs() }, assertion, name } });
  expect(r.status, r.text).toBe(201);
  return r.body;
}

async function runToEnd(path: string, id: string) {
  return until(async () => {
    const r = await cloud.api('GET', `${path}/${id}`);
    return ['completed', 'error', 'cancelled'].includes(r.body.lifecycle?.status) ? r.body : undefined;
  }, 60_000, `${path}/${id} to end`);
}

it('evals can target exactly the blocks a block can run alone', () => {
  expect([...EVALUABLE_BLOCKS].sort()).toEqual([...RUNNABLE_ALONE].sort());
});

describe('saved evals', () => {
  it('are created, read, listed, changed and deleted', async () => {
    const workflowId = await workflow();
    const created = await createEval(workflowId, equalsAssertion('invoice_number', 'INV-3301'), 'invoice number');
    expect(created).toMatchObject({
      id: expect.stringMatching(/^evl_/),
      workflow_id: workflowId,
      target: { type: 'block', block_id: 'fields' },
      name: 'invoice number',
      assertion: { id: expect.any(String), target: { output_handle_id: 'output', path: 'invoice_number' }, condition: { kind: 'equals', expected: 'INV-3301' } },
      validation_status: 'valid',
      drift: { status: 'none' },
      freshness: { status: 'unknown', reasons: ['no_baseline'] },
      latest_run_summary: null,
    });
    // The document was stored as a File of this environment: the eval keeps its reference.
    expect(created.source.handle_inputs.document).toMatchObject({ type: 'file', document: { id: expect.stringMatching(/^file_/), filename: 'invoice.txt' } });

    expect((await cloud.api('GET', `/v1/workflows/evals/${created.id}`)).body).toEqual(created);
    const list = await cloud.api('GET', `/v1/workflows/evals?workflow_id=${workflowId}`);
    expect(list.status).toBe(200);
    expect(list.body.data.map((e: { id: string }) => e.id)).toEqual([created.id]);
    expect((await cloud.api('GET', `/v1/workflows/evals?workflow_id=${workflowId}&target_block_id=other`)).body.data).toEqual([]);

    const renamed = await cloud.api('PATCH', `/v1/workflows/evals/${created.id}`, { body: { name: 'renamed', assertion: equalsAssertion('total_due', '980.00 EUR') } });
    expect(renamed.status, renamed.text).toBe(200);
    expect(renamed.body).toMatchObject({ name: 'renamed', assertion: { target: { path: 'total_due' } } });
    expect(renamed.body.updated_at >= created.updated_at).toBe(true);

    expect((await cloud.api('DELETE', `/v1/workflows/evals/${created.id}`)).status).toBe(204);
    const gone = await cloud.api('GET', `/v1/workflows/evals/${created.id}`);
    expect(gone.status).toBe(404);
    expect(gone.body.detail).toMatch(/eval.*not found/i);
  });

  it('refuse bad input with a 422 naming the problem', async () => {
    const workflowId = await workflow();
    const base = { workflow_id: workflowId, target: { type: 'block', block_id: 'fields' }, source: { type: 'manual', handle_inputs: invoiceInputs() }, assertion: equalsAssertion('invoice_number', 'x') };
    const post = (body: unknown) => cloud.api('POST', '/v1/workflows/evals', { body });

    const unknownBlock = await post({ ...base, target: { type: 'block', block_id: 'nope' } });
    expect(unknownBlock.status).toBe(422);
    expect(JSON.stringify(unknownBlock.body)).toMatch(/Block nope is not in the draft/);

    const startBlock = await post({ ...base, target: { type: 'block', block_id: 'document' } });
    expect(startBlock.status).toBe(422);
    expect(JSON.stringify(startBlock.body)).toMatch(/start_document block/);

    const badKind = await post({ ...base, assertion: { target: { output_handle_id: 'output' }, condition: { kind: 'sounds_like' } } });
    expect(badKind.status).toBe(422);
    expect(JSON.stringify(badKind.body)).toMatch(/sounds_like/);

    const badRegex = await post({ ...base, assertion: { target: { output_handle_id: 'output', path: 'invoice_number' }, condition: { kind: 'matches_regex', pattern: '(' } } });
    expect(badRegex.status).toBe(422);
    expect(JSON.stringify(badRegex.body)).toMatch(/pattern/);

    const badHandle = await post({ ...base, assertion: { target: { output_handle_id: 'elsewhere' }, condition: { kind: 'exists' } } });
    expect(badHandle.status).toBe(422);
    expect(JSON.stringify(badHandle.body)).toMatch(/elsewhere/);

    const noDocument = await post({ ...base, source: { type: 'manual', handle_inputs: { input: { type: 'json', data: { a: 1 } } } } });
    expect(noDocument.status).toBe(422);
    expect(JSON.stringify(noDocument.body)).toMatch(/reads a document/);

    const badSource = await post({ ...base, source: { type: 'somewhere' } });
    expect(badSource.status).toBe(422);

    const noRun = await post({ ...base, source: { type: 'run_step', run_id: 'run_01m7z0qenejn1pv4p44vpcbwww' } });
    expect(noRun.status).toBe(422);
    expect(JSON.stringify(noRun.body)).toMatch(/run_01m7z0qenejn1pv4p44vpcbwww/);

    const noWorkflow = await post({ ...base, workflow_id: 'wrk_01m7z0qenejn1pv4p44vpcbwww' });
    expect(noWorkflow.status).toBe(404);

    const noWorkflowId = await cloud.api('GET', '/v1/workflows/evals');
    expect(noWorkflowId.status).toBe(422);
    expect(JSON.stringify(noWorkflowId.body)).toMatch(/workflow_id/);

    const emptyName = await cloud.api('PATCH', '/v1/workflows/evals/evl_01m7z0qenejn1pv4p44vpcbwww', { body: { name: '' } });
    expect(emptyName.status).toBe(422);
  });
});

describe('eval runs', () => {
  it('run the evals in the background: results with verdicts, counts, the eval’s latest summary', async () => {
    const workflowId = await workflow();
    const passing = await createEval(workflowId, equalsAssertion('invoice_number', 'INV-3301'), 'number');
    const failing = await createEval(workflowId, equalsAssertion('total_due', '1.00 EUR'), 'total');
    const regex = await createEval(workflowId, { target: { output_handle_id: 'output', path: 'total_due' }, condition: { kind: 'matches_regex', pattern: '^\\d+\\.\\d{2} EUR$' } });
    const judged = await createEval(workflowId, { target: { output_handle_id: 'output', path: 'invoice_number' }, condition: { kind: 'llm_judged_as', rubric: 'looks like an invoice number' } });

    const created = await cloud.api('POST', '/v1/workflows/evals/runs', { body: { workflow_id: workflowId } });
    expect(created.status, created.text).toBe(201);
    expect(created.body).toMatchObject({ id: expect.stringMatching(/^evr_/), workflow_id: workflowId, total_evals: 4, target: null, eval_id: null });
    expect(['pending', 'queued', 'running']).toContain(created.body.lifecycle.status);

    const run = await runToEnd('/v1/workflows/evals/runs', created.body.id);
    expect(run.lifecycle).toEqual({ status: 'completed' });
    expect(run.counts).toEqual({ lifecycle_counts: { pending: 0, queued: 0, running: 0, completed: 4, error: 0, cancelled: 0 }, outcome: { passed: 2, failed: 1, blocked: 1 } });
    expect(run.timing.started_at).not.toBeNull();
    expect(run.timing.completed_at).not.toBeNull();

    const results = await cloud.api('GET', `/v1/workflows/evals/results?run_id=${run.id}&order=asc`);
    expect(results.status).toBe(200);
    const byEval = new Map(results.body.data.map((r: { eval_id: string }) => [r.eval_id, r]));
    expect(byEval.size).toBe(4);
    expect(byEval.get(passing.id)).toMatchObject({ lifecycle: { status: 'completed' }, verdict: 'passed', block_id: 'fields', block_type: 'extract', assertion_result: { outcome: 'passed', actual_value: 'INV-3301' } });
    expect(byEval.get(failing.id)).toMatchObject({ verdict: 'failed', assertion_result: { outcome: 'failed', actual_value: '980.00 EUR', expected_value: '1.00 EUR' }, verdict_summary: { passed: false, assertions_failed: 1 } });
    expect(byEval.get(regex.id)).toMatchObject({ verdict: 'passed' });
    const blocked = byEval.get(judged.id) as { verdict: string; assertion_result: { failure: { message: string } } };
    expect(blocked.verdict).toBe('blocked');
    expect(blocked.assertion_result.failure.message).toMatch(/needs an LLM provider/);
    // What the block received and produced.
    const one = byEval.get(passing.id) as { id: string; handle_inputs: Record<string, unknown>; handle_outputs: Record<string, { data: unknown }>; artifact: { id: string } | null };
    expect(one.handle_inputs.document).toMatchObject({ type: 'file' });
    expect(one.handle_outputs.output!.data).toEqual({ invoice_number: 'INV-3301', total_due: '980.00 EUR' });
    expect((await cloud.api('GET', `/v1/workflows/evals/results/${one.id}`)).body).toEqual(one);

    // The eval remembers its latest result; it is fresh until its assertion changes.
    const after = (await cloud.api('GET', `/v1/workflows/evals/${passing.id}`)).body;
    expect(after.latest_run_summary).toMatchObject({ run_record_id: run.id, status: 'completed', outcome: 'passed', assertions_passed: 1 });
    expect(after.latest_passing_run_summary).toMatchObject({ run_record_id: run.id });
    expect(after.freshness).toMatchObject({ status: 'fresh', reasons: [], baseline_run_id: run.id });
    const changed = (await cloud.api('PATCH', `/v1/workflows/evals/${passing.id}`, { body: { assertion: equalsAssertion('invoice_number', 'INV-9') } })).body;
    expect(changed.freshness).toMatchObject({ status: 'stale', reasons: ['validity_changed'] });
    expect((await cloud.api('GET', `/v1/workflows/evals/${failing.id}`)).body.latest_failing_run_summary).toMatchObject({ run_record_id: run.id, outcome: 'failed' });

    // Lists: by workflow, by eval, by status.
    const listed = await cloud.api('GET', `/v1/workflows/evals/runs?workflow_id=${workflowId}`);
    expect(listed.body.data.map((r: { id: string }) => r.id)).toEqual([run.id]);
    expect((await cloud.api('GET', `/v1/workflows/evals/runs?workflow_id=${workflowId}&status=completed`)).body.data).toHaveLength(1);
    expect((await cloud.api('GET', `/v1/workflows/evals/runs?workflow_id=${workflowId}&status=error`)).body.data).toHaveLength(0);
    expect((await cloud.api('GET', `/v1/workflows/evals/runs?workflow_id=${workflowId}&exclude_status=completed`)).body.data).toHaveLength(0);

    // A single eval, and one block's evals.
    const single = await cloud.api('POST', '/v1/workflows/evals/runs', { body: { workflow_id: workflowId, scope: { type: 'single', eval_id: failing.id } } });
    expect(single.status, single.text).toBe(201);
    expect(single.body).toMatchObject({ total_evals: 1, eval_id: failing.id, target: { type: 'block', block_id: 'fields' } });
    const singleRun = await runToEnd('/v1/workflows/evals/runs', single.body.id);
    expect(singleRun.counts.outcome).toEqual({ passed: 0, failed: 1, blocked: 0 });
    expect((await cloud.api('GET', `/v1/workflows/evals/runs?eval_id=${failing.id}`)).body.data.map((r: { id: string }) => r.id)).toEqual([single.body.id]);
    const block = await cloud.api('POST', '/v1/workflows/evals/runs', { body: { workflow_id: workflowId, scope: { type: 'block', block_id: 'fields' } } });
    expect(block.status, block.text).toBe(201);
    expect(block.body.total_evals).toBe(4);
    await runToEnd('/v1/workflows/evals/runs', block.body.id);

    // A cancel of an ended run is idempotent: it answers the run as it is.
    const cancelled = await cloud.api('POST', `/v1/workflows/evals/runs/${run.id}/cancel`);
    expect(cancelled.status).toBe(200);
    expect(cancelled.body.lifecycle.status).toBe('completed');

    // A deleted eval keeps its results with their run.
    expect((await cloud.api('DELETE', `/v1/workflows/evals/${passing.id}`)).status).toBe(204);
    expect((await cloud.api('GET', `/v1/workflows/evals/results/${one.id}`)).status).toBe(200);
  });

  it('a run that is cancelled ends its open results as cancelled', async () => {
    const workflowId = await workflow();
    for (let i = 0; i < 3; i++) await createEval(workflowId, equalsAssertion('invoice_number', 'INV-3301'));
    const created = await cloud.api('POST', '/v1/workflows/evals/runs', { body: { workflow_id: workflowId } });
    expect(created.status).toBe(201);
    const cancelled = await cloud.api('POST', `/v1/workflows/evals/runs/${created.body.id}/cancel`);
    expect(cancelled.status).toBe(200);
    // Either the cancel got there first, or the run had already ended.
    const run = await runToEnd('/v1/workflows/evals/runs', created.body.id);
    const results = (await cloud.api('GET', `/v1/workflows/evals/results?run_id=${run.id}`)).body.data as Array<{ lifecycle: { status: string } }>;
    expect(results).toHaveLength(3);
    if (run.lifecycle.status === 'cancelled') {
      for (const r of results) expect(['completed', 'cancelled']).toContain(r.lifecycle.status);
      expect(run.counts.lifecycle_counts.queued + run.counts.lifecycle_counts.running).toBe(0);
    } else expect(run.lifecycle.status).toBe('completed');
  });

  it('refuse bad input with a 4xx naming the problem', async () => {
    const workflowId = await workflow();
    const none = await cloud.api('POST', '/v1/workflows/evals/runs', { body: { workflow_id: workflowId } });
    expect(none.status).toBe(422);
    expect(JSON.stringify(none.body)).toMatch(/has no evals/);
    const unknownEval = await cloud.api('POST', '/v1/workflows/evals/runs', { body: { workflow_id: workflowId, scope: { type: 'single', eval_id: 'evl_01m7z0qenejn1pv4p44vpcbwww' } } });
    expect(unknownEval.status).toBe(422);
    expect(JSON.stringify(unknownEval.body)).toMatch(/evl_01m7z0qenejn1pv4p44vpcbwww not found/);
    const badScope = await cloud.api('POST', '/v1/workflows/evals/runs', { body: { workflow_id: workflowId, scope: { type: 'galaxy' } } });
    expect(badScope.status).toBe(422);
    const badStatus = await cloud.api('GET', '/v1/workflows/evals/runs?status=sleeping');
    expect(badStatus.status).toBe(422);
    expect(JSON.stringify(badStatus.body)).toMatch(/status/);
    const noRunId = await cloud.api('GET', '/v1/workflows/evals/results');
    expect(noRunId.status).toBe(422);
    expect((await cloud.api('GET', '/v1/workflows/evals/results?run_id=evr_01m7z0qenejn1pv4p44vpcbwww')).status).toBe(404);
    expect((await cloud.api('GET', '/v1/workflows/evals/runs/evr_01m7z0qenejn1pv4p44vpcbwww')).status).toBe(404);
  });
});

describe('odd input never answers a 500', () => {
  it('answers each malformed request with a 4xx', async () => {
    const workflowId = await workflow();
    const requests: Array<[string, string, unknown]> = [
      ['POST', '/v1/workflows/evals', { workflow_id: workflowId, target: { block_id: 'fields' }, source: { type: 'manual', handle_inputs: { document: { type: 'file', document: { id: 'file_01m7z0qenejn1pv4p44vpcbwww' } } } }, assertion: equalsAssertion('x', 1) }],
      ['POST', '/v1/workflows/evals', { workflow_id: workflowId, target: { block_id: 'fields' }, source: { type: 'manual', handle_inputs: { document: { type: 'file', document: { filename: 'x.txt', url: 'data:nonsense' } } } }, assertion: equalsAssertion('x', 1) }],
      ['POST', '/v1/workflows/evals', { workflow_id: workflowId, target: { block_id: 'fields' }, source: { type: 'manual', handle_inputs: { document: { type: 'folder' } } }, assertion: equalsAssertion('x', 1) }],
      ['POST', '/v1/workflows/evals', { workflow_id: workflowId, target: { block_id: 'fields' }, source: { type: 'manual', handle_inputs: invoiceInputs() }, assertion: null }],
      ['POST', '/v1/workflows/evals', { workflow_id: workflowId, target: { block_id: 'fields' }, source: { type: 'manual', handle_inputs: invoiceInputs() }, assertion: { target: { output_handle_id: 'output' }, condition: { kind: 'all_items_match', condition: { kind: 'all_items_match', condition: { kind: 'all_items_match', condition: { kind: 'all_items_match', condition: { kind: 'all_items_match', condition: { kind: 'exists' } } } } } } } }],
      ['POST', '/v1/workflows/evals', { workflow_id: workflowId, target: { block_id: 'fields' }, source: { type: 'manual', handle_inputs: invoiceInputs() }, assertion: { target: { output_handle_id: 'output', path: 'a..b' }, condition: { kind: 'exists' } } }],
      ['POST', '/v1/workflows/evals', { workflow_id: workflowId, target: { block_id: 'fields' }, source: { type: 'manual', handle_inputs: invoiceInputs() }, assertion: { target: { output_handle_id: 'output' }, condition: { kind: 'json_schema_valid', schema: { type: 'strin' } } } }],
      ['POST', '/v1/workflows/evals', [1, 2]],
      ['POST', '/v1/workflows/evals/runs', { workflow_id: 5 }],
      ['POST', '/v1/workflows/experiments', { workflow_id: workflowId, block_id: 'fields', documents: 'all of them' }],
      ['POST', '/v1/workflows/experiments', { workflow_id: workflowId, block_id: 'fields', documents: Array.from({ length: 201 }, () => ({ handle_inputs: {} })) }],
      ['POST', '/v1/workflows/experiments/runs', {}],
      ['PATCH', '/v1/workflows/experiments/exp_01m7z0qenejn1pv4p44vpcbwww', { n_consensus: 'many' }],
      ['GET', '/v1/workflows/evals/runs?limit=0', undefined],
      ['GET', '/v1/workflows/evals/runs?from_date=yesterday', undefined],
      ['GET', '/v1/workflows/experiments/runs?order=sideways', undefined],
      ['GET', '/v1/workflows/experiments/runs?trigger_type=carrier_pigeon', undefined],
      ['GET', '/v1/workflows/experiments/metrics?run_id=expr_01m7z0qenejn1pv4p44vpcbwww&include_prior=maybe', undefined],
    ];
    for (const [method, path, body] of requests) {
      const r = await cloud.api(method, path, { body });
      expect(r.status, `${method} ${path} ${JSON.stringify(body)?.slice(0, 200)}: ${r.text}`).toBeGreaterThanOrEqual(400);
      expect(r.status, `${method} ${path}: ${r.text}`).toBeLessThan(500);
      expect(JSON.stringify(r.body.detail).length, r.text).toBeGreaterThan(10);
    }
    const raw = await cloud.api('POST', '/v1/workflows/evals', { rawBody: '{"workflow_id": ', headers: { 'content-type': 'application/json' } });
    expect(raw.status).toBe(422);
  });
});
