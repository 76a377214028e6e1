/**
 * The sources of a completed extraction (API §6.2): the output's tree with every leaf paired with
 * where it was read. Apart from ./service.ts so that what reads sources (the dashboard) does not
 * bundle the schema checks of creating an extraction.
 */
import { kindOfMime } from '../documents/sniff.ts';
import { fileRefOf, getFile } from '../files/service.ts';
import { Conflict } from '../platform/errors.ts';
import type { Platform } from '../platform/platform.ts';
import type { Scope } from '../platform/ports.ts';
import { ACTIVE_STATUSES, type FileRef } from '../platform/schemas.ts';
import { readCompletedRun, readRunWithResult, type RunData, type StoredResult } from '../runs/service.ts';
import { documentTypeOf, pairWithSources } from './anchors.ts';
import { extractionKind } from './kind.ts';
import type { SourcesMode } from './schema.ts';

/** Why an extraction that did not complete has no sources (409). */
const noOutput = (id: string) => (status: string) => `Extraction ${id} has no output to source (status: ${status})`;

export async function extractionSources(p: Platform, scope: Scope, id: string) {
  const { data, stored } = await readCompletedRun(p, scope, extractionKind, id, noOutput(id));
  return completedSources(p, scope, id, data, stored);
}

/** A completed extraction's output, each leaf paired with its source. */
function completedSources(p: Platform, scope: Scope, id: string, data: RunData, stored: StoredResult) {
  return sourcesOf(p, scope, id, data.file as FileRef, stored.output as Record<string, unknown>, pairWithSources(stored.output, stored.hidden?.sources ?? null) as Record<string, unknown>);
}

/** The answer's shape; its file as it stands (the record's FileRef if the file is gone). */
async function sourcesOf(p: Platform, scope: Scope, id: string, fileRef: FileRef, extraction: Record<string, unknown>, sources: Record<string, unknown>) {
  const file = await getFile(p, scope, fileRef.id).catch(() => undefined);
  return {
    object: 'extraction.sources' as const,
    extraction_id: id,
    document_type: documentTypeOf(kindOfMime(fileRef.mime_type) ?? 'txt'),
    file: file ? fileRefOf(file) : fileRef,
    extraction,
    sources,
  };
}

export interface SourcesJobAsk {
  mode: SourcesMode;
  job_id?: string | undefined;
}

/**
 * The extraction's sources job, as Retab's Python SDK asks for it (`extractions.sources.create`,
 * then polling GET …/sources?mode&job_id). Quire computes sources with the extraction, so there is
 * one job per extraction (`src_` + the extraction id's time-sortable part), whatever the mode: it
 * is `pending` while the extraction waits, `running` while it runs, and `completed` with the
 * sources once the extraction completed. A failed or cancelled extraction has nothing to source:
 * 409, as GET …/sources answers. Quire keeps no separate time for the job: `updated_at` is the
 * extraction's `created_at`. `done` says whether the job is complete.
 */
export async function extractionSourcesJob(p: Platform, scope: Scope, id: string, ask: SourcesJobAsk) {
  // (One read of the record, and of the stored output once there is one.)
  const { data, stored } = await readRunWithResult(p, scope, extractionKind, id);
  const jobId = `src_${id.slice(id.indexOf('_') + 1)}`;
  if (ask.job_id !== undefined && ask.job_id !== jobId) throw new Conflict(`Sources job ${ask.job_id} is not the job of extraction ${id} (${jobId})`);
  const status = data.status;
  const running = ACTIVE_STATUSES.includes(status);
  const job = {
    object: 'extraction.sources.job' as const,
    id: jobId,
    mode: ask.mode,
    status: running ? (status === 'in_progress' ? ('running' as const) : ('pending' as const)) : ('completed' as const),
    is_partial: false,
    revision: 1,
    updated_at: data.created_at,
    error: null,
  };
  if (!running && !stored) throw new Conflict(noOutput(id)(status));
  const sources = stored ? await completedSources(p, scope, id, data, stored) : await sourcesOf(p, scope, id, data.file as FileRef, {}, {});
  return { done: !running, answer: { ...sources, job }, location: `/v1/extractions/${id}/sources?mode=${ask.mode}&job_id=${jobId}` };
}
