import * as z from 'zod';
import { ModelName } from '../models/schema.ts';
import { DocumentInput, FileRef, PrimitiveError, RunStatus } from '../platform/schemas.ts';
import { NConsensus } from '../runs/consensus-schema.ts';
import { ListRunsQuery } from '../runs/schema.ts';

const Metadata = z.record(z.string().max(200), z.string().max(2_000)).refine((m) => Object.keys(m).length <= 50, 'at most 50 metadata entries');

export const CreateExtractionBody = z.object({
  document: DocumentInput,
  json_schema: z.record(z.string(), z.unknown()).describe('A JSON Schema of an object; $defs/$ref allowed'),
  model: ModelName,
  instructions: z.string().max(100_000).optional(),
  n_consensus: NConsensus,
  metadata: Metadata.optional(),
  bust_cache: z.boolean().default(false),
  background: z.boolean().default(false),
});
export type CreateExtractionBody = z.infer<typeof CreateExtractionBody>;

export const ListExtractionsQuery = ListRunsQuery.extend({
  metadata: z
    .string()
    .optional()
    .describe('A JSON-encoded object of metadata that must match, e.g. {"customer":"acme"}'),
});

export const Extraction = z
  .object({
    id: z.string(),
    file: FileRef,
    model: z.string(),
    json_schema: z.record(z.string(), z.unknown()),
    n_consensus: z.number().int(),
    instructions: z.string().nullable(),
    metadata: z.record(z.string(), z.string()),
    output: z.record(z.string(), z.unknown()),
    consensus: z.object({ choices: z.array(z.record(z.string(), z.unknown())), likelihoods: z.unknown() }),
    status: RunStatus,
    error: PrimitiveError.nullable(),
    usage: z.object({ credits: z.number() }),
    created_at: z.string(),
  })
  .meta({ id: 'Extraction' });

export const ExtractionSources = z
  .object({
    object: z.literal('extraction.sources'),
    extraction_id: z.string(),
    document_type: z.enum(['pdf', 'image', 'csv', 'xlsx', 'docx', 'txt']),
    file: FileRef,
    extraction: z.record(z.string(), z.unknown()),
    sources: z.record(z.string(), z.unknown()),
  })
  .meta({ id: 'ExtractionSources' });
