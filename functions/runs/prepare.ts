/**
 * A create body of a run that reads one document (parse, classification, split, partition) becomes
 * a run: the document resolved and stored, the options kept as wire fields, and one identity of the
 * request (input bytes, options, model) used both as the result-cache key and as the seed of the
 * consensus votes, so a repeated request gives the same answer.
 */
import { createHash } from 'node:crypto';
import { kindOfMime } from '../documents/sniff.ts';
import { fileRefOf, pagesToCount, resolveDocument } from '../files/service.ts';
import type { Platform } from '../platform/platform.ts';
import type { Scope } from '../platform/ports.ts';
import type { DocumentInput } from '../platform/schemas.ts';
import type { DocumentInputRef } from './document.ts';
import type { CreateRunInput, RunData } from './service.ts';

/** What the task of such a run finds in `record._input`. */
export interface DocumentRunInput extends DocumentInputRef {
  seed: string;
}

export async function prepareDocumentRun(
  p: Platform,
  scope: Scope,
  request: {
    kind: string;
    document: DocumentInput;
    model: string;
    bust_cache: boolean;
    background: boolean;
    /** The run's own options, as the record shows them (defaults applied, null for "not given"). */
    options: Record<string, unknown>;
    usage?: RunData['usage'];
  },
): Promise<CreateRunInput> {
  const { file, blobKey } = await resolveDocument(p, scope, request.document, ['body', 'document']);
  const documentKind = kindOfMime(file.mime_type)!;
  const identity = createHash('sha256').update(JSON.stringify([request.kind, file.sha256, documentKind, request.options, request.model])).digest('hex');
  return {
    fields: { file: fileRefOf(file), model: request.model, ...request.options },
    input: { blobKey, kind: documentKind, seed: identity, pageCount: file.page_count, ...(pagesToCount(file) ? { countPagesOf: file.id } : {}) } satisfies DocumentRunInput,
    filename: file.filename,
    background: request.background,
    usage: request.usage ?? { credits: 0 },
    cacheKey: request.bust_cache ? undefined : identity,
  };
}
