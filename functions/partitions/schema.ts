import * as z from 'zod';
import { ModelName } from '../models/schema.ts';
import { DocumentInput, FileRef, PrimitiveError, RunStatus } from '../platform/schemas.ts';
import { NConsensus } from '../runs/consensus-schema.ts';

export const CreatePartitionBody = z.object({
  document: DocumentInput,
  key: z.string().trim().min(1, 'key names what identifies a record, e.g. "invoice number"').max(500),
  instructions: z.string().min(1, 'instructions are required').max(100_000),
  model: ModelName,
  n_consensus: NConsensus,
  allow_overlap: z.boolean().default(true),
  bust_cache: z.boolean().default(false),
  background: z.boolean().default(false),
});
export type CreatePartitionBody = z.infer<typeof CreatePartitionBody>;

const Entry = z.object({ key: z.string(), pages: z.array(z.number().int()) });

export const Partition = z
  .object({
    id: z.string(),
    file: FileRef,
    model: z.string(),
    key: z.string(),
    instructions: z.string(),
    n_consensus: z.number().int(),
    allow_overlap: z.boolean(),
    output: z.array(Entry),
    consensus: z.object({
      likelihoods: z.array(z.object({ key: z.number(), pages: z.array(z.number()) })),
      choices: z.array(z.array(Entry)),
    }),
    status: RunStatus,
    error: PrimitiveError.nullable(),
    usage: z.object({ credits: z.number() }),
    created_at: z.string(),
  })
  .meta({ id: 'Partition' });
