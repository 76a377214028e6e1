/**
 * Human review on the dashboard: the queue of pending reviews of one environment, and one review
 * shown on its document's pages with each value boxed where the model read it, editable in place,
 * to approve (as corrected) or reject with a reason. Decisions go through the workflows feature's
 * review service (functions/workflows/reviews.ts): a correction is a new version, the approval the
 * same conditional write as the API's, so a reviewer here and a program there cannot both win.
 * Owners and admins review in both environments, developers in test; viewers only look.
 */
import { getFile } from '../files/service.ts';
import type { File } from '../files/schema.ts';
import { pairWithSources } from '../extractions/anchors.ts';
import { Forbidden, Invalid } from '../platform/errors.ts';
import type { Platform } from '../platform/platform.ts';
import type { Scope } from '../platform/ports.ts';
import type { Membership } from '../members/members.ts';
import { addReviewVersion, decide, readReview, REVIEW_TYPE, snapshotOf, REVIEW_VERSION_TYPE, type Actor, type ReviewData, type ReviewVersionData } from '../workflows/reviews.ts';
import { WORKFLOW_RUN_TYPE } from '../workflows/schema.ts';
import { readArtifact, STEP_TYPE, type StepData } from '../workflows/steps.ts';
import type { Environment } from './http.ts';
import { sourcedValues, type SourcedValue } from './run-pages.ts';
import { previewOf, type Preview } from './runs.ts';

export function canReview(membership: Membership, env: Environment): boolean {
  return membership.role === 'owner' || membership.role === 'admin' || (membership.role === 'developer' && env === 'test');
}

/** Pending reviews whose run still waits (a run cancelled while it waited leaves its review undecided), oldest first. */
export async function reviewQueue(p: Platform, scope: Scope, after?: string) {
  const page = await p.store.listRecords<ReviewData>(scope, REVIEW_TYPE, { limit: 50, order: 'asc', status: 'awaiting_decision', ...(after ? { after } : {}) });
  const waiting = await Promise.all(page.items.map(async (r) => (await p.store.getRecord<{ lifecycle: { status: string } }>(scope, WORKFLOW_RUN_TYPE, r.data.run_id))?.data.lifecycle.status === 'awaiting_review'));
  return { rows: page.items.filter((_, i) => waiting[i]).map((r) => r.data), next: page.after };
}

/** A leaf of the snapshot: its path, its value, and the box where the model read it (if it did). */
export interface ReviewValue extends SourcedValue {
  /** The JSON type of the model's value, so an edited text goes back as that type. */
  type: 'string' | 'number' | 'boolean' | 'null' | 'other';
}

export interface ReviewView {
  review: ReviewData;
  head: ReviewVersionData;
  snapshot: Record<string, unknown>;
  /** The snapshot's leaves (extractions), or null: the snapshot is edited as JSON (classifier, split). */
  values: ReviewValue[] | null;
  file: File | null;
  preview: Preview;
}

function leaves(value: unknown, path = ''): Array<{ path: string; value: unknown }> {
  if (Array.isArray(value)) return value.flatMap((v, i) => leaves(v, `${path}[${i}]`));
  if (value && typeof value === 'object') return Object.entries(value).flatMap(([k, v]) => leaves(v, path ? `${path}.${k}` : k));
  return [{ path, value }];
}

const typeOf = (v: unknown): ReviewValue['type'] => (v === null || v === undefined ? 'null' : typeof v === 'string' ? 'string' : typeof v === 'number' ? 'number' : typeof v === 'boolean' ? 'boolean' : 'other');

async function headOf(p: Platform, scope: Scope, reviewId: string): Promise<ReviewVersionData> {
  const page = await p.store.listRecords<ReviewVersionData>(scope, REVIEW_VERSION_TYPE, { limit: 1, order: 'desc', attrs: { review_id: reviewId } });
  const head = page.items[0]?.data;
  if (!head) throw new Invalid([{ loc: ['query', 'id'], msg: `Review ${reviewId} has no version`, type: 'value_error' }]);
  return head;
}

export async function reviewView(p: Platform, scope: Scope, id: string): Promise<ReviewView> {
  const review = await readReview(p, scope, id);
  const head = await headOf(p, scope, id);
  const snapshot = await snapshotOf(p, head);
  const step = (await p.store.getRecord<StepData>(scope, STEP_TYPE, review.step_id))?.data;
  const artifact = step?.artifact ? await readArtifact(p, scope, step.artifact.id) : undefined;
  const fileRef = artifact?.wire.file as { id?: string } | undefined;
  const file = fileRef?.id ? await getFile(p, scope, fileRef.id).catch(() => null) : null;
  let values: ReviewValue[] | null = null;
  if (review.block_type === 'extract') {
    const boxes = new Map(sourcedValues(pairWithSources(artifact?.wire.output ?? {}, artifact?.hidden.sources ?? null)).map((v) => [v.path, v]));
    values = leaves(snapshot).map(({ path, value }) => ({ path, value, box: boxes.get(path)?.box ?? null, where: boxes.get(path)?.where ?? null, type: typeOf(value) }));
  }
  return { review, head, snapshot, values, file, preview: file ? previewOf(file) : null };
}

/** The value typed in the form, back to the model value's type (an empty field is null). */
function typed(text: string, type: ReviewValue['type']): unknown {
  const t = text.trim();
  if (t === '') return null;
  if (type === 'number' && /^-?\d+(\.\d+)?$/.test(t)) return Number(t);
  if (type === 'boolean' && (t === 'true' || t === 'false')) return t === 'true';
  return text;
}

function setAt(target: Record<string, unknown>, path: string, value: unknown): void {
  const parts = path.replace(/\[(\d+)\]/g, '.$1').split('.');
  let node: Record<string, unknown> | unknown[] = target;
  for (const [i, part] of parts.entries()) {
    const key = Array.isArray(node) ? Number(part) : part;
    if (i === parts.length - 1) (node as Record<string | number, unknown>)[key] = value;
    else node = (node as Record<string | number, unknown>)[key] as Record<string, unknown>;
  }
}

/** Approves (what the form holds, as a new version when it differs) or rejects (with a reason). */
export async function decideFromForm(p: Platform, scope: Scope, membership: Membership, env: Environment, author: Actor, form: URLSearchParams) {
  if (!canReview(membership, env)) throw new Forbidden(`A ${membership.role} cannot review in the ${env} environment`);
  const id = form.get('id') ?? '';
  const view = await reviewView(p, scope, id);
  const action = form.get('action');
  if (action === 'reject') {
    const reason = (form.get('reason') ?? '').trim();
    if (!reason) throw Invalid.at(['body', 'reason'], 'A rejection needs a reason');
    return decide(p, scope, id, { verdict: 'rejected', version_id: view.head.id, reason }, author);
  }
  if (action !== 'approve') throw Invalid.at(['body', 'action'], 'action must be approve or reject');
  let snapshot: Record<string, unknown>;
  if (view.values) {
    snapshot = structuredClone(view.snapshot);
    for (const v of view.values) {
      const given = form.get(`v:${v.path}`);
      if (given !== null && given !== (v.value === null ? '' : String(v.value))) setAt(snapshot, v.path, typed(given, v.type));
    }
  } else {
    try {
      snapshot = JSON.parse(form.get('snapshot') ?? JSON.stringify(view.snapshot));
    } catch (error) {
      throw Invalid.at(['body', 'snapshot'], `The snapshot is not JSON: ${(error as Error).message}`);
    }
  }
  let versionId = view.head.id;
  if (JSON.stringify(snapshot) !== JSON.stringify(view.snapshot)) {
    const note = (form.get('note') ?? '').trim();
    versionId = (await addReviewVersion(p, scope, { review_id: id, parent_id: view.head.id, snapshot, ...(note ? { note } : {}) }, author)).id;
  }
  return decide(p, scope, id, { verdict: 'approved', version_id: versionId }, author);
}
