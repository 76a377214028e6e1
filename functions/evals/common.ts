/**
 * What evals and experiments share: the lifecycle names of the SDK over the run kit's statuses, the
 * target block of a workflow's draft, handle inputs (resolved, stored, captured from a workflow
 * run's step) and fingerprints.
 */
import { createHash } from 'node:crypto';
import type { Caller } from '../auth/service.ts';
import { fileRefOf, resolveDocument } from '../files/service.ts';
import { Invalid, NotFound } from '../platform/errors.ts';
import type { Platform } from '../platform/platform.ts';
import type { Scope } from '../platform/ports.ts';
import type { DocumentInput, RunStatus } from '../platform/schemas.ts';
import { canonicalJson, configHash, draftGraph, type Graph, type GraphBlock } from '../workflows/graph.ts';
import { readWorkflow, requireCapability, type WorkflowData } from '../workflows/service.ts';
import { readHandles, STEP_TYPE, type StepData } from '../workflows/steps.ts';
import type { HandleInputs, LifecycleFilter, StoredHandles } from './schema.ts';

export const sha = (text: string, length = 64) => createHash('sha256').update(text).digest('hex').slice(0, length);
export const fingerprintOf = (value: unknown) => `sha256:${sha(canonicalJson(value))}`;

// ── Lifecycles ──────────────────────────────────────────────────────────────────────────────────

export type Lifecycle =
  | { status: 'pending' | 'queued' | 'running' | 'completed' }
  | { status: 'error'; message: string; details: Record<string, unknown> | null }
  | { status: 'cancelled'; reason: string | null };
export type LifecycleStatus = Lifecycle['status'];

/** The run kit's status as the SDK names it. */
export function lifecycleStatusOf(status: RunStatus): LifecycleStatus {
  return status === 'in_progress' ? 'running' : status === 'failed' ? 'error' : status;
}

/** A run's lifecycle from its run kit record (status, error). */
export function lifecycleOfRun(status: RunStatus, error: unknown): Lifecycle {
  const s = lifecycleStatusOf(status);
  if (s === 'error') {
    const e = (error ?? {}) as { code?: string; message?: string; details?: Record<string, unknown> | null };
    return { status: 'error', message: e.message ?? '(no message)', details: { message: e.message ?? null, error_code: e.code ?? null, context: e.details ?? null } };
  }
  if (s === 'cancelled') return { status: 'cancelled', reason: 'Cancelled by the API' };
  return { status: s };
}

/** A list filter's lifecycle name as the run kit's status. */
export function runStatusOfFilter(filter: LifecycleFilter): RunStatus {
  return filter === 'running' ? 'in_progress' : filter === 'error' || filter === 'failed' ? 'failed' : filter;
}

export const TERMINAL_LIFECYCLES: readonly LifecycleStatus[] = ['completed', 'error', 'cancelled'];

export interface Timing {
  created_at: string;
  started_at: string | null;
  completed_at: string | null;
  duration_ms: number | null;
}

export function timingOf(created: string, started: string | null | undefined, completed: string | null | undefined): Timing {
  const duration = started && completed ? Math.max(0, Date.parse(completed) - Date.parse(started)) : null;
  return { created_at: created, started_at: started ?? null, completed_at: completed ?? null, duration_ms: duration };
}

// ── The workflow and its blocks ─────────────────────────────────────────────────────────────────

/** The workflow named in a body or query: 404 `Workflow not found` as on every workflow route. */
export async function workflowFor(p: Platform, caller: Caller, workflowId: string, capability: 'workflow:view' | 'workflow:edit' | 'workflow:run'): Promise<{ workflow: WorkflowData; graph: Graph }> {
  const workflow = await readWorkflow(p, caller, workflowId);
  requireCapability(caller, capability);
  return { workflow, graph: draftGraph(workflow) };
}

/** The draft of an eval's or experiment's workflow, or undefined when the workflow is gone (reads then show it broken). */
export async function draftIfAny(p: Platform, scope: Scope, workflowId: string): Promise<Graph | undefined> {
  try {
    return draftGraph(await readWorkflow(p, scope, workflowId));
  } catch (error) {
    if (error instanceof NotFound) return undefined;
    throw error;
  }
}

/** The block of a draft graph, or a 422 at `loc` naming the blocks there are. */
export function blockOf(graph: Graph, blockId: string, loc: Array<string | number>, workflowId: string): GraphBlock {
  const block = graph.blocks.find((b) => b.id === blockId);
  if (!block) {
    const ids = graph.blocks.filter((b) => b.type !== 'note').map((b) => `${b.id} (${b.type})`);
    throw Invalid.at(loc, `Block ${blockId} is not in the draft of workflow ${workflowId} (its blocks: ${ids.join(', ') || 'none'})`, 'value_error', blockId);
  }
  return block;
}

/** Blocks that take a document (they need a file handle input). */
export const DOCUMENT_BLOCKS = ['parse', 'split', 'classifier', 'extract', 'edit'];

/** The output handles a block produces: `output`, and `document` when it passes a document on. */
export function outputHandlesOf(blockType: string): string[] {
  return DOCUMENT_BLOCKS.includes(blockType) || ['function', 'conditional', 'merge_dicts'].includes(blockType) ? ['output', 'document'] : ['output'];
}

/** What an eval or experiment result records of the block it ran: its type and config. */
export const blockExecutionFingerprint = (block: { type: string; config: Record<string, unknown> }) => configHash({ type: block.type, config: block.config });

// ── Handle inputs ───────────────────────────────────────────────────────────────────────────────

/** Manual inputs are kept in the record: up to this much JSON. */
export const MAX_INPUTS_BYTES = 256 * 1024;

/**
 * Handle inputs of a request, stored: documents resolved to FileRefs of the caller's environment (a
 * data URL is stored as a File), JSON kept as given. The block must get what it reads: a document
 * block a `file` handle.
 */
export async function storedHandles(p: Platform, scope: Scope, inputs: HandleInputs, loc: Array<string | number>, block: GraphBlock): Promise<StoredHandles> {
  const out: StoredHandles = {};
  for (const [name, handle] of Object.entries(inputs)) {
    if (handle.type === 'file') {
      const { file } = await resolveDocument(p, scope, handle.document as DocumentInput, [...loc, name, 'document']);
      out[name] = { type: 'file', document: fileRefOf(file) };
    } else out[name] = { type: 'json', data: handle.data ?? null };
  }
  checkInputsFit(out, block, loc);
  return out;
}

export function checkInputsFit(inputs: StoredHandles, block: GraphBlock, loc: Array<string | number>): void {
  if (DOCUMENT_BLOCKS.includes(block.type) && !Object.values(inputs).some((h) => h.type === 'file')) {
    throw Invalid.at(loc, `Block ${block.id} (${block.type}) reads a document: give a "document" handle input {"type": "file", "document": {"id": "file_...", ...}}`, 'missing');
  }
  if (Buffer.byteLength(JSON.stringify(inputs)) > MAX_INPUTS_BYTES) {
    throw Invalid.at(loc, `The handle inputs are over ${MAX_INPUTS_BYTES / 1024} KB of JSON: put large inputs in a file (POST /v1/files/upload) and pass it as a file handle`, 'too_long');
  }
}

/**
 * The handle inputs a block received in a workflow run: its step in that run (`step_id`, or the
 * run's step of `blockId`). 422 at `loc` when the run or step is not there.
 */
export async function capturedHandles(p: Platform, scope: Scope, workflowId: string, blockId: string, runId: string, stepId: string | null | undefined, loc: Array<string | number>): Promise<{ handles: StoredHandles; stepId: string }> {
  let step: StepData | undefined;
  if (stepId) {
    const record = await p.store.getRecord<StepData>(scope, STEP_TYPE, stepId);
    step = record?.data;
    if (!step || step.run_id !== runId) throw Invalid.at([...loc, 'step_id'], `Step ${stepId} is not a step of workflow run ${runId}`, 'value_error', stepId);
    if (step.block_id !== blockId) throw Invalid.at([...loc, 'step_id'], `Step ${stepId} ran block ${step.block_id}, not ${blockId}`, 'value_error', stepId);
  } else {
    const page = await p.store.listRecords<StepData>(scope, STEP_TYPE, { limit: 100, order: 'asc', attrs: { run_id: runId, block_id: blockId } });
    const steps = page.items.map((r) => r.data);
    if (steps.length === 0) {
      const anyStep = await p.store.listRecords<StepData>(scope, STEP_TYPE, { limit: 1, order: 'asc', attrs: { run_id: runId } });
      if (anyStep.items.length === 0) throw Invalid.at([...loc, 'run_id'], `Workflow run ${runId} not found (or it ran no block yet)`, 'value_error', runId);
      throw Invalid.at([...loc, 'run_id'], `Workflow run ${runId} has no step of block ${blockId}`, 'value_error', runId);
    }
    step = steps.find((s) => s.lifecycle.status === 'completed') ?? steps[0]!;
  }
  if (step.workflow_id !== workflowId) throw Invalid.at([...loc, 'run_id'], `Workflow run ${runId} is a run of another workflow (${step.workflow_id})`, 'value_error', runId);
  const { handle_inputs } = await readHandles(p, step);
  if (Object.keys(handle_inputs).length === 0) throw Invalid.at([...loc, 'run_id'], `The step of block ${blockId} in run ${runId} received no inputs (it was skipped)`, 'value_error', runId);
  return { handles: handle_inputs as StoredHandles, stepId: step.step_id };
}

/** What a block run alone receives, from handle inputs: the document, the input, several sources. */
export function entryOf(handles: StoredHandles): { input: unknown; document?: { id: string; filename: string; mime_type: string }; sources?: Array<readonly [string, unknown]> } {
  const file = handles.document?.type === 'file' ? handles.document : Object.values(handles).find((h) => h.type === 'file');
  const document = file?.type === 'file' ? file.document : undefined;
  const sources = Object.entries(handles)
    .filter(([name, h]) => name.startsWith('input-') && h.type === 'json')
    .map(([name, h]) => [name.slice('input-'.length), (h as { data: unknown }).data] as const);
  const single = handles.input?.type === 'json' ? handles.input.data : undefined;
  const otherJson = Object.values(handles).find((h) => h.type === 'json');
  const input = single !== undefined ? single : sources.length > 0 ? Object.fromEntries(sources) : otherJson?.type === 'json' ? otherJson.data : (document ?? null);
  return { input, ...(document ? { document } : {}), ...(sources.length > 0 ? { sources } : {}) };
}

export const notFound = (resource: string, id: string) => NotFound.of(resource, id);
