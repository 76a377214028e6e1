/** The classification task: the model's engine votes on the document's first pages. */
import type { Category } from '../models/engine.ts';
import { engineFor } from '../models/engines.ts';
import { creditsFor } from '../models/registry.ts';
import { readRunDocument, runPageImages } from '../runs/document.ts';
import type { RunContext, RunTask } from '../runs/kinds.ts';
import type { DocumentRunInput } from '../runs/prepare.ts';
import { classificationKind } from './kind.ts';

export const classificationTask: RunTask = {
  kind: classificationKind,
  async execute(ctx: RunContext) {
    const { record } = ctx;
    const input = record._input as DocumentRunInput;
    const doc = await readRunDocument(ctx, input);
    const firstNPages = (record.first_n_pages as number | null) ?? undefined;
    const nConsensus = record.n_consensus as number;
    const engine = await engineFor(record.model as string);
    const result = await engine.classify({
      doc,
      categories: (record.categories as Category[]).map(({ name, description }) => ({ name, description })),
      instructions: record.instructions as string | null,
      firstNPages,
      nConsensus,
      seed: input.seed,
      deadline: ctx.deadline,
      pageImages: runPageImages(ctx, input),
    });
    const pagesRead = Math.min(doc.pages.length, firstNPages ?? doc.pages.length);
    return {
      output: result.output,
      extras: { consensus: result.consensus, scores: result.scores },
      usage: { credits: creditsFor(record.model as string, pagesRead, nConsensus) },
    };
  },
};
