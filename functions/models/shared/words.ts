/**
 * Words of a text as both engines compare them: tokens of letters and digits, accents dropped,
 * stemmed (Porter, ./stem.ts), stop words and negators marked, and two-word phrases. The local engine
 * scores documents with them (../local/text.ts, evidence.ts); provenance (../locate.ts) matches a
 * provider's answer against the document with the same stems.
 */
import { LINKING_WORDS } from '../knowledge/fields.ts';
import { porterStem } from './stem.ts';

/**
 * Common English function words: they say nothing about what a document is. Kept small on purpose:
 * "shall", "hereby" or "due" are evidence in business documents and stay in.
 */
export const STOP_WORDS: ReadonlySet<string> = new Set(
  `a about above after again against all also am an and any are as at be because been before being below
  between both but by can could did do does doing down during each either few for from further had has
  have having he her here hers herself him himself his how i if in into is it its itself just me more
  most my myself no nor not of off on once only or other our ours ourselves out over own same she should
  so some such than that the their theirs them themselves then there these they this those through to too
  under until up very was we were what when where which while who whom why will with would you your yours
  yourself yourselves us via per cent etc eg ie`.split(/\s+/).filter(Boolean),
);

/**
 * The joining words of the other languages the engine reads (articles, prepositions, conjunctions:
 * ../knowledge/fields.ts LINKING_WORDS) are stop words too: "Factura de Crédito" and a utility bill's
 * "factura de luz" share no phrase "factura de".
 */
const JOINING_WORDS: ReadonlySet<string> = new Set(listOf(LINKING_WORDS));

/** Text as a regular expression matching it literally. */
export function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}

/** Words as a regular expression's source matching them literally, any run of spaces for a space ("brought forward"). */
export function phrasePattern(text: string): string {
  return escapeRegExp(text).replace(/\s+/g, '\\s+');
}

/** Text without its accents ("Página" → "Pagina"); ASCII text as it is, at no cost. */
export function unaccented(text: string): string {
  return /[^\x00-\x7f]/.test(text) ? text.normalize('NFKD').replace(/\p{M}/gu, '') : text;
}

/** A knowledge list ("a, b, c", ../knowledge/*.ts) as its lower-cased items. */
export function listOf(text: string): string[] {
  return text.split(',').map((s) => s.trim().toLowerCase()).filter(Boolean);
}

export interface Token {
  /** The stem ("invoic"), or the lower-cased token for numbers. */
  stem: string;
  /** Offsets of the token in its line (UTF-16), for quoting what the document says. */
  start: number;
  end: number;
  stop: boolean;
  /** A word that negates what follows ("not a VAT invoice"). */
  negator: boolean;
}

/** Words that deny the next few words; "no" only before a word ("no invoice", not "No. 123" or "No:"). */
const NEGATORS = new Set(['not', 'never', 'without', 'non', 'nor']);
/** How many content words after a negator it denies. */
export const NEGATION_SCOPE = 3;

/** Words of letters and digits; "O&M", "R&D" and "P&L" are one word each. */
const WORD = /[\p{L}\p{N}]+(?:&[\p{L}\p{N}]+)*/gu;

/** Stems are cached: a document's vocabulary is small next to its word count. */
const stemCache = new Map<string, string>();
const STEM_CACHE_LIMIT = 200_000;

export function stemOf(lower: string): string {
  let stem = stemCache.get(lower);
  if (stem === undefined) {
    // Only alphabetic ASCII words go through Porter; numbers and other scripts are kept as they are.
    stem = /^[a-z]+$/.test(lower) ? porterStem(lower) : lower;
    if (stemCache.size >= STEM_CACHE_LIMIT) stemCache.clear();
    stemCache.set(lower, stem);
  }
  return stem;
}

/**
 * Chinese, Japanese and Korean print words without spaces between them (or, in Korean, with particles
 * glued on): a run of their letters is read as its overlapping pairs of characters ("季度报告" → 季度,
 * 度报, 报告), the usual way to index such text without a dictionary; a lone character stays one word.
 */
const CJK_RUN = /[\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}\p{Script=Hangul}]+/gu;
const HAS_CJK = /[\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}\p{Script=Hangul}]/u;

/** A word's parts: its runs of CJK letters as character pairs, the rest as it is. */
function* wordParts(raw: string, at: number): Generator<{ raw: string; start: number; cjk: boolean }> {
  let from = 0;
  for (const run of raw.matchAll(CJK_RUN)) {
    if (run.index > from) yield { raw: raw.slice(from, run.index), start: at + from, cjk: false };
    const chars = [...run[0]];
    let offset = run.index;
    if (chars.length === 1) yield { raw: run[0], start: at + offset, cjk: true };
    for (let i = 0; i + 1 < chars.length; i++) {
      yield { raw: chars[i]! + chars[i + 1]!, start: at + offset, cjk: true };
      offset += chars[i]!.length;
    }
    from = run.index + run[0].length;
  }
  if (from < raw.length) yield { raw: raw.slice(from), start: at + from, cjk: false };
}

/**
 * A word printed letter-spaced ("I N V O I C E", an OCR layer's "c o n t r a c t s"): three or more
 * single letters, one space apart.
 */
const SPACED_WORD = /(?<![\p{L}\p{N}])\p{L}(?: \p{L}){2,}(?![\p{L}\p{N}])/gu;

/** A line's words: runs of letters and digits, and a letter-spaced word as one (its letters joined; `end` past its last letter). */
function wordsOf(line: string): Array<{ raw: string; start: number; end: number }> {
  const spaced = [...line.matchAll(SPACED_WORD)].map((m) => ({ raw: m[0].replace(/ /g, ''), start: m.index, end: m.index + m[0].length }));
  const words = [...line.matchAll(WORD)].filter((m) => !spaced.some((s) => m.index >= s.start && m.index < s.end)).map((m) => ({ raw: m[0], start: m.index, end: m.index + m[0].length }));
  return spaced.length === 0 ? words : [...words, ...spaced].sort((a, b) => a.start - b.start);
}

/**
 * Tokens of one line: words of letters and digits; 1-letter words and possessive "s" dropped; a word
 * printed letter-spaced is read as the word, its token spanning the letters.
 */
export function tokenize(line: string): Token[] {
  const tokens: Token[] = [];
  for (const { raw, start, end } of wordsOf(line)) {
    if (HAS_CJK.test(raw)) {
      for (const part of wordParts(raw, start)) {
        if (part.cjk) tokens.push({ stem: part.raw, start: part.start, end: part.start + part.raw.length, stop: false, negator: false });
        else tokens.push(...tokenize(part.raw).map((t) => ({ ...t, start: t.start + part.start, end: t.end + part.start })));
      }
      continue;
    }
    if (raw.length < 2 && !/\d/.test(raw)) continue;
    // Accents do not matter ("reçu" is "recu", "Rechnungsempfänger" "rechnungsempfanger").
    const lower = unaccented(raw.toLowerCase().replace(/&/g, ''));
    const negator = NEGATORS.has(lower) || (lower === 'no' && /^ [a-z]/i.test(line.slice(end, end + 2)));
    tokens.push({ stem: stemOf(lower), start, end, stop: STOP_WORDS.has(lower) || JOINING_WORDS.has(lower), negator });
  }
  return tokens;
}

/** Stems of a free text (names, descriptions, instructions), stop words removed. */
export function contentStems(text: string): string[] {
  return tokenize(text).filter((t) => !t.stop).map((t) => t.stem);
}

/**
 * Features of a text: each content stem, and each pair of consecutive content stems of one line
 * (a phrase: "amount due", "bank statement"; stop words between are skipped, so "bill of lading"
 * is "bill lade"). A feature is its string; phrases are the two stems joined by a space.
 */
export function phraseKey(a: string, b: string): string {
  return `${a} ${b}`;
}

export function isPhrase(feature: string): boolean {
  return feature.includes(' ');
}

/** The features of a short text, in order (stems, then the phrases between them). */
export function textFeatures(text: string): { stems: string[]; phrases: string[] } {
  const stems = contentStems(text);
  const phrases: string[] = [];
  for (let i = 1; i < stems.length; i++) phrases.push(phraseKey(stems[i - 1]!, stems[i]!));
  return { stems, phrases };
}
