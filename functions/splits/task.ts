/** The split task: the model's engine assigns every page to a subdocument (or "other"). */
import type { Subdocument } from '../models/engine.ts';
import { engineFor } from '../models/engines.ts';
import { creditsFor } from '../models/registry.ts';
import { readRunDocument, runPageImages } from '../runs/document.ts';
import type { RunContext, RunTask } from '../runs/kinds.ts';
import type { DocumentRunInput } from '../runs/prepare.ts';
import { splitKind } from './kind.ts';

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
    return { output: result.output, extras: { consensus: result.consensus }, usage: { credits: creditsFor(record.model as string, doc.pages.length, nConsensus) } };
  },
};
