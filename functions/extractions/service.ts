/**
 * Extractions (API §6): JSON extracted from a document by a JSON Schema, with the place in the file
 * behind every value. The schema is checked before anything is stored; the task (./task.ts) runs the
 * model's extractor and keeps the sources with the output.
 */
import { Invalid } from '../platform/errors.ts';
import type { Platform } from '../platform/platform.ts';
import type { Scope } from '../platform/ports.ts';
import type { CreateRunInput } from '../runs/service.ts';
import { checkSchema } from './json-schema.ts';
import { METADATA_ATTR, prepareExtractionRun } from './prepare.ts';
import type { CreateExtractionBody } from './schema.ts';

/** Checks the schema fully (its shape, then compiled by ajv: a 422 naming the problem) before anything is stored. */
export async function prepareExtraction(p: Platform, scope: Scope, body: CreateExtractionBody): Promise<CreateRunInput> {
  checkSchema(body.json_schema);
  return prepareExtractionRun(p, scope, body);
}

/** The list's `metadata` query: a JSON-encoded object of strings; every entry must match. */
export function metadataFilter(query: { metadata?: string | undefined }): Record<string, string> {
  if (query.metadata === undefined) return {};
  let parsed: unknown;
  try {
    parsed = JSON.parse(query.metadata);
  } catch {
    throw Invalid.at(['query', 'metadata'], 'metadata must be a JSON-encoded object, e.g. {"customer":"acme"}', 'json_invalid', query.metadata);
  }
  if (!parsed || typeof parsed !== 'object' || Array.isArray(parsed) || Object.values(parsed).some((v) => typeof v !== 'string')) {
    throw Invalid.at(['query', 'metadata'], 'metadata must be a JSON object whose values are strings', 'value_error', query.metadata);
  }
  return Object.fromEntries(Object.entries(parsed as Record<string, string>).map(([k, v]) => [`${METADATA_ATTR}${k}`, v]));
}

// Sources are read by the API and the dashboard alike; their module leaves out the schema checks (ajv).
export { extractionSources, extractionSourcesJob } from './sources.ts';
