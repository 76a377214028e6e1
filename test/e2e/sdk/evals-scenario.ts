/**
 * Evals and experiments through the official Retab Node SDK (issue 43 part 6), every one of its 23
 * routes under `client.workflows.evals` and `client.workflows.experiments`: an eval saved on an
 * extract block, run, its results read; an experiment of the block over two documents, run with
 * three votes, its results and metrics in the four views; updates, cancels, deletes. Run by
 * `npm run sdk-e2e` (./run.ts) after the issue 42 scenario.
 */
import assert from 'node:assert/strict';

// The SDK is loaded at run time from its build; its types are not imported here.
// eslint-disable-next-line @typescript-eslint/no-explicit-any
type Client = any;

const SCHEMA = { type: 'object', properties: { invoice_number: { type: ['string', 'null'] }, total_due: { type: ['string', 'null'] } } };

/** Polls a run (as the SDK deserializes it) until it ends. */
async function ended(get: () => Promise<Client>): Promise<Client> {
  for (let i = 0; i < 1200; i++) {
    const run = await get();
    if (['completed', 'error', 'cancelled'].includes(run.lifecycle.status)) return run;
    await new Promise((r) => setTimeout(r, 100));
  }
  throw new Error('the run did not end');
}

export async function sdkEvalsScenario(client: Client, base: { url: string; key: string }, log: (line: string) => void): Promise<void> {
  const post = async (path: string, body: unknown) => {
    const r = await fetch(`${base.url}${path}`, { method: 'POST', headers: { authorization: `Bearer ${base.key}`, 'content-type': 'application/json' }, body: JSON.stringify(body) });
    assert.ok(r.ok, `${path}: ${r.status} ${await r.clone().text()}`);
    return (await r.json()) as Record<string, unknown> & { id: string };
  };
  const project = await post('/v1/projects', { name: 'SDK evals' });
  const fileOf = async (name: string, text: string) => {
    const file = await post('/v1/files', { document: { filename: name, url: `data:text/plain;base64,${Buffer.from(text).toString('base64')}` } });
    return { type: 'file', document: { id: file.id, filename: name, mimeType: 'text/plain' } };
  };
  const invoiceA = await fileOf('a.txt', 'INVOICE\nInvoice number: INV-3301\nTotal due: 980.00 EUR');
  const invoiceB = await fileOf('b.txt', 'INVOICE\nInvoice number: INV-4410\nTotal due: 12.50 EUR');

  const workflow = await client.workflows.create(project.id, 'SDK evals', 'issue 43 part 6');
  const [start] = (await client.workflows.blocks.list({ workflowId: workflow.id })).data;
  const extract = await client.workflows.blocks.create(workflow.id, 'extract', undefined, 'Fields', 300, 0, undefined, undefined, { json_schema: SCHEMA });
  await client.workflows.edges.create(workflow.id, start.id, extract.id);

  // Evals: create, get, list, update.
  const target = { type: 'block', blockId: extract.id };
  const passing = await client.workflows.evals.create(workflow.id, target, { type: 'manual', handleInputs: { document: invoiceA } }, { target: { outputHandleId: 'output', path: 'invoice_number' }, condition: { kind: 'equals', expected: 'INV-3301' } }, 'number');
  const failing = await client.workflows.evals.create(workflow.id, target, { type: 'manual', handleInputs: { document: invoiceA } }, { target: { outputHandleId: 'output', path: 'total_due' }, condition: { kind: 'matches_regex', pattern: '^\\d+ USD$' } });
  assert.equal((await client.workflows.evals.get(passing.id)).id, passing.id);
  assert.deepEqual((await client.workflows.evals.list({ workflowId: workflow.id, order: 'asc' })).data.map((e: { id: string }) => e.id), [passing.id, failing.id]);
  const renamed = await client.workflows.evals.update(failing.id, 'total in USD');
  assert.equal(renamed.name, 'total in USD');
  log(`evals ${passing.id}, ${failing.id} on ${extract.id}`);

  // An eval run, its results.
  const evalRun = await client.workflows.evals.runs.create(workflow.id, { type: 'workflow' });
  const evalDone = await ended(() => client.workflows.evals.runs.get(evalRun.id));
  assert.equal(evalDone.lifecycle.status, 'completed');
  assert.equal(evalDone.totalEvals, 2);
  assert.equal(evalDone.counts.outcome.passed, 1, JSON.stringify(evalDone.counts));
  assert.equal(evalDone.counts.outcome.failed, 1, JSON.stringify(evalDone.counts));
  const evalRuns = (await client.workflows.evals.runs.list({ workflowId: workflow.id, status: 'completed' })).data;
  assert.deepEqual(evalRuns.map((r: { id: string }) => r.id), [evalRun.id]);
  const results = (await client.workflows.evals.results.list({ runId: evalRun.id })).data;
  assert.equal(results.length, 2);
  const verdicts = Object.fromEntries(results.map((r: { evalId: string; verdict: string }) => [r.evalId, r.verdict]));
  assert.deepEqual(verdicts, { [passing.id]: 'passed', [failing.id]: 'failed' });
  assert.equal((await client.workflows.evals.results.get(results[0].id)).id, results[0].id);
  const cancelledEvalRun = await client.workflows.evals.runs.cancel(evalRun.id);
  assert.equal(cancelledEvalRun.lifecycle.status, 'completed');
  log(`eval run ${evalRun.id}: 1 passed, 1 failed`);

  // Experiments: create, get, list, update, run, results, metrics.
  const experiment = await client.workflows.experiments.create(workflow.id, extract.id, undefined, [{ handleInputs: { document: invoiceA } }, { handleInputs: { document: invoiceB } }], 3, 'two invoices');
  assert.equal(experiment.documentCount, 2);
  assert.equal((await client.workflows.experiments.get(experiment.id)).id, experiment.id);
  assert.deepEqual((await client.workflows.experiments.list({ workflowId: workflow.id })).data.map((e: { id: string }) => e.id), [experiment.id]);
  assert.equal((await client.workflows.experiments.update(experiment.id, undefined, undefined, undefined, 'two invoices, 3 votes')).name, 'two invoices, 3 votes');
  const expRun = await client.workflows.experiments.runs.create(experiment.id, workflow.id);
  const expDone = await ended(() => client.workflows.experiments.runs.get(expRun.id));
  assert.equal(expDone.lifecycle.status, 'completed');
  assert.equal(expDone.completedDocumentCount, 2);
  assert.deepEqual((await client.workflows.experiments.runs.list({ experimentId: experiment.id })).data.map((r: { id: string }) => r.id), [expRun.id]);
  const expResults = (await client.workflows.experiments.results.list({ runId: expRun.id })).data;
  assert.equal(expResults.length, 2);
  assert.equal((await client.workflows.experiments.results.get(expResults[0].id)).id, expResults[0].id);
  const summary = await client.workflows.experiments.metrics.get({ runId: expRun.id, view: 'summary' });
  assert.equal(summary.kind, 'summary');
  assert.equal(summary.scoredDocumentCount, 2);
  const documentId = summary.documents[0].id;
  const byDocument = await client.workflows.experiments.metrics.get({ runId: expRun.id, view: 'by_document', documentId });
  assert.equal(byDocument.kind, 'by_document');
  const byTarget = await client.workflows.experiments.metrics.get({ runId: expRun.id, view: 'by_target', targetPath: 'invoice_number' });
  assert.equal(byTarget.documents.length, 2);
  const votes = await client.workflows.experiments.metrics.get({ runId: expRun.id, view: 'votes', documentId, targetPath: 'invoice_number' });
  assert.equal(votes.rows[0].votes.length, 3);
  const cancelled = await client.workflows.experiments.runs.cancel(expRun.id);
  assert.equal(cancelled.id, expRun.id);
  log(`experiment ${experiment.id}: run ${expRun.id} scored ${summary.score} over 2 documents, 3 votes each`);

  // Deletes.
  await client.workflows.experiments.delete(experiment.id);
  await client.workflows.evals.delete(failing.id);
  assert.deepEqual((await client.workflows.evals.list({ workflowId: workflow.id })).data.map((e: { id: string }) => e.id), [passing.id]);
  log('deleted the experiment and an eval');
}
