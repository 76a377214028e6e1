/**
 * The extraction task: the model's extractor reads the document by the schema. Provenance is computed
 * here, from the Doc's coordinates, and kept with the output; every output is validated first.
 */
import { extractorFor, runsBuiltIn } from '../models/engines.ts';
import { creditsFor } from '../models/registry.ts';
import { Invalid, RunFailure } from '../platform/errors.ts';
import { DEFAULT_DPI, readRunDocument, runPageImages } from '../runs/document.ts';
import type { RunContext, RunTask } from '../runs/kinds.ts';
import type { DocumentRunInput } from '../runs/prepare.ts';
import { documentTypeOf, sourceTree } from './anchors.ts';
import { checkSchema, validateOutput } from './json-schema.ts';
import { extractionKind } from './kind.ts';

export const extractionTask: RunTask = {
  kind: extractionKind,
  async execute(ctx: RunContext) {
    const { record } = ctx;
    const input = record._input as DocumentRunInput;
    const schema = record.json_schema as Record<string, unknown>;
    // The API compiled the schema before storing the run; the dashboard cannot (no ajv in its
    // Lambda, ./prepare.ts), so a schema ajv refuses fails here, before any work.
    try {
      checkSchema(schema);
    } catch (error) {
      if (error instanceof Invalid) throw new RunFailure('configuration_error', error.issues[0]?.msg ?? 'json_schema is not a valid JSON Schema');
      throw error;
    }
    // The built-in engine reads scans twice and keeps what the readings agree on (models/local/two-readings.ts);
    // a provider's model is given the text once.
    const doc = await readRunDocument(ctx, input, DEFAULT_DPI, { secondReading: runsBuiltIn(record.model as string) });
    const nConsensus = record.n_consensus as number;
    const extractor = await extractorFor(record.model as string);
    const result = await extractor.extract({ doc, schema, instructions: record.instructions as string | null, nConsensus, seed: input.seed, deadline: ctx.deadline, pageImages: runPageImages(ctx, input) });
    const check = validateOutput(schema, result.output);
    if (!check.valid) throw new RunFailure('model_error', `The model's output does not match json_schema: ${check.problem}`);
    const fileId = (record.file as { id: string }).id;
    return {
      output: result.output,
      extras: { consensus: { choices: result.choices, likelihoods: result.likelihoods } },
      hidden: { sources: sourceTree(result.sources, doc, documentTypeOf(input.kind), fileId) },
      usage: { credits: creditsFor(record.model as string, doc.pages.length, nConsensus) },
    };
  },
};
