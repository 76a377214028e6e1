/**
 * The split task: the model's engine assigns every page to a subdocument (or "other"); a
 * spreadsheet's entries also say where they are (regions, ./regions.ts). And the reconstruct task
 * (./kind.ts splitReconstructKind): a spreadsheet read, its regions made tables.
 */
import type { DocumentKind } from '../documents/sniff.ts';
import type { Subdocument } from '../models/engine.ts';
import { engineFor } from '../models/engines.ts';
import { creditsFor } from '../models/registry.ts';
import { readRunDocument, runPageImages } from '../runs/document.ts';
import type { RunContext, RunTask } from '../runs/kinds.ts';
import type { DocumentRunInput } from '../runs/prepare.ts';
import { splitKind, splitReconstructKind } from './kind.ts';
import { reconstructTables, sheetRegion, sheetsOf, type ReconstructSubdocument, type SheetRegion } from './regions.ts';

export const splitTask: RunTask = {
  kind: splitKind,
  async execute(ctx: RunContext) {
    const { record } = ctx;
    const input = record._input as DocumentRunInput;
    const doc = await readRunDocument(ctx, input);
    const nConsensus = record.n_consensus as number;
    const engine = await engineFor(record.model as string);
    const result = await engine.split({
      doc,
      subdocuments: record.subdocuments as Subdocument[],
      instructions: record.instructions as string | null,
      nConsensus,
      seed: input.seed,
      deadline: ctx.deadline,
      pageImages: runPageImages(ctx, input),
    });
    const output = doc.kind === 'xlsx' || doc.kind === 'csv' ? withRegions(result.output, sheetsOf(doc, (record.file as { filename: string }).filename)) : result.output;
    return { output, extras: { consensus: result.consensus }, usage: { credits: creditsFor(record.model as string, doc.pages.length, nConsensus) } };
  },
};

/** A spreadsheet's entries with their regions: each of their sheets' used range (pages are sheets). */
function withRegions(entries: Array<{ name: string; pages: number[] }>, sheets: ReturnType<typeof sheetsOf>): Array<{ name: string; pages: number[]; regions: SheetRegion[] }> {
  return entries.map((entry) => ({ ...entry, regions: entry.pages.flatMap((page) => sheetRegion(sheets[page - 1]!) ?? []) }));
}

export interface ReconstructInput {
  blobKey: string;
  kind: DocumentKind;
  filename: string;
  subdocuments: ReconstructSubdocument[];
}

export const reconstructTask: RunTask = {
  kind: splitReconstructKind,
  async execute(ctx: RunContext) {
    const input = ctx.record._input as ReconstructInput;
    const doc = await readRunDocument(ctx, input);
    return { output: { tables: reconstructTables(sheetsOf(doc, input.filename), input.subdocuments) }, usage: { credits: 0 } };
  },
};
