/**
 * Image files (PNG, JPEG, TIFF, WEBP) to greyscale rasters for OCR.
 *
 * Every file is checked before any pixel is decoded: the header must be well formed, the size under
 * the limit, and the file structurally complete. The decoders are not safe on bad input:
 * @napi-rs/canvas decodes a truncated PNG or JPEG silently (the missing part comes out blank), hangs
 * on a 1-byte file, and crashes the process (SIGSEGV) on a file cut after its header or with damaged
 * compressed data (so it also runs in a child process: see decodeInChild); utif2 loops forever on a
 * TIFF whose directory chain points back at itself and reads a truncated strip as black.
 */
import UTIF from 'utif2';
import { spawn } from 'node:child_process';
import { createRequire } from 'node:module';
import { pathToFileURL } from 'node:url';
import { crc32 } from 'node:zlib';
import { MAX_PAGES, ReadFailure, type GreyImage } from './doc.ts';

export type ImageKind = 'png' | 'jpeg' | 'tiff' | 'webp';

export interface ImageSize {
  width: number;
  height: number;
  /** Number of frames (pages), for TIFF. */
  frames?: number;
}

/** Largest frame we decode: 100 MP is a 600 dpi A3 scan with room to spare. Decoding takes ~5 bytes a pixel. */
export const MAX_IMAGE_PIXELS = 100_000_000;
/** Largest sum over a multi-frame TIFF: all frames are returned at once, one byte per pixel. */
export const MAX_IMAGE_TOTAL_PIXELS = 1_000_000_000;
/** The dpi assumed when the file does not say (GreyImage contract). */
const UNKNOWN_DPI = 72;

const KIND_NAME: Record<ImageKind, string> = { png: 'PNG', jpeg: 'JPEG', tiff: 'TIFF', webp: 'WEBP' };

/**
 * Width, height (and TIFF frame count) from the file header alone, without decoding pixels.
 * Undefined when the header is missing, truncated or not of `kind`. For TIFF, width and height are
 * the first frame's.
 */
export function imageHeaderSize(bytes: Uint8Array, kind: ImageKind): ImageSize | undefined {
  try {
    return readHeader(bytes, kind);
  } catch (error) {
    if (error instanceof FormatError || error instanceof ReadFailure) return undefined;
    throw error;
  }
}

/** imageHeaderSize, throwing FormatError (naming the problem) instead of returning undefined. */
function readHeader(bytes: Uint8Array, kind: ImageKind): ImageSize {
  switch (kind) {
    case 'png':
      return pngHeader(bytes);
    case 'jpeg': {
      const { width, height } = scanJpeg(bytes, false);
      return { width, height };
    }
    case 'webp':
      return webpHeader(bytes);
    case 'tiff': {
      const pages = readTiff(bytes).frames.filter((frame) => frame.page);
      const { width, height } = pages[0];
      if (width === 0 || height === 0) throw new FormatError('the first frame has no size');
      return { width, height, frames: pages.length };
    }
  }
}

/**
 * Decodes an image file to one greyscale raster per frame (TIFF pages; one frame for the others).
 * Transparent pixels come out white. Throws ReadFailure for files that are corrupt, truncated,
 * unsupported or too large; never hangs on them.
 */
export async function decodeImage(bytes: Uint8Array, kind: ImageKind): Promise<GreyImage[]> {
  const name = KIND_NAME[kind];
  try {
    if (kind === 'tiff') return decodeTiff(bytes);
    const size = readHeader(bytes, kind);
    checkPixels(size.width, size.height);
    // Structure and dpi are only read once the size is known to be acceptable.
    const dpi = kind === 'png' ? checkPng(bytes) : kind === 'jpeg' ? checkJpeg(bytes) : checkWebp(bytes);
    return [await decodeInChild(bytes, size, dpi)];
  } catch (error) {
    if (error instanceof ReadFailure) throw error;
    if (error instanceof FormatError) throw new ReadFailure(`The ${name} image cannot be read: ${error.message}.`);
    // Anything else came from inside a decoder on data that passed the structure checks.
    throw new ReadFailure(`The ${name} image cannot be decoded: ${describe(error)}.`);
  }
}

/**
 * RGBA to grey (ITU-R 601 luma, integer weights summing to 256), composited on white so transparent
 * areas read as paper, not ink.
 */
export function rgbaToGrey(rgba: Uint8Array | Uint8ClampedArray, width: number, height: number): Uint8Array {
  const pixels = width * height;
  const grey = new Uint8Array(pixels);
  for (let i = 0, j = 0; i < pixels; i += 1, j += 4) {
    const luma = (rgba[j] * 77 + rgba[j + 1] * 150 + rgba[j + 2] * 29) >> 8;
    const alpha = rgba[j + 3];
    grey[i] = alpha === 255 ? luma : Math.round((luma * alpha + 255 * (255 - alpha)) / 255);
  }
  return grey;
}

/** RGB to grey, the same luma as rgbaToGrey (no alpha: opaque). */
export function rgbToGrey(rgb: Uint8Array | Uint8ClampedArray, width: number, height: number): Uint8Array {
  const pixels = width * height;
  const grey = new Uint8Array(pixels);
  for (let i = 0, j = 0; i < pixels; i += 1, j += 3) grey[i] = (rgb[j]! * 77 + rgb[j + 1]! * 150 + rgb[j + 2]! * 29) >> 8;
  return grey;
}

/** A structural problem in a file; decodeImage turns it into a ReadFailure naming the format. */
class FormatError extends Error {}

function checkPixels(width: number, height: number, frame?: number): void {
  if (width * height <= MAX_IMAGE_PIXELS) return;
  const which = frame === undefined ? 'The image' : `Frame ${frame} of the image`;
  throw new ReadFailure(
    `${which} is ${width}×${height} pixels; the limit is ${MAX_IMAGE_PIXELS / 1_000_000} megapixels.`,
    'document_unsupported',
  );
}

function describe(error: unknown): string {
  const text = error instanceof Error ? error.message : String(error);
  return text.replace(/\.$/, '') || 'unknown error';
}

/** Dots per inch from a resolution in the file, or the contract's 72 when absent or implausible. */
function plausibleDpi(dpi: number | undefined): number {
  return dpi !== undefined && Number.isFinite(dpi) && dpi >= 20 && dpi <= 10_000 ? Math.round(dpi) : UNKNOWN_DPI;
}

// --- PNG ---------------------------------------------------------------------------------------

const PNG_SIGNATURE = [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a];

function pngHeader(bytes: Uint8Array): ImageSize {
  if (bytes.length < 33 || PNG_SIGNATURE.some((b, i) => bytes[i] !== b)) throw new FormatError('not a PNG file');
  if (ascii(bytes, 12, 4) !== 'IHDR') throw new FormatError('the IHDR chunk is missing');
  const width = u32be(bytes, 16);
  const height = u32be(bytes, 20);
  if (width === 0 || height === 0) throw new FormatError('the image has no pixels');
  return { width, height };
}

/**
 * Walks every chunk to IEND (a truncated file has none) and checks the CRC of critical chunks, as
 * libpng does (ancillary chunks with a bad CRC are merely ignored by readers). Returns the dpi.
 */
function checkPng(bytes: Uint8Array): number {
  let offset = 8;
  let sawData = false;
  let dpi: number | undefined;
  for (;;) {
    if (offset + 12 > bytes.length) throw new FormatError('the file is truncated (no IEND chunk)');
    const length = u32be(bytes, offset);
    const type = ascii(bytes, offset + 4, 4);
    const end = offset + 12 + length;
    if (end > bytes.length) throw new FormatError(`the file is truncated (in the ${type} chunk)`);
    const critical = (bytes[offset + 4] & 0x20) === 0;
    if (critical && crc32(bytes.subarray(offset + 4, end - 4)) !== u32be(bytes, end - 4)) {
      throw new FormatError(`the ${type} chunk is corrupt (CRC mismatch)`);
    }
    if (type === 'IDAT') sawData = true;
    // pHYs: pixels per unit in x and y, unit 1 = metre.
    if (type === 'pHYs' && length === 9 && bytes[offset + 16] === 1) dpi = u32be(bytes, offset + 8) * 0.0254;
    if (type === 'IEND') break;
    offset = end;
  }
  if (!sawData) throw new FormatError('there is no image data (IDAT)');
  return plausibleDpi(dpi);
}

// --- JPEG --------------------------------------------------------------------------------------

interface JpegInfo {
  width: number;
  height: number;
  dpi: number | undefined;
}

/** The header (SOF) fields; with `complete`, also follows every scan to EOI and reads the density. */
function scanJpeg(bytes: Uint8Array, complete: boolean): JpegInfo {
  if (bytes.length < 4 || bytes[0] !== 0xff || bytes[1] !== 0xd8) throw new FormatError('not a JPEG file');
  const info: JpegInfo = { width: 0, height: 0, dpi: undefined };
  let jfifDpi: number | undefined;
  let exifDpi: number | undefined;
  let offset = 2;
  for (;;) {
    if (offset + 2 > bytes.length) throw new FormatError('the file is truncated (no end-of-image marker)');
    if (bytes[offset] !== 0xff) throw new FormatError(`a segment is corrupt at byte ${offset}`);
    const marker = bytes[offset + 1];
    if (marker === 0xff) {
      offset += 1; // fill byte before a marker
      continue;
    }
    if (marker === 0xd9) break; // EOI
    if ((marker >= 0xd0 && marker <= 0xd7) || marker === 0x01) {
      offset += 2; // markers without a length
      continue;
    }
    if (offset + 4 > bytes.length) throw new FormatError('the file is truncated (in a segment header)');
    const length = u16be(bytes, offset + 2);
    const start = offset + 4;
    const end = offset + 2 + length;
    if (length < 2 || end > bytes.length) throw new FormatError('the file is truncated (in a segment)');
    const isFrame = marker >= 0xc0 && marker <= 0xcf && marker !== 0xc4 && marker !== 0xc8 && marker !== 0xcc;
    if (isFrame && length >= 8) {
      info.height = u16be(bytes, start + 1);
      info.width = u16be(bytes, start + 3);
      if (info.width === 0 || info.height === 0) throw new FormatError('the frame header declares no pixels');
      if (!complete) return info;
    }
    if (marker === 0xe0 && length >= 16 && ascii(bytes, start, 5) === 'JFIF\0') {
      // JFIF density: units 1 = per inch, 2 = per cm (0 = aspect ratio only).
      const units = bytes[start + 7];
      const density = u16be(bytes, start + 8);
      if (units === 1) jfifDpi = density;
      if (units === 2) jfifDpi = density * 2.54;
    }
    if (marker === 0xe1 && length > 16 && ascii(bytes, start, 6) === 'Exif\0\0') {
      exifDpi = tiffResolution(bytes.subarray(start + 6, end));
    }
    offset = end;
    if (marker === 0xda) {
      // Start of scan: entropy-coded data runs to the next marker that is not a stuffed 0xFF00
      // or a restart marker.
      if (info.width === 0) throw new FormatError('a scan comes before the frame header');
      offset = nextJpegMarker(bytes, offset);
    }
  }
  if (info.width === 0) throw new FormatError('there is no frame header');
  info.dpi = jfifDpi ?? exifDpi;
  return info;
}

function nextJpegMarker(bytes: Uint8Array, from: number): number {
  for (let i = from; i + 1 < bytes.length; i += 1) {
    if (bytes[i] !== 0xff) continue;
    const next = bytes[i + 1];
    if (next !== 0x00 && next !== 0xff && !(next >= 0xd0 && next <= 0xd7)) return i;
  }
  throw new FormatError('the file is truncated (in the image data)');
}

function checkJpeg(bytes: Uint8Array): number {
  return plausibleDpi(scanJpeg(bytes, true).dpi);
}

// --- WEBP --------------------------------------------------------------------------------------

/** Size from the first image chunk: VP8X (extended, its canvas), VP8 (lossy) or VP8L (lossless). */
function webpHeader(bytes: Uint8Array): ImageSize {
  if (bytes.length < 30 || ascii(bytes, 0, 4) !== 'RIFF' || ascii(bytes, 8, 4) !== 'WEBP') {
    throw new FormatError('not a WEBP file');
  }
  const chunk = ascii(bytes, 12, 4);
  const data = 20;
  let width: number;
  let height: number;
  if (chunk === 'VP8X') {
    width = 1 + (bytes[data + 4] | (bytes[data + 5] << 8) | (bytes[data + 6] << 16));
    height = 1 + (bytes[data + 7] | (bytes[data + 8] << 8) | (bytes[data + 9] << 16));
  } else if (chunk === 'VP8 ') {
    if (bytes[data + 3] !== 0x9d || bytes[data + 4] !== 0x01 || bytes[data + 5] !== 0x2a) {
      throw new FormatError('the VP8 frame header is corrupt');
    }
    width = u16le(bytes, data + 6) & 0x3fff;
    height = u16le(bytes, data + 8) & 0x3fff;
  } else if (chunk === 'VP8L') {
    if (bytes[data] !== 0x2f) throw new FormatError('the VP8L header is corrupt');
    const bits = (bytes[data + 1] | (bytes[data + 2] << 8) | (bytes[data + 3] << 16) | (bytes[data + 4] << 24)) >>> 0;
    width = (bits & 0x3fff) + 1;
    height = ((bits >>> 14) & 0x3fff) + 1;
  } else {
    throw new FormatError(`unknown first chunk "${chunk}"`);
  }
  if (width === 0 || height === 0) throw new FormatError('the image has no pixels');
  return { width, height };
}

/** The RIFF container must be complete and hold an image chunk; returns the dpi (from EXIF, if any). */
function checkWebp(bytes: Uint8Array): number {
  const riffEnd = 8 + u32le(bytes, 4);
  if (riffEnd > bytes.length) throw new FormatError('the file is truncated');
  let offset = 12;
  let sawImage = false;
  let dpi: number | undefined;
  while (offset + 8 <= riffEnd) {
    const type = ascii(bytes, offset, 4);
    const length = u32le(bytes, offset + 4);
    const end = offset + 8 + length;
    if (end > riffEnd) throw new FormatError(`the file is truncated (in the ${type.trim()} chunk)`);
    if (type === 'VP8 ' || type === 'VP8L' || type === 'ANMF') sawImage = true; // ANMF: animation frame
    if (type === 'EXIF') dpi = tiffResolution(bytes.subarray(offset + 8, end));
    offset = end + (length & 1); // chunks are padded to an even length
  }
  if (!sawImage) throw new FormatError('there is no image data');
  return plausibleDpi(dpi);
}

// --- PNG, JPEG and WEBP pixels -----------------------------------------------------------------

/**
 * @napi-rs/canvas (Skia) decodes PNG, JPEG and WEBP, but crashes the process (SIGSEGV) on damaged
 * compressed data that passes every structural check: fuzzing found it within ten randomly damaged
 * PNGs or JPEGs, and within a hundred WEBPs. So it runs in a short-lived child process, where a
 * crash, a hang or a runaway allocation becomes a ReadFailure here. That costs ~100 ms per file,
 * little next to OCR. (pdf.js decodes the images inside PDFs itself, in JavaScript.)
 */
const DECODE_TIMEOUT_MS = 30_000;

/**
 * The child: reads the file from stdin, writes width and height (u32 BE) and then the grey pixels,
 * drawn on white in bands of rows (the decoded image stays cached, so bands cost no extra decoding
 * and save a full-size RGBA canvas). Luma weights as in rgbaToGrey. Exit 2: the decoder refused.
 */
function decoderScript(): string {
  const canvas = pathToFileURL(createRequire(import.meta.url).resolve('@napi-rs/canvas')).href;
  return `
import { createCanvas, loadImage } from ${JSON.stringify(canvas)};
const [expectedWidth, expectedHeight] = process.argv.slice(1).map(Number);
const chunks = [];
for await (const chunk of process.stdin) chunks.push(chunk);
let image;
try {
  image = await loadImage(Buffer.concat(chunks));
} catch (error) {
  process.stderr.write(String(error && error.message || error));
  process.exit(2);
}
const { width, height } = image;
if (width !== expectedWidth || height !== expectedHeight) {
  process.stderr.write('the decoder saw ' + width + '×' + height + ', the header says ' + expectedWidth + '×' + expectedHeight);
  process.exit(2);
}
const head = Buffer.alloc(8);
head.writeUInt32BE(width, 0);
head.writeUInt32BE(height, 4);
process.stdout.write(head);
const bandRows = 512;
const band = createCanvas(width, Math.min(bandRows, height)).getContext('2d');
for (let top = 0; top < height; top += bandRows) {
  const rows = Math.min(bandRows, height - top);
  band.fillStyle = '#ffffff';
  band.fillRect(0, 0, width, rows);
  band.drawImage(image, 0, -top);
  const rgba = band.getImageData(0, 0, width, rows).data;
  const grey = Buffer.allocUnsafe(width * rows);
  for (let i = 0, j = 0; i < grey.length; i += 1, j += 4) grey[i] = (rgba[j] * 77 + rgba[j + 1] * 150 + rgba[j + 2] * 29) >> 8;
  if (!process.stdout.write(grey)) await new Promise((resolve) => process.stdout.once('drain', resolve));
}
`;
}

async function decodeInChild(bytes: Uint8Array, size: ImageSize, dpi: number): Promise<GreyImage> {
  const { width, height } = size;
  const expected = 8 + width * height;
  // Only what starting Node and loading a native module may need: not NODE_OPTIONS, loaders or secrets.
  const env: Record<string, string> = {};
  for (const name of ['PATH', 'LD_LIBRARY_PATH']) if (process.env[name]) env[name] = process.env[name];
  const child = spawn(process.execPath, ['--input-type=module', '-e', decoderScript(), String(width), String(height)], {
    stdio: ['pipe', 'pipe', 'pipe'],
    env,
  });
  let timedOut = false;
  const timer = setTimeout(() => {
    timedOut = true;
    child.kill('SIGKILL');
  }, DECODE_TIMEOUT_MS);
  const output = new Uint8Array(expected);
  let received = 0;
  let errors = '';
  child.stdout.on('data', (chunk: Buffer) => {
    const room = Math.min(chunk.length, expected - received);
    output.set(chunk.subarray(0, room), received);
    received += chunk.length;
  });
  child.stderr.setEncoding('utf8').on('data', (text: string) => {
    errors = (errors + text).slice(0, 2000);
  });
  child.stdin.on('error', () => {}); // the child may exit before reading it all; its exit says why
  child.stdin.end(bytes);
  const [code, signal] = await new Promise<[number | null, NodeJS.Signals | null]>((resolve, reject) => {
    child.once('error', reject);
    child.once('close', (exitCode, exitSignal) => resolve([exitCode, exitSignal]));
  }).finally(() => clearTimeout(timer));
  if (timedOut) throw new ReadFailure(`Decoding the image took longer than ${DECODE_TIMEOUT_MS / 1000} s.`, 'timeout');
  if (code === 0 && received === expected) return { width, height, data: output.subarray(8), dpi };
  if (code === 2) throw new FormatError(errors.split('\n')[0].trim() || 'the decoder refused it');
  const how = signal ? `crashed with ${signal}` : code === 0 ? `sent ${received - 8} bytes of pixels` : `failed (exit code ${code})`;
  throw new FormatError(`the image data is corrupt (the decoder ${how})`);
}

// --- TIFF --------------------------------------------------------------------------------------

interface TiffFrame {
  /** False for reduced-resolution copies (thumbnails, NewSubfileType bit 0), which are not pages. */
  page: boolean;
  width: number;
  height: number;
  dpi: number | undefined;
  compression: number;
  /** [offset, length] of every strip or tile. */
  pieces: Array<[number, number]>;
}

/**
 * Compressions utif2 decodes that scanners and fax software write: none, CCITT RLE/G3/G4, LZW, old and
 * new JPEG, Deflate, PackBits. utif2 turns others into blank pages, so they are refused instead.
 */
const TIFF_COMPRESSIONS = new Set([1, 2, 3, 4, 5, 6, 7, 8, 32773, 32946]);

/** A TIFF reader over the byte order the file declares. */
class TiffReader {
  constructor(
    readonly bytes: Uint8Array,
    readonly littleEndian: boolean,
  ) {}

  u16(offset: number): number {
    this.need(offset, 2);
    return this.littleEndian ? u16le(this.bytes, offset) : u16be(this.bytes, offset);
  }

  u32(offset: number): number {
    this.need(offset, 4);
    return this.littleEndian ? u32le(this.bytes, offset) : u32be(this.bytes, offset);
  }

  need(offset: number, length: number): void {
    if (offset + length > this.bytes.length) throw new FormatError('the file is truncated (in a directory)');
  }
}

interface TiffEntry {
  type: number;
  count: number;
  /** Where the value is: inside the entry when it fits in 4 bytes, else at the offset it holds. */
  at: number;
}

const TIFF_TYPE_SIZE: Record<number, number> = { 1: 1, 2: 1, 3: 2, 4: 4, 5: 8, 6: 1, 7: 1, 8: 2, 9: 4, 10: 8, 11: 4, 12: 8, 13: 4 };

function tiffReader(bytes: Uint8Array): TiffReader {
  if (bytes.length < 8) throw new FormatError('not a TIFF file');
  const order = ascii(bytes, 0, 2);
  if (order !== 'II' && order !== 'MM') throw new FormatError('not a TIFF file');
  const reader = new TiffReader(bytes, order === 'II');
  const magic = reader.u16(2);
  if (magic === 43) throw new ReadFailure('BigTIFF files are not supported.', 'document_unsupported');
  if (magic !== 42) throw new FormatError('not a TIFF file');
  return reader;
}

/** Reads one directory's entries (by tag); returns them and the offset of the next directory. */
function tiffDirectory(reader: TiffReader, offset: number): { entries: Map<number, TiffEntry>; next: number } {
  const count = reader.u16(offset);
  reader.need(offset + 2, count * 12 + 4);
  const entries = new Map<number, TiffEntry>();
  for (let i = 0; i < count; i += 1) {
    const at = offset + 2 + i * 12;
    const type = reader.u16(at + 2);
    const size = TIFF_TYPE_SIZE[type];
    // utif2 stops reading a file at an unknown type; refuse it here rather than lose frames silently.
    if (size === undefined) throw new FormatError(`a directory entry has unknown type ${type}`);
    const valueCount = reader.u32(at + 4);
    const bytes = size * valueCount;
    const valueAt = bytes <= 4 ? at + 8 : reader.u32(at + 8);
    if (valueAt + bytes > reader.bytes.length) throw new FormatError('the file is truncated (a tag value is missing)');
    entries.set(reader.u16(at), { type, count: valueCount, at: valueAt });
  }
  return { entries, next: reader.u32(offset + 2 + count * 12) };
}

/** SHORT or LONG values of a tag. */
function tiffNumbers(reader: TiffReader, entry: TiffEntry | undefined): number[] {
  if (!entry) return [];
  if (entry.type !== 3 && entry.type !== 4) throw new FormatError('a size or offset tag has the wrong type');
  const values: number[] = [];
  for (let i = 0; i < entry.count; i += 1) {
    values.push(entry.type === 3 ? reader.u16(entry.at + i * 2) : reader.u32(entry.at + i * 4));
  }
  return values;
}

/** Dots per inch from XResolution (282) and ResolutionUnit (296: 1 none, 2 inch (default), 3 cm). */
function tiffDirectoryDpi(reader: TiffReader, entries: Map<number, TiffEntry>): number | undefined {
  const resolution = entries.get(282);
  if (!resolution || resolution.type !== 5) return undefined;
  const denominator = reader.u32(resolution.at + 4);
  if (denominator === 0) return undefined;
  const value = reader.u32(resolution.at) / denominator;
  const unit = tiffNumbers(reader, entries.get(296))[0] ?? 2;
  return unit === 2 ? value : unit === 3 ? value * 2.54 : undefined;
}

/**
 * Walks the IFD chain (refusing loops and more than MAX_PAGES directories) and reads each directory's
 * layout, thumbnails included (they keep their place so indices match utif2's list).
 */
function readTiff(bytes: Uint8Array): { frames: TiffFrame[] } {
  const reader = tiffReader(bytes);
  const frames: TiffFrame[] = [];
  const seen = new Set<number>();
  let offset = reader.u32(4);
  while (offset !== 0) {
    if (seen.has(offset)) throw new FormatError('the directory chain loops');
    seen.add(offset);
    if (frames.length === MAX_PAGES) {
      throw new ReadFailure(`The TIFF has more than ${MAX_PAGES} frames.`, 'document_unsupported');
    }
    const { entries, next } = tiffDirectory(reader, offset);
    const tiled = entries.has(322);
    const offsets = tiffNumbers(reader, entries.get(tiled ? 324 : 273));
    const lengths = tiffNumbers(reader, entries.get(tiled ? 325 : 279));
    frames.push({
      page: ((tiffNumbers(reader, entries.get(254))[0] ?? 0) & 1) === 0,
      width: tiffNumbers(reader, entries.get(256))[0] ?? 0,
      height: tiffNumbers(reader, entries.get(257))[0] ?? 0,
      dpi: tiffDirectoryDpi(reader, entries),
      compression: tiffNumbers(reader, entries.get(259))[0] ?? 1,
      pieces: offsets.map((start, i) => [start, lengths[i] ?? -1]),
    });
    offset = next;
  }
  if (!frames.some((frame) => frame.page)) throw new FormatError('there is no image directory');
  return { frames };
}

/** XResolution of the first directory of embedded TIFF data (JPEG and WEBP EXIF); never throws. */
function tiffResolution(bytes: Uint8Array): number | undefined {
  try {
    const reader = tiffReader(bytes);
    return tiffDirectoryDpi(reader, tiffDirectory(reader, reader.u32(4)).entries);
  } catch {
    return undefined; // unreadable EXIF is not a reason to refuse the image
  }
}

interface UtifOptions {
  parseMN: boolean;
  debug: boolean;
}

function decodeTiff(bytes: Uint8Array): GreyImage[] {
  const { frames } = readTiff(bytes);
  const pages = frames.filter((frame) => frame.page);
  let total = 0;
  pages.forEach((frame, i) => {
    const number = i + 1;
    if (frame.width === 0 || frame.height === 0) throw new FormatError(`frame ${number} has no size`);
    checkPixels(frame.width, frame.height, pages.length > 1 ? number : undefined);
    total += frame.width * frame.height;
    if (!TIFF_COMPRESSIONS.has(frame.compression)) {
      throw new ReadFailure(`TIFF compression ${frame.compression} is not supported.`, 'document_unsupported');
    }
    if (frame.pieces.length === 0) throw new FormatError(`frame ${number} has no image data`);
    for (const [start, length] of frame.pieces) {
      // utif2 reads past the end of a truncated file as zeros (a black band) instead of failing.
      if (length < 0 || start + length > bytes.length) throw new FormatError(`the file is truncated (frame ${number})`);
    }
  });
  if (total > MAX_IMAGE_TOTAL_PIXELS) {
    throw new ReadFailure(
      `The TIFF frames add up to ${Math.round(total / 1_000_000)} megapixels; the limit is ${MAX_IMAGE_TOTAL_PIXELS / 1_000_000}.`,
      'document_unsupported',
    );
  }
  // A fresh ArrayBuffer of exactly the file: utif2 resolves offsets against `.buffer`, which must
  // start at the file's first byte (a Buffer is often a view into a shared pool), and wraps an
  // ArrayBuffer without copying it (a view it would copy once per frame).
  const buffer = new Uint8Array(bytes).buffer;
  // MakerNote parsing follows further directory chains we have not checked; we never need it.
  const decode = UTIF.decode as (data: ArrayBuffer, options: UtifOptions) => UTIF.IFD[];
  const directories = decode(buffer, { parseMN: false, debug: false });
  if (directories.length !== frames.length) throw new FormatError('the directories cannot be read');
  const images: GreyImage[] = [];
  directories.forEach((directory, i) => {
    const frame = frames[i];
    if (!frame.page) return;
    UTIF.decodeImage(buffer, directory);
    if (directory.width !== frame.width || directory.height !== frame.height || !directory.data) {
      throw new FormatError(`frame ${images.length + 1} cannot be decoded`);
    }
    const rgba = UTIF.toRGBA8(directory);
    // For a colour model it does not know, utif2 logs and returns all-zero (transparent) pixels,
    // which would read as a blank white page.
    if (!hasOpaquePixel(rgba)) throw new FormatError(`frame ${images.length + 1} has a colour format that cannot be decoded`);
    const data = rgbaToGrey(rgba, frame.width, frame.height);
    images.push({ width: frame.width, height: frame.height, data, dpi: plausibleDpi(frame.dpi) });
  });
  return images;
}

function hasOpaquePixel(rgba: Uint8Array): boolean {
  for (let i = 3; i < rgba.length; i += 4) if (rgba[i] !== 0) return true;
  return false;
}

// --- bytes -------------------------------------------------------------------------------------

function ascii(bytes: Uint8Array, offset: number, length: number): string {
  return String.fromCharCode(...bytes.subarray(offset, offset + length));
}

function u16be(bytes: Uint8Array, offset: number): number {
  return (bytes[offset] << 8) | bytes[offset + 1];
}

function u16le(bytes: Uint8Array, offset: number): number {
  return bytes[offset] | (bytes[offset + 1] << 8);
}

function u32be(bytes: Uint8Array, offset: number): number {
  return ((bytes[offset] << 24) | (bytes[offset + 1] << 16) | (bytes[offset + 2] << 8) | bytes[offset + 3]) >>> 0;
}

function u32le(bytes: Uint8Array, offset: number): number {
  return (bytes[offset] | (bytes[offset + 1] << 8) | (bytes[offset + 2] << 16) | (bytes[offset + 3] << 24)) >>> 0;
}
