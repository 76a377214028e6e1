/**
 * Issue 42's scenario through the official Retab Node SDK (built from ../shared/vendor/retab-node-sdk,
 * its own methods only): build document → extract (review.predicate always) → merge_dicts, edit it,
 * diff and restore versions, round-trip the YAML spec, run it on a PDF, see the run wait in
 * awaiting_review, correct a value and approve, read the corrected value from the run's steps; a
 * second run rejected ends without output. The SDK has no projects resource: the project is made
 * with one plain HTTP call. Run by ./run.ts (`npm run sdk-e2e`).
 */
import assert from 'node:assert/strict';

/** The SDK's client, as built (typed loosely here: the SDK is not a dependency of Quire). */
// eslint-disable-next-line @typescript-eslint/no-explicit-any
type Client = any;

const SCHEMA = { type: 'object', properties: { invoice_number: { type: ['string', 'null'] }, total_due: { type: ['string', 'null'] } } };

async function until<T>(what: string, check: () => Promise<T | undefined>, timeoutMs = 60_000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await check();
    if (value !== undefined) return value;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 200));
  }
}

export async function sdkScenario(client: Client, base: { url: string; key: string }, pdfDataUrl: string, log: (line: string) => void): Promise<void> {
  const project = (await (await fetch(`${base.url}/v1/projects`, { method: 'POST', headers: { authorization: `Bearer ${base.key}`, 'content-type': 'application/json' }, body: JSON.stringify({ name: 'SDK e2e' }) })).json()) as { id: string };

  // The graph.
  const workflow = await client.workflows.create(project.id, 'SDK review scenario', 'issue 42');
  const [start] = (await client.workflows.blocks.list({ workflowId: workflow.id })).data;
  assert.equal(start.type, 'start_document');
  const extract = await client.workflows.blocks.create(workflow.id, 'extract', undefined, 'Invoice fields', 300, 0, undefined, undefined, { json_schema: SCHEMA, review: { predicate: { kind: 'always' } } });
  const merge = await client.workflows.blocks.create(workflow.id, 'merge_dicts', undefined, 'Merge', 600, 0, undefined, undefined, { strategy: 'shallow' });
  await client.workflows.edges.create(workflow.id, start.id, extract.id);
  await client.workflows.edges.create(workflow.id, extract.id, merge.id);
  log(`built ${workflow.id}: ${start.id} → ${extract.id} → ${merge.id}`);

  // Edit it: a config merge (null deletes a key), a label.
  await client.workflows.blocks.update(extract.id, undefined, undefined, undefined, undefined, undefined, { instructions: 'Read the invoice' }, undefined, 'merge', { workflowId: workflow.id });
  const edited = await client.workflows.blocks.update(extract.id, 'Fields', undefined, undefined, undefined, undefined, { instructions: null }, undefined, 'merge');
  assert.deepEqual(edited.config, { json_schema: SCHEMA, review: { predicate: { kind: 'always' } } });
  const checked = await client.workflows.blocks.create_block_validate_config(extract.id, { n_consensus: 1 }, 'merge');
  assert.equal(checked.ok, true);

  // Diff and restore block versions, then graph versions.
  const versions = (await client.workflows.blocks.list_versions({ workflowId: workflow.id, blockId: extract.id, order: 'asc' })).data;
  assert.equal(versions.length, 3);
  const diff = await client.workflows.blocks.list_diff({ fromBlockVersionId: versions[0].id, toBlockVersionId: versions[2].id });
  assert.ok(diff.changes.some((c: { field: string; toValue: unknown }) => c.field === 'label' && c.toValue === 'Fields'), JSON.stringify(diff.changes));
  const restored = await client.workflows.blocks.create_version_restore(versions[0].id);
  assert.equal(restored.label, 'Invoice fields');
  const graph = (await client.workflows.list_versions({ workflowId: workflow.id, order: 'asc', limit: 50 })).data;
  const graphDiff = await client.workflows.list_diff({ workflowId: workflow.id, fromWorkflowVersionId: graph[0].id, toWorkflowVersionId: graph.at(-1).id });
  assert.deepEqual([...graphDiff.addedBlockIds].sort(), [extract.id, merge.id].sort());
  await client.workflows.create_version_restore(graph[0].id, { workflowId: workflow.id });
  assert.equal((await client.workflows.blocks.list({ workflowId: workflow.id })).data.length, 1);
  await client.workflows.create_version_restore(graph.at(-1).id, { workflowId: workflow.id });
  assert.equal((await client.workflows.blocks.list({ workflowId: workflow.id })).data.length, 3);
  assert.equal((await client.workflows.get_version(graph.at(-1).id, { workflowId: workflow.id })).id, graph.at(-1).id);
  log(`versions: ${versions.length} of the extract block, ${graph.length} of the graph; diffed and restored`);

  // The YAML spec round trip.
  const spec = await client.workflows.spec.get(workflow.id);
  assert.equal((await client.workflows.spec.validate(spec.yamlDefinition)).isValid, true);
  assert.equal((await client.workflows.plan(spec.yamlDefinition, undefined, workflow.id)).action, 'noop');
  assert.equal((await client.workflows.apply(spec.yamlDefinition, undefined, workflow.id)).action, 'noop');
  assert.equal((await client.workflows.plan(spec.yamlDefinition)).action, 'noop');
  const changed = await client.workflows.plan(spec.yamlDefinition.replace('strategy: shallow', 'strategy: deep'), undefined, workflow.id);
  assert.equal(changed.action, 'update');
  assert.equal(changed.resourceChanges.length, 1);
  log(`spec round trip: noop; a change plans ${changed.summary.change} update`);

  // A run on a PDF waits for review; a correction is approved; the steps carry it on.
  await client.workflows.publish(workflow.id, 'v1');
  const run = await client.workflows.runs.create(workflow.id, { [start.id]: { filename: 'invoice.pdf', url: pdfDataUrl } }, undefined, undefined, { batch: 'sdk' });
  const waiting = await until('awaiting_review', async () => {
    const r = await client.workflows.runs.get(run.id);
    assert.ok(!['completed', 'error', 'cancelled'].includes(r.lifecycle.status), JSON.stringify(r.lifecycle));
    return r.lifecycle.status === 'awaiting_review' ? r : undefined;
  });
  assert.deepEqual(waiting.lifecycle.waitingForBlockIds, [extract.id]);
  assert.deepEqual((await client.workflows.runs.list({ workflowId: workflow.id, status: 'awaiting_review' })).data.map((r: { id: string }) => r.id), [run.id]);
  const [review] = (await client.workflows.reviews.list({ runId: run.id, decisionStatus: 'pending' })).data;
  const [model] = (await client.workflows.reviews.versions.list({ reviewId: review.id })).data;
  assert.equal(model.parentId, null);
  const corrected = { ...model.snapshot, invoice_number: 'INV-3301-B' };
  const version = await client.workflows.reviews.versions.create(review.id, model.id, corrected, 'suffix missed');
  const decision = await client.workflows.reviews.approve(review.id, version.id);
  assert.equal(decision.submissionStatus, 'accepted');
  assert.equal(decision.resumeStatus, 'resumed');
  assert.equal((await client.workflows.reviews.approve(review.id, version.id)).submissionStatus, 'already_applied');
  const done = await until('completed', async () => {
    const r = await client.workflows.runs.get(run.id);
    return ['completed', 'error', 'cancelled'].includes(r.lifecycle.status) ? r : undefined;
  });
  assert.equal(done.lifecycle.status, 'completed');
  const steps = (await client.workflows.steps.list({ runId: run.id })).data;
  const mergeStep = steps.find((s: { blockId: string }) => s.blockId === merge.id);
  assert.deepEqual(mergeStep.handleOutputs.output.data, corrected);
  assert.deepEqual(steps.find((s: { blockId: string }) => s.blockId === extract.id).handleOutputs.output.data, corrected);
  const artifacts = (await client.workflows.artifacts.list({ runId: run.id })).data;
  assert.ok(artifacts.some((a: { operation: string }) => a.operation === 'extraction'));
  log(`run ${run.id}: awaiting_review, corrected and approved, completed with ${JSON.stringify(mergeStep.handleOutputs.output.data)}`);

  // Block executions: the extract block run again on that run's PDF with 3 consensus votes.
  const execution = await client.workflows.blocks.executions.create(run.id, extract.id, undefined, 3);
  assert.ok(['queued', 'running'].includes(execution.lifecycle.status), JSON.stringify(execution.lifecycle));
  assert.equal(execution.sourceRunId, run.id);
  const rerun = await until('the block execution', async () => {
    const [e] = (await client.workflows.blocks.executions.list({ runId: run.id, blockId: extract.id })).data;
    return e && ['completed', 'error'].includes(e.lifecycle.status) ? e : undefined;
  });
  assert.equal(rerun.lifecycle.status, 'completed', JSON.stringify(rerun.lifecycle));
  assert.equal(rerun.id, execution.id);
  assert.equal((rerun.handleOutputs!.output as { data: { invoice_number: string } }).data.invoice_number, 'INV-3301');
  assert.equal(rerun.artifact?.operation, 'extraction');
  assert.ok(rerun.completedAt instanceof Date);
  log(`block execution ${rerun.id}: extract re-run with n_consensus 3 → ${JSON.stringify((rerun.handleOutputs!.output as { data: unknown }).data)}`);

  // A second run, rejected: it ends without output.
  const second = await client.workflows.runs.create(workflow.id, { [start.id]: { filename: 'invoice.pdf', url: pdfDataUrl } });
  await until('the second run to wait', async () => ((await client.workflows.runs.get(second.id)).lifecycle.status === 'awaiting_review' ? true : undefined));
  const [review2] = (await client.workflows.reviews.list({ runId: second.id })).data;
  const [model2] = (await client.workflows.reviews.versions.list({ reviewId: review2.id })).data;
  const rejected = await client.workflows.reviews.reject(review2.id, model2.id, 'not our invoice');
  assert.equal(rejected.submissionStatus, 'accepted');
  const ended = await until('the second run to end', async () => {
    const r = await client.workflows.runs.get(second.id);
    return ['completed', 'error', 'cancelled'].includes(r.lifecycle.status) ? r : undefined;
  });
  assert.equal(ended.lifecycle.status, 'cancelled');
  const steps2 = (await client.workflows.steps.list({ runId: second.id })).data;
  assert.ok(!steps2.some((s: { blockId: string }) => s.blockId === merge.id), 'the rejected run passed nothing on');
  log(`run ${second.id}: rejected, ${ended.lifecycle.status} (${ended.lifecycle.reason}), no output`);
}
