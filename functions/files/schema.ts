import * as z from 'zod';
import { FileRef, ListQueryParams, MIMEData, PrimitiveError, RunStatus } from '../platform/schemas.ts';

export const File = z
  .object({
    object: z.literal('file'),
    id: z.string(),
    filename: z.string(),
    mime_type: z.string(),
    size_bytes: z.number().int(),
    sha256: z.string(),
    page_count: z.number().int().nullable(),
    created_at: z.string(),
  })
  .meta({ id: 'File' });
export type File = z.infer<typeof File>;

const SHA256 = z.string().regex(/^[0-9a-fA-F]{64}$/, 'must be 64 hexadecimal characters');

/** Upload ceiling of the three-step upload (API §2.1). */
export const MAX_UPLOAD_BYTES = 500 * 1024 * 1024;

/** CSV files may be bigger: tables read up to 1 GB through a FileRef (API §10). */
export const MAX_CSV_UPLOAD_BYTES = 1024 * 1024 * 1024;

function isCsvUpload(filename: string, contentType: string | undefined): boolean {
  return /\.(csv|tsv)$/i.test(filename) || /^text\/(csv|tab-separated-values)\b/i.test(contentType ?? '');
}

export const CreateUploadBody = z
  .object({
    filename: z.string().min(1).max(1024),
    size_bytes: z.number().int().min(1).max(MAX_CSV_UPLOAD_BYTES),
    content_type: z.string().min(1).max(255).optional(),
    sha256: SHA256.optional(),
  })
  .superRefine((body, ctx) => {
    if (body.size_bytes > MAX_UPLOAD_BYTES && !isCsvUpload(body.filename, body.content_type)) {
      ctx.addIssue({ code: 'too_big', origin: 'number', maximum: MAX_UPLOAD_BYTES, inclusive: true, path: ['size_bytes'], message: 'Files are limited to 500 MB (CSV files for tables to 1 GB)' });
    }
  });

export const UploadTicket = z
  .object({
    fileId: z.string(),
    uploadUrl: z.string(),
    uploadMethod: z.literal('PUT'),
    uploadHeaders: z.record(z.string(), z.string()),
    mimeData: z.null(),
    expiresAt: z.string(),
  })
  .meta({ id: 'UploadTicket' });

export const CompleteUploadBody = z.object({ sha256: SHA256.optional() }).default({});

export const CreateFileBody = z.object({ document: MIMEData });

export const FileIdParams = z.object({ file_id: z.string() });

export const ListFilesQuery = ListQueryParams.extend({ mime_type: z.string().optional() });

export const DownloadLink = z
  .object({ download_url: z.string(), expires_in: z.string(), filename: z.string(), mime_data: MIMEData })
  .meta({ id: 'DownloadLink' });

// ── File blueprints (the Retab SDK's files.create_blueprint / get_blueprint / create_blueprint_cancel) ──

export const CreateBlueprintBody = z.object({
  file_id: z.string().min(1).describe('An uploaded File (file_...) of this environment'),
  intent: z.string().max(10_000).optional().describe('What the blueprint is for, in words: guides the document type, the split and the suggested schema'),
  mode: z.enum(['instant', 'reasoning']).optional().describe('Accepted and echoed (Retab: a legacy field); the analysis is one pass either way'),
  background: z.boolean().default(false),
});
export type CreateBlueprintBody = z.infer<typeof CreateBlueprintBody>;

export const FileBlueprint = z
  .object({
    object: z.literal('file.blueprint'),
    id: z.string(),
    file: FileRef,
    intent: z.string().nullable(),
    mode: z.enum(['instant', 'reasoning']).nullable(),
    output: z.record(z.string(), z.unknown()).describe('The document blueprint (README "File blueprints"); {} until completed'),
    status: RunStatus,
    error: PrimitiveError.nullable(),
    model: z.string(),
    usage: z.object({ credits: z.number(), page_count: z.number().int().optional() }),
    created_at: z.string(),
    started_at: z.string().nullable(),
    completed_at: z.string().nullable(),
  })
  .meta({ id: 'FileBlueprint' });
