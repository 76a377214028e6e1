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

/** What the Retab SDKs call a sources computation's mode: Quire answers both with the same sources. */
export const SourcesMode = z.enum(['located', 'cited']);
export type SourcesMode = z.infer<typeof SourcesMode>;

const SourcesJobId = z.string().max(200).describe("The extraction's sources job (src_...): a different one → 409");

/** POST /v1/extractions/{id}/sources (the Python SDK's extractions.sources.create); a missing body means every default. */
export const CreateExtractionSourcesBody = z
  .object({
    mode: SourcesMode.default('located'),
    background: z.boolean().default(false).describe('Accepted; the answer is the same either way (nothing is left to compute)'),
    job_id: SourcesJobId.optional(),
    retry: z.boolean().optional().describe('Accepted; ignored (sources never fail apart from their extraction)'),
  })
  .prefault({});
export type CreateExtractionSourcesBody = z.infer<typeof CreateExtractionSourcesBody>;

/** GET …/sources: with `mode` or `job_id` (the Python SDK's poll) the answer carries the job. */
export const ExtractionSourcesQuery = z.object({
  mode: SourcesMode.optional(),
  job_id: SourcesJobId.optional(),
});

export const ExtractionSourcesJob = z
  .object({
    object: z.literal('extraction.sources.job'),
    id: z.string(),
    mode: SourcesMode,
    status: z.enum(['pending', 'running', 'completed']),
    is_partial: z.boolean(),
    revision: z.number().int(),
    updated_at: z.string(),
    error: z.null(),
  })
  .meta({ id: 'ExtractionSourcesJob' });

export const ExtractionSources = z
  .object({
    object: z.literal('extraction.sources'),
    extraction_id: z.string(),
    document_type: z.enum(['pdf', 'image', 'csv', 'xlsx', 'docx', 'txt']),
    file: FileRef,
    extraction: z.record(z.string(), z.unknown()),
    sources: z.record(z.string(), z.unknown()),
    job: ExtractionSourcesJob.optional().describe('Present when a sources job was asked for (POST, or GET with mode or job_id)'),
  })
  .meta({ id: 'ExtractionSources' });
