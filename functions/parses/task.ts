/**
 * The parse task (runs in the run state machine's task Lambda): reads the stored document into the
 * Doc model; the model's parser renders each page in reading order, tables in the requested format
 * (the local engine from the Doc; a vision model from the page images). A long PDF's parse fans out
 * over page ranges instead (./ranges.ts).
 */
import { failedPages } from '../documents/doc.ts';
import { renderDocText, type TableFormat } from '../documents/render.ts';
import { parserFor } from '../models/engines.ts';
import { creditsFor } from '../models/registry.ts';
import { readRunDocument, runPageImages, type DocumentInputRef } from '../runs/document.ts';
import type { RunContext, RunTask } from '../runs/kinds.ts';
import { parseKind } from './kind.ts';
import { layoutOf } from './layout.ts';
import { parseRanges } from './ranges.ts';
import type { ParseOutput } from './schema.ts';

export type ParseInput = DocumentInputRef;

export const parseTask: RunTask = {
  kind: parseKind,
  // A long PDF is read in page ranges at once (./ranges.ts).
  ranges: parseRanges,
  async execute(ctx: RunContext) {
    const { record } = ctx;
    const input = record._input as ParseInput;
    const dpi = record.image_resolution_dpi as number;
    const doc = await readRunDocument(ctx, input, dpi);
    const parser = await parserFor(record.model as string);
    const { pages } = await parser.parse({
      doc,
      tableFormat: record.table_parsing_format as TableFormat,
      instructions: record.instructions as string | null,
      deadline: ctx.deadline,
      pageImages: runPageImages(ctx, input, dpi),
    });
    const output: ParseOutput = { pages, text: renderDocText(pages) };
    // A damaged page is listed with its reason rather than failing the parse (issue 23 item 6).
    const failed = failedPages(doc);
    // The words and tables boxed on their pages, for the dashboard's run page: an object of its own,
    // never read with the output (./layout.ts). Documents without page coordinates have none to keep.
    const layout = layoutOf(doc);
    return {
      output,
      usage: { credits: creditsFor(record.model as string, pages.length), page_count: pages.length },
      ...(layout.length > 0 ? { apart: { layout } } : {}),
      ...(failed.length > 0 ? { extras: { failed_pages: failed } } : {}),
    };
  },
};
