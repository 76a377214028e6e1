/**
 * Experiment runs (API §9.5): the experiment's block over each of its documents, `n_consensus`
 * votes at once, in the background as a run of the run kit (kind `workflow_experiment_run`,
 * ./task.ts), on the draft as it was when the run was created (its graph version). Each document
 * gets a result (queued → running → completed | error) and, once completed, its metrics: how far
 * the votes agree with their consensus (./metrics.ts). The run shows its progress as documents end.
 */
import type { Caller } from '../auth/service.ts';
import { Conflict, Invalid, NotFound } from '../platform/errors.ts';
import { timestamp } from '../platform/ids.ts';
import { toListQuery } from '../platform/pagination.ts';
import type { Platform } from '../platform/platform.ts';
import type { Scope } from '../platform/ports.ts';
import { ACTIVE_STATUSES } from '../platform/schemas.ts';
import { cancelRun, startRun, type RunData } from '../runs/service.ts';
import { requireCapability, requireReady } from '../workflows/service.ts';
import { blockExecutionFingerprint, lifecycleOfRun, lifecycleStatusOf, sha, TERMINAL_LIFECYCLES, timingOf, workflowFor, type Lifecycle } from './common.ts';
import { readDocuments, readExperiment, runsOfExperiment, metricsValidityOf, schemaFingerprintOf, EXPERIMENT_TYPE, type ExperimentData, type ExperimentDocument } from './experiments.ts';
import { EXPERIMENT_RUN_TYPE, experimentRunKind, experimentRunWire } from './kind.ts';
import { runListQuery, type RunListFilters } from './eval-runs.ts';
import type { StoredHandles } from './schema.ts';

export const EXPERIMENT_RESULT_TYPE = 'workflow_experiment_result';
const INLINE_BYTES = 48 * 1024;

export interface ExperimentRunInput {
  documents_key: string;
}

/** What a completed document measured (./metrics.ts): its score and each target's, with the consensus value. */
export interface DocumentMetrics {
  score: number | null;
  targets: Record<string, { score: number | null; value: unknown }>;
  /** Classifier and split: consensus label → voted label → votes (a split's counted page by page). */
  confusion?: Record<string, Record<string, number>>;
}

/** The votes of one document (the votes view): the consensus and each voter's answer (an extraction's list items aligned). */
export interface DocumentVotes {
  consensus: unknown;
  votes: unknown[];
}

export interface ExperimentResultData {
  id: string;
  experiment_run_id: string;
  experiment_id: string;
  document_id: string;
  filename: string;
  lifecycle: Lifecycle;
  created_at: string;
  started_at: string | null;
  completed_at: string | null;
  block_type: string;
  artifact: { operation: string; id: string } | null;
  attempt: number;
  _handles?: { handle_inputs: StoredHandles; handle_outputs: StoredHandles } | null;
  _handles_key?: string | null;
  _metrics?: DocumentMetrics | null;
  _metrics_key?: string | null;
  _votes_key?: string | null;
}

export const experimentResultIdOf = (runId: string, documentId: string) => `exres_${sha(`${runId}\u0000${documentId}`, 24)}`;
const runPrefix = (scope: Scope, runId: string) => `${scope.orgId}/${scope.envId}/experiment-runs/${runId}`;
export const resultBlobKey = (scope: Scope, runId: string, resultId: string, what: 'handles' | 'metrics' | 'votes') => `${runPrefix(scope, runId)}/${resultId}.${what}.json`;

export async function ensureExperimentResults(p: Platform, scope: Scope, run: { id: string; created_at: string; experiment_id: string; block_type: string }, documents: ExperimentDocument[]): Promise<void> {
  const base = Date.parse(run.created_at);
  await Promise.all(
    documents.map(async (doc, i) => {
      const id = experimentResultIdOf(run.id, doc.id);
      const createdAt = new Date(base + i).toISOString();
      const data: ExperimentResultData = {
        id,
        experiment_run_id: run.id,
        experiment_id: run.experiment_id,
        document_id: doc.id,
        filename: doc.filename,
        lifecycle: { status: 'queued' },
        created_at: createdAt,
        started_at: null,
        completed_at: null,
        block_type: run.block_type,
        artifact: null,
        attempt: 0,
        _handles: { handle_inputs: doc.handle_inputs, handle_outputs: {} },
        _handles_key: null,
        _metrics: null,
        _metrics_key: null,
        _votes_key: null,
      };
      if (Buffer.byteLength(JSON.stringify(data._handles)) > INLINE_BYTES) {
        data._handles_key = resultBlobKey(scope, run.id, id, 'handles');
        await p.blobs.put(data._handles_key, JSON.stringify(data._handles), 'application/json');
        data._handles = null;
      }
      try {
        await p.store.putRecord(scope, { type: EXPERIMENT_RESULT_TYPE, id, createdAt, status: 'queued', attrs: { run_id: run.id, experiment_id: run.experiment_id, document_id: doc.id }, data }, { ifAbsent: true });
      } catch (error) {
        if (!(error instanceof Conflict)) throw error;
      }
    }),
  );
}

/** Moves a result on unless it has ended (a cancel got there first); handles and metrics inline or in storage by size. */
export async function moveExperimentResult(
  p: Platform,
  scope: Scope,
  result: Pick<ExperimentResultData, 'id' | 'experiment_run_id'>,
  patch: Partial<ExperimentResultData>,
  extra: { handles?: { handle_inputs: StoredHandles; handle_outputs: StoredHandles }; metrics?: DocumentMetrics; votes?: DocumentVotes } = {},
): Promise<boolean> {
  const data: Partial<ExperimentResultData> = { ...patch };
  const keep = async (what: 'handles' | 'metrics', value: unknown, inline: (v: unknown) => void, key: (k: string) => void) => {
    const json = JSON.stringify(value);
    if (Buffer.byteLength(json) <= INLINE_BYTES) return inline(value);
    const k = resultBlobKey(scope, result.experiment_run_id, result.id, what);
    await p.blobs.put(k, json, 'application/json');
    inline(null);
    key(k);
  };
  if (extra.handles) await keep('handles', extra.handles, (v) => (data._handles = v as never), (k) => (data._handles_key = k));
  if (extra.metrics) await keep('metrics', extra.metrics, (v) => (data._metrics = v as never), (k) => (data._metrics_key = k));
  if (extra.votes) {
    data._votes_key = resultBlobKey(scope, result.experiment_run_id, result.id, 'votes');
    await p.blobs.put(data._votes_key, JSON.stringify(extra.votes), 'application/json');
  }
  const moved = await p.store.moveStatus<ExperimentResultData>(scope, EXPERIMENT_RESULT_TYPE, result.id, ['pending', 'queued', 'running'], patch.lifecycle?.status ?? 'running', data);
  return moved !== undefined;
}

export async function resultsOfExperimentRun(p: Platform, scope: Scope, runId: string): Promise<ExperimentResultData[]> {
  const out: ExperimentResultData[] = [];
  let after: string | undefined;
  do {
    const page = await p.store.listRecords<ExperimentResultData>(scope, EXPERIMENT_RESULT_TYPE, { limit: 100, order: 'asc', after, attrs: { run_id: runId } });
    out.push(...page.items.map((r) => r.data));
    after = page.after ?? undefined;
  } while (after);
  return out;
}

export async function readBlob<T>(p: Platform, key: string | null | undefined): Promise<T | undefined> {
  if (!key) return undefined;
  const bytes = await p.blobs.get(key);
  return bytes ? (JSON.parse(Buffer.from(bytes).toString('utf8')) as T) : undefined;
}

/** A completed document's metrics (from its record, or from storage when they were large). */
export async function metricsOf(p: Platform, result: ExperimentResultData): Promise<DocumentMetrics | undefined> {
  return result._metrics ?? (await readBlob<DocumentMetrics>(p, result._metrics_key));
}

/** Progress on the run: documents done, errors, the mean score so far (an active run only). */
export function progressOf(results: Array<Pick<ExperimentResultData, 'lifecycle'>>, scores: Array<number | null>) {
  const completed = results.filter((r) => r.lifecycle.status === 'completed').length;
  const errors = results.filter((r) => r.lifecycle.status === 'error').length;
  const scored = scores.filter((s): s is number => typeof s === 'number');
  return { completed_document_count: completed, error_count: errors, score: scored.length ? round(scored.reduce((a, b) => a + b, 0) / scored.length) : null };
}

export const round = (x: number) => Math.round(x * 10_000) / 10_000;

// ── Runs ────────────────────────────────────────────────────────────────────────────────────────

export async function createExperimentRun(p: Platform, caller: Caller, body: { experiment_id: string; workflow_id?: string | null | undefined }) {
  const experiment = await readExperiment(p, caller, body.experiment_id);
  if (body.workflow_id && body.workflow_id !== experiment.workflow_id) throw new NotFound(`Experiment ${experiment.id} not found in workflow ${body.workflow_id}`);
  const { workflow, graph } = await workflowFor(p, caller, experiment.workflow_id, 'workflow:run');
  requireReady(workflow);
  const block = graph.blocks.find((b) => b.id === experiment.block_id);
  if (!block) throw new Conflict(`Block ${experiment.block_id} of experiment ${experiment.id} is no longer in the workflow's draft`);
  if (block.type !== experiment.block_type) throw new Conflict(`Block ${experiment.block_id} is now a ${block.type} block; experiment ${experiment.id} runs a ${experiment.block_type} block`);
  if (experiment.document_count === 0) throw Invalid.at(['body', 'experiment_id'], `Experiment ${experiment.id} has no documents: add some (PATCH with documents or document_captures)`, 'value_error', experiment.id);
  const runs = await runsOfExperiment(p, caller, experiment.id);
  const active = runs.find((r) => ACTIVE_STATUSES.includes(r.status));
  if (active) throw new Conflict(`Experiment ${experiment.id} has a run in progress (${active.id}): wait for it or cancel it`);
  const parent = runs.find((r) => r.status === 'completed');
  const versionId = workflow.draft.version_id ?? 'draft';
  const started = await startRun(p, caller, experimentRunKind, {
    fields: {
      workflow_id: workflow.id,
      workflow_version_id: versionId,
      trigger: { type: 'api' },
      experiment_id: experiment.id,
      block_id: block.id,
      block_type: block.type,
      n_consensus: experiment.n_consensus,
      parent_run_id: parent?.id ?? null,
      block_version_id: block.version_id,
      metrics_validity_fingerprint: metricsValidityOf(block, experiment.documents_fingerprint, experiment.n_consensus),
      metrics_validity_fingerprint_version: 1,
      block_execution_fingerprint: blockExecutionFingerprint(block),
      documents_fingerprint: experiment.documents_fingerprint,
      score: null,
      total_document_count: experiment.document_count,
      completed_document_count: 0,
      document_count: experiment.document_count,
      error_count: 0,
      started_at: null,
      completed_at: null,
      _schema_fingerprint: schemaFingerprintOf(block),
    },
    input: { documents_key: experiment._documents_key } satisfies ExperimentRunInput,
    attrs: { workflow_id: workflow.id, experiment_id: experiment.id, block_id: block.id, trigger_type: 'api' },
    background: true,
  });
  await p.store.updateRecord<ExperimentData>(caller, EXPERIMENT_TYPE, experiment.id, { last_run_id: started.id });
  const createdAt = (started.wire.timing as { created_at: string }).created_at;
  await ensureExperimentResults(p, caller, { id: started.id, created_at: createdAt, experiment_id: experiment.id, block_type: block.type }, await readDocuments(p, experiment._documents_key));
  return started.wire;
}

export async function readExperimentRun(p: Platform, scope: Scope, id: string): Promise<RunData> {
  const record = await p.store.getRecord<RunData>(scope, EXPERIMENT_RUN_TYPE, id);
  if (!record) throw NotFound.of('Experiment run', id);
  return record.data;
}

const wireOfRun = (data: RunData) => experimentRunWire(data as never);

export async function getExperimentRun(p: Platform, caller: Caller, id: string) {
  const data = await readExperimentRun(p, caller, id);
  requireCapability(caller, 'workflow:view');
  return wireOfRun(data);
}

export async function listExperimentRuns(p: Platform, caller: Caller, q: RunListFilters & { experiment_id?: string | undefined; block_id?: string | undefined }) {
  requireCapability(caller, 'workflow:view');
  if (q.workflow_id !== undefined) await workflowFor(p, caller, q.workflow_id, 'workflow:view');
  const page = await p.store.listRecords<RunData>(caller, EXPERIMENT_RUN_TYPE, runListQuery(q, { experiment_id: q.experiment_id, block_id: q.block_id }));
  return { data: page.items.map((r) => wireOfRun(r.data)), list_metadata: { before: page.before, after: page.after } };
}

export async function cancelExperimentRun(p: Platform, caller: Caller, id: string) {
  await readExperimentRun(p, caller, id);
  requireCapability(caller, 'workflow:run');
  const wire = await cancelRun(p, caller, experimentRunKind, id);
  if ((wire.lifecycle as Lifecycle).status === 'cancelled') {
    const now = timestamp(p.clock.now());
    const results = await resultsOfExperimentRun(p, caller, id);
    for (const result of results) {
      if (!TERMINAL_LIFECYCLES.includes(result.lifecycle.status)) await moveExperimentResult(p, caller, result, { lifecycle: { status: 'cancelled', reason: 'The experiment run was cancelled' }, completed_at: now });
    }
    await p.store.moveStatus<RunData>(caller, EXPERIMENT_RUN_TYPE, id, ['cancelled'], 'cancelled', { completed_at: now });
  }
  const data = await readExperimentRun(p, caller, id);
  return { id: data.id, lifecycle: lifecycleOfRun(data.status, data.error) };
}

/** Deletes a run (of a deleted experiment) with its results and what they stored. */
export async function deleteExperimentRun(p: Platform, scope: Scope, run: RunData): Promise<void> {
  for (const result of await resultsOfExperimentRun(p, scope, run.id)) {
    for (const key of [result._handles_key, result._metrics_key, result._votes_key]) if (key) await p.blobs.delete(key);
    await p.store.deleteRecord(scope, EXPERIMENT_RESULT_TYPE, result.id);
  }
  await p.store.deleteRecord(scope, EXPERIMENT_RUN_TYPE, run.id);
}

// ── Results ─────────────────────────────────────────────────────────────────────────────────────

async function resultToWire(p: Platform, data: ExperimentResultData, run: RunData | undefined) {
  const handles = data._handles ?? (await readBlob<{ handle_inputs: StoredHandles; handle_outputs: StoredHandles }>(p, data._handles_key)) ?? { handle_inputs: {}, handle_outputs: {} };
  let lifecycle = data.lifecycle;
  const runStatus = run ? lifecycleStatusOf(run.status) : undefined;
  if (!TERMINAL_LIFECYCLES.includes(lifecycle.status) && runStatus && TERMINAL_LIFECYCLES.includes(runStatus)) {
    lifecycle = runStatus === 'cancelled' ? { status: 'cancelled', reason: 'The experiment run was cancelled' } : { status: 'error', message: 'The experiment run ended before this document ran', details: null };
  }
  return {
    id: data.id,
    experiment_run_id: data.experiment_run_id,
    experiment_id: data.experiment_id,
    document_id: data.document_id,
    lifecycle,
    timing: timingOf(data.created_at, data.started_at, data.completed_at),
    block_type: data.block_type,
    handle_inputs: handles.handle_inputs,
    handle_outputs: handles.handle_outputs,
    artifact: data.artifact,
    attempt: data.attempt,
  };
}

export async function listExperimentResults(p: Platform, caller: Caller, q: { limit: number; order: 'asc' | 'desc'; before?: string | undefined; after?: string | undefined; run_id: string }) {
  const run = await readExperimentRun(p, caller, q.run_id);
  requireCapability(caller, 'workflow:view');
  const page = await p.store.listRecords<ExperimentResultData>(caller, EXPERIMENT_RESULT_TYPE, toListQuery(q, { run_id: q.run_id }));
  return { data: await Promise.all(page.items.map((r) => resultToWire(p, r.data, run))), list_metadata: { before: page.before, after: page.after } };
}

export async function getExperimentResult(p: Platform, caller: Caller, id: string) {
  const record = await p.store.getRecord<ExperimentResultData>(caller, EXPERIMENT_RESULT_TYPE, id);
  if (!record) throw NotFound.of('Experiment result', id);
  requireCapability(caller, 'workflow:view');
  const run = (await p.store.getRecord<RunData>(caller, EXPERIMENT_RUN_TYPE, record.data.experiment_run_id))?.data;
  return resultToWire(p, record.data, run);
}
