import * as z from 'zod';

/** More inputs than this are refused (422): the request body's 6 MB bounds them anyway. */
export const MAX_CONSENSUS_INPUTS = 10_000;

export const CreateConsensusBody = z.object({
  inputs: z
    .array(z.record(z.string(), z.unknown()), { error: 'inputs must be a list of JSON objects' })
    .min(1, 'inputs must hold at least one object')
    .max(MAX_CONSENSUS_INPUTS, `inputs may hold at most ${MAX_CONSENSUS_INPUTS} objects`)
    .describe('The answers to reconcile: JSON objects of one shape (e.g. extractions of one document)'),
  json_schema: z
    .record(z.string(), z.unknown())
    .nullish()
    .describe('A JSON Schema of an object describing the inputs: properties come in its order; a property no input gives is null with likelihood 0'),
  include_alignment: z.boolean().nullish().describe('Answer `alignment.aligned_inputs` and `alignment.path_alignments` (default false)'),
});
export type CreateConsensusBody = z.infer<typeof CreateConsensusBody>;

export const ReconciliationField = z
  .object({
    path: z.string().describe('Dot path of the leaf in `consensus`, list items by index: "line_items.0.amount"'),
    value: z.unknown(),
    likelihood: z.number().describe('supporting_input_count / total_input_count'),
    supporting_input_count: z.number().int(),
    total_input_count: z.number().int(),
  })
  .meta({ id: 'ReconciliationField' });

export const ReconciliationResult = z
  .object({
    consensus: z.record(z.string(), z.unknown()),
    likelihoods: z.record(z.string(), z.number()).describe('Path → likelihood, for every leaf of `consensus`'),
    fields: z.array(ReconciliationField),
    alignment: z.object({
      reference_index: z.number().int().describe('The input whose list items seeded the alignment (the most complete one)'),
      aligned_inputs: z.array(z.record(z.string(), z.unknown())).nullable().describe('With include_alignment: each input with its list items in their canonical places (null where it has none)'),
      path_alignments: z
        .array(z.object({ canonical_path: z.string(), source_paths: z.array(z.string().nullable()) }))
        .nullable()
        .describe('With include_alignment: for each list item of `consensus`, the path of the item each input has there (null when it has none)'),
    }),
  })
  .meta({ id: 'ReconciliationResult' });
export type ReconciliationResult = z.infer<typeof ReconciliationResult>;
