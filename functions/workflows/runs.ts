/**
 * Workflow runs (API §9.3): created from a version of a workflow with its inputs by block id, run by
 * statemachines/workflow-run.asl.json (./run-task.ts), read, listed and cancelled here. The record
 * keeps small metadata; the definition and the outputs live in storage.
 */
import type { Caller } from '../auth/service.ts';
import { fileRefOf, resolveDocument } from '../files/service.ts';
import { Invalid, NotFound } from '../platform/errors.ts';
import { timestamp } from '../platform/ids.ts';
import { logger } from '../platform/logger.ts';
import type { Platform } from '../platform/platform.ts';
import type { ExecutionStatus, Scope } from '../platform/ports.ts';
import type { FileRef } from '../platform/schemas.ts';
import { emitEvent } from '../webhooks/events.ts';
import { ACTIVE, WORKFLOW_RUN_TYPE, type Definition, type RunLifecycleStatus, type WorkflowRun } from './schema.ts';
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
  const { _definition_key: _d, _outputs_key: outputsKey, _execution_arn: _e, ...wire } = data;
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
  const type = lifecycle.status === 'completed' ? 'workflow.run.completed' : 'workflow.run.failed';
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
  await p.store.putRecord(caller, { type: WORKFLOW_RUN_TYPE, id, createdAt: now, status: 'pending', attrs: { workflow_id: workflow.id }, data });
  const arn = await p.runner.start('workflowRun', { name: id, input: { run: { orgId: caller.orgId, envId: caller.envId, id } } });
  const started = await p.store.updateRecord<WorkflowRunData>(caller, WORKFLOW_RUN_TYPE, id, { _execution_arn: arn });
  return toWireRun(p, started?.data ?? data, false);
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
