/**
 * Runs as the dashboard shows them: every kind of run of one environment in one list (newest
 * first, with status filter and file-name search), and one run with what its page draws — the file
 * to show and what the kind's own pages draw over it (./run-pages.ts: an extraction's located
 * values, an edit's fields, a parse's layout). Reads go through the run service (no second copy).
 */
import { dashboardRuns } from '../features.ts';
import { blobKeyOf, getFile } from '../files/service.ts';
import type { File } from '../files/schema.ts';
import type { PageLayout } from '../parses/layout.ts';
import type { SourcedValue } from './run-pages.ts';
import { Forbidden, Invalid, NotFound, PayloadTooLarge } from '../platform/errors.ts';
import type { Membership } from '../members/members.ts';
import type { Platform } from '../platform/platform.ts';
import type { Scope, StoredRecord } from '../platform/ports.ts';
import { RunStatus } from '../platform/schemas.ts';
import type { RunKind } from '../runs/kinds.ts';
import { cancelRun, deleteRun, getRun, type RunData } from '../runs/service.ts';

/** The kinds of run the dashboard lists (the feature list's runs marked `listed`). */
export const RUN_KINDS: readonly RunKind[] = dashboardRuns.map((r) => r.kind);

export function runKind(name: string | null): RunKind {
  const kind = RUN_KINDS.find((k) => k.name === name);
  if (!kind) throw Invalid.at(['query', 'kind'], `kind must be one of ${RUN_KINDS.map((k) => k.name).join(', ')}`);
  return kind;
}

export interface RunRow {
  kind: string;
  id: string;
  status: string;
  filename: string;
  model: string;
  created_at: string;
}

export interface RunFilter {
  kind?: string | undefined;
  status?: string | undefined;
  search?: string | undefined;
  /** Runs created strictly before this instant (the next page). */
  before?: string | undefined;
  limit: number;
}

function rowOf(kind: RunKind, record: StoredRecord<RunData>): RunRow {
  const data = record.data;
  const file = (data.file ?? (Array.isArray(data.files) ? data.files[0] : undefined)) as { filename?: string } | undefined;
  return { kind: kind.name, id: record.id, status: record.status ?? data.status, filename: record.filename ?? file?.filename ?? '', model: String(data.model ?? ''), created_at: record.createdAt };
}

/** Newest first across the kinds asked for; `next` is the `before` of the following page. */
export async function listAllRuns(p: Platform, scope: Scope, filter: RunFilter): Promise<{ rows: RunRow[]; next: string | null }> {
  const kinds = filter.kind ? [runKind(filter.kind)] : RUN_KINDS;
  if (filter.status && !RunStatus.safeParse(filter.status).success) throw Invalid.at(['query', 'status'], 'unknown status');
  if (filter.before && Number.isNaN(Date.parse(filter.before))) throw Invalid.at(['query', 'before'], 'before must be a timestamp');
  const toTime = filter.before ? new Date(Date.parse(filter.before) - 1).toISOString() : undefined;
  const pages = await Promise.all(
    kinds.map(async (kind) => {
      const page = await p.store.listRecords<RunData>(scope, kind.type, {
        limit: filter.limit + 1,
        order: 'desc',
        ...(filter.status ? { status: filter.status } : {}),
        ...(filter.search ? { filenameContains: filter.search } : {}),
        ...(toTime ? { toTime } : {}),
      });
      return page.items.map((item) => rowOf(kind, item));
    }),
  );
  const all = pages.flat().sort((a, b) => b.created_at.localeCompare(a.created_at) || b.id.localeCompare(a.id));
  const rows = all.slice(0, filter.limit);
  return { rows, next: all.length > filter.limit ? rows[rows.length - 1]!.created_at : null };
}

export type Preview = 'pdf' | 'image' | null;
const IMAGE_MIMES = new Set(['image/png', 'image/jpeg', 'image/webp', 'image/gif']);
/** What the browser can draw itself: PDFs (with pdf.js) and common images; up to what one response carries. */
export const PREVIEW_LIMIT_BYTES = 4 * 1024 * 1024;

export function previewOf(file: File): Preview {
  if (file.size_bytes > PREVIEW_LIMIT_BYTES) return null;
  if (file.mime_type === 'application/pdf') return 'pdf';
  return IMAGE_MIMES.has(file.mime_type) ? 'image' : null;
}

export interface RunView {
  kind: RunKind;
  run: Record<string, unknown>;
  file: File | null;
  preview: Preview;
  values: SourcedValue[] | null;
  /** A completed parse's words and tables boxed on its pages (empty when it kept none). */
  layout: PageLayout[] | null;
}

export async function runView(p: Platform, scope: Scope, kindName: string | null, id: string): Promise<RunView> {
  const kind = runKind(kindName);
  const run = await getRun(p, scope, kind, id, true);
  const ref = (run.file ?? (Array.isArray(run.files) ? run.files[0] : undefined)) as { id?: string } | undefined;
  const file = ref?.id ? await getFile(p, scope, ref.id).catch(() => null) : null;
  // What the kind's own pages draw over a completed run's file (an extraction's values, an edit's fields, a parse's layout).
  const pages = await dashboardRuns.find((r) => r.kind === kind)?.pages?.();
  const drawn = run.status === 'completed' && pages?.drawn ? await pages.drawn(p, scope, run) : {};
  return { kind, run, file, preview: file ? previewOf(file) : null, values: drawn.values ?? null, layout: drawn.layout ?? null };
}

/** The bytes of a file of this environment that the run page draws. */
export async function previewBytes(p: Platform, scope: Scope, fileId: string): Promise<{ file: File; bytes: Uint8Array }> {
  const file = await getFile(p, scope, fileId);
  if (!previewOf(file)) throw new PayloadTooLarge(`File ${fileId} cannot be shown here: download it instead`);
  const bytes = await p.blobs.get(blobKeyOf(scope, file.sha256));
  if (!bytes) throw NotFound.of('File', fileId);
  return { file, bytes };
}

/** Viewers look; every other role may cancel and delete runs (as they may start them). */
export function canChangeRuns(membership: Membership): boolean {
  return membership.role !== 'viewer';
}

/** Cancels (an active run) or deletes a run of this environment, through the run service. */
export async function changeRun(p: Platform, membership: Membership, scope: Scope, input: { kind: string | null; id: string; action: string }): Promise<void> {
  const kind = runKind(input.kind);
  // Unknown here (another environment or organization) answers 404 before any role check.
  await getRun(p, scope, kind, input.id, false);
  if (!canChangeRuns(membership)) throw new Forbidden(`A ${membership.role} cannot cancel or delete runs`);
  if (input.action === 'cancel') await cancelRun(p, scope, kind, input.id);
  else if (input.action === 'delete') await deleteRun(p, scope, kind, input.id);
  else throw Invalid.at(['body', 'action'], 'action must be cancel or delete');
}
