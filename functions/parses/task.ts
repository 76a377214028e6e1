/**
 * The parse task (runs in the run state machine's task Lambda): reads the stored document into the
 * Doc model and renders each page in reading order, tables in the requested format.
 */
import { renderDocText, renderPage, type TableFormat } from '../documents/render.ts';
import { creditsFor } from '../models/registry.ts';
import { readRunDocument, type DocumentInputRef } from '../runs/document.ts';
import type { RunContext, RunTask } from '../runs/kinds.ts';
import { parseKind } from './kind.ts';
import type { ParseOutput } from './schema.ts';

export type ParseInput = DocumentInputRef;


export const parseTask: RunTask = {
  kind: parseKind,
  async execute(ctx: RunContext) {
    const { record } = ctx;
    const doc = await readRunDocument(ctx, record._input as ParseInput, record.image_resolution_dpi as number);
    const pages = doc.pages.map((page) => renderPage(page, record.table_parsing_format as TableFormat));
    const output: ParseOutput = { pages, text: renderDocText(pages) };
    return { output, usage: { credits: creditsFor(record.model as string, pages.length), page_count: pages.length } };
  },
};
