/**
 * Wire types shared by several resources (API §0): FileRef, MIMEData, document input, list envelope,
 * PrimitiveError, usage.
 */
import * as z from 'zod';

export const FileRef = z
  .object({
    id: z.string().describe('An uploaded file id (file_...)'),
    filename: z.string(),
    mime_type: z.string(),
  })
  .meta({ id: 'FileRef' });
export type FileRef = z.infer<typeof FileRef>;

export const MIMEData = z
  .object({
    filename: z.string().min(1).max(1024),
    url: z.string().min(1).describe('data:<mime>;base64,<data> or a download URL issued by this service'),
  })
  .meta({ id: 'MIMEData' });
export type MIMEData = z.infer<typeof MIMEData>;

/** A document input (API §0.4): MIMEData or FileRef. */
export const DocumentInput = z
  .union([
    z.object({ id: z.string(), filename: z.string().optional(), mime_type: z.string().optional() }),
    MIMEData,
  ])
  .meta({ id: 'DocumentInput' });
export type DocumentInput = z.infer<typeof DocumentInput>;

export const PrimitiveError = z
  .object({
    code: z.enum([
      'document_invalid',
      'document_unsupported',
      'model_error',
      'model_unavailable',
      'timeout',
      'missing_secret',
      'configuration_error',
      'internal',
    ]),
    message: z.string(),
    details: z.record(z.string(), z.unknown()).nullable(),
  })
  .meta({ id: 'PrimitiveError' });
export type PrimitiveError = z.infer<typeof PrimitiveError>;

export const RunStatus = z.enum(['pending', 'queued', 'in_progress', 'completed', 'failed', 'cancelled']);
export type RunStatus = z.infer<typeof RunStatus>;
export const TERMINAL_STATUSES: readonly RunStatus[] = ['completed', 'failed', 'cancelled'];
export const ACTIVE_STATUSES: readonly RunStatus[] = ['pending', 'queued', 'in_progress'];

export const Usage = z.object({ credits: z.number(), page_count: z.number().int().optional() });

export const ListMetadata = z.object({ before: z.string().nullable(), after: z.string().nullable() });

export function listEnvelope<T extends z.ZodType>(item: T) {
  return z.object({ data: z.array(item), list_metadata: ListMetadata });
}

/** Query parameters common to every list (API §0.3). */
export const ListQueryParams = z.object({
  limit: z.coerce.number().int().min(1).max(100).default(10),
  order: z.enum(['asc', 'desc']).default('desc'),
  before: z.string().optional(),
  after: z.string().optional(),
  from_date: z.string().optional().describe('YYYY-MM-DD (start of that UTC day) or RFC 3339'),
  to_date: z.string().optional().describe('YYYY-MM-DD (end of that UTC day) or RFC 3339'),
  filename: z.string().optional().describe('Case-insensitive prefix of the file name'),
});

export const RunListQueryParams = ListQueryParams.extend({ status: RunStatus.optional() });

export const DetailError = z.object({ detail: z.unknown() }).meta({ id: 'ErrorDetail' });
