/**
 * A cheap look at a PDF's structure, for uploads (functions/files/check.ts): its page count, and the
 * refusals a read (./pdf.ts) would make when it opens the file — encrypted with a user password,
 * no document structure pdf.js can open, too many pages — with the same messages.
 *
 * Why not pdf.js: the API Lambdas bundle all their code and must stay under 1 MB (pdf.js alone is
 * 1.7 MB minified); only the task Lambdas ship pdf.js. So this reads the few objects it needs by
 * itself: the trailers, the catalog, the root page tree node and the encryption dictionary. It finds
 * objects by scanning for `N G obj`, not through the cross-reference table, so a file whose offsets
 * are wrong is judged as pdf.js judges it after its own reconstruction. It never reads a page.
 *
 * It refuses only what pdf.js would refuse on opening; anything it cannot decide (an object stream
 * it cannot inflate, a page count that is not a plain number) leaves the file accepted with an
 * unknown page count. Damage that only shows while pages are read leaves those pages listed as failed
 * by the parse (./pdf.ts, which asks this probe for the page count pdf.js loses behind a broken page).
 */
import { createCipheriv, createHash } from 'node:crypto';
import { constants as zlibConstants, inflateSync } from 'node:zlib';
import { MAX_PAGES, ReadFailure } from './doc.ts';

export interface PdfProbe {
  /** The /Count of the root page tree node (pdf.js's numPages), or null when not found. */
  pageCount: number | null;
}

/** Probes a whole PDF file; throws ReadFailure with the message a read of the file would give. */
export function probePdf(bytes: Uint8Array): PdfProbe {
  const data = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const pdf = new PdfObjects(data);
  const trailer = pdf.trailer();
  if (isEncryptedWithPassword(pdf, trailer)) throw new ReadFailure('The PDF is encrypted with a password', 'document_invalid');
  const pages = pdf.rootPages(trailer);
  if (!pages) {
    // Unless an object stream could not be read: the page tree may be in it.
    if (!pdf.undecidable) throw damaged(data);
    return { pageCount: null };
  }
  const count = pages.get('Count');
  const pageCount = typeof count === 'number' && Number.isInteger(count) && count >= 0 ? count : null;
  if (pageCount !== null && pageCount > MAX_PAGES) {
    throw new ReadFailure(`The PDF has ${pageCount} pages; at most ${MAX_PAGES} pages are supported`, 'document_unsupported');
  }
  return { pageCount };
}

/**
 * Why page `pageNumber` (1-based) of a PDF holds nothing to read although it has content, as far as
 * its structure tells: a content stream missing from the file, or one whose compressed data cannot
 * be decompressed at all. pdf.js reads such a page as blank, without a word (./pdf.ts asks this only
 * for pages that came back empty). Undefined when nothing is found wrong: a blank page, or a page
 * this probe cannot find or decide (object streams, other filters).
 */
export function pageContentDamage(bytes: Uint8Array, pageNumbers: number[]): Map<number, string> {
  const damage = new Map<number, string>();
  if (pageNumbers.length === 0) return damage;
  const data = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const pdf = new PdfObjects(data);
  const trailer = pdf.trailer();
  const pages = pdf.pages(pdf.rootPages(trailer));
  // An encrypted file's streams are encrypted: whether they inflate says nothing.
  const encrypted = trailer.has('Encrypt');
  for (const n of pageNumbers) {
    const contents = pages[n - 1]?.get('Contents');
    for (const ref of Array.isArray(contents) ? contents : [contents]) {
      if (!(ref instanceof Ref)) continue;
      const stream = pdf.stream(ref.num);
      if (stream === 'missing') damage.set(n, `its content stream, object ${ref.num}, is missing from the file`);
      if (stream === 'undecodable' && !encrypted) damage.set(n, `its content stream, object ${ref.num}, is damaged: its compressed data cannot be decompressed`);
      if (damage.has(n)) break;
    }
  }
  return damage;
}

/** pdf.js's "Invalid PDF structure", worded as ./pdf.ts words it (with the same note on cut files). */
function damaged(data: Buffer): ReadFailure {
  const cut = data.length > 0 && !data.subarray(-1024).includes('%%EOF', 0, 'latin1') ? ' (the file looks cut short: it has no %%EOF end marker)' : '';
  return new ReadFailure(`The PDF is damaged: Invalid PDF structure${cut}`, 'document_invalid');
}

// ---- PDF objects -----------------------------------------------------------------------------

class Ref {
  constructor(
    readonly num: number,
    readonly gen: number,
  ) {}
}
class Name {
  constructor(readonly name: string) {}
}
type PdfValue = number | boolean | null | string | Name | Ref | PdfValue[] | Dict;
/** A dictionary; strings are kept as latin1 text (one character per byte). */
type Dict = Map<string, PdfValue>;

/** The objects of a file, found by scanning for `N G obj` (the last definition of a number wins, as in an incremental update). */
class PdfObjects {
  private readonly offsets = new Map<number, number>();
  private objectStreams: Map<number, Buffer> | undefined;
  /** Set when an object stream could not be read: the file may hold objects we did not see. */
  undecidable = false;

  /** Where each object's body starts, in file order (for "which object holds this byte"). */
  private readonly starts: number[] = [];

  constructor(private readonly data: Buffer) {
    for (let at = data.indexOf('obj', 0, 'latin1'); at >= 0; at = data.indexOf('obj', at + 3, 'latin1')) {
      // "N G obj": look back over at most 24 bytes; "endobj" and stray "obj" in binary streams do not match.
      const before = data.toString('latin1', Math.max(0, at - 24), at);
      const match = /(?:^|[^\d])(\d{1,10})[ \t\r\n\f\0]+(\d{1,5})[ \t\r\n\f\0]*$/.exec(before);
      if (!match) continue;
      this.offsets.set(Number(match[1]), at + 3);
      this.starts.push(at + 3);
    }
  }

  /**
   * The body offsets of the top-level objects whose text holds `word` (a name such as /XRef): only
   * those are parsed, not every object of the file.
   */
  private objectsMentioning(word: string): number[] {
    const found = new Set<number>();
    for (let at = this.data.indexOf(word, 0, 'latin1'); at >= 0; at = this.data.indexOf(word, at + word.length, 'latin1')) {
      // The last object start before `at` (binary search over the starts, which are in file order).
      let low = 0;
      let high = this.starts.length - 1;
      let start = -1;
      while (low <= high) {
        const mid = (low + high) >> 1;
        if (this.starts[mid]! <= at) {
          start = this.starts[mid]!;
          low = mid + 1;
        } else high = mid - 1;
      }
      if (start >= 0) found.add(start);
    }
    return [...found];
  }

  /** The trailer: every `trailer` dictionary and cross-reference stream dictionary in file order, later keys over earlier ones. */
  trailer(): Dict {
    const found: { at: number; dict: Dict }[] = [];
    for (let at = this.data.indexOf('trailer', 0, 'latin1'); at >= 0; at = this.data.indexOf('trailer', at + 7, 'latin1')) {
      const dict = this.parseAt(at + 7);
      if (dict instanceof Map) found.push({ at, dict });
    }
    for (const offset of this.objectsMentioning('/XRef')) {
      const dict = this.parseAt(offset);
      if (dict instanceof Map && nameOf(dict.get('Type')) === 'XRef') found.push({ at: offset, dict });
    }
    // A linearized file's last trailer holds only /Size and /ID: the keys of the first one stay.
    const merged: Dict = new Map();
    for (const { dict } of found.sort((a, b) => a.at - b.at)) for (const [key, value] of dict) merged.set(key, value);
    return merged;
  }

  /**
   * The root page tree node, as pdf.js looks for it: through the trailer's /Root, else (a file
   * without trailers) through any top-level dictionary with a /Root; undefined when none leads to a
   * page tree dictionary.
   */
  rootPages(trailer: Dict): Dict | undefined {
    const pagesOf = (catalog: PdfValue | undefined) => {
      const pages = catalog instanceof Map ? this.resolve(catalog.get('Pages')) : undefined;
      return pages instanceof Map ? pages : undefined;
    };
    const viaTrailer = pagesOf(this.resolve(trailer.get('Root')));
    if (viaTrailer) return viaTrailer;
    for (const offset of this.objectsMentioning('/Root')) {
      const object = this.parseAt(offset);
      const pages = object instanceof Map ? pagesOf(this.resolve(object.get('Root'))) : undefined;
      if (pages) return pages;
    }
    return undefined;
  }

  /**
   * The leaves of the page tree under `root`, in page order (a kid that cannot be read stands as an
   * empty dictionary, keeping the numbering); at most MAX_PAGES.
   */
  pages(root: Dict | undefined): Dict[] {
    const leaves: Dict[] = [];
    const visited = new Set<number>();
    const walk = (node: PdfValue | undefined, depth: number): void => {
      if (leaves.length >= MAX_PAGES) return;
      if (!(node instanceof Map) || depth > 64) {
        leaves.push(new Map());
        return;
      }
      const kids = node.get('Kids');
      if (!Array.isArray(kids)) {
        leaves.push(node);
        return;
      }
      for (const kid of kids) {
        if (kid instanceof Ref) {
          if (visited.has(kid.num)) continue;
          visited.add(kid.num);
        }
        walk(this.resolve(kid), depth + 1);
      }
    };
    walk(root, 0);
    return leaves;
  }

  /**
   * Whether the stream object `num` is missing from the file, or a top-level FlateDecode stream
   * whose data cannot be inflated at all (not even in part, as pdf.js would); undefined otherwise.
   */
  stream(num: number): 'missing' | 'undecodable' | undefined {
    const offset = this.offsets.get(num);
    if (offset === undefined) return this.compressedObjects().has(num) || this.undecidable ? undefined : 'missing';
    const parser = new Parser(this.data, offset);
    let dict: PdfValue;
    try {
      dict = parser.value();
    } catch {
      return undefined;
    }
    if (!(dict instanceof Map) || nameOf(dict.get('Filter')) !== 'FlateDecode' || dict.has('DecodeParms')) return undefined;
    const raw = parser.rawStream(dict);
    if (!raw || raw.length === 0) return undefined;
    try {
      // Leniently, as pdf.js decodes: a stream cut short still gives what it holds.
      inflateSync(raw, { finishFlush: zlibConstants.Z_SYNC_FLUSH, maxOutputLength: 64 * 1024 * 1024 });
      return undefined;
    } catch {
      return 'undecodable';
    }
  }

  resolve(value: PdfValue | undefined): PdfValue | undefined {
    return value instanceof Ref ? this.object(value.num) : value;
  }

  /** Object `num`: a top-level one, else one inside an object stream. */
  object(num: number): PdfValue | undefined {
    const offset = this.offsets.get(num);
    if (offset !== undefined) return this.parseAt(offset);
    const inStream = this.compressedObjects().get(num);
    return inStream ? parsed(inStream, 0) : undefined;
  }

  private parseAt(offset: number): PdfValue | undefined {
    return parsed(this.data, offset);
  }

  /** Objects stored in object streams (PDF 1.5), read once and only when a lookup needs them. */
  private compressedObjects(): Map<number, Buffer> {
    if (this.objectStreams) return this.objectStreams;
    this.objectStreams = new Map();
    for (const offset of this.objectsMentioning('/ObjStm')) {
      const parser = new Parser(this.data, offset);
      let dict: PdfValue | undefined;
      try {
        dict = parser.value();
      } catch {
        continue;
      }
      if (!(dict instanceof Map) || nameOf(dict.get('Type')) !== 'ObjStm') continue;
      const content = parser.streamContent(dict);
      const first = dict.get('First');
      if (!content || typeof first !== 'number') {
        this.undecidable = true;
        continue;
      }
      // The stream starts with pairs "objnum offset" (offsets relative to /First).
      const header = new Parser(content, 0);
      const pairs: number[] = [];
      for (let i = 0; i < 2 * Number(dict.get('N') ?? 0); i++) {
        const n = header.value();
        if (typeof n !== 'number') break;
        pairs.push(n);
      }
      for (let i = 0; i + 1 < pairs.length; i += 2) {
        if (!this.objectStreams.has(pairs[i]!)) this.objectStreams.set(pairs[i]!, content.subarray(first + pairs[i + 1]!));
      }
    }
    return this.objectStreams;
  }
}

/** The object at `offset`, or undefined when it is malformed (a damaged object is as good as absent). */
function parsed(data: Buffer, offset: number): PdfValue | undefined {
  try {
    return new Parser(data, offset).value();
  } catch {
    return undefined;
  }
}

function nameOf(value: PdfValue | undefined): string | undefined {
  return value instanceof Name ? value.name : undefined;
}

const WHITESPACE = new Set([0x00, 0x09, 0x0a, 0x0c, 0x0d, 0x20]);
const DELIMITERS = new Set([0x28, 0x29, 0x3c, 0x3e, 0x5b, 0x5d, 0x7b, 0x7d, 0x2f, 0x25]);

/** A reader of PDF objects (ISO 32000 §7.3) from a position in a buffer; throws on anything malformed. */
class Parser {
  constructor(
    private readonly data: Buffer,
    private at: number,
  ) {}

  value(depth = 0): PdfValue {
    if (depth > 32) throw new Error('nested too deep');
    this.skipSpace();
    const c = this.data[this.at];
    if (c === undefined) throw new Error('end of data');
    if (c === 0x3c && this.data[this.at + 1] === 0x3c) return this.dict(depth);
    if (c === 0x3c) return this.hexString();
    if (c === 0x28) return this.literalString();
    if (c === 0x2f) return new Name(this.word(this.at + 1));
    if (c === 0x5b) {
      this.at++;
      const items: PdfValue[] = [];
      for (this.skipSpace(); this.data[this.at] !== 0x5d; this.skipSpace()) items.push(this.value(depth + 1));
      this.at++;
      return items;
    }
    const word = this.word(this.at);
    if (word === 'true' || word === 'false') return word === 'true';
    if (word === 'null') return null;
    if (!/^[+-]?(\d+\.?\d*|\.\d+)$/.test(word)) throw new Error(`unexpected "${word}" at ${this.at}`);
    const number = Number(word);
    // "num gen R" is a reference: look ahead without consuming when it is not.
    const save = this.at;
    if (/^\d+$/.test(word)) {
      this.skipSpace();
      const gen = this.word(this.at);
      this.skipSpace();
      if (/^\d+$/.test(gen) && this.data[this.at] === 0x52 && !this.isRegular(this.data[this.at + 1])) {
        this.at++;
        return new Ref(number, Number(gen));
      }
    }
    this.at = save;
    return number;
  }

  /** The undecoded bytes of the stream after a dictionary just read, or undefined. */
  rawStream(dict: Dict): Buffer | undefined {
    this.skipSpace();
    if (this.data.toString('latin1', this.at, this.at + 6) !== 'stream') return undefined;
    let start = this.at + 6;
    if (this.data[start] === 0x0d) start++;
    if (this.data[start] === 0x0a) start++;
    const length = dict.get('Length');
    const end = typeof length === 'number' ? start + length : this.data.indexOf('endstream', start, 'latin1');
    if (end < start || end > this.data.length) return undefined;
    return this.data.subarray(start, end);
  }

  /** The bytes of the stream after a dictionary just read (Flate or unfiltered), or undefined. */
  streamContent(dict: Dict): Buffer | undefined {
    const raw = this.rawStream(dict);
    if (!raw) return undefined;
    const filter = dict.get('Filter');
    const filters = Array.isArray(filter) ? filter.map(nameOf) : filter === undefined ? [] : [nameOf(filter)];
    if (filters.length === 0) return raw;
    if (filters.length !== 1 || filters[0] !== 'FlateDecode' || dict.has('DecodeParms')) return undefined;
    try {
      return inflateSync(raw, { maxOutputLength: 64 * 1024 * 1024 });
    } catch {
      return undefined;
    }
  }

  private dict(depth: number): Dict {
    this.at += 2;
    const dict: Dict = new Map();
    for (this.skipSpace(); !(this.data[this.at] === 0x3e && this.data[this.at + 1] === 0x3e); this.skipSpace()) {
      const key = this.value(depth + 1);
      if (!(key instanceof Name)) throw new Error('a dictionary key is not a name');
      dict.set(key.name, this.value(depth + 1));
    }
    this.at += 2;
    return dict;
  }

  private hexString(): string {
    const end = this.data.indexOf(0x3e, this.at);
    if (end < 0) throw new Error('unterminated hex string');
    let digits = this.data.toString('latin1', this.at + 1, end).replace(/[^0-9a-fA-F]/g, '');
    if (digits.length % 2 === 1) digits += '0';
    this.at = end + 1;
    return Buffer.from(digits, 'hex').toString('latin1');
  }

  private literalString(): string {
    const escapes: Record<string, string> = { n: '\n', r: '\r', t: '\t', b: '\b', f: '\f', '(': '(', ')': ')', '\\': '\\' };
    let out = '';
    let depth = 1;
    for (this.at++; this.at < this.data.length; this.at++) {
      const ch = String.fromCharCode(this.data[this.at]!);
      if (ch === '\\') {
        const next = String.fromCharCode(this.data[++this.at]!);
        if (next in escapes) out += escapes[next];
        else if (/[0-7]/.test(next)) {
          let octal = next;
          while (octal.length < 3 && /[0-7]/.test(String.fromCharCode(this.data[this.at + 1]!))) octal += String.fromCharCode(this.data[++this.at]!);
          out += String.fromCharCode(parseInt(octal, 8) & 0xff);
        } else if (next === '\r') {
          // A backslash at the end of a line continues the string.
          if (this.data[this.at + 1] === 0x0a) this.at++;
        } else if (next !== '\n') out += next;
        continue;
      }
      if (ch === '(') depth++;
      if (ch === ')' && --depth === 0) {
        this.at++;
        return out;
      }
      out += ch;
    }
    throw new Error('unterminated string');
  }

  private word(from: number): string {
    let end = from;
    while (end < this.data.length && this.isRegular(this.data[end])) end++;
    this.at = end;
    return this.data.toString('latin1', from, end);
  }

  private isRegular(c: number | undefined): boolean {
    return c !== undefined && !WHITESPACE.has(c) && !DELIMITERS.has(c);
  }

  private skipSpace(): void {
    for (;;) {
      const c = this.data[this.at];
      if (c === 0x25) {
        // A comment runs to the end of the line.
        while (this.at < this.data.length && this.data[this.at] !== 0x0a && this.data[this.at] !== 0x0d) this.at++;
      } else if (c !== undefined && WHITESPACE.has(c)) this.at++;
      else return;
    }
  }
}

// ---- encryption (ISO 32000-1 §7.6.3, ISO 32000-2 §7.6.4) ---------------------------------------

/** The padding string of the standard security handler (Algorithm 2). */
const PAD = Buffer.from('28bf4e5e4e758a4164004e56fffa01082e2e00b6d0683e802f0ca9fe6453697a', 'hex');

/**
 * Whether the file is encrypted with a user password that is not empty: pdf.js opens files whose
 * user password is empty (permissions only) and asks for a password otherwise. Only the standard
 * security handler is judged; another one is left for the read to decide.
 */
function isEncryptedWithPassword(pdf: PdfObjects, trailer: Dict): boolean {
  const encrypt = pdf.resolve(trailer.get('Encrypt'));
  if (!(encrypt instanceof Map) || nameOf(encrypt.get('Filter')) !== 'Standard') return false;
  const revision = encrypt.get('R');
  const owner = encrypt.get('O');
  const user = encrypt.get('U');
  if (typeof revision !== 'number' || typeof owner !== 'string' || typeof user !== 'string') return false;
  const u = Buffer.from(user, 'latin1');
  if (revision >= 5) {
    // AES-256: the first 32 bytes of /U are the hash of the password and the 8-byte validation salt.
    const salt = u.subarray(32, 40);
    const hash = revision === 5 ? createHash('sha256').update(salt).digest() : hardenedHash(Buffer.alloc(0), salt);
    return !hash.equals(u.subarray(0, 32));
  }
  const ids = trailer.get('ID');
  const firstId = Buffer.from(Array.isArray(ids) && typeof ids[0] === 'string' ? ids[0] : '', 'latin1');
  const permissions = Buffer.alloc(4);
  permissions.writeInt32LE(Number(encrypt.get('P') ?? 0) | 0);
  const version = Number(encrypt.get('V') ?? 0);
  const bits = Number(encrypt.get('Length') ?? (version >= 4 ? 128 : 40));
  const keyLength = revision === 2 ? 5 : Math.max(5, Math.min(16, Math.floor(bits / 8)));
  // Algorithm 2: the file key from the (empty, so all padding) password.
  const md5 = (...parts: Buffer[]) => createHash('md5').update(Buffer.concat(parts)).digest();
  const tail = revision >= 4 && encrypt.get('EncryptMetadata') === false ? [Buffer.from([0xff, 0xff, 0xff, 0xff])] : [];
  let key = md5(PAD, Buffer.from(owner, 'latin1'), permissions, firstId, ...tail).subarray(0, keyLength);
  if (revision >= 3) for (let i = 0; i < 50; i++) key = md5(key).subarray(0, keyLength);
  if (revision === 2) return !rc4(key, PAD).equals(u.subarray(0, 32));
  // Algorithm 5: MD5 of the padding and the file ID, encrypted 20 times with derived keys.
  let check = rc4(key, md5(PAD, firstId));
  for (let i = 1; i <= 19; i++) check = rc4(Buffer.from(key.map((b) => b ^ i)), check);
  return !check.equals(u.subarray(0, 16));
}

/** RC4 (OpenSSL 3 no longer offers it by default). */
function rc4(key: Buffer, input: Buffer): Buffer {
  const s = Array.from({ length: 256 }, (_, i) => i);
  for (let i = 0, j = 0; i < 256; i++) {
    j = (j + s[i]! + key[i % key.length]!) & 0xff;
    [s[i], s[j]] = [s[j]!, s[i]!];
  }
  const out = Buffer.alloc(input.length);
  for (let n = 0, i = 0, j = 0; n < input.length; n++) {
    i = (i + 1) & 0xff;
    j = (j + s[i]!) & 0xff;
    [s[i], s[j]] = [s[j]!, s[i]!];
    out[n] = input[n]! ^ s[(s[i]! + s[j]!) & 0xff]!;
  }
  return out;
}

/** Algorithm 2.B (revision 6): the password hash, for the user password (no owner key data). */
function hardenedHash(password: Buffer, salt: Buffer): Buffer {
  let k = createHash('sha256').update(Buffer.concat([password, salt])).digest();
  for (let round = 0; ; round++) {
    const k1 = Buffer.concat(Array.from({ length: 64 }, () => Buffer.concat([password, k])));
    const cipher = createCipheriv('aes-128-cbc', k.subarray(0, 16), k.subarray(16, 32)).setAutoPadding(false);
    const e = Buffer.concat([cipher.update(k1), cipher.final()]);
    const sum = e.subarray(0, 16).reduce((total, b) => total + b, 0) % 3;
    k = createHash(['sha256', 'sha384', 'sha512'][sum]!).update(e).digest();
    if (round >= 63 && e[e.length - 1]! <= round - 31) return k.subarray(0, 32);
  }
}
