/**
 * Eval runs (API §9.5): a batch of a workflow's evals — all of them, those of one block, or one —
 * run in the background as a run of the run kit (kind `workflow_eval_run`, ./task.ts), against the
 * draft as it was when the run was created (its graph version). Each eval gets a result record as
 * soon as the run exists (queued), which the task moves to running and then completed (with a
 * verdict) or error; the run's `counts` move with them, so a run of N evals shows its progress.
 */
import type { Caller } from '../auth/service.ts';
import { Conflict, Invalid, NotFound } from '../platform/errors.ts';
import { timestamp } from '../platform/ids.ts';
import { type ListParams, toListQuery } from '../platform/pagination.ts';
import type { Platform } from '../platform/platform.ts';
import type { Scope, StoredRecord } from '../platform/ports.ts';
import type { RunStatus } from '../platform/schemas.ts';
import { cancelRun, startRun, type RunData } from '../runs/service.ts';
import { requireCapability, requireReady } from '../workflows/service.ts';
import type { AssertionResult } from './assertions.ts';
import { lifecycleStatusOf, runStatusOfFilter, sha, TERMINAL_LIFECYCLES, timingOf, workflowFor, type Lifecycle } from './common.ts';
import { evalsOfWorkflow, readEval, type EvalData } from './evals.ts';
import { EMPTY_EVAL_COUNTS, EVAL_RUN_TYPE, evalRunKind, evalRunWire, type EvalCounts } from './kind.ts';
import type { LifecycleFilter, StoredHandles } from './schema.ts';

export const EVAL_RESULT_TYPE = 'workflow_eval_result';
/** Evals in one run at most. */
export const MAX_EVALS_PER_RUN = 200;
/** Handles up to this much JSON stay in the result record; larger ones are stored beside the run. */
const INLINE_HANDLES_BYTES = 48 * 1024;

export interface EvalRunInput {
  eval_ids: string[];
}

export interface EvalResultData {
  id: string;
  workflow_eval_run_id: string;
  eval_id: string;
  lifecycle: Lifecycle;
  created_at: string;
  started_at: string | null;
  completed_at: string | null;
  verdict: 'passed' | 'failed' | 'blocked' | null;
  workflow_id: string;
  block_id: string;
  block_type: string;
  execution_fingerprint: string | null;
  handle_inputs_fingerprint: string | null;
  workflow_draft_fingerprint: string | null;
  block_execution_fingerprint: string | null;
  artifact: { operation: string; id: string } | null;
  routing_decisions: string[] | null;
  warnings: string[];
  assertion_result: AssertionResult | null;
  verdict_summary: { passed: boolean; assertions_passed: number; assertions_failed: number; blocked_assertions: number; failed_assertion_ids: string[] } | null;
  _handles?: { handle_inputs: StoredHandles; handle_outputs: StoredHandles | null } | null;
  _handles_key?: string | null;
}

/** Result ids follow from the run and the eval: the create route and the task write the same record. */
export const evalResultIdOf = (runId: string, evalId: string) => `evres_${sha(`${runId}\u0000${evalId}`, 24)}`;
const handlesKeyOf = (scope: Scope, runId: string, resultId: string) => `${scope.orgId}/${scope.envId}/eval-runs/${runId}/${resultId}.handles.json`;

/** The queued result of each eval of a run (written once: a record already there is kept). */
export async function ensureEvalResults(p: Platform, scope: Scope, run: { id: string; created_at: string; workflow_id: string; workflow_version_id: string }, evals: Array<Pick<EvalData, 'id' | 'target'> & { block_type: string }>): Promise<void> {
  const base = Date.parse(run.created_at);
  await Promise.all(
    evals.map(async (e, i) => {
      const id = evalResultIdOf(run.id, e.id);
      // One millisecond apart: results list in the order of the run's evals.
      const createdAt = new Date(base + i).toISOString();
      const data: EvalResultData = {
        id,
        workflow_eval_run_id: run.id,
        eval_id: e.id,
        lifecycle: { status: 'queued' },
        created_at: createdAt,
        started_at: null,
        completed_at: null,
        verdict: null,
        workflow_id: run.workflow_id,
        block_id: e.target.block_id,
        block_type: e.block_type,
        execution_fingerprint: null,
        handle_inputs_fingerprint: null,
        workflow_draft_fingerprint: run.workflow_version_id,
        block_execution_fingerprint: null,
        artifact: null,
        routing_decisions: null,
        warnings: [],
        assertion_result: null,
        verdict_summary: null,
        _handles: null,
        _handles_key: null,
      };
      try {
        await p.store.putRecord(scope, { type: EVAL_RESULT_TYPE, id, createdAt, status: 'queued', attrs: { run_id: run.id, eval_id: e.id, workflow_id: run.workflow_id }, data }, { ifAbsent: true });
      } catch (error) {
        if (!(error instanceof Conflict)) throw error;
      }
    }),
  );
}

/** Moves a result on, unless it has ended already (a cancel got there first); handles go inline or to storage by size. */
export async function moveEvalResult(p: Platform, scope: Scope, result: Pick<EvalResultData, 'id' | 'workflow_eval_run_id'>, patch: Partial<EvalResultData>, handles?: { handle_inputs: StoredHandles; handle_outputs: StoredHandles | null }): Promise<boolean> {
  const data: Partial<EvalResultData> = { ...patch };
  if (handles) {
    const json = JSON.stringify(handles);
    if (Buffer.byteLength(json) <= INLINE_HANDLES_BYTES) data._handles = handles;
    else {
      const key = handlesKeyOf(scope, result.workflow_eval_run_id, result.id);
      await p.blobs.put(key, json, 'application/json');
      data._handles = null;
      data._handles_key = key;
    }
  }
  const to = patch.lifecycle?.status ?? 'running';
  const moved = await p.store.moveStatus<EvalResultData>(scope, EVAL_RESULT_TYPE, result.id, ['pending', 'queued', 'running'], to, data);
  return moved !== undefined;
}

// ── Runs ────────────────────────────────────────────────────────────────────────────────────────

type Scoped = { type: 'workflow' } | { type: 'block'; block_id: string } | { type: 'single'; eval_id: string };

export async function createEvalRun(p: Platform, caller: Caller, body: { workflow_id: string; scope?: Scoped | null | undefined }) {
  const { workflow, graph } = await workflowFor(p, caller, body.workflow_id, 'workflow:run');
  requireReady(workflow);
  const scope: Scoped = body.scope ?? { type: 'workflow' };
  let evals: EvalData[];
  let target: { type: 'block'; block_id: string } | null = null;
  let evalId: string | null = null;
  if (scope.type === 'single') {
    const found = await readEval(p, caller, scope.eval_id).catch((error) => {
      if (error instanceof NotFound) throw Invalid.at(['body', 'scope', 'eval_id'], `Workflow eval ${scope.eval_id} not found`, 'value_error', scope.eval_id);
      throw error;
    });
    if (found.workflow_id !== workflow.id) throw Invalid.at(['body', 'scope', 'eval_id'], `Workflow eval ${scope.eval_id} is an eval of workflow ${found.workflow_id}, not ${workflow.id}`, 'value_error', scope.eval_id);
    evals = [found];
    evalId = found.id;
    target = found.target;
  } else {
    evals = await evalsOfWorkflow(p, caller, workflow.id);
    if (scope.type === 'block') {
      evals = evals.filter((e) => e.target.block_id === scope.block_id);
      target = { type: 'block', block_id: scope.block_id };
      if (evals.length === 0) throw Invalid.at(['body', 'scope', 'block_id'], `No eval of workflow ${workflow.id} targets block ${scope.block_id}`, 'value_error', scope.block_id);
    }
  }
  if (evals.length === 0) throw Invalid.at(['body', 'workflow_id'], `Workflow ${workflow.id} has no evals to run: create one with POST /v1/workflows/evals`, 'value_error', workflow.id);
  if (evals.length > MAX_EVALS_PER_RUN) throw Invalid.at(['body', 'scope'], `${evals.length} evals: a run takes at most ${MAX_EVALS_PER_RUN}; run them block by block (scope {"type": "block"})`, 'value_error');
  const counts: EvalCounts = structuredClone(EMPTY_EVAL_COUNTS);
  counts.lifecycle_counts.queued = evals.length;
  const versionId = workflow.draft.version_id ?? 'draft';
  const started = await startRun(p, caller, evalRunKind, {
    fields: { workflow_id: workflow.id, workflow_version_id: versionId, trigger: { type: 'api' }, target, eval_id: evalId, total_evals: evals.length, counts, started_at: null, completed_at: null },
    input: { eval_ids: evals.map((e) => e.id) } satisfies EvalRunInput,
    attrs: { workflow_id: workflow.id, trigger_type: 'api', ...(evalId ? { eval_id: evalId } : {}), ...(target ? { target_block_id: target.block_id } : {}) },
    background: true,
  });
  const blockType = (blockId: string) => graph.blocks.find((b) => b.id === blockId)?.type ?? 'unknown';
  await ensureEvalResults(p, caller, { id: started.id, created_at: (started.wire.timing as { created_at: string }).created_at, workflow_id: workflow.id, workflow_version_id: versionId }, evals.map((e) => ({ id: e.id, target: e.target, block_type: blockType(e.target.block_id) })));
  return started.wire;
}

async function readEvalRun(p: Platform, scope: Scope, id: string): Promise<RunData> {
  const record = await p.store.getRecord<RunData>(scope, EVAL_RUN_TYPE, id);
  if (!record) throw NotFound.of('Workflow eval run', id);
  return record.data;
}

const wireOfRun = (data: RunData) => evalRunWire(data as never);

export async function getEvalRun(p: Platform, caller: Caller, id: string) {
  const data = await readEvalRun(p, caller, id);
  requireCapability(caller, 'workflow:view');
  return wireOfRun(data);
}

/** A list's paging and date bounds (../platform/pagination.ts), and the eval runs' own filters. */
export interface RunListFilters extends Omit<ListParams, 'filename' | 'status'> {
  workflow_id?: string | undefined;
  status?: LifecycleFilter | undefined;
  exclude_status?: LifecycleFilter | undefined;
  trigger_type?: string | undefined;
}

/** A run list's store query: the SDK's lifecycle names over the run kit's statuses. */
export function runListQuery(q: RunListFilters, attrs: Record<string, string | undefined>) {
  const excluded = q.exclude_status ? runStatusOfFilter(q.exclude_status) : undefined;
  const query = toListQuery({ ...q, status: q.status ? runStatusOfFilter(q.status) : undefined }, { ...attrs, workflow_id: q.workflow_id });
  // Every run is started through the API.
  if (q.trigger_type !== undefined && q.trigger_type !== 'api') query.where = () => false;
  else if (excluded) query.where = (r: StoredRecord<RunData>) => r.data.status !== excluded;
  return query;
}

export async function listEvalRuns(p: Platform, caller: Caller, q: RunListFilters & { eval_id?: string | undefined; target_block_id?: string | undefined }) {
  requireCapability(caller, 'workflow:view');
  if (q.workflow_id !== undefined) await workflowFor(p, caller, q.workflow_id, 'workflow:view');
  const page = await p.store.listRecords<RunData>(caller, EVAL_RUN_TYPE, runListQuery(q, { eval_id: q.eval_id, target_block_id: q.target_block_id }));
  return { data: page.items.map((r) => wireOfRun(r.data)), list_metadata: { before: page.before, after: page.after } };
}

/** The results of a run that had not ended when the run did: cancelled with it (or ended by its failure). */
export async function endOpenEvalResults(p: Platform, scope: Scope, runId: string, lifecycle: Lifecycle): Promise<void> {
  const now = timestamp(p.clock.now());
  for (const result of await resultsOfRun(p, scope, runId)) {
    if (TERMINAL_LIFECYCLES.includes(result.lifecycle.status)) continue;
    await moveEvalResult(p, scope, result, { lifecycle, completed_at: now });
  }
}

export async function cancelEvalRun(p: Platform, caller: Caller, id: string) {
  await readEvalRun(p, caller, id);
  requireCapability(caller, 'workflow:run');
  const wire = await cancelRun(p, caller, evalRunKind, id);
  if ((wire.lifecycle as Lifecycle).status === 'cancelled') {
    await endOpenEvalResults(p, caller, id, { status: 'cancelled', reason: 'The eval run was cancelled' });
    await refreshEvalCounts(p, caller, id, ['cancelled'], { completed_at: timestamp(p.clock.now()) });
  }
  return wireOfRun(await readEvalRun(p, caller, id));
}

// ── Results ─────────────────────────────────────────────────────────────────────────────────────

export async function resultsOfRun(p: Platform, scope: Scope, runId: string): Promise<EvalResultData[]> {
  const out: EvalResultData[] = [];
  let after: string | undefined;
  do {
    const page = await p.store.listRecords<EvalResultData>(scope, EVAL_RESULT_TYPE, { limit: 100, order: 'asc', after, attrs: { run_id: runId } });
    out.push(...page.items.map((r) => r.data));
    after = page.after ?? undefined;
  } while (after);
  return out;
}

/** The run's counts from its results (the task keeps them current as it goes; a cancel sets them once more). */
export function countsOf(results: Array<Pick<EvalResultData, 'lifecycle' | 'verdict'>>): EvalCounts {
  const counts: EvalCounts = structuredClone(EMPTY_EVAL_COUNTS);
  for (const r of results) {
    counts.lifecycle_counts[r.lifecycle.status]++;
    if (r.lifecycle.status === 'completed' && r.verdict) counts.outcome[r.verdict]++;
  }
  return counts;
}

export async function refreshEvalCounts(p: Platform, scope: Scope, runId: string, from: RunStatus[], patch: Record<string, unknown> = {}): Promise<EvalCounts> {
  const counts = countsOf(await resultsOfRun(p, scope, runId));
  await p.store.moveStatus<RunData>(scope, EVAL_RUN_TYPE, runId, from, from[0]!, { counts, ...patch });
  return counts;
}

/** A result as the SDK reads it; one left open by a run that has ended reads as ended with it. */
async function resultToWire(p: Platform, data: EvalResultData, run: RunData | undefined) {
  let handles = data._handles ?? null;
  if (!handles && data._handles_key) {
    const bytes = await p.blobs.get(data._handles_key);
    handles = bytes ? JSON.parse(Buffer.from(bytes).toString('utf8')) : null;
  }
  let lifecycle = data.lifecycle;
  const runStatus = run ? lifecycleStatusOf(run.status) : undefined;
  if (!TERMINAL_LIFECYCLES.includes(lifecycle.status) && runStatus && TERMINAL_LIFECYCLES.includes(runStatus)) {
    lifecycle = runStatus === 'cancelled' ? { status: 'cancelled', reason: 'The eval run was cancelled' } : { status: 'error', message: 'The eval run ended before this eval ran', details: null };
  }
  const { _handles, _handles_key, created_at, started_at, completed_at, ...wire } = data;
  return {
    ...wire,
    lifecycle,
    timing: timingOf(created_at, started_at, completed_at),
    handle_inputs: handles?.handle_inputs ?? {},
    handle_outputs: handles?.handle_outputs ?? null,
  };
}

export async function listEvalResults(p: Platform, caller: Caller, q: { limit: number; order: 'asc' | 'desc'; before?: string | undefined; after?: string | undefined; run_id: string }) {
  const run = await readEvalRun(p, caller, q.run_id);
  requireCapability(caller, 'workflow:view');
  const page = await p.store.listRecords<EvalResultData>(caller, EVAL_RESULT_TYPE, toListQuery(q, { run_id: q.run_id }));
  return { data: await Promise.all(page.items.map((r) => resultToWire(p, r.data, run))), list_metadata: { before: page.before, after: page.after } };
}

export async function getEvalResult(p: Platform, caller: Caller, id: string) {
  const record = await p.store.getRecord<EvalResultData>(caller, EVAL_RESULT_TYPE, id);
  if (!record) throw NotFound.of('Workflow eval result', id);
  requireCapability(caller, 'workflow:view');
  const run = (await p.store.getRecord<RunData>(caller, EVAL_RUN_TYPE, record.data.workflow_eval_run_id))?.data;
  return resultToWire(p, record.data, run);
}

