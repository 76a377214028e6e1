import * as z from 'zod';
import { ModelName } from '../models/schema.ts';
import { DocumentInput, FileRef, PrimitiveError, RunStatus } from '../platform/schemas.ts';

export const CreateSchemaGenerationBody = z.object({
  documents: z.array(DocumentInput).min(1, 'give 1 to 10 documents').max(10, 'give 1 to 10 documents'),
  model: ModelName,
  instructions: z.string().max(100_000).optional(),
  image_resolution_dpi: z.number().int().min(96, 'image_resolution_dpi must be between 96 and 300').max(300, 'image_resolution_dpi must be between 96 and 300').default(192),
  bust_cache: z.boolean().default(false),
  background: z.boolean().default(false),
});
export type CreateSchemaGenerationBody = z.infer<typeof CreateSchemaGenerationBody>;

/** The run's keys; once completed, the generated schema's keys too (title, properties, $defs, ...). */
export const SchemaGeneration = z
  .looseObject({
    object: z.literal('schema'),
    id: z.string(),
    status: RunStatus,
    error: PrimitiveError.nullable(),
    created_at: z.string(),
    model: z.string(),
    files: z.array(FileRef),
    instructions: z.string().nullable(),
    image_resolution_dpi: z.number().int(),
    usage: z.object({ credits: z.number() }),
    json_schema: z.record(z.string(), z.unknown()),
    strict: z.literal(true),
  })
  .meta({ id: 'SchemaGeneration' });
