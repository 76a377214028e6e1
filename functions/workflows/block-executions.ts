/**
 * Block executions (the Retab SDK's `workflows.blocks.executions`): one block of a workflow run run
 * again, alone, on the inputs its step received in that run (`handle_inputs`), with the block's
 * config as the workflow's draft now has it — edit an extract block's schema, re-run it on the
 * document of yesterday's run, read the new output. Optionally with more consensus votes
 * (`n_consensus` 3, 5 or 7 on extract, split and classifier blocks).
 *
 * An execution is a run of its own on the run machinery (./kind.ts, run by ./task.ts in the task
 * Lambda): the POST answers at once `queued`, the list shows it `running`, then `completed` with its
 * handle outputs and artifact, or `error`. The source run, its steps and its artifacts never change;
 * an execution's artifact is listed under the execution, not the run. Deleting the run deletes its
 * executions.
 *
 * `check_eligibility` (default true, as the SDK says): the blocks upstream of this one — whatever
 * produced its inputs — must be the same in the draft as in the version the run ran (types, configs,
 * edges), else 409 naming what changed; `false` re-runs anyway (a forced re-run).
 */
import { createHash } from 'node:crypto';
import type { Caller } from '../auth/service.ts';
import { Conflict, Invalid, NotFound } from '../platform/errors.ts';
import { toListQuery } from '../platform/pagination.ts';
import type { Platform } from '../platform/platform.ts';
import type { Scope } from '../platform/ports.ts';
import { deleteRun, startRun, storedJsonOf, type RunData, type StoredResult } from '../runs/service.ts';
import type { RunBlock, RunDefinition } from './definition.ts';
import { canonicalJson, draftGraph } from './graph.ts';
import { blockExecutionKind } from './kind.ts';
import { readWorkflowRun, type WorkflowRunData } from './runs.ts';
import { WORKFLOW_RUN_TYPE } from './schema.ts';
import { readWorkflow, requireCapability, requireReady } from './service.ts';
import { ARTIFACT_TYPE, readHandles, STEP_TYPE, type Handles, type StepData } from './steps.ts';

/** The block types that can be run again alone (./blocks.ts `runBlockAlone`). */
export const RERUNNABLE_TYPES = ['parse', 'split', 'classifier', 'extract', 'edit', 'function', 'conditional', 'merge_dicts', 'api_call'];
/** The block types whose run takes consensus votes. */
export const CONSENSUS_TYPES = ['extract', 'split', 'classifier'];
/** Step statuses whose inputs are known and final: the block ran (or failed, or waited for review). */
const RAN = ['completed', 'error', 'awaiting_review', 'cancelled'];
const INLINE_BYTES = 48 * 1024;

/** What the execution's task needs (the record's private `_input`). */
export interface BlockExecutionInput {
  block: RunBlock;
  source_run_id: string;
  workflow_id: string;
  workflow_version_id: string;
  /** The inputs (inline, or the storage key holding them). */
  handle_inputs: Handles | null;
  handle_inputs_key: string | null;
}

/** What the task stores as the execution's output. */
export interface BlockExecutionOutput {
  handle_outputs: Handles | null;
}

export interface BlockExecutionData extends RunData {
  workflow_id: string;
  workflow_version_id: string;
  source_run_id: string;
  source_step_id: string;
  block_id: string;
  block_type: string;
  block_config: Record<string, unknown>;
  n_consensus: number | null;
  handle_inputs_fingerprint: string;
  workflow_draft_fingerprint: string;
  block_execution_fingerprint: string;
  execution_fingerprint: string;
  available_iterations: Array<Record<string, unknown>> | null;
  started_at?: string | null;
  completed_at?: string | null;
  duration_ms?: number | null;
  artifact?: { operation: string; id: string } | null;
  routing_decisions?: string[] | null;
}

const sha = (value: unknown) => `sha256:${createHash('sha256').update(canonicalJson(value)).digest('hex')}`;

/** What matters of a block or an edge for what it computes (no labels, positions or timestamps). */
const blockContent = (b: RunBlock) => ({ id: b.id, type: b.type, config: b.config ?? {}, parent_id: b.parent_id ?? null });
const edgeContent = (e: RunDefinition['edges'][number]) => ({ source: e.source, target: e.target, source_handle: e.source_handle ?? null, target_handle: e.target_handle ?? null });
const definitionContent = (d: RunDefinition) => ({
  blocks: d.blocks.map(blockContent).sort((a, b) => a.id.localeCompare(b.id)),
  edges: d.edges.map(edgeContent).sort((a, b) => canonicalJson(a).localeCompare(canonicalJson(b))),
});

/** The blocks whose outputs reach `blockId` in `definition`: its ancestors by edges, and the containers around it (and theirs). */
export function upstreamOf(definition: RunDefinition, blockId: string): Set<string> {
  const seen = new Set<string>();
  const visit = (id: string) => {
    for (const e of definition.edges) {
      if (e.target === id && !seen.has(e.source)) {
        seen.add(e.source);
        visit(e.source);
      }
    }
    const parent = definition.blocks.find((b) => b.id === id)?.parent_id;
    if (parent && !seen.has(parent)) {
      seen.add(parent);
      visit(parent);
    }
  };
  visit(blockId);
  return seen;
}

/**
 * What changed upstream of `blockId` between the version a run ran and the draft: block ids whose
 * type, config or container differ (or that exist on one side only), and whether the edges among
 * them (and into the block) differ. Empty: the block's inputs would be the same today.
 */
export function upstreamDrift(ran: RunDefinition, draft: RunDefinition, blockId: string): string[] {
  const before = upstreamOf(ran, blockId);
  const after = upstreamOf(draft, blockId);
  const changed = new Set<string>();
  for (const id of new Set([...before, ...after])) {
    const a = ran.blocks.find((b) => b.id === id);
    const b = draft.blocks.find((x) => x.id === id);
    if (!before.has(id) || !after.has(id) || !a || !b || canonicalJson(blockContent(a)) !== canonicalJson(blockContent(b))) changed.add(id);
  }
  const inner = (d: RunDefinition, set: Set<string>) =>
    d.edges
      .filter((e) => set.has(e.source) && (set.has(e.target) || e.target === blockId))
      .map((e) => canonicalJson(edgeContent(e)))
      .sort();
  if (canonicalJson(inner(ran, before)) !== canonicalJson(inner(draft, after))) changed.add('(edges)');
  return [...changed].sort();
}

async function readRunDefinition(p: Platform, run: WorkflowRunData): Promise<RunDefinition> {
  const bytes = await p.blobs.get(run._definition_key);
  if (!bytes) throw new Conflict(`The definition of workflow run ${run.id} is missing`);
  return JSON.parse(Buffer.from(bytes).toString('utf8')) as RunDefinition;
}

async function stepsOfBlock(p: Platform, scope: Scope, runId: string, blockId: string): Promise<StepData[]> {
  const steps: StepData[] = [];
  let after: string | undefined;
  do {
    const page = await p.store.listRecords<StepData>(scope, STEP_TYPE, { limit: 100, order: 'asc', after, attrs: { run_id: runId, block_id: blockId } });
    steps.push(...page.items.map((r) => r.data));
    after = page.after ?? undefined;
  } while (after);
  return steps;
}

const iterationOf = (s: StepData) => ({ step_id: s.step_id, status: s.lifecycle.status, loop_containers: s.loop_containers });

export interface CreateBlockExecutionBody {
  run_id: string;
  block_id: string;
  step_id?: string | undefined;
  n_consensus?: number | undefined;
  check_eligibility?: boolean | undefined;
}

export async function createBlockExecution(p: Platform, caller: Caller, body: CreateBlockExecutionBody) {
  const run = await p.store.getRecord<WorkflowRunData>(caller, WORKFLOW_RUN_TYPE, body.run_id);
  if (!run) throw new NotFound(`Workflow run ${body.run_id} not found (run_id)`);
  requireCapability(caller, 'workflow:run');
  const source = run.data;
  const workflow = await readWorkflow(p, caller, source.workflow_id).catch(() => {
    throw new NotFound(`The workflow ${source.workflow_id} of run ${source.id} no longer exists (run_id)`);
  });
  requireReady(workflow);
  const ran = await readRunDefinition(p, source);

  // The step whose inputs are used: the one named, else the block's (the first iteration of several).
  let step: StepData;
  let iterations: StepData[] = [];
  if (body.step_id) {
    const record = await p.store.getRecord<StepData>(caller, STEP_TYPE, body.step_id);
    if (!record || record.data.run_id !== source.id) throw new NotFound(`Step ${body.step_id} not found in workflow run ${source.id} (step_id)`);
    if (record.data.block_id !== body.block_id) throw Invalid.at(['body', 'step_id'], `Step ${body.step_id} is a step of block "${record.data.block_id}", not of "${body.block_id}"`, 'value_error', body.step_id);
    step = record.data;
    iterations = await stepsOfBlock(p, caller, source.id, body.block_id);
  } else {
    iterations = await stepsOfBlock(p, caller, source.id, body.block_id);
    if (iterations.length === 0) {
      if (!ran.blocks.some((b) => b.id === body.block_id)) throw new NotFound(`Block "${body.block_id}" is not a block of the workflow version run ${source.id} ran (block_id)`);
      throw new Conflict(`Block "${body.block_id}" did not run in workflow run ${source.id} (the run ${source.lifecycle.status === 'completed' ? 'did not reach it' : `is ${source.lifecycle.status} and has not reached it`}): there are no inputs to run it again on`);
    }
    step = iterations.find((s) => RAN.includes(s.lifecycle.status)) ?? iterations[0]!;
  }
  const status = step.lifecycle.status;
  if (status === 'skipped') throw new Conflict(`Block "${body.block_id}" did not run in workflow run ${source.id}: its step ${step.step_id} was skipped (${(step.lifecycle as { reason: string }).reason}), so there are no inputs to run it again on`);
  if (!RAN.includes(status)) throw new Conflict(`Block "${body.block_id}" is still ${status} in workflow run ${source.id} (step ${step.step_id}): run it again once its step has ended`);

  // The block as the draft has it now (what a re-run is for), or as it ran when forced and gone from the draft.
  const ranBlock = ran.blocks.find((b) => b.id === body.block_id);
  const draft = draftGraph(workflow);
  const draftBlock = draft.blocks.find((b) => b.id === body.block_id);
  const block = draftBlock ?? ranBlock;
  if (!block) throw new NotFound(`Block "${body.block_id}" is not in workflow ${workflow.id} (block_id)`);
  if (!RERUNNABLE_TYPES.includes(block.type)) {
    throw Invalid.at(['body', 'block_id'], `A ${block.type} block cannot be run again alone (blocks that can: ${RERUNNABLE_TYPES.join(', ')})`, 'value_error', body.block_id);
  }
  if (body.n_consensus !== undefined && !CONSENSUS_TYPES.includes(block.type)) {
    throw Invalid.at(['body', 'n_consensus'], `n_consensus applies to extract, split and classifier blocks; "${block.id}" is a ${block.type} block`, 'value_error', body.n_consensus);
  }
  const checking = body.check_eligibility !== false;
  if (checking) {
    if (!draftBlock) throw new Conflict(`Block "${body.block_id}" is no longer in the draft of workflow ${workflow.id} (pass check_eligibility: false to run it as run ${source.id} ran it)`);
    if (ranBlock && ranBlock.type !== draftBlock.type) throw new Conflict(`Block "${body.block_id}" was a ${ranBlock.type} block in run ${source.id} and is a ${draftBlock.type} block in the draft (pass check_eligibility: false to run it anyway)`);
    const drift = upstreamDrift(ran, draft, body.block_id);
    if (drift.length) {
      throw new Conflict(
        `The blocks upstream of "${body.block_id}" changed in the draft since run ${source.id} (${drift.join(', ')}): its inputs in that run may not be what it would receive now (pass check_eligibility: false to run it anyway)`,
      );
    }
  }
  const config = body.n_consensus !== undefined ? { ...block.config, n_consensus: body.n_consensus } : { ...block.config };

  const handles = await readHandles(p, step);
  const inputs = handles.handle_inputs;
  const inputsJson = JSON.stringify(inputs);
  const inputsKey = Buffer.byteLength(inputsJson) > INLINE_BYTES ? `${caller.orgId}/${caller.envId}/block-executions/${step.step_id}/${sha(inputs).slice(7, 39)}.json` : null;
  if (inputsKey) await p.blobs.put(inputsKey, inputsJson, 'application/json');
  const handleInputsFingerprint = sha(inputs);
  const blockFingerprint = sha({ type: block.type, config });
  const input: BlockExecutionInput = {
    block: { id: block.id, type: block.type, config, ...(block.parent_id ? { parent_id: block.parent_id } : {}) },
    source_run_id: source.id,
    workflow_id: workflow.id,
    workflow_version_id: source.workflow_version_id,
    handle_inputs: inputsKey ? null : inputs,
    handle_inputs_key: inputsKey,
  };
  const fields = {
    workflow_id: workflow.id,
    workflow_version_id: source.workflow_version_id,
    source_run_id: source.id,
    source_step_id: step.step_id,
    block_id: block.id,
    block_type: block.type,
    block_config: config,
    n_consensus: body.n_consensus ?? null,
    handle_inputs_fingerprint: handleInputsFingerprint,
    workflow_draft_fingerprint: sha(definitionContent(draft)),
    block_execution_fingerprint: blockFingerprint,
    execution_fingerprint: sha({ handle_inputs: handleInputsFingerprint, block: blockFingerprint }),
    available_iterations: iterations.length > 1 ? iterations.map(iterationOf) : null,
  };
  const started = await startRun(p, caller, blockExecutionKind, { fields, input, background: false, attrs: { source_run_id: source.id, block_id: block.id } });
  const record = await p.store.getRecord<BlockExecutionData>(caller, blockExecutionKind.type, started.id);
  return toWire(p, record!.data);
}

/** The SDK's lifecycle of an execution, from its run status. */
function lifecycleOf(data: BlockExecutionData) {
  switch (data.status) {
    case 'queued':
      return { status: 'queued' as const };
    case 'in_progress':
      return { status: 'running' as const };
    case 'completed':
      return { status: 'completed' as const };
    case 'cancelled':
      return { status: 'cancelled' as const, reason: 'Cancelled' };
    default: {
      const error = data.error as { message?: string } | null;
      return { status: 'error' as const, message: error?.message ?? 'The block execution failed' };
    }
  }
}

async function inputsOf(p: Platform, data: BlockExecutionData): Promise<Handles | null> {
  const input = data._input as BlockExecutionInput | null;
  if (!input) return null;
  if (input.handle_inputs) return input.handle_inputs;
  if (!input.handle_inputs_key) return null;
  const bytes = await p.blobs.get(input.handle_inputs_key);
  return bytes ? (JSON.parse(Buffer.from(bytes).toString('utf8')) as Handles) : null;
}

async function outputsOf(p: Platform, data: BlockExecutionData): Promise<Handles | null> {
  const json = await storedJsonOf(p, data);
  if (json === undefined) return null;
  const stored = JSON.parse(json) as StoredResult;
  return (stored.output as BlockExecutionOutput | null)?.handle_outputs ?? null;
}

/** The wire form (StoredBlockExecution): timestamps only once they exist (the SDK reads them as dates). */
export async function toWire(p: Platform, data: BlockExecutionData) {
  const [handleInputs, handleOutputs] = await Promise.all([inputsOf(p, data), outputsOf(p, data)]);
  return {
    id: data.id,
    workflow_id: data.workflow_id,
    workflow_version_id: data.workflow_version_id,
    source_run_id: data.source_run_id,
    block_id: data.block_id,
    block_type: data.block_type,
    lifecycle: lifecycleOf(data),
    handle_inputs: handleInputs,
    artifact: data.artifact ?? null,
    handle_outputs: handleOutputs,
    routing_decisions: data.routing_decisions ?? null,
    duration_ms: data.duration_ms ?? null,
    created_at: data.created_at,
    ...(data.started_at ? { started_at: data.started_at } : {}),
    ...(data.completed_at ? { completed_at: data.completed_at } : {}),
    handle_inputs_fingerprint: data.handle_inputs_fingerprint,
    workflow_draft_fingerprint: data.workflow_draft_fingerprint,
    block_execution_fingerprint: data.block_execution_fingerprint,
    execution_fingerprint: data.execution_fingerprint,
    block_config: data.block_config,
    source_step_id: data.source_step_id,
    available_iterations: data.available_iterations,
  };
}

type Page = { limit: number; order: 'asc' | 'desc'; before?: string | undefined; after?: string | undefined };

/** The executions of a run's block (or of every block of the run), newest first by default. */
export async function listBlockExecutions(p: Platform, caller: Caller, q: Page & { run_id: string; block_id?: string | undefined }) {
  requireCapability(caller, 'workflow:view');
  await readWorkflowRun(p, caller, q.run_id).catch(() => {
    throw new NotFound(`Workflow run ${q.run_id} not found (run_id)`);
  });
  const page = await p.store.listRecords<BlockExecutionData>(caller, blockExecutionKind.type, toListQuery(q, { source_run_id: q.run_id, block_id: q.block_id }));
  return { data: await Promise.all(page.items.map((r) => toWire(p, r.data))), list_metadata: { before: page.before, after: page.after } };
}

/** Deletes the executions of a run (their records, outputs, stored inputs and artifacts), stopping any still going. */
export async function deleteBlockExecutionsOfRun(p: Platform, scope: Scope, runId: string): Promise<void> {
  const executions: BlockExecutionData[] = [];
  let after: string | undefined;
  do {
    const page = await p.store.listRecords<BlockExecutionData>(scope, blockExecutionKind.type, { limit: 100, order: 'asc', after, attrs: { source_run_id: runId } });
    executions.push(...page.items.map((r) => r.data));
    after = page.after ?? undefined;
  } while (after);
  for (const data of executions) {
    const input = data._input as BlockExecutionInput | null;
    if (input?.handle_inputs_key) await p.blobs.delete(input.handle_inputs_key);
    if (data.artifact) {
      const artifact = await p.store.getRecord<{ _key: string }>(scope, ARTIFACT_TYPE, data.artifact.id);
      if (artifact) await p.blobs.delete(artifact.data._key);
      await p.store.deleteRecord(scope, ARTIFACT_TYPE, data.artifact.id);
    }
    await deleteRun(p, scope, blockExecutionKind, data.id);
  }
}
