/**
 * Workflow runs (API §9.3): created from a version of a workflow with its inputs by block id, run by
 * statemachines/workflow-run.asl.json (./run-task.ts), read, listed and cancelled here. The record
 * keeps small metadata; the definition and the outputs live in storage.
 */
import type { Caller } from '../auth/service.ts';
import { fileRefOf, resolveDocument } from '../files/service.ts';
import { Conflict, Invalid, NotFound } from '../platform/errors.ts';
import { timestamp } from '../platform/ids.ts';
import { logger } from '../platform/logger.ts';
import type { Platform } from '../platform/platform.ts';
import type { ExecutionStatus, Scope, StoredRecord } from '../platform/ports.ts';
import { toListQuery } from '../platform/pagination.ts';
import type { FileRef } from '../platform/schemas.ts';
import { emitEvent } from '../webhooks/events.ts';
import type { RunDefinition as Definition } from './definition.ts';
import { deleteBlockExecutionsOfRun } from './block-executions.ts';
import { deleteReviewsOfRun } from './reviews.ts';
import { ACTIVE, statusOfFilter, WORKFLOW_RUN_TYPE, type RunLifecycleStatus, type RunStatusFilter, type WorkflowRun } from './schema.ts';
import { deleteStepsOfRun } from './steps.ts';
import type { z } from 'zod';
import { definitionFor, readWorkflow, requireCapability, requireReady } from './service.ts';

export interface WorkflowRunData extends WorkflowRun {
  _definition_key: string;
  _outputs_key: string | null;
  _execution_arn: string | null;
}

const TERMINAL: RunLifecycleStatus[] = ['completed', 'error', 'cancelled'];

const runPrefix = (scope: Scope, id: string) => `${scope.orgId}/${scope.envId}/workflow-runs/${id}`;
export const definitionKeyOf = (scope: Scope, id: string) => `${runPrefix(scope, id)}/definition.json`;
export const outputsKeyOf = (scope: Scope, id: string) => `${runPrefix(scope, id)}/outputs.json`;

/** The wire form: private fields dropped, outputs read from storage once the run completed. */
export async function toWireRun(p: Platform, data: WorkflowRunData, withOutputs = true): Promise<WorkflowRun> {
  const { _definition_key: _d, _outputs_key: outputsKey, _execution_arn: _e, status: _s, ...wire } = data as WorkflowRunData & { status?: string };
  if (!withOutputs || !outputsKey) return wire;
  const bytes = await p.blobs.get(outputsKey);
  return { ...wire, outputs: bytes ? (JSON.parse(Buffer.from(bytes).toString('utf8')) as Record<string, unknown>) : {} };
}

export async function readWorkflowRun(p: Platform, scope: Scope, id: string): Promise<WorkflowRunData> {
  const record = await p.store.getRecord<WorkflowRunData>(scope, WORKFLOW_RUN_TYPE, id);
  if (!record) throw NotFound.of('Workflow run', id);
  return record.data;
}

/**
 * Moves an active run to its end and announces it (`workflow.run.completed|failed` in the run's own
 * environment); false when it was no longer active. Used by the run task (./run-task.ts) and by the
 * sweeper (`endLostWorkflowRun`).
 */
export async function endWorkflowRun(p: Platform, scope: Scope, id: string, lifecycle: WorkflowRun['lifecycle'], patch: Partial<WorkflowRunData> = {}): Promise<boolean> {
  const current = await readWorkflowRun(p, scope, id);
  const moved = await p.store.moveStatus<WorkflowRunData>(scope, WORKFLOW_RUN_TYPE, id, ACTIVE, lifecycle.status, {
    ...patch,
    lifecycle,
    timing: { ...current.timing, completed_at: timestamp(p.clock.now()) },
  });
  if (!moved) return false;
  const type = lifecycle.status === 'completed' ? 'workflow.run.completed' : lifecycle.status === 'cancelled' ? 'workflow.run.cancelled' : 'workflow.run.failed';
  try {
    await emitEvent(p, scope, { type, data: await toWireRun(p, moved.data) });
  } catch (error) {
    logger.error('workflow run event could not be emitted', { run_id: id, error_type: (error as Error).name });
  }
  return true;
}

/** A run whose execution ended without settling it (the sweeper): `error`, as the run task's fail step would. */
export function endLostWorkflowRun(p: Platform, scope: Scope, id: string, execution: ExecutionStatus): Promise<boolean> {
  const timedOut = execution === 'TIMED_OUT';
  return endWorkflowRun(p, scope, id, {
    status: 'error',
    message: timedOut ? 'The run exceeded its time budget' : 'The run was lost: its background execution ended before the run finished',
    stage: 'block_execution',
    category: timedOut ? 'transient' : 'permanent',
    details: { error_code: timedOut ? 'timeout' : 'internal', execution_status: execution.toLowerCase() },
  });
}

export async function createWorkflowRun(
  p: Platform,
  caller: Caller,
  body: { workflow_id: string; documents: Record<string, unknown>; json_inputs: Record<string, unknown>; version: string; metadata: Record<string, string> },
): Promise<WorkflowRun> {
  const workflow = await readWorkflow(p, caller, body.workflow_id).catch(() => {
    throw Invalid.at(['body', 'workflow_id'], 'Workflow not found', 'value_error', body.workflow_id);
  });
  requireCapability(caller, 'workflow:run');
  requireReady(workflow);
  const selector = body.version === 'production' ? 'published' : body.version;
  const { versionId, definition } = await definitionFor(p, caller, workflow, selector, ['body', 'version']);
  if (!definition.blocks.length) throw Invalid.at(['body', 'version'], 'This version of the workflow has no blocks to run');

  const documents: Record<string, FileRef> = {};
  const documentBlocks = new Set(definition.blocks.filter((b) => b.type === 'start_document').map((b) => b.id));
  const jsonBlocks = new Set(definition.blocks.filter((b) => b.type === 'start_json').map((b) => b.id));
  for (const id of Object.keys(body.documents)) {
    if (!documentBlocks.has(id)) throw Invalid.at(['body', 'documents', id], `"${id}" is not a start_document block of this workflow (blocks: ${[...documentBlocks].join(', ') || 'none'})`);
  }
  for (const id of Object.keys(body.json_inputs)) {
    if (!jsonBlocks.has(id)) throw Invalid.at(['body', 'json_inputs', id], `"${id}" is not a start_json block of this workflow (blocks: ${[...jsonBlocks].join(', ') || 'none'})`);
  }
  for (const id of documentBlocks) {
    const input = body.documents[id];
    if (input === undefined) throw Invalid.at(['body', 'documents', id], `The start_document block "${id}" needs a document`, 'missing');
    const { file } = await resolveDocument(p, caller, input as never, ['body', 'documents', id]);
    documents[id] = fileRefOf(file);
  }

  const id = p.ids.next('run');
  const now = timestamp(p.clock.now());
  await p.blobs.put(definitionKeyOf(caller, id), JSON.stringify(definition satisfies Definition), 'application/json');
  const data: WorkflowRunData = {
    id,
    workflow_id: workflow.id,
    workflow_version_id: versionId ?? 'draft',
    trigger: { type: 'api' },
    lifecycle: { status: 'pending' },
    timing: { created_at: now, started_at: null, completed_at: null },
    inputs: { documents, json_data: body.json_inputs },
    outputs: {},
    metadata: body.metadata,
    _definition_key: definitionKeyOf(caller, id),
    _outputs_key: null,
    _execution_arn: null,
  };
  await p.store.putRecord(caller, {
    type: WORKFLOW_RUN_TYPE,
    id,
    createdAt: now,
    status: 'pending',
    attrs: { workflow_id: workflow.id, trigger_type: 'api', ...Object.fromEntries(Object.entries(body.metadata).map(([k, v]) => [`${METADATA_ATTR}${k}`, v])) },
    data,
  });
  const arn = await p.runner.start('workflowRun', { name: id, input: { run: { orgId: caller.orgId, envId: caller.envId, id } } });
  const started = await p.store.updateRecord<WorkflowRunData>(caller, WORKFLOW_RUN_TYPE, id, { _execution_arn: arn });
  return toWireRun(p, started?.data ?? data, false);
}

const METADATA_ATTR = 'meta.';

/** The list's `metadata` query: a JSON-encoded object of strings; every entry must match. */
function metadataFilter(text: string | undefined): Record<string, string> {
  if (text === undefined) return {};
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch {
    throw Invalid.at(['query', 'metadata'], 'metadata must be a JSON-encoded object, e.g. {"batch":"7"}', 'json_invalid', text);
  }
  if (!parsed || typeof parsed !== 'object' || Array.isArray(parsed) || Object.values(parsed).some((v) => typeof v !== 'string')) {
    throw Invalid.at(['query', 'metadata'], 'metadata must be a JSON object whose values are strings', 'value_error', text);
  }
  return Object.fromEntries(Object.entries(parsed as Record<string, string>).map(([k, v]) => [`${METADATA_ATTR}${k}`, v]));
}

/** How long a run took (or has taken so far), in ms: from its start (or creation) to its end (or now). */
export function durationMs(run: WorkflowRun, now: number): number {
  const start = Date.parse(run.timing.started_at ?? run.timing.created_at);
  const end = run.timing.completed_at ? Date.parse(run.timing.completed_at) : now;
  return Math.max(0, end - start);
}

type StatusFilter = z.infer<typeof RunStatusFilter>;
export interface RunFilters {
  limit: number;
  order: 'asc' | 'desc';
  before?: string | undefined;
  after?: string | undefined;
  from_date?: string | undefined;
  to_date?: string | undefined;
  workflow_id?: string | undefined;
  status?: StatusFilter | undefined;
  exclude_status?: StatusFilter | undefined;
  trigger_type?: string | undefined;
  min_duration_ms?: number | undefined;
  max_duration_ms?: number | undefined;
  search?: string | undefined;
  metadata?: string | undefined;
}

/** Every filter the SDK sends (API §9.3): the table filters what it can, the rest is tested per record. */
export async function listWorkflowRuns(p: Platform, caller: Caller, q: RunFilters) {
  requireCapability(caller, 'workflow:view');
  if (q.min_duration_ms !== undefined && q.max_duration_ms !== undefined && q.max_duration_ms < q.min_duration_ms) {
    throw Invalid.at(['query', 'max_duration_ms'], 'max_duration_ms is below min_duration_ms', 'value_error', q.max_duration_ms);
  }
  const excluded = q.exclude_status ? statusOfFilter(q.exclude_status) : undefined;
  const search = q.search?.trim().toLowerCase();
  const now = p.clock.now().getTime();
  const where = (r: StoredRecord<WorkflowRunData>) => {
    const run = r.data;
    if (excluded && run.lifecycle.status === excluded) return false;
    if (q.min_duration_ms !== undefined || q.max_duration_ms !== undefined) {
      const ms = durationMs(run, now);
      if (q.min_duration_ms !== undefined && ms < q.min_duration_ms) return false;
      if (q.max_duration_ms !== undefined && ms > q.max_duration_ms) return false;
    }
    if (search) {
      const texts = [run.id, run.workflow_id, ...Object.values(run.metadata ?? {}), ...Object.values(run.inputs.documents).map((d) => d.filename)];
      if (!texts.some((t) => t.toLowerCase().includes(search))) return false;
    }
    return true;
  };
  const attrs = { workflow_id: q.workflow_id, ...(q.trigger_type ? { trigger_type: q.trigger_type } : {}), ...metadataFilter(q.metadata) };
  const query = { ...toListQuery({ ...q, status: q.status ? statusOfFilter(q.status) : undefined }, attrs), ...(excluded || search || q.min_duration_ms !== undefined || q.max_duration_ms !== undefined ? { where } : {}) };
  // Runs stored before trigger types were recorded are all API runs.
  if (q.trigger_type === 'api') {
    delete query.attrs!.trigger_type;
    const inner = query.where;
    query.where = (r: StoredRecord<WorkflowRunData>) => (r.attrs?.trigger_type ?? 'api') === 'api' && (!inner || inner(r));
  }
  const page = await p.store.listRecords<WorkflowRunData>(caller, WORKFLOW_RUN_TYPE, query);
  // List items carry no outputs (they live in storage): GET one run for them.
  return { data: await Promise.all(page.items.map((r) => toWireRun(p, r.data, false))), list_metadata: { before: page.before, after: page.after } };
}

/** Deletes an ended run with its steps, artifacts, reviews and stored payloads (an active run: cancel it first). */
export async function deleteWorkflowRun(p: Platform, caller: Caller, id: string): Promise<void> {
  const run = await readWorkflowRun(p, caller, id);
  requireCapability(caller, 'workflow:run');
  if (ACTIVE.includes(run.lifecycle.status)) throw new Conflict(`Workflow run ${id} is ${run.lifecycle.status}: cancel it before deleting it`);
  await deleteStepsOfRun(p, caller, id);
  await deleteBlockExecutionsOfRun(p, caller, id);
  await deleteReviewsOfRun(p, caller, id);
  await p.blobs.delete(run._definition_key);
  if (run._outputs_key) await p.blobs.delete(run._outputs_key);
  await p.store.deleteRecord(caller, WORKFLOW_RUN_TYPE, id);
}

export async function getWorkflowRun(p: Platform, caller: Caller, id: string): Promise<WorkflowRun> {
  requireCapability(caller, 'workflow:view');
  return toWireRun(p, await readWorkflowRun(p, caller, id));
}

export async function cancelWorkflowRun(p: Platform, caller: Caller, id: string): Promise<{ run: WorkflowRun; cancellation_status: 'cancelled' | 'cancellation_requested' | 'cancellation_failed' }> {
  const current = await readWorkflowRun(p, caller, id);
  requireCapability(caller, 'workflow:run');
  const ended = async (data: WorkflowRunData) => ({
    run: await toWireRun(p, data),
    cancellation_status: data.lifecycle.status === 'cancelled' ? ('cancelled' as const) : ('cancellation_failed' as const),
  });
  if (TERMINAL.includes(current.lifecycle.status)) return ended(current);
  const now = timestamp(p.clock.now());
  const moved = await p.store.moveStatus<WorkflowRunData>(caller, WORKFLOW_RUN_TYPE, id, ACTIVE, 'cancelled', {
    lifecycle: { status: 'cancelled' },
    timing: { ...current.timing, completed_at: now },
  });
  if (!moved) return ended(await readWorkflowRun(p, caller, id));
  if (moved.data._execution_arn) await p.runner.stop(moved.data._execution_arn, 'Cancelled by the API');
  const run = await toWireRun(p, moved.data, false);
  await emitEvent(p, caller, { type: 'workflow.run.cancelled', data: run });
  return { run, cancellation_status: 'cancelled' };
}
