import * as z from 'zod';
import { ModelName } from '../models/schema.ts';
import { DocumentInput, FileRef, PrimitiveError, RunStatus } from '../platform/schemas.ts';
import { NConsensus, uniqueNames } from '../runs/consensus-schema.ts';

export const Category = z.object({
  name: z.string().min(1).max(200),
  description: z.string().max(10_000).default(''),
  handle_key: z.string().nullable().default(null),
});

export const CreateClassificationBody = z.object({
  document: DocumentInput,
  categories: z
    .array(Category)
    .min(2, 'give at least 2 categories')
    .max(500)
    .superRefine((items, ctx) => uniqueNames(items, ctx, 'Category')),
  model: ModelName,
  first_n_pages: z.number().int().min(1, 'first_n_pages must be at least 1').optional(),
  instructions: z.string().max(100_000).optional(),
  n_consensus: NConsensus,
  bust_cache: z.boolean().default(false),
  background: z.boolean().default(false),
});
export type CreateClassificationBody = z.infer<typeof CreateClassificationBody>;

const Choice = z.object({ category: z.string(), reasoning: z.string() });

export const Classification = z
  .object({
    id: z.string(),
    file: FileRef,
    model: z.string(),
    categories: z.array(z.object({ name: z.string(), description: z.string(), handle_key: z.string().nullable() })),
    n_consensus: z.number().int(),
    first_n_pages: z.number().int().nullable(),
    instructions: z.string().nullable(),
    output: Choice,
    consensus: z.object({ choices: z.array(Choice), likelihoods: z.number() }),
    scores: z.record(z.string(), z.number()),
    status: RunStatus,
    error: PrimitiveError.nullable(),
    usage: z.object({ credits: z.number() }),
    created_at: z.string(),
  })
  .meta({ id: 'Classification' });
