/**
 * Saved workflow evals (API §9.5): a target block of a workflow's draft, the inputs it is given (a
 * `manual` source: handle inputs; a `run_step` source: what the block received in a workflow run),
 * and one assertion on its output. Stored one record each; what the SDK calls freshness, drift and
 * validation is worked out on every read against the workflow's current draft.
 */
import type { Caller } from '../auth/service.ts';
import { Conflict, Invalid, NotFound } from '../platform/errors.ts';
import { timestamp } from '../platform/ids.ts';
import { toListQuery } from '../platform/pagination.ts';
import type { Platform } from '../platform/platform.ts';
import type { Scope } from '../platform/ports.ts';
import type { Graph, GraphBlock } from '../workflows/graph.ts';
import { requireCapability, requireReady } from '../workflows/service.ts';
import { assertionOf, type Assertion, type TargetInfo } from './assertions.ts';
import { blockExecutionFingerprint, blockOf, capturedHandles, draftIfAny, fingerprintOf, outputHandlesOf, storedHandles, workflowFor } from './common.ts';
import type { Source, StoredHandles } from './schema.ts';

export const EVAL_TYPE = 'workflow_eval';

/**
 * The blocks an eval can target: those a block run alone can be (functions/workflows/blocks.ts
 * RUNNABLE_ALONE; not imported here, the API Lambda does not bundle the blocks' code — a test keeps
 * the two lists equal).
 */
export const EVALUABLE_BLOCKS = ['parse', 'split', 'classifier', 'extract', 'edit', 'function', 'conditional', 'merge_dicts', 'api_call'];

export type StoredSource = { type: 'manual'; handle_inputs: StoredHandles } | { type: 'run_step'; run_id: string; step_id: string | null };

/** The summary of an eval's latest result (LatestBlockEvalRunSummary), kept on the eval by the run task. */
export interface RunSummary {
  run_record_id: string;
  status: 'completed' | 'error' | 'cancelled';
  outcome: 'passed' | 'failed' | 'blocked' | null;
  started_at: string;
  completed_at: string | null;
  duration_ms: number | null;
  workflow_draft_fingerprint: string | null;
  block_execution_fingerprint: string | null;
  validity_fingerprint: string | null;
  handle_inputs_fingerprint: string | null;
  assertions_passed: number;
  assertions_failed: number;
  blocked_assertions: number;
  /** The fingerprint of the eval's source when it ran (freshness: inputs_changed). */
  _source_fingerprint?: string;
}

export interface EvalData {
  id: string;
  workflow_id: string;
  target: { type: 'block'; block_id: string };
  source: StoredSource;
  name: string | null;
  assertion: Assertion;
  created_at: string;
  updated_at: string;
  latest_run_summary: RunSummary | null;
  latest_passing_run_summary: RunSummary | null;
  latest_failing_run_summary: RunSummary | null;
  /** The target block's type and config when the eval was saved (drift). */
  _block_fingerprint: string;
  _block_schema_fingerprint: string | null;
}

/** What an assertion may say of a block. */
export function targetInfoOf(block: GraphBlock): TargetInfo {
  const schema = block.config.json_schema;
  return {
    blockId: block.id,
    blockType: block.type,
    handles: outputHandlesOf(block.type),
    jsonSchema: block.type === 'extract' && schema && typeof schema === 'object' && !Array.isArray(schema) ? (schema as Record<string, unknown>) : undefined,
  };
}

/** The validity of an eval's result: the block it runs and the assertion it checks. */
export const validityFingerprintOf = (block: { type: string; config: Record<string, unknown> }, assertion: Assertion) => fingerprintOf({ block: blockExecutionFingerprint(block), assertion });
export const sourceFingerprintOf = (source: StoredSource) => fingerprintOf(source);
const schemaFingerprintOf = (block: GraphBlock) => (block.type === 'extract' ? fingerprintOf(block.config.json_schema ?? null) : null);

function targetBlock(graph: Graph, blockId: string, loc: Array<string | number>, workflowId: string): GraphBlock {
  const block = blockOf(graph, blockId, loc, workflowId);
  if (!EVALUABLE_BLOCKS.includes(block.type)) {
    throw Invalid.at(loc, `Block ${blockId} is a ${block.type} block: an eval runs one block alone, which a ${block.type} block cannot be (blocks an eval can target: ${EVALUABLE_BLOCKS.join(', ')})`, 'value_error', blockId);
  }
  return block;
}

async function sourceOf(p: Platform, scope: Scope, source: Source, workflowId: string, block: GraphBlock, loc: Array<string | number>): Promise<StoredSource> {
  if (source.type === 'manual') {
    return { type: 'manual', handle_inputs: await storedHandles(p, scope, source.handle_inputs ?? {}, [...loc, 'handle_inputs'], block) };
  }
  // The run and its step must be there now; the run task reads the step's inputs again when it runs.
  await capturedHandles(p, scope, workflowId, block.id, source.run_id, source.step_id, loc);
  return { type: 'run_step', run_id: source.run_id, step_id: source.step_id ?? null };
}

export async function readEval(p: Platform, scope: Scope, id: string): Promise<EvalData> {
  const record = await p.store.getRecord<EvalData>(scope, EVAL_TYPE, id);
  if (!record) throw NotFound.of('Workflow eval', id);
  return record.data;
}

export async function createEval(p: Platform, caller: Caller, body: { workflow_id: string; target: { block_id: string }; source: Source; assertion: Record<string, unknown>; name?: string | null | undefined }) {
  const { workflow, graph } = await workflowFor(p, caller, body.workflow_id, 'workflow:edit');
  requireReady(workflow);
  const block = targetBlock(graph, body.target.block_id, ['body', 'target', 'block_id'], workflow.id);
  const assertion = assertionOf(body.assertion, ['body', 'assertion'], targetInfoOf(block));
  const source = await sourceOf(p, caller, body.source, workflow.id, block, ['body', 'source']);
  const now = timestamp(p.clock.now());
  const data: EvalData = {
    id: p.ids.next('evl'),
    workflow_id: workflow.id,
    target: { type: 'block', block_id: block.id },
    source,
    name: body.name ?? null,
    assertion,
    created_at: now,
    updated_at: now,
    latest_run_summary: null,
    latest_passing_run_summary: null,
    latest_failing_run_summary: null,
    _block_fingerprint: blockExecutionFingerprint(block),
    _block_schema_fingerprint: schemaFingerprintOf(block),
  };
  await p.store.putRecord(caller, { type: EVAL_TYPE, id: data.id, createdAt: now, attrs: { workflow_id: workflow.id, target_block_id: block.id }, data }, { ifAbsent: true });
  return evalToWire(data, graph);
}

export async function getEval(p: Platform, caller: Caller, id: string) {
  const data = await readEval(p, caller, id);
  requireCapability(caller, 'workflow:view');
  return evalToWire(data, await draftIfAny(p, caller, data.workflow_id));
}

export async function listEvals(p: Platform, caller: Caller, q: { limit: number; order: 'asc' | 'desc'; before?: string | undefined; after?: string | undefined; workflow_id: string; target_block_id?: string | undefined }) {
  const { graph } = await workflowFor(p, caller, q.workflow_id, 'workflow:view');
  const page = await p.store.listRecords<EvalData>(caller, EVAL_TYPE, toListQuery(q, { workflow_id: q.workflow_id, target_block_id: q.target_block_id }));
  return { data: page.items.map((r) => evalToWire(r.data, graph)), list_metadata: { before: page.before, after: page.after } };
}

export async function updateEval(p: Platform, caller: Caller, id: string, body: { name?: string | null | undefined; assertion?: Record<string, unknown> | null | undefined; source?: Source | null | undefined }) {
  const current = await readEval(p, caller, id);
  const { workflow, graph } = await workflowFor(p, caller, current.workflow_id, 'workflow:edit');
  requireReady(workflow);
  const changes: Partial<EvalData> = {};
  if (body.name !== undefined && body.name !== null) changes.name = body.name;
  if ((body.assertion !== undefined && body.assertion !== null) || (body.source !== undefined && body.source !== null)) {
    const block = graph.blocks.find((b) => b.id === current.target.block_id);
    if (!block) throw new Conflict(`The target block ${current.target.block_id} of eval ${id} is no longer in the workflow's draft: the eval cannot be changed, only deleted`);
    if (body.assertion) changes.assertion = assertionOf(body.assertion, ['body', 'assertion'], targetInfoOf(block));
    if (body.source) changes.source = await sourceOf(p, caller, body.source, workflow.id, block, ['body', 'source']);
    changes._block_fingerprint = blockExecutionFingerprint(block);
    changes._block_schema_fingerprint = schemaFingerprintOf(block);
  }
  if (Object.keys(changes).length === 0) return evalToWire(current, graph);
  changes.updated_at = timestamp(p.clock.now());
  const updated = await p.store.updateRecord<EvalData>(caller, EVAL_TYPE, id, changes);
  if (!updated) throw NotFound.of('Workflow eval', id);
  return evalToWire(updated.data, graph);
}

export async function deleteEval(p: Platform, caller: Caller, id: string): Promise<void> {
  const current = await readEval(p, caller, id);
  requireCapability(caller, 'workflow:edit');
  // Its results stay with the eval runs that produced them.
  await p.store.deleteRecord(caller, EVAL_TYPE, current.id);
}

/** Every eval of a workflow (oldest first). */
export async function evalsOfWorkflow(p: Platform, scope: Scope, workflowId: string): Promise<EvalData[]> {
  const out: EvalData[] = [];
  let after: string | undefined;
  do {
    const page = await p.store.listRecords<EvalData>(scope, EVAL_TYPE, { limit: 100, order: 'asc', after, attrs: { workflow_id: workflowId } });
    out.push(...page.items.map((r) => r.data));
    after = page.after ?? undefined;
  } while (after);
  return out;
}

const summaryToWire = (s: RunSummary | null) => {
  if (!s) return null;
  const { _source_fingerprint, ...wire } = s;
  return wire;
};

/** The wire form (WorkflowEval), its freshness, drift and validation judged against the draft `graph`. */
export function evalToWire(data: EvalData, graph: Graph | undefined) {
  const block = graph?.blocks.find((b) => b.id === data.target.block_id);
  const issues: Array<{ code: string; message: string; loc?: Array<string | number> }> = [];
  let drift: { status: 'none' | 'drifted' | 'broken' | 'unknown'; affected_targets: string[]; detail: string | null };
  let schemaDrift: 'none' | 'partial' | 'drifted' | 'unknown' = 'unknown';
  let schemaDriftDetail: string | null = null;
  let validity: string | null = null;
  if (!graph) {
    issues.push({ code: 'workflow_missing', message: `Workflow ${data.workflow_id} no longer exists` });
    drift = { status: 'broken', affected_targets: [data.target.block_id], detail: 'The workflow no longer exists' };
  } else if (!block) {
    issues.push({ code: 'target_block_missing', message: `Block ${data.target.block_id} is no longer in the workflow's draft` });
    drift = { status: 'broken', affected_targets: [data.target.block_id], detail: `Block ${data.target.block_id} is no longer in the workflow's draft` };
  } else {
    if (!EVALUABLE_BLOCKS.includes(block.type)) issues.push({ code: 'target_block_type', message: `Block ${block.id} is now a ${block.type} block, which an eval cannot run` });
    try {
      assertionOf(data.assertion, ['assertion'], targetInfoOf(block));
    } catch (error) {
      if (!(error instanceof Invalid)) throw error;
      for (const issue of error.issues) issues.push({ code: 'assertion_invalid', message: issue.msg, loc: issue.loc });
    }
    const changed = blockExecutionFingerprint(block) !== data._block_fingerprint;
    drift = issues.length
      ? { status: 'broken', affected_targets: [block.id], detail: issues.map((i) => i.message).join('; ') }
      : changed
        ? { status: 'drifted', affected_targets: [block.id], detail: `Block ${block.id} changed since the eval was saved` }
        : { status: 'none', affected_targets: [], detail: null };
    if (block.type === 'extract') {
      const drifted = schemaFingerprintOf(block) !== data._block_schema_fingerprint;
      schemaDrift = drifted ? 'drifted' : 'none';
      schemaDriftDetail = drifted ? `The json_schema of ${block.id} changed since the eval was saved` : null;
    } else schemaDrift = 'none';
    validity = validityFingerprintOf(block, data.assertion);
  }
  const latest = data.latest_run_summary;
  const reasons: string[] = [];
  if (latest) {
    if (validity === null || latest.validity_fingerprint !== validity) reasons.push('validity_changed');
    if (latest._source_fingerprint !== sourceFingerprintOf(data.source)) reasons.push('inputs_changed');
  } else reasons.push('no_baseline');
  const freshness = {
    status: latest ? (reasons.length ? 'stale' : 'fresh') : 'unknown',
    reasons,
    validity_fingerprint: validity,
    input_fingerprint: sourceFingerprintOf(data.source),
    baseline_run_id: latest?.run_record_id ?? null,
  };
  return {
    id: data.id,
    workflow_id: data.workflow_id,
    target: data.target,
    source: data.source,
    name: data.name,
    assertion: data.assertion,
    assertion_schema_dep: null,
    assertion_drift_status: drift.status === 'unknown' ? null : drift.status === 'none' ? 'valid' : drift.status,
    schema_drift: schemaDrift,
    schema_drift_detail: schemaDriftDetail,
    freshness,
    drift,
    validation_status: issues.length ? 'invalid' : 'valid',
    validation_issues: issues,
    latest_run_summary: summaryToWire(data.latest_run_summary),
    latest_passing_run_summary: summaryToWire(data.latest_passing_run_summary),
    latest_failing_run_summary: summaryToWire(data.latest_failing_run_summary),
    created_at: data.created_at,
    updated_at: data.updated_at,
  };
}
