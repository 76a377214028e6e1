/**
 * Reading ZIP archives (DOCX, XLSX and PPTX are ZIP packages) without trusting them: the central
 * directory is listed without inflating anything, declared sizes are checked before any part is
 * inflated (a decompression bomb is refused up front), and inflation itself is capped at the declared
 * size (a lying header cannot make us inflate more). Used by the DOCX, XLSX and PPTX readers (through
 * ./ooxml.ts) and by the upload check (../files/check.ts), which must stay light: node:zlib only.
 */
import { createInflateRaw, inflateRawSync } from 'node:zlib';
import { ReadFailure } from './doc.ts';

export interface ZipEntry {
  name: string;
  /** 0 stored, 8 deflated. */
  method: number;
  flags: number;
  compressedSize: number;
  uncompressedSize: number;
  localHeaderOffset: number;
}

/** Inflated bytes we accept for the parts we read (API: documents are bounded; XML beyond this is a bomb). */
export const MAX_INFLATED_BYTES = 100 * 1024 * 1024;
/** Above this size a part must not compress better than MAX_RATIO:1 (real XML stays well under it). */
const RATIO_CHECK_BYTES = 10 * 1024 * 1024;
const MAX_RATIO = 100;

/** Lists a ZIP archive's entries from its central directory, without inflating anything. */
export function readZipDirectory(bytes: Uint8Array, what: string): Map<string, ZipEntry> {
  const data = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  if (data.length >= 4 && data.readUInt32BE(0) === 0xd0cf11e0) {
    // Office wraps password-protected documents in an OLE container instead of a ZIP.
    throw new ReadFailure(`The ${what} is password-protected (encrypted) or a legacy Office file, which cannot be read`, 'document_unsupported');
  }
  // The end-of-central-directory record is the last 22 bytes, unless an archive comment follows it.
  let end = -1;
  for (let i = data.length - 22; i >= Math.max(0, data.length - 22 - 0xffff); i--) {
    if (data.readUInt32LE(i) === 0x06054b50) {
      end = i;
      break;
    }
  }
  if (end < 0) throw new ReadFailure(`The ${what} is corrupt (not a ZIP archive)`);
  const directorySize = data.readUInt32LE(end + 12);
  const directoryOffset = data.readUInt32LE(end + 16);
  if (directoryOffset === 0xffffffff || directoryOffset + directorySize > end) {
    // ZIP64 (over 4 GB) or an inconsistent directory: neither is a document we can read.
    throw new ReadFailure(`The ${what} is corrupt (bad ZIP central directory)`);
  }
  const entries = new Map<string, ZipEntry>();
  for (let at = directoryOffset; at < directoryOffset + directorySize; ) {
    if (at + 46 > end || data.readUInt32LE(at) !== 0x02014b50) throw new ReadFailure(`The ${what} is corrupt (bad ZIP central directory)`);
    const nameLength = data.readUInt16LE(at + 28);
    const entry: ZipEntry = {
      name: data.toString('utf8', at + 46, at + 46 + nameLength),
      flags: data.readUInt16LE(at + 8),
      method: data.readUInt16LE(at + 10),
      compressedSize: data.readUInt32LE(at + 20),
      uncompressedSize: data.readUInt32LE(at + 24),
      localHeaderOffset: data.readUInt32LE(at + 42),
    };
    entries.set(entry.name, entry);
    at += 46 + nameLength + data.readUInt16LE(at + 30) + data.readUInt16LE(at + 32);
  }
  return entries;
}

/** Refuses parts whose declared sizes make them a decompression bomb, before inflating any of them. */
export function checkInflatedSizes(entries: ZipEntry[], what: string, maxTotal = MAX_INFLATED_BYTES): void {
  let total = 0;
  for (const entry of entries) {
    // A ZIP64 size (0xFFFFFFFF marker) is at least that large, so it fails the total as it should.
    total += entry.uncompressedSize;
    const ratio = entry.uncompressedSize / Math.max(1, entry.compressedSize);
    if (entry.uncompressedSize > RATIO_CHECK_BYTES && ratio > MAX_RATIO) {
      throw new ReadFailure(`The ${what} looks like a decompression bomb: ${entry.name} expands ${Math.round(ratio)}:1 to ${entry.uncompressedSize} bytes`);
    }
    if (entry.flags & 1) throw new ReadFailure(`The ${what} is encrypted (${entry.name}), which is not supported`, 'document_unsupported');
    if (entry.method !== 0 && entry.method !== 8) throw new ReadFailure(`The ${what} uses an unsupported ZIP compression method (${entry.method})`, 'document_unsupported');
  }
  if (total > maxTotal) {
    throw new ReadFailure(`The ${what} is too large to read: its parts expand to ${total} bytes (limit ${maxTotal})`);
  }
}

/** The compressed bytes of an entry (after its local header). */
export function entryData(bytes: Uint8Array, entry: ZipEntry, what: string): Buffer {
  const data = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const at = entry.localHeaderOffset;
  if (at + 30 > data.length || data.readUInt32LE(at) !== 0x04034b50) throw new ReadFailure(`The ${what} is corrupt (bad ZIP entry ${entry.name})`);
  const start = at + 30 + data.readUInt16LE(at + 26) + data.readUInt16LE(at + 28);
  if (start + entry.compressedSize > data.length) throw new ReadFailure(`The ${what} is corrupt (truncated ZIP entry ${entry.name})`);
  return data.subarray(start, start + entry.compressedSize);
}

/** Inflates one entry, never past its declared size (checked beforehand by checkInflatedSizes). */
export function inflateEntry(bytes: Uint8Array, entry: ZipEntry, what: string): Buffer {
  const compressed = entryData(bytes, entry, what);
  let inflated: Buffer;
  try {
    inflated = entry.method === 0 ? compressed : inflateRawSync(compressed, { maxOutputLength: Math.max(1, entry.uncompressedSize) });
  } catch (error) {
    const detail = error instanceof RangeError ? 'it expands beyond its declared size' : 'corrupt compressed data';
    throw new ReadFailure(`The ${what} is corrupt (${entry.name}: ${detail})`);
  }
  if (inflated.length !== entry.uncompressedSize) throw new ReadFailure(`The ${what} is corrupt (${entry.name} does not match its declared size)`);
  return inflated;
}

/**
 * Inflates an entry without keeping the output, failing if it produces more (or other) than its
 * declared size. For readers (exceljs) that inflate the archive themselves without a limit.
 */
export async function verifyInflatedSize(bytes: Uint8Array, entry: ZipEntry, what: string): Promise<void> {
  const compressed = entryData(bytes, entry, what);
  if (entry.method === 0) {
    if (compressed.length !== entry.uncompressedSize) throw new ReadFailure(`The ${what} is corrupt (${entry.name} does not match its declared size)`);
    return;
  }
  const inflater = createInflateRaw();
  inflater.end(compressed);
  let total = 0;
  try {
    for await (const chunk of inflater) {
      total += (chunk as Buffer).length;
      if (total > entry.uncompressedSize) break; // leaving the loop destroys the stream
    }
  } catch {
    throw new ReadFailure(`The ${what} is corrupt (${entry.name}: corrupt compressed data)`);
  }
  if (total !== entry.uncompressedSize) throw new ReadFailure(`The ${what} is corrupt or a decompression bomb (${entry.name} does not match its declared size)`);
}
