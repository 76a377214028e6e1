import * as z from 'zod';
import { ModelName } from '../models/schema.ts';
import { DocumentInput, FileRef, PrimitiveError, RunStatus } from '../platform/schemas.ts';
import { NConsensus, uniqueNames } from '../runs/consensus-schema.ts';

export const Subdocument = z.object({
  name: z.string().min(1).max(200),
  description: z.string().max(10_000).default(''),
  allow_multiple_instances: z.boolean().default(false),
});

export const CreateSplitBody = z.object({
  document: DocumentInput,
  subdocuments: z
    .array(Subdocument)
    .min(1, 'give at least 1 subdocument')
    .max(200)
    .superRefine((items, ctx) => uniqueNames(items, ctx, 'Subdocument')),
  model: ModelName,
  instructions: z.string().max(100_000).optional(),
  n_consensus: NConsensus,
  bust_cache: z.boolean().default(false),
  background: z.boolean().default(false),
});
export type CreateSplitBody = z.infer<typeof CreateSplitBody>;

const Entry = z.object({ name: z.string(), pages: z.array(z.number().int()) });

export const Split = z
  .object({
    id: z.string(),
    file: FileRef,
    model: z.string(),
    subdocuments: z.array(z.object({ name: z.string(), description: z.string(), allow_multiple_instances: z.boolean() })),
    n_consensus: z.number().int(),
    instructions: z.string().nullable(),
    output: z.array(Entry),
    consensus: z.object({
      likelihoods: z.array(z.object({ name: z.number(), pages: z.array(z.number()) })),
      choices: z.array(z.array(Entry)),
    }),
    status: RunStatus,
    error: PrimitiveError.nullable(),
    usage: z.object({ credits: z.number() }),
    created_at: z.string(),
  })
  .meta({ id: 'Split' });
