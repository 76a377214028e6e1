/**
 * Steps and artifacts of workflow runs (API §9.3), as the Retab SDK reads them: one step per block
 * (per loop iteration inside a container) with its lifecycle, what reached it (`handle_inputs`),
 * what it passed on (`handle_outputs`) and a pointer to its artifact — the persisted record of what
 * it did, typed by `operation` (an extraction, a split, a conditional evaluation, a function
 * invocation...). Step and artifact ids are derived from the run, the block and the iteration, so
 * a retried or resumed execution writes the same records again instead of new ones.
 *
 * Records keep small fields; payloads (handle data, artifact bodies) larger than INLINE_BYTES live
 * in storage beside the run.
 */
import { createHash } from 'node:crypto';
import type { Caller } from '../auth/service.ts';
import { BadRequest, NotFound } from '../platform/errors.ts';
import { timestamp } from '../platform/ids.ts';
import { toListQuery } from '../platform/pagination.ts';
import type { Platform } from '../platform/platform.ts';
import type { Scope, StoredRecord } from '../platform/ports.ts';
import type { FileRef } from '../platform/schemas.ts';
import { requireCapability } from './service.ts';

export const STEP_TYPE = 'workflow_step';
export const ARTIFACT_TYPE = 'workflow_artifact';
const INLINE_BYTES = 48 * 1024;

export type StepLifecycle =
  | { status: 'pending' | 'queued' | 'running' | 'completed' | 'awaiting_review' }
  | { status: 'error'; message: string; stage?: string; category?: string; details?: Record<string, unknown> }
  | { status: 'skipped' | 'cancelled'; reason: string };

export type HandlePayload = { type: 'json'; data: unknown } | { type: 'file'; document: FileRef };
export type Handles = Record<string, HandlePayload>;

export interface StepData {
  step_id: string;
  run_id: string;
  workflow_id: string;
  block_id: string;
  block_type: string;
  block_label: string;
  lifecycle: StepLifecycle;
  started_at: string | null;
  completed_at: string | null;
  model: string | null;
  loop_containers: Array<{ container_id: string; iteration: number; is_parallel: boolean; parallel_item_index: number | null }>;
  created_at: string;
  artifact: { operation: string; id: string } | null;
  retry_count: number;
  /** Handles inline, or the storage key holding them. */
  _handles?: { handle_inputs: Handles; handle_outputs: Handles } | null;
  _handles_key?: string | null;
  /** The output handle taken (a classifier's category, a conditional's branch). */
  _handle?: string | null;
  /** The review gating this step, if any. */
  _review_id?: string | null;
}

/** 26 characters, like every other id's random part (ULID length). */
const short = (text: string, length = 26) => createHash('sha256').update(text).digest('hex').slice(0, length);
export const stepIdOf = (runId: string, blockId: string, iteration = '') => `stp_${short(`${runId}\u0000${blockId}\u0000${iteration}`)}`;
export const artifactIdOf = (stepId: string, operation: string) => `art_${short(`${stepId}\u0000${operation}`)}`;
const runPrefix = (scope: Scope, runId: string) => `${scope.orgId}/${scope.envId}/workflow-runs/${runId}`;

/** Writes (or rewrites) a step; the handles go inline or to storage by size. */
export async function putStep(p: Platform, scope: Scope, step: StepData, handles: { handle_inputs: Handles; handle_outputs: Handles }): Promise<void> {
  const json = JSON.stringify(handles);
  const data: StepData = { ...step, _handles: null, _handles_key: null };
  if (Buffer.byteLength(json) <= INLINE_BYTES) data._handles = handles;
  else {
    data._handles_key = `${runPrefix(scope, step.run_id)}/steps/${step.step_id}.json`;
    await p.blobs.put(data._handles_key, json, 'application/json');
  }
  await p.store.putRecord(scope, {
    type: STEP_TYPE,
    id: step.step_id,
    createdAt: step.created_at,
    // No store status: a step is never a run that the sweeper or the local recovery should look at.
    attrs: { run_id: step.run_id, workflow_id: step.workflow_id, block_id: step.block_id, block_type: step.block_type },
    data,
  });
}

export async function readHandles(p: Platform, step: StepData): Promise<{ handle_inputs: Handles; handle_outputs: Handles }> {
  if (step._handles) return step._handles;
  if (step._handles_key) {
    const bytes = await p.blobs.get(step._handles_key);
    if (bytes) return JSON.parse(Buffer.from(bytes).toString('utf8'));
  }
  return { handle_inputs: {}, handle_outputs: {} };
}

/** Every step of a run (oldest first). */
export async function stepsOfRun(p: Platform, scope: Scope, runId: string): Promise<StepData[]> {
  const steps: StepData[] = [];
  let after: string | undefined;
  do {
    const page = await p.store.listRecords<StepData>(scope, STEP_TYPE, { limit: 100, order: 'asc', after, attrs: { run_id: runId } });
    steps.push(...page.items.map((r) => r.data));
    after = page.after ?? undefined;
  } while (after);
  return steps;
}

export async function stepToWire(p: Platform, step: StepData) {
  const { _handles, _handles_key, _handle, _review_id, ...wire } = step;
  return { ...wire, ...(await readHandles(p, step)) };
}

// ── Artifacts ───────────────────────────────────────────────────────────────────────────────────

interface ArtifactRecord {
  id: string;
  operation: string;
  run_id: string;
  step_id: string;
  block_id: string;
  created_at: string;
  _key: string;
}

/** Stores an artifact (its whole body in storage; `hidden` fields are kept there but never answered). */
export async function putArtifact(p: Platform, scope: Scope, ref: { id: string; operation: string; run_id: string; step_id: string; block_id: string }, body: Record<string, unknown>, hidden: Record<string, unknown> = {}): Promise<void> {
  const now = timestamp(p.clock.now());
  const key = `${runPrefix(scope, ref.run_id)}/artifacts/${ref.id}.json`;
  const wire = { ...body, operation: ref.operation, id: ref.id, run_id: ref.run_id, step_id: ref.step_id, created_at: body.created_at ?? now };
  await p.blobs.put(key, JSON.stringify({ wire, hidden }), 'application/json');
  await p.store.putRecord<ArtifactRecord>(scope, {
    type: ARTIFACT_TYPE,
    id: ref.id,
    createdAt: now,
    attrs: { run_id: ref.run_id, step_id: ref.step_id, block_id: ref.block_id, operation: ref.operation },
    data: { ...ref, created_at: now, _key: key },
  });
}

/** An artifact's wire body and its hidden fields (e.g. an extraction's sources, for the dashboard). */
export async function readArtifact(p: Platform, scope: Scope, id: string): Promise<{ wire: Record<string, unknown>; hidden: Record<string, unknown>; record: ArtifactRecord } | undefined> {
  const record = await p.store.getRecord<ArtifactRecord>(scope, ARTIFACT_TYPE, id);
  if (!record) return undefined;
  const bytes = await p.blobs.get(record.data._key);
  if (!bytes) return undefined;
  const body = JSON.parse(Buffer.from(bytes).toString('utf8')) as { wire: Record<string, unknown>; hidden: Record<string, unknown> };
  return { ...body, record: record.data };
}

// ── Reads (routes) ──────────────────────────────────────────────────────────────────────────────

type Page = { limit: number; order: 'asc' | 'desc'; before?: string | undefined; after?: string | undefined };

const asList = (v: string | string[] | undefined) => (v === undefined ? [] : (Array.isArray(v) ? v : [v]).flatMap((x) => x.split(',')).filter(Boolean));

export async function listSteps(p: Platform, caller: Caller, q: Page & { run_id?: string | undefined; workflow_id?: string | undefined; block_id?: string | undefined; step_id?: string | undefined; block_type?: string | string[] | undefined; status?: string | string[] | undefined }) {
  requireCapability(caller, 'workflow:view');
  if (!q.run_id && !q.workflow_id) throw new BadRequest('List steps of one run (run_id) or one workflow (workflow_id)');
  const types = asList(q.block_type);
  const statuses = asList(q.status);
  const page = await p.store.listRecords<StepData>(caller, STEP_TYPE, {
    ...toListQuery({ limit: q.limit, order: q.order, before: q.before, after: q.after }, { run_id: q.run_id, workflow_id: q.workflow_id, block_id: q.block_id }),
    where: (r: StoredRecord<StepData>) => (!q.step_id || r.id === q.step_id) && (!types.length || types.includes(r.data.block_type)) && (!statuses.length || statuses.includes(r.data.lifecycle.status)),
  });
  return { data: await Promise.all(page.items.map((r) => stepToWire(p, r.data))), list_metadata: { before: page.before, after: page.after } };
}

export async function getStep(p: Platform, caller: Caller, stepId: string, runId: string | undefined) {
  requireCapability(caller, 'workflow:view');
  const record = await p.store.getRecord<StepData>(caller, STEP_TYPE, stepId);
  if (!record || (runId !== undefined && record.data.run_id !== runId)) throw new NotFound(`Step ${stepId} not found`);
  return stepToWire(p, record.data);
}

export async function listArtifacts(p: Platform, caller: Caller, q: Page & { run_id?: string | undefined; operation?: string | undefined; block_id?: string | undefined; step_id?: string | undefined }) {
  requireCapability(caller, 'workflow:view');
  // As Retab: artifacts are listed within one run (or one step), never across the environment.
  if (!q.run_id && !q.step_id) throw new BadRequest('List the artifacts of one run (run_id) or one step (step_id)');
  const page = await p.store.listRecords<ArtifactRecord>(caller, ARTIFACT_TYPE, toListQuery(q, { run_id: q.run_id, step_id: q.step_id, block_id: q.block_id, operation: q.operation }));
  const data = await Promise.all(page.items.map(async (r) => (await readArtifact(p, caller, r.id))?.wire ?? { id: r.id, operation: r.data.operation }));
  return { data, list_metadata: { before: page.before, after: page.after } };
}

export async function getArtifact(p: Platform, caller: Caller, id: string) {
  requireCapability(caller, 'workflow:view');
  const artifact = await readArtifact(p, caller, id);
  if (!artifact) throw new NotFound(`Artifact ${id} not found`);
  return artifact.wire;
}

/** Deletes the steps and artifacts of a run (their stored payloads go with the run's storage prefix). */
export async function deleteStepsOfRun(p: Platform, scope: Scope, runId: string): Promise<void> {
  for (const step of await stepsOfRun(p, scope, runId)) {
    if (step._handles_key) await p.blobs.delete(step._handles_key);
    if (step.artifact) {
      const artifact = await p.store.getRecord<ArtifactRecord>(scope, ARTIFACT_TYPE, step.artifact.id);
      if (artifact) await p.blobs.delete(artifact.data._key);
    }
    await p.store.deleteRecord(scope, STEP_TYPE, step.step_id);
  }
  for (;;) {
    const page = await p.store.listRecords<ArtifactRecord>(scope, ARTIFACT_TYPE, { limit: 100, order: 'asc', attrs: { run_id: runId } });
    for (const item of page.items) {
      await p.blobs.delete(item.data._key);
      await p.store.deleteRecord(scope, ARTIFACT_TYPE, item.id);
    }
    if (!page.after) return;
  }
}
