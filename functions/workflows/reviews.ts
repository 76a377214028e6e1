/**
 * Human review of a block's output (API §9.3). When a block's `config.review.predicate` fires
 * (./predicates.ts), the run creates a review, whose first version is the model's output
 * (`parent_id` null), and waits in `awaiting_review`: its state machine sits on a task token, no
 * compute runs (./run-task.ts). People correct the output as new immutable versions
 * `{review_id, parent_id, snapshot, note}` (content-addressed: the same correction twice is one
 * version) and approve one version, or reject one with a reason.
 *
 * A decision is a conditional write `pending → approved|rejected` on the review: of two reviewers
 * deciding at once one is `accepted`, the other answered `conflict` (or `already_applied` when it
 * asked for exactly what was decided); nothing is applied twice. An accepted decision hands the
 * task token back to the state machine (`resume_status: resumed`); when none waits yet (the local
 * runtime restarted and has not resumed the run yet) the run picks the decision up when its
 * execution comes back (`pending`).
 */
import { createHash } from 'node:crypto';
import type { Caller } from '../auth/service.ts';
import { Conflict, Invalid, NotFound } from '../platform/errors.ts';
import { timestamp } from '../platform/ids.ts';
import { logger } from '../platform/logger.ts';
import { toListQuery } from '../platform/pagination.ts';
import type { Platform } from '../platform/platform.ts';
import type { Scope, StoredRecord } from '../platform/ports.ts';
import { emitEvent } from '../webhooks/events.ts';
import { canonicalJson } from './graph.ts';
import { WORKFLOW_RUN_TYPE } from './schema.ts';
import { requireCapability } from './service.ts';

export const REVIEW_TYPE = 'workflow_review';
export const REVIEW_VERSION_TYPE = 'workflow_review_version';
/** The store status of an undecided review (not `pending`: scans for unfinished runs look for that). */
const AWAITING = 'awaiting_decision';
const INLINE_BYTES = 48 * 1024;

export interface Actor {
  kind: 'model' | 'agent' | 'human';
  id: string;
  display_name: string;
}

export interface ReviewData {
  id: string;
  workflow_id: string;
  workflow_version_id: string;
  run_id: string;
  block_id: string;
  step_id: string;
  parent_step_id: string | null;
  iteration_key: string | null;
  block_type: string;
  triggered_by: Record<string, unknown>;
  created_at: string;
  decision: { verdict: 'approved' | 'rejected'; version_id: string; author: Actor; created_at: string; reason: string | null } | null;
  /** The version holding the model's output. */
  _model_version_id: string;
  /** The token the run's execution waits on, while it waits. */
  _task_token?: string | null;
  /** What the block is, for checking corrections: its JSON Schema, its categories. */
  _block_config?: Record<string, unknown>;
}

export interface ReviewVersionData {
  id: string;
  review_id: string;
  parent_id: string | null;
  author: Actor;
  snapshot?: Record<string, unknown>;
  _snapshot_key?: string | null;
  note: string | null;
  created_at: string;
}

/** 26 characters, like every other id's random part (ULID length). */
const short = (text: string) => createHash('sha256').update(text).digest('hex').slice(0, 26);
export const reviewIdOf = (stepId: string) => `rev_${short(stepId)}`;
/** Content-addressed: the review, the parent, the snapshot and the note make the id. */
const versionIdOf = (reviewId: string, parentId: string | null, snapshot: unknown, note: string | null) => `rvv_${short(canonicalJson([reviewId, parentId, snapshot, note]))}`;

export function reviewToWire(r: ReviewData) {
  const { _model_version_id, _task_token, _block_config, status: _status, ...wire } = r as ReviewData & { status?: string };
  return wire;
}

export async function readReview(p: Platform, scope: Scope, id: string): Promise<ReviewData> {
  const record = await p.store.getRecord<ReviewData>(scope, REVIEW_TYPE, id);
  if (!record) throw new NotFound(`Review ${id} not found`);
  return record.data;
}

async function putVersion(p: Platform, scope: Scope, review: ReviewData, parentId: string | null, snapshot: Record<string, unknown>, note: string | null, author: Actor): Promise<ReviewVersionData> {
  const id = versionIdOf(review.id, parentId, snapshot, note);
  const existing = await p.store.getRecord<ReviewVersionData>(scope, REVIEW_VERSION_TYPE, id);
  if (existing) return existing.data;
  const now = timestamp(p.clock.now());
  const data: ReviewVersionData = { id, review_id: review.id, parent_id: parentId, author, note, created_at: now };
  const json = JSON.stringify(snapshot);
  if (Buffer.byteLength(json) <= INLINE_BYTES) data.snapshot = snapshot;
  else {
    data._snapshot_key = `${scope.orgId}/${scope.envId}/workflow-runs/${review.run_id}/reviews/${id}.json`;
    await p.blobs.put(data._snapshot_key, json, 'application/json');
  }
  try {
    await p.store.putRecord(scope, { type: REVIEW_VERSION_TYPE, id, createdAt: now, attrs: { review_id: review.id }, data }, { ifAbsent: true });
  } catch (error) {
    if (!(error instanceof Conflict)) throw error; // the same version, written at the same moment
  }
  return data;
}

export async function snapshotOf(p: Platform, v: ReviewVersionData): Promise<Record<string, unknown>> {
  if (v.snapshot) return v.snapshot;
  const bytes = v._snapshot_key ? await p.blobs.get(v._snapshot_key) : undefined;
  return bytes ? JSON.parse(Buffer.from(bytes).toString('utf8')) : {};
}

async function versionToWire(p: Platform, v: ReviewVersionData) {
  return { id: v.id, review_id: v.review_id, parent_id: v.parent_id, author: v.author, snapshot: await snapshotOf(p, v), note: v.note, created_at: v.created_at };
}

/** The snapshot a block's output is reviewed as (the SDK: extract → the output object, classifier → {category}, split → {documents}). */
export function snapshotOfOutput(blockType: string, output: unknown): Record<string, unknown> {
  if (blockType === 'classifier') return { category: (output as { category?: unknown })?.category ?? null };
  if (blockType === 'split') return { documents: Array.isArray(output) ? output.map((d: Record<string, unknown>) => ({ name: d.name, pages: d.pages })) : [] };
  if (blockType === 'for_each') return { items: Array.isArray(output) ? output : [] };
  return typeof output === 'object' && output !== null && !Array.isArray(output) ? (output as Record<string, unknown>) : { value: output };
}

/** The block's output again from an approved snapshot (the inverse of snapshotOfOutput, over the model's output). */
export function outputOfSnapshot(blockType: string, snapshot: Record<string, unknown>, modelOutput: unknown): unknown {
  if (blockType === 'classifier') return { ...(modelOutput as Record<string, unknown>), category: snapshot.category };
  if (blockType === 'split') return snapshot.documents;
  if (blockType === 'for_each') return snapshot.items;
  return snapshot;
}

/** What a correction must look like for its block type ("the server validates the shape"). */
function snapshotProblem(review: ReviewData, snapshot: Record<string, unknown>): string | undefined {
  const pages = (v: unknown) => Array.isArray(v) && v.every((n, i) => Number.isInteger(n) && (n as number) > 0 && (i === 0 || (n as number) > (v[i - 1] as number)));
  switch (review.block_type) {
    case 'classifier': {
      const categories = Array.isArray(review._block_config?.categories) ? (review._block_config!.categories as Array<{ name?: unknown }>).map((c) => c.name) : [];
      if (typeof snapshot.category !== 'string') return 'a classifier snapshot is {"category": string}';
      if (categories.length && !categories.includes(snapshot.category)) return `"${snapshot.category}" is not a category of the block (${categories.join(', ')})`;
      return undefined;
    }
    case 'split':
      if (!Array.isArray(snapshot.documents) || !snapshot.documents.every((d) => typeof d?.name === 'string' && pages(d.pages))) return 'a split snapshot is {"documents": [{"name": string, "pages": [positive, increasing integers]}]}';
      return undefined;
    case 'for_each':
      if (!Array.isArray(snapshot.items)) return 'a for_each snapshot is {"items": [...]}';
      return undefined;
    default:
      return undefined;
  }
}

/** Opens the review of a step whose predicate fired: the review and its first version, the model's output. Idempotent. */
export async function openReview(
  p: Platform,
  scope: Scope,
  gate: { runId: string; workflowId: string; workflowVersionId: string; blockId: string; blockType: string; stepId: string; predicate: Record<string, unknown>; output: unknown; model: string; blockConfig: Record<string, unknown> },
): Promise<ReviewData> {
  const id = reviewIdOf(gate.stepId);
  const existing = await p.store.getRecord<ReviewData>(scope, REVIEW_TYPE, id);
  if (existing) return existing.data;
  const now = timestamp(p.clock.now());
  const review: ReviewData = {
    id,
    workflow_id: gate.workflowId,
    workflow_version_id: gate.workflowVersionId,
    run_id: gate.runId,
    block_id: gate.blockId,
    step_id: gate.stepId,
    parent_step_id: null,
    iteration_key: null,
    block_type: gate.blockType,
    triggered_by: gate.predicate,
    created_at: now,
    decision: null,
    _model_version_id: '',
    _task_token: null,
    _block_config: { categories: gate.blockConfig.categories, json_schema: gate.blockConfig.json_schema },
  };
  const model = await putVersion(p, scope, review, null, snapshotOfOutput(gate.blockType, gate.output), null, { kind: 'model', id: gate.model, display_name: gate.model });
  review._model_version_id = model.id;
  try {
    await p.store.putRecord(scope, { type: REVIEW_TYPE, id, createdAt: now, status: AWAITING, attrs: { workflow_id: gate.workflowId, run_id: gate.runId, block_id: gate.blockId, step_id: gate.stepId }, data: review }, { ifAbsent: true });
  } catch (error) {
    if (!(error instanceof Conflict)) throw error;
    return readReview(p, scope, id);
  }
  return review;
}

/** The snapshot the run goes on with: the approved version's. */
export async function approvedSnapshot(p: Platform, scope: Scope, review: ReviewData): Promise<Record<string, unknown>> {
  const version = await p.store.getRecord<ReviewVersionData>(scope, REVIEW_VERSION_TYPE, review.decision!.version_id);
  if (!version) throw new Error(`The approved version ${review.decision!.version_id} is missing`);
  return snapshotOf(p, version.data);
}

/** Notes the token the run's execution waits on; if the review was decided meanwhile, resumes it at once. */
export async function registerTaskToken(p: Platform, scope: Scope, reviewId: string, token: string): Promise<void> {
  await p.store.updateRecord<ReviewData>(scope, REVIEW_TYPE, reviewId, { _task_token: token });
  const review = await readReview(p, scope, reviewId);
  if (review.decision) await p.runner.sendTaskSuccess(token, { review_id: reviewId, verdict: review.decision.verdict });
}

// ── Routes ──────────────────────────────────────────────────────────────────────────────────────

type Page = { limit: number; order: 'asc' | 'desc'; before?: string | undefined; after?: string | undefined };

export async function listReviews(
  p: Platform,
  caller: Caller,
  q: Page & { workflow_id?: string | undefined; run_id?: string | undefined; block_id?: string | undefined; step_id?: string | undefined; iteration_key?: string | undefined; decision_status: 'pending' | 'approved' | 'rejected' | 'decided' | 'all' },
) {
  requireCapability(caller, 'workflow:view');
  const status = q.decision_status;
  const page = await p.store.listRecords<ReviewData>(caller, REVIEW_TYPE, {
    ...toListQuery(q, { workflow_id: q.workflow_id, run_id: q.run_id, block_id: q.block_id, step_id: q.step_id }),
    ...(status === 'pending' ? { status: AWAITING } : status === 'approved' || status === 'rejected' ? { status } : {}),
    where: (r: StoredRecord<ReviewData>) => (status !== 'decided' || r.status !== AWAITING) && (q.iteration_key === undefined || r.data.iteration_key === q.iteration_key),
  });
  return { data: page.items.map((r) => reviewToWire(r.data)), list_metadata: { before: page.before, after: page.after } };
}

export async function getReview(p: Platform, caller: Caller, id: string) {
  requireCapability(caller, 'workflow:view');
  return reviewToWire(await readReview(p, caller, id));
}

export async function listReviewVersions(p: Platform, caller: Caller, q: Page & { review_id: string }) {
  requireCapability(caller, 'workflow:view');
  await readReview(p, caller, q.review_id);
  const page = await p.store.listRecords<ReviewVersionData>(caller, REVIEW_VERSION_TYPE, toListQuery(q, { review_id: q.review_id }));
  return { data: await Promise.all(page.items.map((r) => versionToWire(p, r.data))), list_metadata: { before: page.before, after: page.after } };
}

export async function getReviewVersion(p: Platform, caller: Caller, id: string) {
  requireCapability(caller, 'workflow:view');
  const record = await p.store.getRecord<ReviewVersionData>(caller, REVIEW_VERSION_TYPE, id);
  if (!record) throw new NotFound(`Review version ${id} not found`);
  return versionToWire(p, record.data);
}

export function actorOf(caller: Caller): Actor {
  return { kind: 'human', id: caller.key.id, display_name: caller.key.name };
}

/** A correction: a new version derived from `parent_id` (a version of the same review), while the review is pending. */
export async function createReviewVersion(p: Platform, caller: Caller, body: { review_id: string; parent_id: string; snapshot: Record<string, unknown>; note?: string | undefined }) {
  requireCapability(caller, 'workflow:review');
  return addReviewVersion(p, caller, body, actorOf(caller));
}

/** createReviewVersion without the key's capability check (the dashboard checks the member's role). */
export async function addReviewVersion(p: Platform, caller: Scope, body: { review_id: string; parent_id: string; snapshot: Record<string, unknown>; note?: string | undefined }, author: Actor) {
  const review = await p.store.getRecord<ReviewData>(caller, REVIEW_TYPE, body.review_id);
  if (!review) throw Invalid.at(['body', 'review_id'], `Review ${body.review_id} not found`, 'value_error', body.review_id);
  const parent = await p.store.getRecord<ReviewVersionData>(caller, REVIEW_VERSION_TYPE, body.parent_id);
  if (!parent || parent.data.review_id !== body.review_id) throw Invalid.at(['body', 'parent_id'], `${body.parent_id} is not a version of review ${body.review_id}`, 'value_error', body.parent_id);
  if (review.data.decision) throw new Conflict(`Review ${body.review_id} was already ${review.data.decision.verdict}: it takes no more versions`);
  const problem = snapshotProblem(review.data, body.snapshot);
  if (problem) throw Invalid.at(['body', 'snapshot'], problem);
  return versionToWire(p, await putVersion(p, caller, review.data, body.parent_id, body.snapshot, body.note ?? null, author));
}

export type SubmissionStatus = 'accepted' | 'already_applied' | 'conflict';
export type ResumeStatus = 'resumed' | 'pending' | 'failed' | 'skipped';

/** Approves (or rejects, with a reason) one version of a review; see the top of this file. */
export async function decideReview(p: Platform, caller: Caller, id: string, decision: { verdict: 'approved' | 'rejected'; version_id: string; reason?: string | undefined }) {
  await readReview(p, caller, id);
  requireCapability(caller, 'workflow:review');
  return decide(p, caller, id, decision, actorOf(caller));
}

/** decideReview without the key's capability check (the dashboard checks the member's role). */
export async function decide(
  p: Platform,
  caller: Scope,
  id: string,
  decision: { verdict: 'approved' | 'rejected'; version_id: string; reason?: string | undefined },
  author: Actor,
): Promise<{ submission_status: SubmissionStatus; review: ReturnType<typeof reviewToWire>; resume_status: ResumeStatus; resume_error: string | null }> {
  const current = await readReview(p, caller, id);
  const version = await p.store.getRecord<ReviewVersionData>(caller, REVIEW_VERSION_TYPE, decision.version_id);
  if (!version || version.data.review_id !== id) throw Invalid.at(['body', 'version_id'], `${decision.version_id} is not a version of review ${id}`, 'value_error', decision.version_id);
  if (decision.verdict === 'rejected' && !decision.reason?.trim()) throw Invalid.at(['body', 'reason'], 'A rejection needs a reason', 'missing');

  const same = (r: ReviewData) => r.decision?.verdict === decision.verdict && r.decision.version_id === decision.version_id;
  let review = current;
  let submission: SubmissionStatus;
  if (current.decision) submission = same(current) ? 'already_applied' : 'conflict';
  else {
    const now = timestamp(p.clock.now());
    const moved = await p.store.moveStatus<ReviewData>(caller, REVIEW_TYPE, id, [AWAITING], decision.verdict, {
      decision: { verdict: decision.verdict, version_id: decision.version_id, author, created_at: now, reason: decision.verdict === 'rejected' ? decision.reason!.trim() : null },
    });
    if (moved) {
      review = moved.data;
      submission = 'accepted';
      try {
        await emitEvent(p, caller, { type: `workflow.review.${decision.verdict}`, data: reviewToWire(review) });
      } catch (error) {
        logger.error('review event could not be emitted', { review_id: id, error_type: (error as Error).name });
      }
    } else {
      review = await readReview(p, caller, id);
      submission = same(review) ? 'already_applied' : 'conflict';
    }
  }
  // Only the decision that was applied resumes the run; a replay or a conflicting one does nothing more.
  if (submission !== 'accepted') return { submission_status: submission, review: reviewToWire(review), resume_status: 'skipped', resume_error: null };
  const resume = await resumeRun(p, caller, review);
  return { submission_status: submission, review: reviewToWire(review), ...resume };
}

/** Hands the decision to the run waiting on it. */
async function resumeRun(p: Platform, scope: Scope, review: ReviewData): Promise<{ resume_status: ResumeStatus; resume_error: string | null }> {
  const run = await p.store.getRecord<{ lifecycle: { status: string } }>(scope, WORKFLOW_RUN_TYPE, review.run_id);
  if (!run || run.data.lifecycle.status !== 'awaiting_review') return { resume_status: 'skipped', resume_error: null };
  if (!review._task_token) return { resume_status: 'pending', resume_error: null };
  try {
    const sent = await p.runner.sendTaskSuccess(review._task_token, { review_id: review.id, verdict: review.decision!.verdict });
    return { resume_status: sent ? 'resumed' : 'pending', resume_error: null };
  } catch (error) {
    logger.error('resuming a reviewed run failed', { run_id: review.run_id, error_type: (error as Error).name });
    return { resume_status: 'failed', resume_error: `The run could not be resumed (${(error as Error).name}); it resumes when its execution comes back` };
  }
}

/** Deletes the reviews (and their versions) of a run. */
export async function deleteReviewsOfRun(p: Platform, scope: Scope, runId: string): Promise<void> {
  for (;;) {
    const page = await p.store.listRecords<ReviewData>(scope, REVIEW_TYPE, { limit: 100, order: 'asc', attrs: { run_id: runId } });
    for (const review of page.items) {
      for (;;) {
        const versions = await p.store.listRecords<ReviewVersionData>(scope, REVIEW_VERSION_TYPE, { limit: 100, order: 'asc', attrs: { review_id: review.id } });
        for (const v of versions.items) {
          if (v.data._snapshot_key) await p.blobs.delete(v.data._snapshot_key);
          await p.store.deleteRecord(scope, REVIEW_VERSION_TYPE, v.id);
        }
        if (!versions.after) break;
      }
      await p.store.deleteRecord(scope, REVIEW_TYPE, review.id);
    }
    if (!page.after) return;
  }
}
