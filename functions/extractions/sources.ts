/**
 * The sources of a completed extraction (API §6.2): the output's tree with every leaf paired with
 * where it was read. Apart from ./service.ts so that what reads sources (the dashboard) does not
 * bundle the schema checks of creating an extraction.
 */
import { kindOfMime } from '../documents/sniff.ts';
import { fileRefOf, getFile } from '../files/service.ts';
import type { Platform } from '../platform/platform.ts';
import type { Scope } from '../platform/ports.ts';
import { readCompletedRun } from '../runs/service.ts';
import { documentTypeOf, pairWithSources } from './anchors.ts';
import { extractionKind } from './kind.ts';

export async function extractionSources(p: Platform, scope: Scope, id: string) {
  const { data, stored } = await readCompletedRun(p, scope, extractionKind, id, (status) => `Extraction ${id} has no output to source (status: ${status})`);
  const fileRef = data.file as { id: string; filename: string; mime_type: string };
  const file = await getFile(p, scope, fileRef.id).catch(() => undefined);
  return {
    object: 'extraction.sources' as const,
    extraction_id: id,
    document_type: documentTypeOf(kindOfMime(fileRef.mime_type) ?? 'txt'),
    file: file ? fileRefOf(file) : fileRef,
    extraction: stored.output as Record<string, unknown>,
    sources: pairWithSources(stored.output, stored.hidden?.sources ?? null) as Record<string, unknown>,
  };
}
