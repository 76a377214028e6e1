/**
 * Whether a PDF may paint vector paths anywhere, from one quick pass over its bytes.
 *
 * The reader (./pdf.ts) asks pdf.js for each page's operator list only to find ruling lines (stroked
 * or thin filled paths) and image coverage. That second pass over every content stream costs about
 * 40% of what the text pass costs. A PDF whose streams paint no path at all (most text-only
 * documents) has no ruling line to find, so the pass is only needed on its nearly empty pages, where
 * image coverage tells a scan from a blank page.
 *
 * The answer errs one way only: `false` means no stream of the file can paint a path; anything this
 * pass cannot read for sure (encryption, filters other than Flate, predictors, a stream that does not
 * inflate, too much data) answers `true`, and the reader then reads every operator list as before.
 * Every stream is looked at, whatever object it belongs to (page contents, form XObjects, annotation
 * appearances, Type 3 glyphs, old revisions): a path in one that pdf.js would not draw only costs time.
 */
import { inflateSync } from 'node:zlib';

/** Path construction operators after a number (`10 20 m`, `0 0 100 20 re`, `h` needs no operand). */
const CONSTRUCTS = /[\d.]\s+(?:m|l|c|v|y|re)\s/;
/** Path painting operators (stroke, fill, both), as whole tokens. */
const PAINTS = /(?:^|\s)(?:S|s|f|F|f\*|B|B\*|b|b\*)(?=\s|$)/;
/** Streams that hold no page description: images, fonts, cross-reference and object streams, metadata. */
const NOT_CONTENT = /\/Subtype\s*\/Image|\/Length[123]\b|\/Subtype\s*\/(?:Type1C|CIDFontType0C|OpenType)|\/Type\s*\/(?:XRef|ObjStm|Metadata|EmbeddedFile)/;
/** How far back from `stream` a stream's dictionary may start. */
const MAX_DICTIONARY = 8 * 1024;
/** Inflated bytes read in all before giving up (and answering `true`). */
const MAX_INFLATED = 64 * 1024 * 1024;

export function mayPaintPaths(bytes: Uint8Array): boolean {
  // Searched as bytes: a file of hundreds of MB (scans) is never copied into a string, only its
  // stream dictionaries and content streams are, one at a time.
  const file = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  if (file.includes('/Encrypt')) return true;
  let budget = MAX_INFLATED;
  for (const stream of streams(file)) {
    if (stream === TOO_MUCH) return true;
    const { at, dictionary } = stream;
    if (NOT_CONTENT.test(dictionary)) continue;
    const eol = file.toString('latin1', at + 6, at + 8);
    const start = at + 6 + (eol === '\r\n' ? 2 : eol[0] === '\n' ? 1 : 0);
    const end = file.indexOf('endstream', start);
    if (end === -1) return true;
    // A filter name, or an array of them.
    const filter = /\/Filter\s*(\[[^\]]*\]|\/\w+)/.exec(dictionary);
    let content: string;
    if (!filter) {
      content = file.toString('latin1', start, end);
    } else {
      // One Flate filter, without a predictor, is what content streams use; anything else: assume paths.
      const names = filter[1]!.match(/\/\w+/g) ?? [];
      if (names.length !== 1 || names[0] !== '/FlateDecode' || dictionary.includes('/DecodeParms')) return true;
      try {
        const inflated = inflateSync(file.subarray(start, end), { maxOutputLength: budget });
        budget -= inflated.byteLength;
        content = inflated.toString('latin1');
      } catch {
        return true;
      }
    }
    if (CONSTRUCTS.test(content) && PAINTS.test(content)) return true;
  }
  return false;
}

/**
 * Whether a PDF may hold a picture of at least `minSide` pixels each way (an image XObject: a
 * stream whose dictionary says /Subtype /Image), from one pass over its bytes like mayPaintPaths.
 * Images are streams, and streams are never packed into object streams, so every image's dictionary
 * is in the file as written. Errs one way only: an encrypted file, or a size given by reference,
 * answers `true`. (Inline images, inside content streams, are small by the standard's advice and
 * not looked for.)
 */
export function mayHoldPictures(bytes: Uint8Array, minSide: number): boolean {
  const file = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  if (file.includes('/Encrypt')) return true;
  for (const stream of streams(file)) {
    if (stream === TOO_MUCH) return true;
    const { dictionary } = stream;
    if (!IMAGE.test(dictionary)) continue;
    const width = /\/(?:Width|W)\s+(\d+)(\s+\d+\s+R)?/.exec(dictionary);
    const height = /\/(?:Height|H)\s+(\d+)(\s+\d+\s+R)?/.exec(dictionary);
    if (!width || !height || width[2] || height[2]) return true;
    if (Number(width[1]) >= minSide && Number(height[1]) >= minSide) return true;
  }
  return false;
}

const IMAGE = /\/Subtype\s*\/Image\b/;

const TOO_MUCH = Symbol('too much');

/**
 * The file's streams that have a dictionary: where each `stream` keyword is and the dictionary just
 * before it; TOO_MUCH (and no more) once the walks back over dictionaries pass their budget (a
 * crafted file could make them overlap).
 */
function* streams(file: Buffer): Generator<{ at: number; dictionary: string } | typeof TOO_MUCH> {
  let walkBudget = 4 * file.length + MAX_DICTIONARY;
  for (let at = file.indexOf('stream'); at !== -1; at = file.indexOf('stream', at + 6)) {
    // `stream` as a keyword (not the end of `endstream`) right after a dictionary's `>>`.
    if (at >= 3 && file.toString('latin1', at - 3, at) === 'end') continue;
    const { dictionary, walked } = dictionaryBefore(file, at);
    walkBudget -= walked;
    if (walkBudget < 0) {
      yield TOO_MUCH;
      return;
    }
    if (dictionary !== undefined) yield { at, dictionary };
  }
}

const LESS = 0x3c; // <
const GREATER = 0x3e; // >
const WHITESPACE = new Set([0x00, 0x09, 0x0a, 0x0c, 0x0d, 0x20]);

/**
 * The dictionary ending with `>>` just before `stream` at `at` (undefined when there is none), and
 * how many bytes were walked back over to find it.
 */
function dictionaryBefore(file: Buffer, at: number): { dictionary?: string; walked: number } {
  let end = at;
  while (end > 0 && at - end < MAX_DICTIONARY && WHITESPACE.has(file[end - 1]!)) end--;
  if (end < 2 || file[end - 1] !== GREATER || file[end - 2] !== GREATER) return { walked: at - end };
  // Walk back to the `<<` that opens it, across nested dictionaries.
  let depth = 0;
  for (let k = end - 2; k >= Math.max(0, end - MAX_DICTIONARY); k--) {
    if (file[k] === GREATER && file[k + 1] === GREATER) {
      depth++;
      k--;
    } else if (file[k] === LESS && file[k + 1] === LESS) {
      depth--;
      if (depth === 0) return { dictionary: file.toString('latin1', k, end), walked: at - k };
      k--;
    }
  }
  return { walked: at - Math.max(0, end - MAX_DICTIONARY) };
}
