import * as z from 'zod';
import { ModelName } from '../models/schema.ts';
import { DocumentInput, FileRef, PrimitiveError, RunStatus } from '../platform/schemas.ts';

export const TableParsingFormat = z.enum(['markdown', 'yaml', 'html', 'json']);

export const CreateParseBody = z.object({
  document: DocumentInput,
  model: ModelName,
  table_parsing_format: TableParsingFormat.default('html'),
  // No upper bound in the contract; rasterization caps the pixel count of huge pages instead.
  image_resolution_dpi: z.number().int().min(72, 'image_resolution_dpi must be at least 72').default(192),
  instructions: z.string().max(100_000).optional(),
  bust_cache: z.boolean().default(false),
  background: z.boolean().default(false),
});
export type CreateParseBody = z.infer<typeof CreateParseBody>;

/** Pages of a completed run that could not be read, with the reason (API §3; absent when every page was read). */
export const FailedPages = z.array(z.object({ page: z.number().int().min(1), reason: z.string() }));
export type FailedPages = z.infer<typeof FailedPages>;

export const ParseOutput = z.object({ pages: z.array(z.string()), text: z.string() });
export type ParseOutput = z.infer<typeof ParseOutput>;

export const Parse = z
  .object({
    id: z.string(),
    file: FileRef,
    model: z.string(),
    table_parsing_format: TableParsingFormat,
    image_resolution_dpi: z.number().int(),
    instructions: z.string().nullable(),
    output: ParseOutput,
    status: RunStatus,
    error: PrimitiveError.nullable(),
    usage: z.object({ credits: z.number(), page_count: z.number().int() }),
    created_at: z.string(),
    failed_pages: FailedPages.optional().describe(
      'Present only when some pages could not be read (a damaged page of an otherwise readable document): each such page, 1-based, with the reason. Its entry in output.pages is empty. (An addition to the Retab contract.)',
    ),
  })
  .meta({ id: 'Parse' });
