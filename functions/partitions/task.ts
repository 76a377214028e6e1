/** The partition task: the model's engine finds the key's value on each page and groups the pages. */
import { engineFor } from '../models/engines.ts';
import { creditsFor } from '../models/registry.ts';
import { readRunDocument, runPageImages } from '../runs/document.ts';
import type { RunContext, RunTask } from '../runs/kinds.ts';
import type { DocumentRunInput } from '../runs/prepare.ts';
import { partitionKind } from './kind.ts';

export const partitionTask: RunTask = {
  kind: partitionKind,
  async execute(ctx: RunContext) {
    const { record } = ctx;
    const input = record._input as DocumentRunInput;
    const doc = await readRunDocument(ctx, input);
    const nConsensus = record.n_consensus as number;
    const engine = await engineFor(record.model as string);
    const result = await engine.partition({
      doc,
      key: record.key as string,
      instructions: record.instructions as string,
      allowOverlap: record.allow_overlap as boolean,
      nConsensus,
      seed: input.seed,
      deadline: ctx.deadline,
      pageImages: runPageImages(ctx, input),
    });
    return { output: result.output, extras: { consensus: result.consensus }, usage: { credits: creditsFor(record.model as string, doc.pages.length, nConsensus) } };
  },
};
