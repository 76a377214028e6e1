/** Schema generation (API §7): a JSON Schema inferred from 1..10 example documents. */
import { createHash } from 'node:crypto';
import { kindOfMime } from '../documents/sniff.ts';
import { fileRefOf, pagesToCount, resolveDocument } from '../files/service.ts';
import type { Platform } from '../platform/platform.ts';
import type { Scope } from '../platform/ports.ts';
import type { DocumentInputRef } from '../runs/document.ts';
import type { CreateRunInput } from '../runs/service.ts';
import type { CreateSchemaGenerationBody } from './schema.ts';

export interface SchemaGenerationInput {
  documents: DocumentInputRef[];
}

export async function prepareSchemaGeneration(p: Platform, scope: Scope, body: CreateSchemaGenerationBody): Promise<CreateRunInput> {
  const resolved = [];
  for (const [i, document] of body.documents.entries()) resolved.push(await resolveDocument(p, scope, document, ['body', 'documents', i]));
  const options = { instructions: body.instructions ?? null, image_resolution_dpi: body.image_resolution_dpi };
  const identity = createHash('sha256').update(JSON.stringify(['schema_generation', resolved.map((r) => r.file.sha256), options, body.model])).digest('hex');
  return {
    fields: { files: resolved.map((r) => fileRefOf(r.file)), model: body.model, ...options },
    input: { documents: resolved.map((r) => ({ blobKey: r.blobKey, kind: kindOfMime(r.file.mime_type)!, ...(pagesToCount(r.file) ? { countPagesOf: r.file.id } : {}) })) } satisfies SchemaGenerationInput,
    filename: resolved[0]!.file.filename,
    background: body.background,
    cacheKey: body.bust_cache ? undefined : identity,
  };
}
