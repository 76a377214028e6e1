/**
 * Streaming CSV reader for tables (API §10): UTF-8 only (a BOM is dropped, anything else that is not
 * UTF-8 is refused), delimiter sniffed among `,` `;` tab `|` (papaparse's guesser, on the first
 * block), quoted fields with embedded delimiters, newlines and doubled quotes, LF / CRLF / CR line
 * ends, a header row required.
 *
 * The records themselves are read by a small scanner of our own rather than by papaparse, because the
 * table semantics need what papaparse does not say: whether a field was quoted (`""` is an *empty*
 * value, nothing between the delimiters is a *null*). It reads blocks of about 1 MB, so memory stays
 * bounded whatever the file size; one record may not exceed MAX_RECORD_CHARS.
 */
import { isAscii, isUtf8 } from 'node:buffer';
import Papa from 'papaparse';
import type { RawCell } from './cells.ts';

/** A CSV that cannot be read as a table; the message names the problem (answered 422). */
export class CsvProblem extends Error {
  override name = 'CsvProblem';
}

export const DELIMITERS = [',', ';', '\t', '|'] as const;
const BLOCK_BYTES = 1 << 20;
/**
 * Once the delimiter is known, a block is decoded and scanned in pieces of this size. A decoded text
 * above V8's large-object threshold (128 KB) gets its own memory mapping and is freed only by a full
 * collection; a 1 MB text per block, joined to the previous block's unfinished record, cost more CPU
 * than the scan itself. Texts of 64 KB are ordinary young objects that die cheaply.
 */
const SCAN_BYTES = 64 * 1024;
const SNIFF_CHARS = 64 * 1024;
/** A single record longer than this is refused (it is almost always an unterminated quote). */
export const MAX_RECORD_CHARS = 16 * 1024 * 1024;

/**
 * One record as the scanner read it, without a string per field: field `i` is the text
 * `sources[i].slice(starts[i], ends[i])`, or null (nothing between the delimiters) when `starts[i]`
 * is -1. A field points into the decoded text the scanner was given, unless it is quoted and had a
 * doubled quote or text after its closing quote: then its source is its own string. Reused from one
 * record to the next: copy what you keep.
 */
export class CsvRecord {
  length = 0;
  readonly sources: string[] = [];
  readonly starts: number[] = [];
  readonly ends: number[] = [];

  /** Field `i` as a string (a slice of its source). */
  field(i: number): RawCell {
    const start = this.starts[i]!;
    return start < 0 ? null : this.sources[i]!.slice(start, this.ends[i]);
  }

  /** Every field as a string, into `into` (its length set to the record's). */
  fields(into: RawCell[]): RawCell[] {
    for (let i = 0; i < this.length; i++) into[i] = this.field(i);
    // Setting the length is a runtime call: only when it changes (a ragged record).
    if (into.length !== this.length) into.length = this.length;
    return into;
  }

  /** Makes this the record of `fields` (the reverse of `fields`). */
  setFields(fields: readonly RawCell[]): this {
    for (let i = 0; i < fields.length; i++) {
      const field = fields[i]!;
      this.sources[i] = field ?? '';
      this.starts[i] = field === null ? -1 : 0;
      this.ends[i] = field === null ? -1 : field.length;
    }
    this.length = fields.length;
    return this;
  }
}

/**
 * What `readCsv` calls: `header` once with the header names (checked: none empty, none repeated), then
 * for every data record either `row` with its fields as strings or `record` with its fields as places
 * in the decoded text (no string per field: the profiler's way). Both are reused between calls: copy
 * what you keep.
 */
export type CsvVisitor = { header(names: string[], delimiter: string): void } & (
  | { row(fields: RawCell[], rowNumber: number): void }
  | { record(record: CsvRecord, rowNumber: number): void }
);

export interface CsvSummary {
  rowCount: number;
  delimiter: string;
  bytes: number;
}

/** Header names must be present and distinct: the 422 names every offending column. */
export function checkHeader(names: string[]): void {
  const empty: number[] = [];
  const seen = new Map<string, number>();
  const duplicates: string[] = [];
  names.forEach((name, index) => {
    if (name.trim() === '') empty.push(index + 1);
    else if (seen.has(name)) {
      if (!duplicates.includes(name)) duplicates.push(name);
    } else seen.set(name, index);
  });
  const problems: string[] = [];
  if (empty.length > 0) problems.push(`empty header name in column${empty.length > 1 ? 's' : ''} ${empty.join(', ')}`);
  if (duplicates.length > 0) problems.push(`duplicate header name${duplicates.length > 1 ? 's' : ''} ${duplicates.map((d) => JSON.stringify(d)).join(', ')}`);
  if (problems.length > 0) throw new CsvProblem(`The CSV header is invalid: ${problems.join('; ')}`);
}

/** papaparse's guess on the first block (complete records only). */
export function sniffDelimiter(sample: string): string {
  const guess = Papa.parse<string[]>(sample, { delimitersToGuess: [...DELIMITERS], preview: 200, skipEmptyLines: true });
  const delimiter = guess.meta.delimiter;
  return (DELIMITERS as readonly string[]).includes(delimiter) ? delimiter : ',';
}

/**
 * The record scanner. `scan` consumes the complete records of `text` and returns where the first
 * incomplete one starts (the caller keeps that part and prepends it to the next block); with `final`
 * everything is consumed.
 */
export class CsvScanner {
  private readonly delimiter: number;
  private readonly delimiterChar: string;
  /** The line end searched for: `\n` (a `\r` before it is dropped) or, for old Mac files, `\r`. */
  private readonly newline: string;
  private readonly record = new CsvRecord();
  /** Records emitted so far (the header included). */
  rowsSoFar = 0;

  constructor(
    delimiter: string,
    sample: string,
    private readonly onRecord: (record: CsvRecord) => void,
  ) {
    this.delimiter = delimiter.charCodeAt(0);
    this.delimiterChar = delimiter;
    this.newline = !sample.includes('\n') && sample.includes('\r') ? '\r' : '\n';
  }

  scan(text: string, final: boolean): number {
    const d = this.delimiter;
    const dChar = this.delimiterChar;
    const nl = this.newline;
    const n = text.length;
    const record = this.record;
    const { sources, starts, ends } = record;
    // Positions of the next delimiter and line end, searched with indexOf (fast) and reused until passed.
    let nextD = -1;
    let nextN = -1;
    let pos = 0;
    while (pos < n) {
      const recordStart = pos;
      let count = 0;
      for (;;) {
        if (pos < n && text.charCodeAt(pos) === 34) {
          // Quoted field: runs to the next quote not doubled; "" inside is one quote.
          const open = pos + 1;
          /** The value so far, once a doubled quote made it other than a place in `text`. */
          let value: string | undefined;
          let start = open;
          for (;;) {
            const q = text.indexOf('"', start);
            if (q < 0) {
              if (!final) return recordStart;
              throw new CsvProblem(`Unterminated quoted field (a quote opened in data row ${this.rowsSoFar} is never closed)`);
            }
            if (q + 1 >= n && !final) return recordStart;
            if (q + 1 < n && text.charCodeAt(q + 1) === 34) {
              value = (value ?? '') + text.slice(start, q + 1);
              start = q + 2;
              continue;
            }
            if (value !== undefined) value += text.slice(start, q);
            pos = q + 1;
            break;
          }
          const close = pos - 1;
          // Anything between the closing quote and the delimiter is kept as written.
          const after = pos;
          while (pos < n) {
            const c = text.charCodeAt(pos);
            if (c === d || c === 10 || c === 13) break;
            pos++;
          }
          if (pos > after) value = (value ?? text.slice(open, close)) + text.slice(after, pos);
          if (value === undefined) {
            sources[count] = text;
            starts[count] = open;
            ends[count] = close;
          } else {
            sources[count] = value;
            starts[count] = 0;
            ends[count] = value.length;
          }
          count++;
        } else {
          const fieldStart = pos;
          if (nextD < pos) {
            nextD = text.indexOf(dChar, pos);
            if (nextD < 0) nextD = n;
          }
          if (nextN < pos) {
            nextN = text.indexOf(nl, pos);
            if (nextN < 0) nextN = n;
          }
          const end = nextD < nextN ? nextD : nextN;
          if (end >= n && !final) return recordStart;
          pos = end;
          // CRLF: the CR before the LF is part of the line end, not of the field.
          const valueEnd = end === nextN && end > fieldStart && text.charCodeAt(end - 1) === 13 ? end - 1 : end;
          sources[count] = text;
          starts[count] = valueEnd === fieldStart ? -1 : fieldStart;
          ends[count] = valueEnd;
          count++;
        }
        if (pos >= n) {
          if (!final) return recordStart;
          break;
        }
        const c = text.charCodeAt(pos);
        if (c === d) {
          pos++;
          continue;
        }
        if (c === 13) {
          if (pos + 1 >= n && !final) return recordStart;
          pos++;
          if (pos < n && text.charCodeAt(pos) === 10) pos++;
        } else pos++;
        break;
      }
      // A line with nothing on it is not a record.
      if (count === 1 && starts[0]! < 0) continue;
      record.length = count;
      this.rowsSoFar++;
      this.onRecord(record);
    }
    return n;
  }
}

/**
 * Decodes UTF-8 block by block, strictly (undefined for bytes that are not UTF-8). A block ends on a
 * character boundary (the bytes of a character cut by the block end wait for the next block), so
 * each block decodes alone: ASCII blocks, by far the most common, as Latin-1 (several times faster
 * than a TextDecoder, same text). A leading BOM is dropped.
 *
 * The end of a decoded text that the reader could not use yet (an unfinished record) is handed back
 * with `keep`: its bytes are decoded again at the start of the next block, so every text is one flat
 * string. (Joining the texts instead made a two-part string for each block, which V8 copies into one
 * on the first search and reads through an indirection.)
 */
export class Utf8Blocks {
  /** What the next block is decoded after: the bytes of the kept text, then those of a character cut by the last block's end. */
  private keptLength = 0;
  private keptBytes = Buffer.alloc(0);
  private tail: Uint8Array = new Uint8Array(0);
  /** The kept bytes, the tail and the next block, joined (reused). */
  private joined = Buffer.alloc(0);
  /** The bytes of the last decoded text (valid until the next `decode`), and whether they were ASCII. */
  private last: Uint8Array = new Uint8Array(0);
  private lastAscii = true;
  private first = true;

  /** `undefined` block: the end of the input. The text starts with what `keep` kept. */
  decode(block: Uint8Array | undefined): string | undefined {
    const final = block === undefined;
    let bytes = this.afterKept(block ?? new Uint8Array(0));
    if (this.first) {
      // Wait for three bytes before deciding whether the input starts with a BOM.
      if (bytes.length < 3 && !final) {
        // A copy: the block may be reused for the next bytes (blocksOf).
        this.tail = Uint8Array.prototype.slice.call(bytes);
        this.last = new Uint8Array(0);
        return '';
      }
      this.first = false;
      if (bytes.length >= 3 && bytes[0] === 0xef && bytes[1] === 0xbb && bytes[2] === 0xbf) bytes = bytes.subarray(3);
    }
    if (!final) {
      const cut = completeLength(bytes);
      if (cut < bytes.length) {
        this.tail = Uint8Array.prototype.slice.call(bytes, cut);
        bytes = bytes.subarray(0, cut);
      }
    }
    const buffer = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.length);
    this.last = buffer;
    this.lastAscii = isAscii(buffer);
    if (this.lastAscii) return buffer.toString('latin1');
    // At the end, a character cut short is invalid too.
    if (!isUtf8(buffer)) return undefined;
    return buffer.toString('utf8');
  }

  /** `text` (the last one decoded) from character `from` on starts the next decoded text. */
  keep(text: string, from: number): void {
    // A copy: the bytes are the block's, which the next block may overwrite (blocksOf).
    const kept = this.lastAscii ? this.last.subarray(from) : Buffer.from(text.slice(from), 'utf8');
    if (this.keptBytes.length < kept.length) this.keptBytes = Buffer.allocUnsafe(kept.length);
    this.keptBytes.set(kept);
    this.keptLength = kept.length;
  }

  /** The kept bytes, the tail and `block`, as one run of bytes (`block` itself when nothing waits). */
  private afterKept(block: Uint8Array): Uint8Array {
    const kept = this.keptLength;
    const tail = this.tail;
    this.keptLength = 0;
    this.tail = new Uint8Array(0);
    if (kept === 0 && tail.length === 0) return block;
    const length = kept + tail.length + block.length;
    if (this.joined.length < length) this.joined = Buffer.allocUnsafe(Math.max(length, 2 * this.joined.length));
    this.joined.set(this.keptBytes.subarray(0, kept), 0);
    this.joined.set(tail, kept);
    this.joined.set(block, kept + tail.length);
    return this.joined.subarray(0, length);
  }
}

/** The length of the longest prefix that does not end inside a multi-byte character. */
function completeLength(bytes: Uint8Array): number {
  const n = bytes.length;
  // Walk back over at most 3 continuation bytes to the lead byte of the last character.
  for (let i = n - 1; i >= 0 && i >= n - 4; i--) {
    const b = bytes[i]!;
    if ((b & 0xc0) === 0x80) continue;
    const need = b >= 0xf0 ? 4 : b >= 0xe0 ? 3 : b >= 0xc0 ? 2 : 1;
    return n - i >= need ? n : i;
  }
  return n;
}

/**
 * Bytes of a chunked source in blocks of `size` bytes (a chunk that is a block or more on its own is
 * passed on as it is). Small chunks (an S3 or HTTP body arrives in pieces of at most 64 KB) are copied
 * into one block that is reused: the consumer must be done with a block before it asks for the next.
 * A fresh 1 MB buffer per block was fresh memory from the system each time, whose first touch (page
 * faults) cost about as much CPU as reading the block.
 */
async function* blocksOf(source: AsyncIterable<Uint8Array>, size: number): AsyncGenerator<Uint8Array> {
  let block: Buffer | undefined;
  let length = 0;
  for await (const chunk of source) {
    if (length === 0 && chunk.length >= size) {
      yield chunk;
      continue;
    }
    block ??= Buffer.allocUnsafeSlow(size);
    for (let at = 0; at < chunk.length; ) {
      const n = Math.min(size - length, chunk.length - at);
      block.set(chunk.subarray(at, at + n), length);
      length += n;
      at += n;
      if (length === size) {
        yield block;
        length = 0;
      }
    }
  }
  if (length > 0) yield block!.subarray(0, length);
}

/** Reads a whole CSV from a chunked source, calling `visitor` for the header and every record. */
export async function readCsv(source: AsyncIterable<Uint8Array>, visitor: CsvVisitor, options: { blockBytes?: number } = {}): Promise<CsvSummary> {
  let scanner: CsvScanner | undefined;
  let delimiter = ',';
  let bytes = 0;
  let headerSeen = false;
  let rowCount = 0;

  const fields: RawCell[] = [];
  const byRecord = 'record' in visitor;
  const onRecord = (record: CsvRecord) => {
    if (!headerSeen) {
      headerSeen = true;
      const names = record.fields([]).map((f) => f ?? '');
      checkHeader(names);
      visitor.header(names, delimiter);
      return;
    }
    rowCount++;
    if (byRecord) visitor.record(record, rowCount);
    else visitor.row(record.fields(fields), rowCount);
  };

  const utf8 = new Utf8Blocks();
  /** Where the current block starts in the input (an encoding error names the block's bytes). */
  let blockStart = 0;
  const decode = (bytesOfBlock: Uint8Array | undefined): string => {
    const text = utf8.decode(bytesOfBlock);
    if (text === undefined) {
      throw new CsvProblem(`The CSV is not valid UTF-8 (in bytes ${blockStart}–${bytes}): save it as UTF-8 and upload it again`);
    }
    return text;
  };

  /** Characters of the last text not read yet (an unfinished record; `utf8` gives them back). */
  let unread = 0;
  const leave = (text: string, from: number) => {
    unread = text.length - from;
    if (unread > 0) utf8.keep(text, from);
  };
  /** `text` starts with what the last call left unread. */
  const feed = (text: string, final: boolean) => {
    if (!scanner) {
      // Sniff on complete lines of the first 64 KB (or of the whole text, when shorter).
      if (!final && text.length < SNIFF_CHARS) {
        leave(text, 0);
        return;
      }
      if (text.length > MAX_RECORD_CHARS && text.indexOf('\n') < 0) throw new CsvProblem('The CSV header is longer than 16 MB: is this a CSV file?');
      const cut = final ? text.length : text.lastIndexOf('\n');
      if (cut <= 0 && !final) {
        leave(text, 0);
        return;
      }
      const sample = text.slice(0, Math.min(cut, 4 * SNIFF_CHARS));
      delimiter = sniffDelimiter(sample);
      scanner = new CsvScanner(delimiter, sample, onRecord);
    }
    leave(text, scanner.scan(text, final));
  };
  // Checked once a whole block is scanned, however it was cut into pieces.
  const checkPending = () => {
    if (scanner && unread > MAX_RECORD_CHARS) {
      throw new CsvProblem(`Data row ${rowCount + 1} is longer than ${MAX_RECORD_CHARS / 1024 / 1024} MB: is a quote left open?`);
    }
  };

  for await (const block of blocksOf(source, options.blockBytes ?? BLOCK_BYTES)) {
    blockStart = bytes;
    bytes += block.length;
    // The delimiter is sniffed on whole blocks; after that the pieces only change how often the
    // scanner is called, not what it reads.
    if (!scanner) feed(decode(block), false);
    else for (let at = 0; at < block.length; at += SCAN_BYTES) feed(decode(block.subarray(at, at + SCAN_BYTES)), false);
    checkPending();
  }
  blockStart = bytes;
  feed(decode(undefined), true);
  if (!headerSeen) throw new CsvProblem('The CSV is empty: a header row is required');
  return { rowCount, delimiter, bytes };
}

/** A chunked source over bytes in memory (tests, inline uploads). */
export async function* chunksOf(bytes: Uint8Array, size = BLOCK_BYTES): AsyncGenerator<Uint8Array> {
  for (let i = 0; i < bytes.length; i += size) yield bytes.subarray(i, i + size);
}
