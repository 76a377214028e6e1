/**
 * Parses (API §3): a document read into per-page text in reading order, with headings and lists as
 * Markdown and tables in the requested format. The work runs as a run (functions/runs) whose task
 * reads the stored bytes into the Doc model and renders each page.
 */
import { createHash } from 'node:crypto';
import { ReadFailure } from '../documents/doc.ts';
import { readDocument } from '../documents/read.ts';
import { renderDocText, renderPage, type TableFormat } from '../documents/render.ts';
import { kindOfMime, type DocumentKind } from '../documents/sniff.ts';
import { fileRefOf, resolveDocument } from '../files/service.ts';
import { findModel } from '../models/registry.ts';
import { RunFailure } from '../platform/errors.ts';
import type { Platform } from '../platform/platform.ts';
import type { Scope } from '../platform/ports.ts';
import type { RunContext, RunKind } from '../runs/kinds.ts';
import type { CreateRunInput } from '../runs/service.ts';
import type { CreateParseBody, ParseOutput } from './schema.ts';

interface ParseInput {
  blobKey: string;
  kind: DocumentKind;
}

export const EMPTY_PARSE_OUTPUT: ParseOutput = { pages: [], text: '' };

/** Maps a reader's failure to the run's PrimitiveError; anything else stays an internal error. */
export function runFailureOf(error: unknown): unknown {
  if (error instanceof ReadFailure) return new RunFailure(error.code, error.message);
  return error;
}

export const parseKind: RunKind = {
  name: 'parse',
  type: 'parse',
  idPrefix: 'prs',
  resource: 'Parse',
  emptyOutput: EMPTY_PARSE_OUTPUT,
  async execute({ platform, record, deadline }: RunContext) {
    const input = record._input as ParseInput;
    const bytes = await platform.blobs.get(input.blobKey);
    if (!bytes) throw new RunFailure('document_invalid', 'The stored document is missing');
    let pages: string[];
    try {
      const doc = await readDocument(bytes, { kind: input.kind, dpi: record.image_resolution_dpi as number, deadline });
      pages = doc.pages.map((page) => renderPage(page, record.table_parsing_format as TableFormat));
    } catch (error) {
      throw runFailureOf(error);
    }
    const creditsPerPage = findModel(record.model as string)?.creditsPerPage ?? 0;
    const output: ParseOutput = { pages, text: renderDocText(pages) };
    return { output, usage: { credits: round(pages.length * creditsPerPage), page_count: pages.length } };
  },
};

function round(credits: number): number {
  return Math.round(credits * 1000) / 1000;
}

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
