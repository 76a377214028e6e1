/**
 * Local files into API document inputs: small files inline as a data URL (one request), larger ones
 * through the three-step upload (API §2.1) and then passed as a FileRef.
 */
import { createHash } from 'node:crypto';
import { createReadStream, readFileSync, statSync } from 'node:fs';
import { basename, extname } from 'node:path';
import { type ApiClient, putStream } from './api-client.ts';

/** Files up to this size go inline: the body stays well under the 6 MB request limit after base64. */
export const INLINE_LIMIT_BYTES = 4 * 1024 * 1024;

const MIME_BY_EXTENSION: Record<string, string> = {
  '.pdf': 'application/pdf',
  '.png': 'image/png',
  '.jpg': 'image/jpeg',
  '.jpeg': 'image/jpeg',
  '.tif': 'image/tiff',
  '.tiff': 'image/tiff',
  '.webp': 'image/webp',
  '.docx': 'application/vnd.openxmlformats-officedocument.wordprocessingml.document',
  '.xlsx': 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet',
  '.csv': 'text/csv',
  '.txt': 'text/plain',
  '.md': 'text/markdown',
  '.json': 'application/json',
};

export function mimeTypeOf(path: string): string {
  return MIME_BY_EXTENSION[extname(path).toLowerCase()] ?? 'application/octet-stream';
}

export interface DocumentInput {
  filename: string;
  url: string;
}

export interface Progress {
  (sent: number, total: number): void;
}

function sha256Of(path: string): Promise<string> {
  return new Promise((resolve, reject) => {
    const hash = createHash('sha256');
    createReadStream(path)
      .on('data', (chunk) => hash.update(chunk))
      .on('end', () => resolve(hash.digest('hex')))
      .on('error', reject);
  });
}

/**
 * The three-step upload. Returns the MIMEData the service answers (its download URL is accepted back
 * as a document) and the file's SHA-256: the same bytes under the same name are one File, so the
 * File's id may be an earlier upload's rather than this ticket's.
 */
export async function uploadFile(client: ApiClient, path: string, onProgress: Progress): Promise<{ document: { filename: string; url: string }; sha256: string }> {
  const size = statSync(path).size;
  const filename = basename(path);
  const mimeType = mimeTypeOf(path);
  const sha256 = await sha256Of(path);
  const ticket = await client.call<{ fileId: string; uploadUrl: string; uploadHeaders: Record<string, string> }>('POST', '/v1/files/upload', {
    json: { filename, size_bytes: size, content_type: mimeType, sha256 },
  });
  await putStream(ticket.uploadUrl, ticket.uploadHeaders, createReadStream(path, { highWaterMark: 1024 * 1024 }), size, (sent) => onProgress(sent, size));
  const document = await client.call<{ filename: string; url: string }>('POST', `/v1/files/upload/${ticket.fileId}/complete`, { json: { sha256 } });
  return { document, sha256 };
}

export async function documentInput(client: ApiClient, path: string, onProgress: Progress): Promise<DocumentInput> {
  const size = statSync(path).size;
  if (size <= INLINE_LIMIT_BYTES) {
    return { filename: basename(path), url: `data:${mimeTypeOf(path)};base64,${readFileSync(path).toString('base64')}` };
  }
  return (await uploadFile(client, path, onProgress)).document;
}
