/**
 * Issue 42's scenario, with the exact requests the official Retab Node SDK sends (its src/workflows
 * resources: paths, query names, bodies), on the local cloud and its workflow-run state machine:
 * build document → extract (review.predicate always) → merge_dicts, edit it (config merge, null
 * deletes a key), diff and restore block and graph versions, round-trip the YAML spec, run it on a
 * PDF, see the run wait in awaiting_review (a task token: no compute), correct a value and approve,
 * read the corrected value from the run's steps; a second run rejected ends without output; a third
 * waits across a restart of the whole local runtime and is approved after it. The real SDK runs the
 * same scenario in `npm run sdk-e2e` (test/e2e/sdk/scenario.ts), which needs the npm registry.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createApiKey } from '../../../functions/auth/service.ts';
import { platform } from '../../../functions/platform/platform.ts';
import { dataUrl, startTestCloud, until, type TestCloud } from '../../support/cloud.ts';
import { startReceiver, type Receiver } from '../../support/receiver.ts';
import { textPdf } from '../../support/text-pdf.ts';

let cloud: TestCloud;
let hooks: Receiver;
let viewer: string;
// Its own data dir (kept across the restart below), removed at the end.
const dataDir = mkdtempSync(join(tmpdir(), 'quire-sdk-scenario-'));
beforeAll(async () => {
  cloud = await startTestCloud({ dataDir, webhooks: { retryScale: 0.001, timeoutMs: 2_000 } });
  hooks = await startReceiver();
  viewer = (await createApiKey(platform(), { orgId: cloud.orgId, environment: 'test', name: 'viewer', role: 'viewer' })).key;
});
afterAll(async () => {
  await hooks?.close();
  await cloud?.close();
  rmSync(dataDir, { recursive: true, force: true });
});

const SCHEMA = { type: 'object', properties: { invoice_number: { type: ['string', 'null'] }, total_due: { type: ['string', 'null'] } } };
const q = (params: Record<string, string | number | undefined>) =>
  '?' + new URLSearchParams(Object.entries(params).flatMap(([k, v]): Array<[string, string]> => (v === undefined ? [] : [[k, String(v)]]))).toString();

async function ok(method: string, path: string, body?: unknown, status = 200, key?: string) {
  const r = await cloud.api(method, path, { body, ...(key ? { key } : {}) });
  expect(r.status, `${method} ${path}: ${r.text}`).toBe(status);
  return r.body;
}

async function runStatus(runId: string, want: string[]) {
  return until(async () => {
    const run = await ok('GET', `/v1/workflows/runs/${runId}`);
    return want.includes(run.lifecycle.status) ? run : undefined;
  }, 60_000, `run ${runId} to be ${want.join('|')}`);
}

describe('a workflow built, reviewed and run as the Retab SDK does it', () => {
  let workflowId = '';
  let startId = '';
  let extractId = '';
  let mergeId = '';
  let pdf = '';

  it('builds the graph block by block, edits it, diffs and restores versions', async () => {
    const project = await ok('POST', '/v1/projects', { name: 'SDK' }, 201);
    // workflows.create(projectId, name, description)
    const workflow = await ok('POST', '/v1/workflows', { project_id: project.id, name: 'Invoices reviewed', description: 'sdk scenario' }, 201);
    workflowId = workflow.id;
    // blocks.list({ workflowId }): a new workflow has its document input block.
    const initial = await ok('GET', `/v1/workflows/blocks${q({ workflow_id: workflowId, limit: 10 })}`);
    expect(initial.data).toHaveLength(1);
    expect(initial.data[0]).toMatchObject({ workflow_id: workflowId, type: 'start_document', config: {} });
    startId = initial.data[0].id;

    // blocks.create(workflowId, type, id, label, positionX, positionY, width, height, config, parentId)
    const extract = await ok('POST', '/v1/workflows/blocks', { workflow_id: workflowId, type: 'extract', label: 'Invoice fields', position_x: 300, position_y: 0, config: { json_schema: SCHEMA, review: { predicate: { kind: 'always' } } } }, 201);
    extractId = extract.id;
    const merge = await ok('POST', '/v1/workflows/blocks', { workflow_id: workflowId, type: 'merge_dicts', label: 'Merge', config: { strategy: 'shallow' } }, 201);
    mergeId = merge.id;
    const bad = await cloud.api('POST', '/v1/workflows/blocks', { body: { workflow_id: workflowId, type: 'extract', config: { json_schema: 'nope', review: { predicate: { kind: 'sometimes' } } } } });
    expect(bad.status).toBe(422);
    expect(bad.body.detail.map((d: { loc: string[] }) => d.loc.join('.'))).toEqual(expect.arrayContaining(['body.config.json_schema', 'body.config.review.predicate.kind']));
    expect((await cloud.api('POST', '/v1/workflows/blocks', { body: { workflow_id: workflowId, type: 'teleport' } })).status).toBe(422);

    // edges.create(workflowId, sourceBlock, targetBlock)
    const e1 = await ok('POST', '/v1/workflows/edges', { workflow_id: workflowId, source_block: startId, target_block: extractId }, 201);
    await ok('POST', '/v1/workflows/edges', { workflow_id: workflowId, source_block: extractId, target_block: mergeId }, 201);
    expect((await cloud.api('POST', '/v1/workflows/edges', { body: { workflow_id: workflowId, source_block: mergeId, target_block: 'ghost' } })).status).toBe(422);
    expect((await ok('GET', `/v1/workflows/edges${q({ workflow_id: workflowId, source_block: startId })}`)).data.map((e: { id: string }) => e.id)).toEqual([e1.id]);
    // Lookups without the workflow id (the SDK's optional workflowId).
    expect(await ok('GET', `/v1/workflows/edges/${e1.id}`)).toMatchObject({ source_block: startId, target_block: extractId, workflow_id: workflowId });
    expect(await ok('GET', `/v1/workflows/blocks/${extractId}`)).toMatchObject({ label: 'Invoice fields', workflow_id: workflowId });

    // blocks.update(..., config, parentId, configMode) with merge: objects merge, null deletes a key.
    await ok('PATCH', `/v1/workflows/blocks/${extractId}${q({ workflow_id: workflowId })}`, { config: { instructions: 'Read the invoice', model: 'quire-local' }, config_mode: 'merge' });
    const merged = await ok('PATCH', `/v1/workflows/blocks/${extractId}`, { label: 'Fields', config: { instructions: null }, config_mode: 'merge' });
    expect(merged.config).toEqual({ json_schema: SCHEMA, review: { predicate: { kind: 'always' } }, model: 'quire-local' });
    expect((await cloud.api('PATCH', `/v1/workflows/blocks/${extractId}`, { body: { config: { json_schema: 3 }, config_mode: 'merge' } })).status).toBe(422);
    // validate-config: a dry run.
    const checked = await ok('POST', `/v1/workflows/blocks/${extractId}/validate-config`, { config: { n_consensus: 1 }, config_mode: 'merge' });
    expect(checked).toMatchObject({ ok: true, block_id: extractId, block_type: 'extract' });
    expect(checked.config_hash).toMatch(/^sha256:/);
    expect((await ok('GET', `/v1/workflows/blocks/${extractId}`)).config).not.toHaveProperty('n_consensus');

    // Block versions: list, diff, get, restore.
    const versions = (await ok('GET', `/v1/workflows/blocks/versions${q({ workflow_id: workflowId, block_id: extractId, order: 'asc', limit: 20 })}`)).data;
    expect(versions).toHaveLength(3);
    const diff = await ok('GET', `/v1/workflows/blocks/versions/diff${q({ from_block_version_id: versions[0].id, to_block_version_id: versions[2].id })}`);
    expect(diff.changes).toEqual(expect.arrayContaining([{ field: 'label', from_value: 'Invoice fields', to_value: 'Fields' }, { field: 'config.model', from_value: null, to_value: 'quire-local' }]));
    expect(await ok('GET', `/v1/workflows/blocks/versions/${versions[0].id}`)).toMatchObject({ block_id: extractId, label: 'Invoice fields' });
    const restored = await ok('POST', `/v1/workflows/blocks/versions/${versions[0].id}/restore`);
    expect(restored).toMatchObject({ id: extractId, label: 'Invoice fields', config: { json_schema: SCHEMA, review: { predicate: { kind: 'always' } } } });

    // Graph versions: one per change; diff and restore.
    const graph = (await ok('GET', `/v1/workflows/versions${q({ workflow_id: workflowId, order: 'asc', limit: 50 })}`)).data;
    expect(graph.length).toBeGreaterThanOrEqual(7);
    const first = graph[0];
    const last = graph.at(-1);
    expect(first.blocks).toHaveLength(1);
    const graphDiff = await ok('GET', `/v1/workflows/versions/diff${q({ workflow_id: workflowId, from_workflow_version_id: first.id, to_workflow_version_id: last.id })}`);
    expect(graphDiff.added_block_ids.sort()).toEqual([extractId, mergeId].sort());
    expect(graphDiff.added_edge_ids).toHaveLength(2);
    expect(await ok('GET', `/v1/workflows/versions/${last.id}${q({ workflow_id: workflowId })}`)).toMatchObject({ id: last.id, block_version_ids: expect.any(Array) });
    await ok('POST', `/v1/workflows/versions/${first.id}/restore${q({ workflow_id: workflowId })}`);
    expect((await ok('GET', `/v1/workflows/blocks${q({ workflow_id: workflowId })}`)).data).toHaveLength(1);
    await ok('POST', `/v1/workflows/versions/${last.id}/restore${q({ workflow_id: workflowId })}`);
    expect((await ok('GET', `/v1/workflows/blocks${q({ workflow_id: workflowId })}`)).data).toHaveLength(3);
    // Viewers read, never edit.
    expect((await cloud.api('PATCH', `/v1/workflows/blocks/${extractId}`, { key: viewer, body: { label: 'x' } })).status).toBe(403);
  });

  it('round-trips the YAML spec: get, plan and apply unchanged say noop; a change is planned field by field', async () => {
    const spec = await ok('GET', `/v1/workflows/${workflowId}/spec`);
    expect(spec.yaml_definition).toContain('merge_dicts');
    const validated = await ok('POST', '/v1/workflows/spec/validate', { yaml_definition: spec.yaml_definition });
    expect(validated).toMatchObject({ is_valid: true, block_count: 3, edge_count: 2, workflow_id: workflowId });
    expect((await ok('POST', '/v1/workflows/spec/validate', { yaml_definition: 'blocks: [{type: teleport}]' })).is_valid).toBe(false);
    expect((await cloud.api('POST', `/v1/workflows/${workflowId}/spec/plan`, { body: { yaml_definition: 'name: [unclosed' } })).status).toBe(422);

    expect(await ok('POST', `/v1/workflows/${workflowId}/spec/plan`, { yaml_definition: spec.yaml_definition })).toMatchObject({ action: 'noop', summary: { has_changes: false }, resource_changes: [] });
    const applied = await ok('POST', '/v1/workflows/spec/apply', { yaml_definition: spec.yaml_definition });
    expect(applied).toMatchObject({ workflow_id: workflowId, action: 'noop', created: false, block_count: 3 });
    expect((await ok('GET', `/v1/workflows/${workflowId}/spec`)).yaml_definition).toBe(spec.yaml_definition);

    const edited = spec.yaml_definition.replace('strategy: shallow', 'strategy: deep');
    const plan = await ok('POST', `/v1/workflows/${workflowId}/spec/plan`, { yaml_definition: edited });
    expect(plan.action).toBe('update');
    expect(plan.resource_changes).toEqual([expect.objectContaining({ address: `block.${mergeId}`, actions: ['update'], change: expect.objectContaining({ field_changes: [expect.objectContaining({ path_display: 'config.strategy', before: 'shallow', after: 'deep' })] }) })]);
    expect(plan.rendered_plan).toContain('config.strategy');
    // A spec without an id creates a workflow in the project given.
    const project = (await ok('GET', `/v1/workflows/${workflowId}`)).project_id;
    const copy = await ok('POST', '/v1/workflows/spec/apply', { yaml_definition: edited.replace(/^id: .*$/m, ''), project_id: project });
    expect(copy).toMatchObject({ action: 'create', created: true, block_count: 3 });
    expect(copy.workflow_id).not.toBe(workflowId);
  });

  it('runs on a PDF, waits in awaiting_review with nothing running, and goes on with the corrected value once approved', async () => {
    await ok('PUT', '/v1/webhooks/endpoint', { url: `${hooks.url}/hooks`, events: ['workflow.run.awaiting_review', 'workflow.review.approved', 'workflow.review.rejected', 'workflow.run.completed', 'workflow.run.cancelled'] });
    await ok('POST', `/v1/workflows/${workflowId}/publish`, { description: 'v1' });
    pdf = dataUrl('application/pdf', Buffer.from(await textPdf([['INVOICE', 'Invoice number: INV-3301', 'Total due: 980.00 EUR']])));
    // runs.create(workflowId, documents, jsonInputs, version, metadata)
    const created = await ok('POST', '/v1/workflows/runs', { workflow_id: workflowId, documents: { [startId]: { filename: 'invoice.pdf', url: pdf } }, metadata: { batch: 'sdk-7' } }, 201);
    const waiting = await runStatus(created.id, ['awaiting_review', 'completed', 'error']);
    expect(waiting.lifecycle).toEqual({ status: 'awaiting_review', waiting_for_block_ids: [extractId] });

    // The list filters the SDK sends.
    const ids = async (params: Record<string, string | number>) => (await ok('GET', `/v1/workflows/runs${q({ workflow_id: workflowId, ...params })}`)).data.map((r: { id: string }) => r.id);
    expect(await ids({ status: 'awaiting_review' })).toEqual([created.id]);
    expect(await ids({ status: 'queued' })).toEqual([]);
    expect(await ids({ status: 'failed' })).toEqual([]);
    expect(await ids({ exclude_status: 'awaiting_review' })).toEqual([]);
    expect(await ids({ trigger_type: 'api' })).toEqual([created.id]);
    expect(await ids({ trigger_type: 'schedule' })).toEqual([]);
    expect(await ids({ search: 'INVOICE.PDF' })).toEqual([created.id]);
    expect(await ids({ search: 'nothing-like-it' })).toEqual([]);
    expect(await ids({ metadata: JSON.stringify({ batch: 'sdk-7' }) })).toEqual([created.id]);
    expect(await ids({ metadata: JSON.stringify({ batch: 'other' }) })).toEqual([]);
    expect(await ids({ min_duration_ms: 0, max_duration_ms: 3_600_000 })).toEqual([created.id]);
    expect(await ids({ max_duration_ms: 0 })).toEqual([]);
    expect(await ids({ sort_by: 'created_at' })).toEqual([created.id]);
    expect((await cloud.api('GET', `/v1/workflows/runs${q({ sort_by: 'duration' })}`)).status).toBe(422);
    expect((await cloud.api('GET', `/v1/workflows/runs${q({ metadata: '{nope' })}`)).status).toBe(422);

    // The steps so far: the extract step waits, its output is the model's.
    const steps = (await ok('GET', `/v1/workflows/steps${q({ run_id: created.id, limit: 10, order: 'asc' })}`)).data;
    const gated = steps.find((s: { block_id: string }) => s.block_id === extractId);
    expect(gated).toMatchObject({ block_type: 'extract', lifecycle: { status: 'awaiting_review' }, artifact: { operation: 'extraction' }, retry_count: 0, run_id: created.id });
    expect(gated.handle_outputs.output.data).toEqual({ invoice_number: 'INV-3301', total_due: '980.00 EUR' });
    expect(gated.handle_inputs.document).toMatchObject({ type: 'file', document: { filename: 'invoice.pdf' } });
    expect(steps.some((s: { block_id: string }) => s.block_id === mergeId)).toBe(false);
    const extraction = await ok('GET', `/v1/workflows/artifacts/${gated.artifact.id}`);
    expect(extraction).toMatchObject({ operation: 'extraction', json_schema: SCHEMA, output: { invoice_number: 'INV-3301' }, status: 'completed' });
    const operations = (await ok('GET', `/v1/workflows/artifacts${q({ run_id: created.id })}`)).data.map((a: { operation: string }) => a.operation);
    expect(operations.sort()).toEqual(['extraction', 'review_trigger_evaluation']);
    expect((await cloud.api('GET', '/v1/workflows/artifacts?limit=1')).status).toBe(400);

    // The review: the model's output is the version without a parent; a correction is a new version.
    const queue = (await ok('GET', `/v1/workflows/reviews${q({ run_id: created.id, decision_status: 'pending' })}`)).data;
    expect(queue).toHaveLength(1);
    const review = queue[0];
    expect(review).toMatchObject({ workflow_id: workflowId, block_id: extractId, step_id: gated.step_id, block_type: 'extract', triggered_by: { kind: 'always' }, decision: null });
    const [model] = (await ok('GET', `/v1/workflows/reviews/versions${q({ review_id: review.id })}`)).data;
    expect(model).toMatchObject({ parent_id: null, author: { kind: 'model' }, snapshot: { invoice_number: 'INV-3301' } });
    const corrected = { invoice_number: 'INV-3301-B', total_due: '980.00 EUR' };
    const version = await ok('POST', '/v1/workflows/reviews/versions', { review_id: review.id, parent_id: model.id, snapshot: corrected, note: 'suffix missed' }, 201);
    expect(version).toMatchObject({ review_id: review.id, parent_id: model.id, author: { kind: 'human' }, snapshot: corrected, note: 'suffix missed' });
    // Content-addressed: the same correction again is the same version.
    expect((await ok('POST', '/v1/workflows/reviews/versions', { review_id: review.id, parent_id: model.id, snapshot: corrected, note: 'suffix missed' }, 201)).id).toBe(version.id);
    expect((await cloud.api('POST', '/v1/workflows/reviews/versions', { body: { review_id: review.id, parent_id: 'rvv_nope', snapshot: corrected } })).status).toBe(422);

    // A viewer may not decide. Reviewers deciding at once: one decision is applied, once.
    expect((await cloud.api('POST', `/v1/workflows/reviews/${review.id}/approve`, { key: viewer, body: { version_id: version.id } })).status).toBe(403);
    const answers = await Promise.all([1, 2, 3].map(() => cloud.api('POST', `/v1/workflows/reviews/${review.id}/approve`, { body: { version_id: version.id } })));
    expect(answers.map((r) => r.status)).toEqual([200, 200, 200]);
    expect(answers.map((r) => r.body.submission_status).sort()).toEqual(['accepted', 'already_applied', 'already_applied']);
    expect(answers.find((r) => r.body.submission_status === 'accepted')!.body).toMatchObject({ resume_status: 'resumed', review: { decision: { verdict: 'approved', version_id: version.id, author: { kind: 'human' } } } });
    // Another decision after that one conflicts, and changes nothing.
    const late = await ok('POST', `/v1/workflows/reviews/${review.id}/reject`, { version_id: model.id, reason: 'wrong supplier' });
    expect(late).toMatchObject({ submission_status: 'conflict', resume_status: 'skipped', review: { decision: { verdict: 'approved' } } });
    expect((await cloud.api('POST', '/v1/workflows/reviews/versions', { body: { review_id: review.id, parent_id: version.id, snapshot: {} } })).status).toBe(409);

    const done = await runStatus(created.id, ['completed', 'error', 'cancelled']);
    expect(done.lifecycle).toEqual({ status: 'completed' });
    const after = (await ok('GET', `/v1/workflows/steps${q({ run_id: created.id, limit: 10 })}`)).data;
    const byBlock = (id: string) => after.find((s: { block_id: string }) => s.block_id === id);
    expect(byBlock(extractId)).toMatchObject({ lifecycle: { status: 'completed' }, handle_outputs: { output: { type: 'json', data: corrected } } });
    expect(byBlock(mergeId)).toMatchObject({ lifecycle: { status: 'completed' }, handle_outputs: { output: { data: corrected } } });
    expect(await ok('GET', `/v1/workflows/steps/${byBlock(mergeId).step_id}${q({ run_id: created.id })}`)).toMatchObject({ block_type: 'merge_dicts' });
    expect((await ok('GET', `/v1/workflows/reviews${q({ run_id: created.id, decision_status: 'decided' })}`)).data).toHaveLength(1);

    const events = await hooks.waitFor('/hooks', 3);
    const types = events.map((e) => JSON.parse(e.body).type);
    expect(types).toEqual(expect.arrayContaining(['workflow.run.awaiting_review', 'workflow.review.approved', 'workflow.run.completed']));

    // The CSV export of the block's corrected outputs.
    const csv = await ok('POST', '/v1/workflows/runs/export', { workflow_id: workflowId, block_id: extractId, preferred_columns: ['invoice_number'] });
    expect(csv).toMatchObject({ rows: 1, columns: 3 });
    expect(csv.csv_data).toBe(`run_id,invoice_number,total_due\n${created.id},INV-3301-B,980.00 EUR\n`);

    // Block executions: the extract block run again on the run's PDF with 3 consensus votes (the model's
    // own reading, not the correction); the run's steps keep the approved value.
    const execution = await ok('POST', '/v1/workflows/blocks/executions', { run_id: created.id, block_id: extractId, n_consensus: 3 }, 201);
    expect(execution).toMatchObject({ source_run_id: created.id, block_id: extractId, block_type: 'extract', source_step_id: byBlock(extractId).step_id, block_config: { n_consensus: 3 } });
    expect(['queued', 'running']).toContain(execution.lifecycle.status);
    const rerun = await until(async () => {
      const [e] = (await ok('GET', `/v1/workflows/blocks/executions${q({ run_id: created.id, block_id: extractId })}`)).data;
      return e?.lifecycle.status === 'completed' || e?.lifecycle.status === 'error' ? e : undefined;
    }, 60_000, 'the block execution');
    expect(rerun).toMatchObject({ id: execution.id, lifecycle: { status: 'completed' }, handle_outputs: { output: { type: 'json', data: { invoice_number: 'INV-3301', total_due: '980.00 EUR' } } }, artifact: { operation: 'extraction' } });
    expect(byBlock(extractId).handle_outputs.output.data).toEqual(corrected);
  });

  it('a rejected run ends cancelled, without output; deleting it deletes its steps and reviews', async () => {
    const created = await ok('POST', '/v1/workflows/runs', { workflow_id: workflowId, documents: { [startId]: { filename: 'invoice.pdf', url: pdf } } }, 201);
    await runStatus(created.id, ['awaiting_review']);
    const [review] = (await ok('GET', `/v1/workflows/reviews${q({ run_id: created.id })}`)).data;
    const [model] = (await ok('GET', `/v1/workflows/reviews/versions${q({ review_id: review.id })}`)).data;
    expect((await cloud.api('POST', `/v1/workflows/reviews/${review.id}/reject`, { body: { version_id: model.id, reason: ' ' } })).status).toBe(422);
    const rejected = await ok('POST', `/v1/workflows/reviews/${review.id}/reject`, { version_id: model.id, reason: 'not our invoice' });
    expect(rejected).toMatchObject({ submission_status: 'accepted', resume_status: 'resumed', review: { decision: { verdict: 'rejected', reason: 'not our invoice' } } });
    const ended = await runStatus(created.id, ['completed', 'error', 'cancelled']);
    expect(ended.lifecycle).toMatchObject({ status: 'cancelled', reason: expect.stringContaining('not our invoice') });
    expect(ended.outputs).toEqual({});
    const steps = (await ok('GET', `/v1/workflows/steps${q({ run_id: created.id })}`)).data;
    expect(steps.find((s: { block_id: string }) => s.block_id === extractId).lifecycle).toMatchObject({ status: 'cancelled' });
    expect(steps.some((s: { block_id: string }) => s.block_id === mergeId)).toBe(false);
    expect(await (async () => (await ok('GET', `/v1/workflows/runs${q({ workflow_id: workflowId, status: 'cancelled' })}`)).data.map((r: { id: string }) => r.id))()).toContain(created.id);

    await ok('DELETE', `/v1/workflows/runs/${created.id}`, undefined, 204);
    expect((await cloud.api('GET', `/v1/workflows/runs/${created.id}`)).status).toBe(404);
    expect((await ok('GET', `/v1/workflows/steps${q({ run_id: created.id })}`)).data).toEqual([]);
    expect((await cloud.api('GET', `/v1/workflows/reviews/${review.id}`)).status).toBe(404);
  });

  it('a run waiting for review survives a restart of the whole local runtime and is approved after it', async () => {
    const created = await ok('POST', '/v1/workflows/runs', { workflow_id: workflowId, documents: { [startId]: { filename: 'invoice.pdf', url: pdf } } }, 201);
    await runStatus(created.id, ['awaiting_review']);
    expect((await cloud.api('DELETE', `/v1/workflows/runs/${created.id}`)).status).toBe(409);
    const gatedBefore = (await ok('GET', `/v1/workflows/steps${q({ run_id: created.id, block_id: extractId })}`)).data[0];
    const { keys, orgId } = cloud;
    await cloud.close();
    cloud = await startTestCloud({ dataDir, keys: { ...keys, orgId } });
    // Still waiting, neither restarted from scratch nor lost.
    expect((await ok('GET', `/v1/workflows/runs/${created.id}`)).lifecycle.status).toBe('awaiting_review');
    const [review] = (await ok('GET', `/v1/workflows/reviews${q({ run_id: created.id })}`)).data;
    const [model] = (await ok('GET', `/v1/workflows/reviews/versions${q({ review_id: review.id })}`)).data;
    const approved = await ok('POST', `/v1/workflows/reviews/${review.id}/approve`, { version_id: model.id });
    expect(approved.submission_status).toBe('accepted');
    expect(['resumed', 'pending']).toContain(approved.resume_status);
    const done = await runStatus(created.id, ['completed', 'error', 'cancelled']);
    expect(done.lifecycle).toEqual({ status: 'completed' });
    const steps = (await ok('GET', `/v1/workflows/steps${q({ run_id: created.id })}`)).data;
    // The extraction was not done again: the same step, its output the one made before the restart.
    expect(steps.find((s: { block_id: string }) => s.block_id === extractId)).toMatchObject({ step_id: gatedBefore.step_id, created_at: gatedBefore.created_at, started_at: gatedBefore.started_at, lifecycle: { status: 'completed' } });
    expect(steps.find((s: { block_id: string }) => s.block_id === mergeId).handle_outputs.output.data).toEqual({ invoice_number: 'INV-3301', total_due: '980.00 EUR' });
  });
});
