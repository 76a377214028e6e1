/**
 * Parses (API §3): a create body becomes a run whose task (./task.ts) reads the stored bytes into
 * the Doc model and renders each page.
 */
import { createHash } from 'node:crypto';
import { kindOfMime } from '../documents/sniff.ts';
import { fileRefOf, resolveDocument } from '../files/service.ts';
import type { Platform } from '../platform/platform.ts';
import type { Scope } from '../platform/ports.ts';
import type { CreateRunInput } from '../runs/service.ts';
import type { ParseInput } from './task.ts';
import type { CreateParseBody } from './schema.ts';

/** What a create body becomes: the stored input, the record's fields, and the cache key. */
export async function prepareParse(p: Platform, scope: Scope, body: CreateParseBody): Promise<CreateRunInput> {
  const { file, blobKey } = await resolveDocument(p, scope, body.document, ['body', 'document']);
  const kind = kindOfMime(file.mime_type)!;
  const options = { table_parsing_format: body.table_parsing_format, image_resolution_dpi: body.image_resolution_dpi, instructions: body.instructions ?? null };
  const cacheKey = body.bust_cache
    ? undefined
    : createHash('sha256').update(JSON.stringify(['parse', file.sha256, kind, options, body.model])).digest('hex');
  return {
    fields: { file: fileRefOf(file), model: body.model, ...options },
    input: { blobKey, kind } satisfies ParseInput,
    filename: file.filename,
    background: body.background,
    usage: { credits: 0, page_count: 0 },
    cacheKey,
  };
}
