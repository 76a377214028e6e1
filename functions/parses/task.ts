/**
 * The parse task (runs in the run state machine's task Lambda): reads the stored document into the
 * Doc model and renders each page in reading order, tables in the requested format.
 */
import type { DocumentKind } from '../documents/sniff.ts';
import { ReadFailure } from '../documents/doc.ts';
import { readDocument } from '../documents/read.ts';
import { renderDocText, renderPage, type TableFormat } from '../documents/render.ts';
import { findModel } from '../models/registry.ts';
import { RunFailure } from '../platform/errors.ts';
import type { RunContext, RunTask } from '../runs/kinds.ts';
import { parseKind } from './kind.ts';
import type { ParseOutput } from './schema.ts';

export interface ParseInput {
  blobKey: string;
  kind: DocumentKind;
}

/** Maps a reader's failure to the run's PrimitiveError; anything else stays an internal error. */
export function runFailureOf(error: unknown): unknown {
  if (error instanceof ReadFailure) return new RunFailure(error.code, error.message);
  return error;
}

export const parseTask: RunTask = {
  kind: parseKind,
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

