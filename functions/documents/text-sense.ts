/**
 * Does a run of words look like real text? Two uses:
 * - a PDF text layer whose fonts map glyphs to the wrong characters reads as garbage
 *   ("9ffbiffdjn`k_cfZXcj#iXk_\ik_Xe_fk\cj%" for "Book rooms with locals, rather than hotels."): such
 *   a page is read by OCR instead (./pdf.ts);
 * - OCR of a page turned sideways or upside down gives garbage too: the reading that looks most like
 *   text tells the page's orientation (./orientation.ts).
 *
 * A word is judged by its shape, script by script. Numbers, codes and part numbers ("ES1000",
 * "WA45-2A", "12/05/2024", "$1,234.50"), e-mail and web addresses are plausible; so is any word in
 * one non-Latin script (CJK, Arabic, Cyrillic…: we do not judge their spelling). A Latin word is
 * plausible when it is letters only and, in lower case and four letters or more, has a vowel (letter
 * case says little: chemistry and brand names mix it freely). Symbols inside a word (` \ _ # ^ < > @ %
 * between letters) are not plausible, except in addresses.
 */
import { COMMON_WORDS, plainWord } from './knowledge/common-words.ts';

/** Leading and trailing punctuation that real words carry (quotes, brackets, sentence marks). */
const EDGE_PUNCTUATION = /^[\s"'“”‘’«»‹›()[\]{}¡¿*•·–—-]+|[\s"'“”‘’«»‹›()[\]{}.,;:!?*…–—-]+$/gu;
/** Fill-in blanks of forms ("NAME:[________]", "Date ........"): gaps between words, not parts of them. */
const BLANKS = /[[(]?(?:_{2,}|\.{3,}|…+)[\])]?/gu;
/** Numbers, amounts, dates and codes: joined runs of letters and digits with a digit among them ("F-14", "IV.E.1.b", "US$250,000", "20°F", "Note.4"). */
const NUMBER_OR_CODE = /^(?=.*\p{N})[#№+\-−<>≤≥~]?[\p{L}\p{N}\p{Sc}°µμ]+(?:[-–./:,'’×#][\p{L}\p{N}\p{Sc}°µμ]+)*[%‰°]?$/u;
/**
 * Marks that join words and are not part of them: "and/or", "tire(s)", "tires—except", "D=Diagnostic",
 * "R&I", "PRO™", "Information”)and". Tokens are split at them before they are judged.
 */
const JOINERS = /[/()[\]{}—–=&+|™®©℠"“”«»]+/u;
const EMAIL = /^[\p{L}\p{N}._%+-]+@[\p{L}\p{N}.-]+\.\p{L}{2,}$/u;
const WEB = /^(?:https?:\/\/|www\.)\S+$|^[\p{L}\p{N}-]+(?:\.[\p{L}\p{N}-]+)*\.(?:com|org|net|gov|edu|io|co|uk|de|fr)(?:\/\S*)?$/iu;
/** Letters with the joiners words keep inside them (it's, e-mail, U.S.A, l’homme, Jean-Luc). */
const LETTERS = /^\p{L}+(?:['’\-.]{1,2}\p{L}+)*$/u;
const LATIN = /\p{Script=Latin}/u;
/** Scripts written without spaces between words. */
const UNSPACED = /[\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}\p{Script=Hangul}\p{Script=Thai}]/u;
/** Runs of letters (with their marks) and digits, joined by punctuation and symbols: a clause of a script written without spaces. */
const NON_LATIN_RUNS = /^[\p{P}\p{S}]*[\p{L}\p{M}\p{N}]+(?:[\p{P}\p{S}]+[\p{L}\p{M}\p{N}]+)*[\p{P}\p{S}]*$/u;
const VOWEL = /[aeiouyæøœ]/i;

export type TokenVerdict = 'plausible' | 'implausible' | 'none';

/**
 * Judges one whitespace-separated token (blanks already split off); 'none' for bare punctuation.
 * A token joined of words ("and/or", "tire(s)") is plausible when each of its words is.
 */
export function judgeToken(token: string): TokenVerdict {
  const whole = judgeWord(token);
  if (whole !== 'implausible') return whole;
  const parts = token.split(JOINERS).map(judgeWord).filter((verdict) => verdict !== 'none');
  if (parts.length > 1 && parts.every((verdict) => verdict === 'plausible')) return 'plausible';
  return looksLikeCode(token) ? 'plausible' : 'implausible';
}

/**
 * Source code and markup printed in a document (a developer manual's examples, an order template's
 * placeholders): "<groupId>org.mustangproject</groupId>", "<asm/io.h>", "BUYER_ADDR_1", "#include",
 * "Factory().setProducer(\"My", "bd->bd.next". Shapes a wrongly mapped font does not make: whole
 * tags, identifiers joined by underscores of two letters or more, calls and member chains whose
 * every name reads as a word or an identifier.
 */
function looksLikeCode(token: string): boolean {
  const word = token.replace(EDGE_PUNCTUATION, '');
  if (PREPROCESSOR.test(word) || IDENTIFIER.test(word) || FILE_PATH.test(word)) return true;
  const untagged = word.replace(MARKUP_TAG, ' ').trim();
  if (untagged !== word) return untagged === '' || untagged.split(/\s+/).every((part) => judgeToken(part) !== 'implausible');
  if (!CALL_OR_MEMBER.test(word)) return false;
  const names = word.split(/[^\p{L}\p{N}_]+/u).filter((name) => name !== '');
  return names.length > 1 && names.every((name) => IDENTIFIER.test(name) || judgeWord(name) !== 'implausible');
}

/** A whole markup tag: "<url>", "</repository>", "<rsm:CrossIndustryDocument>". */
const MARKUP_TAG = /<\/?[A-Za-z][\w:./-]*(?:\s[^<>]*)?\/?>/g;
/** Names joined by underscores ("BUYER_ADDR_1", "setup_works", "UI_FILTER"): each part two letters or more, or digits. */
const IDENTIFIER = /^[A-Za-z][A-Za-z0-9]*(?:_(?:[A-Za-z][A-Za-z0-9]+|[0-9]+))+[:;,]?$/;
/** A call or a member chain: "f(", ").", "->". */
const CALL_OR_MEMBER = /[\p{L}\p{N}_]\(|\)[.;,)]|->/u;
/** A file's path on Windows ("E:\\FR\\FM\\06AUP1.SGM", as typesetting systems print in a margin). */
const FILE_PATH = /^[A-Za-z]:\\[\w.-]+(?:\\[\w.-]+)*$/;
/** C's preprocessor lines, printed in programming documents. */
const PREPROCESSOR = /^#(?:include|define|ifn?def|if|elif|else|endif|pragma|undef)$/;

function judgeWord(token: string): TokenVerdict {
  const word = token.replace(EDGE_PUNCTUATION, '');
  if (!/[\p{L}\p{N}]/u.test(word)) return 'none';
  if (NUMBER_OR_CODE.test(word) || EMAIL.test(word) || WEB.test(word)) return 'plausible';
  // Chinese and Japanese put no spaces between words: a "word" here is a clause, with its own
  // punctuation inside ("公司董事会、监事会及董事"、"营业收入（元）") and Latin letters where the text
  // names something so ("新增发行H股"). Of another script than Latin, or holding such a script, it is
  // plausible when it is letters and digits between punctuation.
  if ((!LATIN.test(word) || UNSPACED.test(word)) && NON_LATIN_RUNS.test(word)) return 'plausible';
  if (!LETTERS.test(word)) return 'implausible';
  // A word of another script: we do not judge its spelling.
  if (!LATIN.test(word)) return 'plausible';
  if (/[^\p{Script=Latin}'’\-.µμ]/u.test(word)) return 'implausible'; // Latin mixed with another script (µg, μm excepted)
  if (COMMON_WORDS.has(plainWord(word))) return 'plausible';
  for (const part of word.split(/['’\-.]/)) {
    const lower = plainWord(part);
    if (part === part.toLowerCase() && lower.length >= 4 && !VOWEL.test(lower)) return 'implausible';
  }
  return 'plausible';
}

export interface TextSense {
  /** Characters (letters and digits) in plausible and in implausible tokens. */
  plausibleChars: number;
  implausibleChars: number;
  /** Lower-case Latin words of two letters or more, and how many of them are common words. */
  lowerWords: number;
  commonWords: number;
}

/** Tallies the tokens of some text (words of a page, or lines). */
export function senseOf(texts: readonly string[]): TextSense {
  const sense: TextSense = { plausibleChars: 0, implausibleChars: 0, lowerWords: 0, commonWords: 0 };
  for (const text of texts) {
    for (const token of text.replace(BLANKS, ' ').split(/\s+/)) {
      const { verdict, chars, lowerWord, commonWord } = tokenSense(token);
      if (verdict === 'none') continue;
      if (verdict === 'plausible') sense.plausibleChars += chars;
      else sense.implausibleChars += chars;
      if (lowerWord) {
        sense.lowerWords++;
        if (commonWord) sense.commonWords++;
      }
    }
  }
  return sense;
}

/** What one token adds to a TextSense. */
interface TokenSense {
  verdict: TokenVerdict;
  /** Its letters and digits. */
  chars: number;
  /** A lower-case Latin word of two letters or more (punctuation at its edges aside)… */
  lowerWord: boolean;
  /** …that is a common word. */
  commonWord: boolean;
}

/**
 * Tokens already judged: every page of a PDF is judged (./pdf.ts), and its words repeat ("the",
 * "of", "Section"), so each is judged once per process. Emptied when full.
 */
const judged = new Map<string, TokenSense>();
const MAX_JUDGED = 50_000;

function tokenSense(token: string): TokenSense {
  const known = judged.get(token);
  if (known) return known;
  const verdict = judgeToken(token);
  let sense: TokenSense = { verdict, chars: 0, lowerWord: false, commonWord: false };
  if (verdict !== 'none') {
    const word = token.replace(EDGE_PUNCTUATION, '');
    const lowerWord = /^\p{Ll}{2,}$/u.test(word) && LATIN.test(word);
    sense = { verdict, chars: token.replace(/[^\p{L}\p{N}]/gu, '').length, lowerWord, commonWord: lowerWord && COMMON_WORDS.has(plainWord(word)) };
  }
  if (judged.size >= MAX_JUDGED) judged.clear();
  judged.set(token, sense);
  return sense;
}

/**
 * A garbled page has at least this share of its characters in implausible tokens (on the corpus's
 * born-digital pages at most 0.05; on the airbnb deck's wrongly mapped slides 0.14 to 0.81)…
 */
const GARBLED_SHARE = 0.1;
/** …and at least this many such characters (a stray symbol-laden code on a short page is not garbage). */
const GARBLED_MIN_CHARS = 20;
/** Running text in a language of ./knowledge/common-words.ts: this many lower-case words… */
const PROSE_WORDS = 40;
/** …have at least this share of common words (English prose: ~40%; a wrongly mapped font: ~0%). */
const PROSE_COMMON_SHARE = 0.04;

/**
 * Whether a page's text layer is unusable garbage: many characters in words no script writes, or
 * prose-like lower-case words among which hardly any is a common word of any language we know (a font
 * whose mapping shifts letters into other letters, with no symbols to give it away).
 */
export function looksGarbled(texts: readonly string[]): boolean {
  const sense = senseOf(texts);
  const total = sense.plausibleChars + sense.implausibleChars;
  if (sense.implausibleChars >= GARBLED_MIN_CHARS && sense.implausibleChars >= GARBLED_SHARE * total) return true;
  return sense.lowerWords >= PROSE_WORDS && sense.commonWords < PROSE_COMMON_SHARE * sense.lowerWords;
}
