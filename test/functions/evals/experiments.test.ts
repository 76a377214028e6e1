/**
 * Workflow experiments end to end (API §9.5) on the local cloud: a block of a workflow's draft
 * (extract, classifier) over a set of documents, given or captured from a workflow run, each run
 * `n_consensus` times by an experiment run in the background (the run kit's state machine); its
 * results, one per document, and its metrics in the four views; bad input a 4xx naming it.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { dataUrl, startTestCloud, until, type TestCloud } from '../../support/cloud.ts';

let cloud: TestCloud;
beforeAll(async () => {
  cloud = await startTestCloud();
});
afterAll(() => cloud?.close());

const INVOICE_A = 'INVOICE\nInvoice number: INV-3301\nTotal due: 980.00 EUR\nPlease pay within 30 days.';
const INVOICE_B = 'INVOICE\nInvoice number: INV-4410\nTotal due: 12.50 EUR\nThank you for your business.';
const LETTER = 'Dear Ms. Raman,\nThank you for your visit last week. We enjoyed the conversation.\nKind regards, Daniel';
const SCHEMA = { type: 'object', properties: { invoice_number: { type: ['string', 'null'] }, total_due: { type: ['string', 'null'] } } };

const DRAFT = {
  blocks: [
    { id: 'document', type: 'start_document', config: {} },
    { id: 'kind', type: 'classifier', config: { categories: [{ name: 'invoice', description: 'a bill with an invoice number and a total due' }, { name: 'other', description: 'letters and anything else' }] } },
    { id: 'fields', type: 'extract', config: { json_schema: SCHEMA } },
    { id: 'done', type: 'end', config: {} },
  ],
  edges: [
    { source: 'document', target: 'kind' },
    { source: 'kind', target: 'fields', source_handle: 'invoice' },
    { source: 'kind', target: 'done', source_handle: 'other' },
    { source: 'fields', target: 'done' },
  ],
};

async function workflow(): Promise<string> {
  const project = (await cloud.api('POST', '/v1/projects', { body: { name: 'Experiments' } })).body.id;
  const id = (await cloud.api('POST', '/v1/workflows', { body: { project_id: project, name: 'Invoices' } })).body.id;
  const draft = await cloud.api('PUT', `/v1/workflows/${id}/draft`, { body: DRAFT });
  expect(draft.status, draft.text).toBe(200);
  return id;
}

const documentOf = (filename: string, text: string) => ({ handle_inputs: { document: { type: 'file', document: { filename, url: dataUrl('text/plain', text) } } } });

async function runToEnd(path: string, id: string) {
  return until(async () => {
    const r = await cloud.api('GET', `${path}/${id}`);
    return ['completed', 'error', 'cancelled'].includes(r.body.lifecycle?.status) ? r.body : undefined;
  }, 60_000, `${path}/${id} to end`);
}

const metrics = (query: string) => cloud.api('GET', `/v1/workflows/experiments/metrics?${query}`);

describe('experiments', () => {
  it('an extract experiment: created, run with votes, results and metrics in every view', async () => {
    const workflowId = await workflow();
    const created = await cloud.api('POST', '/v1/workflows/experiments', {
      body: { workflow_id: workflowId, block_id: 'fields', documents: [documentOf('a.txt', INVOICE_A), documentOf('b.txt', INVOICE_B)], n_consensus: 3, name: 'fields' },
    });
    expect(created.status, created.text).toBe(201);
    const experiment = created.body;
    expect(experiment).toMatchObject({ id: expect.stringMatching(/^exp_/), workflow_id: workflowId, block_id: 'fields', block_type: 'extract', n_consensus: 3, document_count: 2, name: 'fields', status: 'draft', last_run_id: null, run_plan_mode: 'run' });
    expect((await cloud.api('GET', `/v1/workflows/experiments/${experiment.id}`)).body).toEqual(experiment);
    expect((await cloud.api('GET', `/v1/workflows/experiments?workflow_id=${workflowId}`)).body.data.map((e: { id: string }) => e.id)).toEqual([experiment.id]);
    expect((await cloud.api('GET', `/v1/workflows/experiments?workflow_id=${workflowId}&block_id=kind`)).body.data).toEqual([]);

    const started = await cloud.api('POST', '/v1/workflows/experiments/runs', { body: { experiment_id: experiment.id, workflow_id: workflowId } });
    expect(started.status, started.text).toBe(201);
    expect(started.body).toMatchObject({ id: expect.stringMatching(/^expr_/), experiment_id: experiment.id, block_id: 'fields', block_type: 'extract', n_consensus: 3, total_document_count: 2, parent_run_id: null });
    const run = await runToEnd('/v1/workflows/experiments/runs', started.body.id);
    expect(run.lifecycle).toEqual({ status: 'completed' });
    expect(run).toMatchObject({ completed_document_count: 2, error_count: 0 });
    expect(run.score).toBeGreaterThan(0);
    expect(run.score).toBeLessThanOrEqual(1);

    const after = (await cloud.api('GET', `/v1/workflows/experiments/${experiment.id}`)).body;
    expect(after).toMatchObject({ status: 'completed', last_run_id: run.id, score: run.score, freshness_state: 'fresh', run_plan_mode: 'noop' });

    // One result per document, with what the block received and produced.
    const results = (await cloud.api('GET', `/v1/workflows/experiments/results?run_id=${run.id}&order=asc`)).body.data;
    expect(results).toHaveLength(2);
    for (const r of results) expect(r).toMatchObject({ experiment_run_id: run.id, experiment_id: experiment.id, lifecycle: { status: 'completed' }, block_type: 'extract', handle_inputs: { document: { type: 'file' } } });
    const outputs = results.map((r: { handle_outputs: { output: { data: { invoice_number: string } } } }) => r.handle_outputs.output.data.invoice_number).sort();
    expect(outputs).toEqual(['INV-3301', 'INV-4410']);
    expect((await cloud.api('GET', `/v1/workflows/experiments/results/${results[0].id}`)).body).toEqual(results[0]);

    // Metrics: the run, one document, one target, one target's votes.
    const summary = await metrics(`run_id=${run.id}`);
    expect(summary.status, summary.text).toBe(200);
    expect(summary.body).toMatchObject({ kind: 'summary', view: 'summary', experiment_id: experiment.id, run_id: run.id, block_type: 'extract', score: run.score, scored_document_count: 2, total_document_count: 2, prior_run_id: null });
    expect(Object.keys(summary.body.aggregate.likelihoods).sort()).toEqual(['invoice_number', 'total_due']);
    expect(summary.body.documents).toHaveLength(2);
    const documentId = summary.body.documents.find((d: { filename: string }) => d.filename === 'a.txt').id;

    const byDocument = await metrics(`run_id=${run.id}&view=by_document&document_id=${documentId}`);
    expect(byDocument.status, byDocument.text).toBe(200);
    expect(byDocument.body).toMatchObject({ kind: 'by_document', document: { id: documentId, filename: 'a.txt' } });
    expect(byDocument.body.targets).toEqual(expect.arrayContaining([expect.objectContaining({ path: 'invoice_number', value: 'INV-3301' })]));

    const byTarget = await metrics(`run_id=${run.id}&view=by_target&target_path=total_due`);
    expect(byTarget.status, byTarget.text).toBe(200);
    expect(byTarget.body).toMatchObject({ kind: 'by_target', target: 'total_due', confusion: null });
    expect(byTarget.body.documents.map((d: { value: unknown }) => d.value).sort()).toEqual(['12.50 EUR', '980.00 EUR']);

    const votes = await metrics(`run_id=${run.id}&view=votes&document_id=${documentId}&target_path=invoice_number`);
    expect(votes.status, votes.text).toBe(200);
    expect(votes.body).toMatchObject({ kind: 'votes', target: 'invoice_number', rows: [{ consensus: 'INV-3301', total_voter_count: 3 }] });
    expect(votes.body.rows[0].votes).toHaveLength(3);

    // Bad metric queries name the problem.
    const noDocument = await metrics(`run_id=${run.id}&view=by_document`);
    expect(noDocument.status).toBe(422);
    expect(JSON.stringify(noDocument.body)).toMatch(/document_id/);
    const unknownTarget = await metrics(`run_id=${run.id}&view=by_target&target_path=iban`);
    expect(unknownTarget.status).toBe(422);
    expect(unknownTarget.body.detail[0]).toMatchObject({ loc: ['query', 'target_path'], msg: expect.stringMatching(/"iban" is a target of no document .*its targets: invoice_number, total_due/) });
    const badView = await metrics(`run_id=${run.id}&view=sideways`);
    expect(badView.status).toBe(422);
    expect(JSON.stringify(badView.body)).toMatch(/view/);
    expect((await metrics('run_id=expr_01m7z0qenejn1pv4p44vpcbwww')).status).toBe(404);

    // A second run: its parent is the first, and the prior scores come from it.
    const changed = await cloud.api('PATCH', `/v1/workflows/experiments/${experiment.id}`, { body: { n_consensus: 5, name: 'five votes' } });
    expect(changed.status, changed.text).toBe(200);
    expect(changed.body).toMatchObject({ n_consensus: 5, name: 'five votes', freshness_state: 'stale', freshness_reasons: ['validity_changed'], run_plan_mode: 'run' });
    const second = await cloud.api('POST', '/v1/workflows/experiments/runs', { body: { experiment_id: experiment.id } });
    expect(second.status, second.text).toBe(201);
    expect(second.body.parent_run_id).toBe(run.id);
    const secondRun = await runToEnd('/v1/workflows/experiments/runs', second.body.id);
    expect(secondRun.lifecycle.status).toBe('completed');
    const withPrior = await metrics(`run_id=${secondRun.id}&include_prior=true`);
    expect(withPrior.body).toMatchObject({ prior_run_id: run.id, prior_score: run.score });
    const listed = (await cloud.api('GET', `/v1/workflows/experiments/runs?experiment_id=${experiment.id}`)).body.data.map((r: { id: string }) => r.id);
    expect(listed).toEqual([secondRun.id, run.id]);

    // Deleting the experiment deletes its runs and results.
    expect((await cloud.api('DELETE', `/v1/workflows/experiments/${experiment.id}`)).status).toBe(204);
    expect((await cloud.api('GET', `/v1/workflows/experiments/${experiment.id}`)).status).toBe(404);
    expect((await cloud.api('GET', `/v1/workflows/experiments/runs/${run.id}`)).status).toBe(404);
    expect((await cloud.api('GET', `/v1/workflows/experiments/results/${results[0].id}`)).status).toBe(404);
  });

  it('a classifier experiment on documents captured from a workflow run: confusion metrics', async () => {
    const workflowId = await workflow();
    const wr = await cloud.api('POST', '/v1/workflows/runs', { body: { workflow_id: workflowId, version: 'draft', documents: { document: { filename: 'letter.txt', url: dataUrl('text/plain', LETTER) } } } });
    expect(wr.status, wr.text).toBe(201);
    await until(async () => {
      const r = await cloud.api('GET', `/v1/workflows/runs/${wr.body.id}`);
      return ['completed', 'error', 'cancelled'].includes(r.body.lifecycle?.status) ? r.body : undefined;
    }, 60_000, 'workflow run');

    const created = await cloud.api('POST', '/v1/workflows/experiments', { body: { workflow_id: workflowId, block_id: 'kind', document_captures: [{ run_id: wr.body.id }], documents: [documentOf('a.txt', INVOICE_A)] } });
    expect(created.status, created.text).toBe(201);
    expect(created.body).toMatchObject({ block_type: 'classifier', n_consensus: 3, document_count: 2 });

    // A capture of a block the run never reached is refused, naming it.
    const notReached = await cloud.api('POST', '/v1/workflows/experiments', { body: { workflow_id: workflowId, block_id: 'fields', document_captures: [{ run_id: wr.body.id }] } });
    expect(notReached.status).toBe(422);
    expect(JSON.stringify(notReached.body)).toMatch(/has no step of block fields|received no inputs/);

    const started = await cloud.api('POST', '/v1/workflows/experiments/runs', { body: { experiment_id: created.body.id } });
    expect(started.status, started.text).toBe(201);
    // One run at a time.
    const again = await cloud.api('POST', '/v1/workflows/experiments/runs', { body: { experiment_id: created.body.id } });
    expect([201, 409]).toContain(again.status);
    if (again.status === 409) expect(again.body.detail).toMatch(/run in progress/);
    const run = await runToEnd('/v1/workflows/experiments/runs', started.body.id);
    expect(run.lifecycle.status).toBe('completed');

    const summary = await metrics(`run_id=${run.id}&view=summary`);
    expect(summary.status, summary.text).toBe(200);
    expect(summary.body).toMatchObject({ block_type: 'classifier', scored_document_count: 2 });
    expect(Object.keys(summary.body.aggregate.diag).sort()).toEqual(['invoice', 'other']);
    const byTarget = await metrics(`run_id=${run.id}&view=by_target&target_path=invoice`);
    expect(byTarget.status, byTarget.text).toBe(200);
    expect(byTarget.body.confusion).toMatchObject({ self: expect.any(Number) });
    const letter = summary.body.documents.find((d: { filename: string }) => d.filename === 'letter.txt');
    const votes = await metrics(`run_id=${run.id}&view=votes&document_id=${letter.id}&target_path=other`);
    expect(votes.status, votes.text).toBe(200);
    expect(votes.body.rows[0]).toMatchObject({ consensus: 'other', total_voter_count: 3 });
  });

  it('refuse bad input with a 4xx naming the problem', async () => {
    const workflowId = await workflow();
    const post = (body: Record<string, unknown>) => cloud.api('POST', '/v1/workflows/experiments', { body: { workflow_id: workflowId, ...body } });

    const endBlock = await post({ block_id: 'done' });
    expect(endBlock.status).toBe(422);
    expect(JSON.stringify(endBlock.body)).toMatch(/end block/);
    const noBlock = await post({});
    expect(noBlock.status).toBe(422);
    expect(JSON.stringify(noBlock.body)).toMatch(/block_id/);
    const votes = await post({ block_id: 'fields', n_consensus: 2 });
    expect(votes.status).toBe(422);
    expect(JSON.stringify(votes.body)).toMatch(/n_consensus must be one of 1, 3, 5, 7/);
    const twice = await post({ block_id: 'fields', documents: [documentOf('a.txt', INVOICE_A), documentOf('a.txt', INVOICE_A)] });
    expect(twice.status).toBe(422);
    expect(JSON.stringify(twice.body)).toMatch(/same document/);
    const jsonOnly = await post({ block_id: 'fields', documents: [{ handle_inputs: { input: { type: 'json', data: 1 } } }] });
    expect(jsonOnly.status).toBe(422);
    expect(JSON.stringify(jsonOnly.body)).toMatch(/reads a document/);
    const badCapture = await post({ block_id: 'fields', document_captures: [{ run_id: 'run_01m7z0qenejn1pv4p44vpcbwww' }] });
    expect(badCapture.status).toBe(422);
    const noSource = await post({ block_id: 'fields', source_experiment_id: 'exp_01m7z0qenejn1pv4p44vpcbwww' });
    expect(noSource.status).toBe(422);
    expect(JSON.stringify(noSource.body)).toMatch(/exp_01m7z0qenejn1pv4p44vpcbwww not found/);

    // An experiment without documents cannot run; a copy keeps the source's block and documents.
    const empty = await post({ block_id: 'fields' });
    expect(empty.status, empty.text).toBe(201);
    const emptyRun = await cloud.api('POST', '/v1/workflows/experiments/runs', { body: { experiment_id: empty.body.id } });
    expect(emptyRun.status).toBe(422);
    expect(JSON.stringify(emptyRun.body)).toMatch(/has no documents/);
    const full = await post({ block_id: 'fields', documents: [documentOf('a.txt', INVOICE_A)] });
    const copy = await post({ source_experiment_id: full.body.id });
    expect(copy.status, copy.text).toBe(201);
    expect(copy.body).toMatchObject({ block_id: 'fields', document_count: 1, name: expect.stringMatching(/^Copy of/) });

    const wrongWorkflow = await cloud.api('POST', '/v1/workflows/experiments/runs', { body: { experiment_id: full.body.id, workflow_id: 'wrk_01m7z0qenejn1pv4p44vpcbwww' } });
    expect(wrongWorkflow.status).toBe(404);
    expect((await cloud.api('POST', '/v1/workflows/experiments/runs', { body: { experiment_id: 'exp_01m7z0qenejn1pv4p44vpcbwww' } })).status).toBe(404);
    expect((await cloud.api('GET', '/v1/workflows/experiments')).status).toBe(422);
    expect((await cloud.api('GET', '/v1/workflows/experiments/metrics')).status).toBe(422);
    expect((await cloud.api('POST', '/v1/workflows/experiments/runs/expr_01m7z0qenejn1pv4p44vpcbwww/cancel')).status).toBe(404);
  });

  it('a cancelled run answers its lifecycle; its open results end cancelled', async () => {
    const workflowId = await workflow();
    const docs = [documentOf('a.txt', INVOICE_A), documentOf('b.txt', INVOICE_B), documentOf('c.txt', LETTER)];
    const created = await cloud.api('POST', '/v1/workflows/experiments', { body: { workflow_id: workflowId, block_id: 'fields', documents: docs } });
    const started = await cloud.api('POST', '/v1/workflows/experiments/runs', { body: { experiment_id: created.body.id } });
    expect(started.status).toBe(201);
    const cancelled = await cloud.api('POST', `/v1/workflows/experiments/runs/${started.body.id}/cancel`);
    expect(cancelled.status).toBe(200);
    expect(cancelled.body.id).toBe(started.body.id);
    expect(['cancelled', 'completed']).toContain(cancelled.body.lifecycle.status);
    const run = await runToEnd('/v1/workflows/experiments/runs', started.body.id);
    const results = (await cloud.api('GET', `/v1/workflows/experiments/results?run_id=${run.id}`)).body.data as Array<{ lifecycle: { status: string } }>;
    expect(results).toHaveLength(3);
    if (run.lifecycle.status === 'cancelled') for (const r of results) expect(['completed', 'cancelled']).toContain(r.lifecycle.status);
    // The experiment can be deleted once its run has ended.
    expect((await cloud.api('DELETE', `/v1/workflows/experiments/${created.body.id}`)).status).toBe(204);
  });
});
