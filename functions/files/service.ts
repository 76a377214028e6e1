/**
 * Files (API §2) and the document-input resolver every operation uses (API §0.4).
 *
 * Bytes are content-addressed per environment: `<org>/<env>/files/<sha256>`. The same bytes under the
 * same file name are the same File; under another name a new File sharing the stored bytes.
 * A lookup item (sha256 + file name → file id), written with a condition, keeps that true under
 * concurrent uploads.
 */
import { createHash } from 'node:crypto';
import { decodeDataUrl, DocumentProblem, kindOfMime, knownPageCount, sniffDocument, type Sniffed } from '../documents/sniff.ts';
import { Gone, Invalid, NotFound } from '../platform/errors.ts';
import { timestamp } from '../platform/ids.ts';
import type { Platform } from '../platform/platform.ts';
import type { Scope } from '../platform/ports.ts';
import type { DocumentInput, FileRef, MIMEData } from '../platform/schemas.ts';
import type { CheckedDocument } from './check.ts';
import type { File } from './schema.ts';

export const FILE_TYPE = 'file';
const UPLOAD_TYPE = 'upload';
const UPLOAD_TTL_SECONDS = 15 * 60;
const DOWNLOAD_TTL_SECONDS = 60 * 60;
/** How much of a stored object the sniffer reads from each end. */
const SNIFF_BYTES = 64 * 1024;

interface Upload {
  file_id: string;
  filename: string;
  size_bytes: number;
  content_type: string;
  sha256: string | null;
  expires_at: string;
  completed_file_id: string | null;
}

export function blobKeyOf(scope: Scope, sha256: string): string {
  return `${scope.orgId}/${scope.envId}/files/${sha256}`;
}
function uploadKeyOf(scope: Scope, fileId: string): string {
  return `${scope.orgId}/${scope.envId}/uploads/${fileId}`;
}
function lookupKeyOf(scope: Scope, sha256: string, filename: string): string {
  const nameHash = createHash('sha256').update(filename, 'utf8').digest('hex');
  return `${scope.orgId}#${scope.envId}#filebytes#${sha256}#${nameHash}`;
}

export function fileRefOf(file: File): FileRef {
  return { id: file.id, filename: file.filename, mime_type: file.mime_type };
}

function sha256Hex(bytes: Uint8Array): string {
  return createHash('sha256').update(bytes).digest('hex');
}

function problemAt(loc: (string | number)[], error: unknown): never {
  if (error instanceof DocumentProblem) throw Invalid.at(loc, error.message, error.code);
  throw error;
}

/**
 * How an upload is checked as a parse would open it (./check.ts's checkDocument). The files routes
 * pass it in, so the other routes' Lambdas, which resolve documents too, do not bundle the check.
 */
export type DocumentCheck = (kind: Sniffed['kind'], readBytes: () => Promise<Uint8Array>) => Promise<CheckedDocument>;

/**
 * The page count of a new File. Uploads (`check`) are checked as a parse would open them, a refusal
 * being a 422 at `loc`; documents given to other operations are checked when read, and their File
 * counts only what the kind alone tells (an image or a text is one page) until the run that reads
 * them records the rest (`pagesToCount`, `recordPageCount`).
 */
async function pageCountOf(sniffed: Sniffed, readBytes: () => Promise<Uint8Array>, check: DocumentCheck | undefined, loc: (string | number)[]): Promise<number | null> {
  if (!check) return knownPageCount(sniffed.kind);
  try {
    return (await check(sniffed.kind, readBytes)).pageCount;
  } catch (error) {
    problemAt(loc, error);
  }
}

/**
 * Whether a File still lacks the page count an upload of it would have (`POST /v1/files` counts PDF
 * pages, XLSX sheets, PPTX slides and EPUB spine documents; the kind alone tells the others, or nothing cheap does: DOCX,
 * TIFF, e-mail). Such a File was stored by a run from its document (a data URL, a download URL): the
 * run counts its pages when it reads them and records the count (`recordPageCount`).
 */
export function pagesToCount(file: File): boolean {
  if (file.page_count !== null) return false;
  const kind = kindOfMime(file.mime_type);
  return kind === 'pdf' || kind === 'xlsx' || kind === 'pptx' || kind === 'epub';
}

/** Records the page count a run read on the File it was given (see pagesToCount); a File gone meanwhile is left so. */
export async function recordPageCount(p: Platform, scope: Scope, fileId: string, pageCount: number): Promise<void> {
  await p.store.updateRecord<File>(scope, FILE_TYPE, fileId, { page_count: pageCount });
}

/**
 * Finds or creates the File for stored bytes and a file name. `lookedUp`: the read of the (bytes,
 * name) lookup item when the caller started it already (alongside its other calls).
 */
async function fileFor(
  p: Platform,
  scope: Scope,
  stored: { sha256: string; sizeBytes: number; filename: string; sniffed: Pick<Sniffed, 'mimeType'>; pageCount: number | null },
  preferredId?: string,
  lookedUp?: Promise<string | undefined>,
): Promise<File> {
  const { sha256, sizeBytes, filename, sniffed } = stored;
  const lookupKey = lookupKeyOf(scope, sha256, filename);
  const existingId = await (lookedUp ?? p.store.getItem<string>(lookupKey));
  if (existingId) {
    const existing = await p.store.getRecord<File>(scope, FILE_TYPE, existingId);
    if (existing) return existing.data;
  }
  const file: File = {
    object: 'file',
    id: preferredId ?? p.ids.next('file'),
    filename,
    mime_type: sniffed.mimeType,
    size_bytes: sizeBytes,
    sha256,
    page_count: stored.pageCount,
    created_at: timestamp(p.clock.now()),
  };
  // Claim the (bytes, name) pair first; a concurrent twin that lost reads the winner's file.
  const claimed = await p.store.putItem(lookupKey, file.id, { ifAbsent: true });
  if (!claimed) {
    const winnerId = await p.store.getItem<string>(lookupKey);
    const winner = winnerId ? await p.store.getRecord<File>(scope, FILE_TYPE, winnerId) : undefined;
    if (winner) return winner.data;
    await p.store.putItem(lookupKey, file.id);
  }
  await p.store.putRecord(scope, {
    type: FILE_TYPE,
    id: file.id,
    createdAt: file.created_at,
    filename: file.filename,
    attrs: { mime_type: file.mime_type },
    data: file,
  });
  return file;
}

/**
 * Stores bytes received inline (data URL or one-shot upload) and returns their File; `check` as for
 * resolveDocument. `pageCount`: the page count when the caller knows it already (a document a run
 * made, e.g. an edit's filled PDF), recorded without reading the bytes again.
 */
export async function storeBytes(
  p: Platform,
  scope: Scope,
  bytes: Uint8Array,
  filename: string,
  declaredMime: string | undefined,
  loc: (string | number)[],
  options: { check?: DocumentCheck; pageCount?: number } = {},
): Promise<File> {
  let sniffed: Sniffed;
  try {
    sniffed = sniffDocument({ head: bytes.subarray(0, SNIFF_BYTES), tail: bytes.subarray(Math.max(0, bytes.length - SNIFF_BYTES)), size: bytes.length, filename, declaredMime });
  } catch (error) {
    problemAt(loc, error);
  }
  // Checked before anything is stored: a refused document leaves nothing behind.
  const pageCount = options.pageCount ?? (await pageCountOf(sniffed, async () => bytes, options.check, loc));
  const sha256 = sha256Hex(bytes);
  const key = blobKeyOf(scope, sha256);
  // The bytes are checked (and stored) in storage while an existing File is looked up: one round
  // trip less for every inline document. A File of these bytes means their object exists (document
  // objects are never deleted, and each is stored before its File), so it is not waited for then.
  const storing = p.blobs.head(key).then(async (head) => {
    if (!head) await p.blobs.put(key, bytes, sniffed.mimeType);
  });
  storing.catch(() => undefined); // (awaited below when needed; this only keeps a failure observed)
  const existingId = await p.store.getItem<string>(lookupKeyOf(scope, sha256, filename));
  const existing = existingId ? await p.store.getRecord<File>(scope, FILE_TYPE, existingId) : undefined;
  if (existing) {
    // A File stored before its count was known gets it now.
    if (existing.data.page_count === null && pageCount !== null) {
      await recordPageCount(p, scope, existing.data.id, pageCount);
      return { ...existing.data, page_count: pageCount };
    }
    return existing.data;
  }
  await storing;
  // (A twin claiming the pair meanwhile is caught by fileFor's claim.)
  return fileFor(p, scope, { sha256, sizeBytes: bytes.length, filename, sniffed, pageCount }, undefined, Promise.resolve(undefined));
}

/** The whole of an object in storage (for the check of an upload). */
async function storedBytes(p: Platform, key: string): Promise<Uint8Array> {
  const bytes = await p.blobs.get(key);
  if (!bytes) throw new Error(`Object ${key} vanished while it was read`);
  return bytes;
}

/** Sniffs an object already in storage by reading a range from each end. */
async function sniffStored(p: Platform, key: string, sizeBytes: number, filename: string, declaredMime: string | undefined): Promise<Sniffed> {
  const head = await p.blobs.getRange(key, 0, SNIFF_BYTES - 1);
  const tail = sizeBytes > SNIFF_BYTES ? await p.blobs.getRange(key, Math.max(0, sizeBytes - SNIFF_BYTES), sizeBytes - 1) : head;
  if (!head || !tail) throw new Error(`Object ${key} vanished while it was read`);
  return sniffDocument({ head, tail, size: sizeBytes, filename, declaredMime });
}

export async function getFile(p: Platform, scope: Scope, fileId: string): Promise<File> {
  const record = await p.store.getRecord<File>(scope, FILE_TYPE, fileId);
  if (!record) throw NotFound.of('File', fileId);
  return record.data;
}

export async function downloadUrlOf(p: Platform, scope: Scope, file: File): Promise<string> {
  return p.blobs.presignGet(blobKeyOf(scope, file.sha256), DOWNLOAD_TTL_SECONDS, file.filename);
}

export async function downloadLink(p: Platform, scope: Scope, fileId: string) {
  const file = await getFile(p, scope, fileId);
  const url = await downloadUrlOf(p, scope, file);
  return { download_url: url, expires_in: '60 minutes', filename: file.filename, mime_data: { filename: file.filename, url } };
}

// ---- three-step upload (API §2.1) ----

export async function createUpload(
  p: Platform,
  scope: Scope,
  input: { filename: string; size_bytes: number; content_type?: string | undefined; sha256?: string | undefined },
) {
  const fileId = p.ids.next('file');
  const now = p.clock.now();
  const upload: Upload = {
    file_id: fileId,
    filename: input.filename,
    size_bytes: input.size_bytes,
    content_type: input.content_type ?? 'application/octet-stream',
    sha256: input.sha256?.toLowerCase() ?? null,
    expires_at: timestamp(new Date(now.getTime() + UPLOAD_TTL_SECONDS * 1000)),
    completed_file_id: null,
  };
  const put = await p.blobs.presignPut(uploadKeyOf(scope, fileId), UPLOAD_TTL_SECONDS, upload.content_type);
  await p.store.putRecord(scope, { type: UPLOAD_TYPE, id: fileId, createdAt: timestamp(now), data: upload });
  return { fileId, uploadUrl: put.url, uploadMethod: 'PUT' as const, uploadHeaders: put.headers, mimeData: null, expiresAt: upload.expires_at };
}

async function completedAnswer(p: Platform, scope: Scope, upload: Upload): Promise<MIMEData | undefined> {
  if (!upload.completed_file_id) return undefined;
  const file = await getFile(p, scope, upload.completed_file_id);
  return { filename: file.filename, url: await downloadUrlOf(p, scope, file) };
}

export async function completeUpload(p: Platform, scope: Scope, fileId: string, input: { sha256?: string | undefined }, check: DocumentCheck): Promise<MIMEData> {
  const record = await p.store.getRecord<Upload>(scope, UPLOAD_TYPE, fileId);
  if (!record) throw NotFound.of('Upload', fileId);
  const upload = record.data;
  const done = await completedAnswer(p, scope, upload);
  if (done) return done;
  if (p.clock.now().toISOString() > upload.expires_at) throw new Gone(`Upload ${fileId} expired at ${upload.expires_at}; start a new upload`);
  try {
    return await finishUpload(p, scope, fileId, upload, input, check);
  } catch (error) {
    // A concurrent complete of the same upload (a client retrying) may have finished it and removed
    // the uploaded object while this one read it: answer as that one did.
    const again = await p.store.getRecord<Upload>(scope, UPLOAD_TYPE, fileId);
    const answer = again ? await completedAnswer(p, scope, again.data) : undefined;
    if (answer) return answer;
    throw error;
  }
}

/**
 * What a completed upload is (issue 43): the upload stores what was sent, whatever it is. Its type
 * is sniffed and it is checked as a parse would open it, only to give the File its MIME type and
 * page count: bytes of no supported type keep the declared content type, and a document the check
 * refuses (a PDF cut short, a DOCX without its body) keeps `page_count: null`. A run given the File
 * judges it then, with the clear 422 a document that cannot be read always gets (resolveDocument
 * sniffs a File of an unsupported type again; a read that fails answers the read's own message).
 */
async function judgeUpload(p: Platform, uploadKey: string, sizeBytes: number, upload: Upload, check: DocumentCheck): Promise<{ sniffed: Pick<Sniffed, 'mimeType'>; pageCount: number | null }> {
  let sniffed: Sniffed;
  try {
    sniffed = await sniffStored(p, uploadKey, sizeBytes, upload.filename, upload.content_type);
  } catch (error) {
    if (!(error instanceof DocumentProblem)) throw error;
    return { sniffed: { mimeType: declaredMimeOf(upload.content_type) }, pageCount: null };
  }
  try {
    return { sniffed, pageCount: (await check(sniffed.kind, () => storedBytes(p, uploadKey))).pageCount };
  } catch (error) {
    if (!(error instanceof DocumentProblem)) throw error;
    return { sniffed, pageCount: null };
  }
}

/** The declared content type without its parameters, as a File's `mime_type` (`application/octet-stream` when none was). */
function declaredMimeOf(contentType: string): string {
  const mime = contentType.split(';')[0]!.trim().toLowerCase();
  return /^[a-z0-9!#$&^_.+-]+\/[a-z0-9!#$&^_.+-]+$/.test(mime) ? mime : 'application/octet-stream';
}

async function finishUpload(p: Platform, scope: Scope, fileId: string, upload: Upload, input: { sha256?: string | undefined }, check: DocumentCheck): Promise<MIMEData> {
  const uploadKey = uploadKeyOf(scope, fileId);
  const head = await p.blobs.head(uploadKey);
  if (!head) throw Invalid.at(['path', 'file_id'], `No bytes were uploaded for ${fileId}: PUT the file to uploadUrl first`, 'upload_missing');
  if (head.sizeBytes !== upload.size_bytes) {
    throw Invalid.at(['body'], `Uploaded ${head.sizeBytes} bytes but size_bytes was ${upload.size_bytes}`, 'size_mismatch');
  }
  const actual = await p.blobs.sha256(uploadKey);
  if (!actual) throw new Error(`Object ${uploadKey} vanished while it was read`);
  const expected = input.sha256?.toLowerCase() ?? upload.sha256;
  if (expected && expected !== actual) {
    throw Invalid.at(['body', 'sha256'], `Checksum mismatch: the uploaded bytes have sha256 ${actual}, expected ${expected}`, 'checksum_mismatch');
  }
  const { sniffed, pageCount } = await judgeUpload(p, uploadKey, head.sizeBytes, upload, check);
  const blobKey = blobKeyOf(scope, actual);
  if (!(await p.blobs.head(blobKey))) await p.blobs.copy(uploadKey, blobKey);
  const file = await fileFor(p, scope, { sha256: actual, sizeBytes: head.sizeBytes, filename: upload.filename, sniffed, pageCount }, fileId);
  await p.store.updateRecord<Upload>(scope, UPLOAD_TYPE, fileId, { completed_file_id: file.id });
  await p.blobs.delete(uploadKey);
  return { filename: file.filename, url: await downloadUrlOf(p, scope, file) };
}

// ---- the document-input resolver (API §0.4) ----

export interface ResolvedDocument {
  file: File;
  /** Where the bytes are: pass this key between states, never the bytes. */
  blobKey: string;
}

/**
 * Turns a `document` of a request body into a stored File: a data URL is decoded and stored, a
 * download URL this service issued is read from storage (no outbound request), a FileRef must name
 * a file of the caller's environment. Everything else is a 422 at `loc`. With `check` (uploads), a
 * new File is also checked as a parse would open it, and its page count recorded (./check.ts).
 */
export async function resolveDocument(p: Platform, scope: Scope, input: DocumentInput, loc: (string | number)[], options: { check?: DocumentCheck } = {}): Promise<ResolvedDocument> {
  const check = options.check;
  if ('url' in input && typeof input.url === 'string') {
    const { filename, url } = input;
    if (url.startsWith('data:')) {
      let decoded: { mime: string; bytes: Buffer };
      try {
        decoded = decodeDataUrl(url);
      } catch (error) {
        problemAt([...loc, 'url'], error);
      }
      const file = await storeBytes(p, scope, decoded.bytes, filename, decoded.mime, [...loc, 'url'], { check });
      return { file, blobKey: blobKeyOf(scope, file.sha256) };
    }
    const key = p.blobs.keyOfUrl(url);
    const prefix = `${scope.orgId}/${scope.envId}/files/`;
    if (!key) {
      throw Invalid.at(
        [...loc, 'url'],
        'Only data: URLs and download URLs issued by this service are accepted; upload the file (POST /v1/files/upload) and pass a FileRef',
        'url_unsupported',
      );
    }
    const sha256 = key.slice(prefix.length);
    if (!key.startsWith(prefix) || !/^[0-9a-f]{64}$/.test(sha256)) throw Invalid.at([...loc, 'url'], 'File not found: the URL does not name a file of this environment', 'file_not_found');
    const head = await p.blobs.head(key);
    if (!head) throw Invalid.at([...loc, 'url'], 'File not found: the URL does not name a file of this environment', 'file_not_found');
    let sniffed: Sniffed;
    try {
      sniffed = await sniffStored(p, key, head.sizeBytes, filename, undefined);
    } catch (error) {
      problemAt([...loc, 'url'], error);
    }
    const pageCount = await pageCountOf(sniffed, () => storedBytes(p, key), check, [...loc, 'url']);
    const file = await fileFor(p, scope, { sha256, sizeBytes: head.sizeBytes, filename, sniffed, pageCount });
    return { file, blobKey: key };
  }
  const id = (input as { id: string }).id;
  const record = await p.store.getRecord<File>(scope, FILE_TYPE, id);
  if (!record) throw Invalid.at([...loc, 'id'], `File ${id} not found`, 'file_not_found', id);
  const file = record.data;
  const blobKey = blobKeyOf(scope, file.sha256);
  // A File of no supported type (an upload stores whatever was sent): the sniffer says why, as a 422.
  if (!kindOfMime(file.mime_type)) {
    try {
      const sniffed = await sniffStored(p, blobKey, file.size_bytes, file.filename, file.mime_type);
      return { file: { ...file, mime_type: sniffed.mimeType }, blobKey };
    } catch (error) {
      problemAt([...loc, 'id'], error);
    }
  }
  return { file, blobKey };
}

/** The one-shot upload (API §2.2): the document resolved as any input is, and checked as a parse would open it. */
export async function uploadFile(p: Platform, scope: Scope, document: MIMEData, check: DocumentCheck): Promise<File> {
  const { file } = await resolveDocument(p, scope, document, ['body', 'document'], { check });
  return file;
}
