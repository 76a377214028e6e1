/**
 * Labeled values on a page — "Invoice No: INV-5101", "Account number 12345678", a table header
 * "Invoice number" over "INV-3233" — and page markers ("Page 2 of 3", "- 2 -", a bare footer number, "continued").
 *
 * Partitions look for the value of one key (./partition.ts); splits look for any document number to
 * see where a new document starts (./split.ts). Both read labels the same way: a label, an optional
 * number word ("No.", "#", "number", "ID", "ref"), separators, then a value that looks like an
 * identifier (has a digit, is not a date, an amount, a time or a percentage).
 */
import type { Page } from '../../documents/doc.ts';
import { CONTINUATION_WORDS, FIELD_CONCEPTS, PAGE_COUNT_WORDS } from '../knowledge/fields.ts';
import { listOf, phrasePattern, stemOf, STOP_WORDS, unaccented } from '../shared/words.ts';
import { IDENTIFIER_SETTINGS } from './weights/identifiers.ts';
import type { PageLine } from './text.ts';

// ---------------------------------------------------------------------------------------------
// Page markers

export interface PageMarker {
  /** "Page k of n": k and n. */
  index?: number;
  total?: number;
  /** "continued", "(cont.)", "brought forward": this page carries on from the one before. */
  continued: boolean;
}

/** The page concept's one-word labels, in every language the knowledge knows ("page", "seite", "pagina"; knowledge/fields.ts). */
export const PAGE_WORDS: readonly string[] = [...new Set(Object.values(FIELD_CONCEPTS.find((c) => c.id === 'page')!.labels).flatMap((list) => listOf(list!)).filter((w) => !w.includes(' ')))];
/** A page's word, or "p.". */
const PAGE_WORD = `(?:${PAGE_WORDS.join('|')}|p\\.)`;
/** "Page 2 of 3", "Seite 2 von 3", "Página 2/3" (read without accents). */
const PAGE_OF = new RegExp(`(?<![\\p{L}\\d])${PAGE_WORD}\\s*(\\d{1,4})\\s*(?:(?:${listOf(PAGE_COUNT_WORDS).join('|')})\\s+|\\/\\s*)(\\d{1,4})(?!\\d)`, 'iu');
const PAGE_ALONE = new RegExp(`^\\s*${PAGE_WORD}\\s*(\\d{1,4})\\s*$`, 'iu');
/** "continued", "Übertrag", "(cont.)" (read without accents), not inside another word. */
const CONTINUED = new RegExp(`(?<![\\p{L}\\d])(?:${listOf(CONTINUATION_WORDS).map(phrasePattern).join('|')})(?![\\p{L}\\d])`, 'iu');
/** A page number between dashes on a line of its own ("- 2 -", "—3—"). */
const PAGE_DASHED = /^\s*[-–—]\s*(\d{1,4})\s*[-–—]\s*$/;
/** A bare page number ("2") as the last line of a page of some length: its footer. */
const PAGE_FOOTER = /^\s*(\d{1,3})\s*$/;

export function pageMarker(lines: readonly PageLine[]): PageMarker {
  const marker: PageMarker = { continued: false };
  for (const line of lines) {
    const text = unaccented(line.text);
    const of = PAGE_OF.exec(text);
    if (of && marker.index === undefined) {
      marker.index = Number(of[1]);
      marker.total = Number(of[2]);
    }
    const alone = PAGE_ALONE.exec(text) ?? PAGE_DASHED.exec(text);
    if (alone && marker.index === undefined) marker.index = Number(alone[1]);
    if (CONTINUED.test(text)) marker.continued = true;
  }
  const footer = lines.length >= IDENTIFIER_SETTINGS.footerMinLines ? PAGE_FOOTER.exec(lines[lines.length - 1]!.text) : null;
  if (footer && marker.index === undefined && Number(footer[1]) > 0) marker.index = Number(footer[1]);
  return marker;
}

// ---------------------------------------------------------------------------------------------
// Values

const DATE = /^(?:\d{1,4}[-/.]\d{1,2}[-/.]\d{1,4}|\d{1,2}[-/.]\d{1,2})$/;
/** An amount: a currency sign, thousands separators or cents. */
const MONEY = /^[-+(]?[£$€¥]\S*$|^\d{1,3}(?:,\d{3})+(?:\.\d{1,2})?\)?$|^\d+\.\d{2}\)?$/;
const TIME = /^\d{1,2}:\d{2}(?::\d{2})?$/;
const PERCENT = /%$/;
const YEAR = /^(?:19|20)\d{2}$/;

/** A token as a value: outer punctuation and a leading "#" or "Nº" dropped; undefined when not an identifier. */
export function identifierValue(token: string, options: { minLength: number; allowYear: boolean }): string | undefined {
  const value = token.replace(/^[#(\["'“‘]+|^n[º°]/i, '').replace(/[.,;:)\]"'”’]+$/, '');
  if (value.length < options.minLength || !/\d/.test(value)) return undefined;
  if (!/^[\p{L}\p{N}][\p{L}\p{N}\-/._]*$/u.test(value)) return undefined;
  if (DATE.test(value) || MONEY.test(token) || TIME.test(value) || PERCENT.test(token)) return undefined;
  if (!options.allowYear && YEAR.test(value)) return undefined;
  return value;
}

export const hasLetters = (value: string) => /\p{L}/u.test(value);

// ---------------------------------------------------------------------------------------------
// Labels

/** Words that say "the identifier of": "Invoice No.", "Order #", "Customer ID", "Account number". */
const NUMBER_WORDS = new Set(['no', 'nr', 'num', 'number', 'numbers', 'nº', 'n°', 'id', 'ref', 'reference', 'code', 'identifier', '#']);

export function isNumberWord(word: string): boolean {
  return NUMBER_WORDS.has(word);
}

/** A whitespace token of a line with its core (lower case, outer punctuation dropped). */
export interface RawToken {
  text: string;
  core: string;
  start: number;
  end: number;
  /** Ends with ":" (a label ends there). */
  colon: boolean;
}

export function rawTokens(text: string): RawToken[] {
  const tokens: RawToken[] = [];
  for (const match of text.matchAll(/\S+/g)) {
    const t = match[0];
    const core = t === '#' || /^#[:.]?$/.test(t) ? '#' : t.toLowerCase().replace(/^[^\p{L}\p{N}#º°]+|[^\p{L}\p{N}º°]+$/gu, '');
    tokens.push({ text: t, core, start: match.index, end: match.index + t.length, colon: t.endsWith(':') });
  }
  return tokens;
}

/** Separator tokens between a label and its value: ":", "-", "#:". */
const isSeparator = (token: RawToken) => /^[:#\-–—.=]+$/.test(token.text);

/** Where a value was found relative to its label. */
export type Placement = 'inline' | 'below' | 'cell';

export interface LabeledValue {
  /** The label's words as stems ("invoic no"), for comparing labels across pages. */
  label: string;
  /** The value as printed ("INV-5101"). */
  value: string;
  /** Index of the label's line in the page's lines. */
  line: number;
  placement: Placement;
  /** The label had a number word ("No.", "#", "number"). */
  numberWord: boolean;
  /** A colon or other separator sat between label and value. */
  separated: boolean;
  /** The label's head words were abbreviated ("Inv."). */
  abbreviated: boolean;
}

/**
 * Matches a label's head words starting at token `i`: the index of the token after them, whether
 * they were abbreviated, and the label as stems. The number word and separators are read after it.
 */
export type HeadMatcher = (tokens: readonly RawToken[], i: number) => { end: number; abbreviated: boolean; label: string } | undefined;

/**
 * A matcher for a given key's head words ("invoice" of "invoice number"): each word by stem, or by
 * an abbreviation of at least 3 letters that begins the word ("Inv." for "invoice").
 */
export function keyHeadMatcher(headWords: readonly string[]): HeadMatcher {
  const stems = headWords.map((w) => stemOf(w));
  return (tokens, i) => {
    let abbreviated = false;
    for (let k = 0; k < headWords.length; k++) {
      const token = tokens[i + k];
      if (!token) return undefined;
      const core = token.core;
      if (core === '') return undefined;
      if (stemOf(core) === stems[k] || core === headWords[k]) continue;
      if (core.length >= IDENTIFIER_SETTINGS.abbreviationLetters && headWords[k]!.startsWith(core)) {
        abbreviated = true;
        continue;
      }
      return undefined;
    }
    return { end: i + headWords.length, abbreviated, label: stems.join(' ') };
  };
}

/**
 * A matcher for any document-number label: one or two words followed by a number word
 * ("Statement No", "Employee ID", "Tracking number").
 */
export const anyNumberLabel: HeadMatcher = (tokens, i) => {
  for (const width of [2, 1]) {
    const words = tokens.slice(i, i + width);
    if (words.length < width || !words.every((t) => /^\p{L}{2,}$/u.test(t.core) && !STOP_WORDS.has(t.core) && !isNumberWord(t.core))) continue;
    const next = tokens[i + width];
    if (next && isNumberWord(next.core)) return { end: i + width, abbreviated: false, label: words.map((t) => stemOf(t.core)).join(' ') };
  }
  return undefined;
};

/** Whether two labels name the same thing: the same words, or abbreviations ("inv" and "invoic"). */
export function sameLabel(a: string, b: string): boolean {
  if (a === b) return true;
  const wa = a.split(' ');
  const wb = b.split(' ');
  if (wa.length !== wb.length) return false;
  return wa.every((x, i) => {
    const y = wb[i]!;
    return x === y || (Math.min(x.length, y.length) >= IDENTIFIER_SETTINGS.abbreviationLetters && (x.startsWith(y) || y.startsWith(x)));
  });
}

/**
 * Numbers printed in a title without a number word: "Sales Invoice INV-2369", "INVOICE INV-4097".
 * The label is the word before the value; the value must mix letters and digits (a bare number in a
 * title is more often a year or a page).
 */
export function titleNumbers(lines: readonly PageLine[]): Array<{ label: string; value: string; line: number }> {
  const found: Array<{ label: string; value: string; line: number }> = [];
  lines.slice(0, IDENTIFIER_SETTINGS.titleNumberLines).forEach((line, l) => {
    if (!line.title) return;
    const tokens = rawTokens(line.text);
    for (let i = 1; i < tokens.length; i++) {
      const word = tokens[i - 1]!.core;
      if (!/^\p{L}{3,}$/u.test(word) || isNumberWord(word) || STOP_WORDS.has(word)) continue;
      const value = identifierValue(tokens[i]!.text, { minLength: IDENTIFIER_SETTINGS.titleValueLength, allowYear: false });
      // Three digits at least: "INV-2369", not a postcode ("BS1", "EC2A").
      if (value && hasLetters(value) && value.replace(/\D/g, '').length >= IDENTIFIER_SETTINGS.titleValueDigits) found.push({ label: stemOf(word), value, line: l });
    }
  });
  return found;
}

const DATE_TEXT =
  '(\\d{1,2}[/.-]\\d{1,2}[/.-]\\d{2,4}|\\d{4}-\\d{1,2}-\\d{1,2}|\\d{1,2}(?:st|nd|rd|th)?\\s+[A-Za-z]{3,9}\\.?,?\\s+\\d{4}|[A-Za-z]{3,9}\\.?\\s+\\d{1,2}(?:st|nd|rd|th)?,?\\s+\\d{4})';
/** "Invoice Date: 5 May 2024", "Pay date 2024-05-31", "Period ending 31/05/2024", "Statement period 1 May 2024". */
const LABELED_DATE = new RegExp(`\\b((?:[A-Za-z]+\\s+){0,2}(?:date|period|ending|dated))\\s*[:\\-]?\\s*${DATE_TEXT}`, 'gi');

const ANY_DATE = new RegExp(`\\b${DATE_TEXT}`, 'i');

/** Whether a text has a date in it ("made on 7 July 2024"). */
export function hasDate(text: string): boolean {
  return ANY_DATE.test(text);
}

/** Labeled dates of a page's first lines, as (label stems, date as printed). */
export function findLabeledDates(lines: readonly PageLine[], maxLines: number): Array<{ label: string; value: string; line: number }> {
  const found: Array<{ label: string; value: string; line: number }> = [];
  lines.slice(0, maxLines).forEach((line, l) => {
    for (const match of line.text.matchAll(LABELED_DATE)) {
      const label = match[1]!.toLowerCase().split(/\s+/).filter((w) => w && !STOP_WORDS.has(w)).map(stemOf).join(' ');
      found.push({ label, value: match[2]!, line: l });
    }
  });
  return found;
}

export interface FindOptions {
  /** Only the first lines of the page (document headers), or all when undefined. */
  maxLines?: number;
  /** The label must have a number word (generic document numbers). */
  requireNumberWord: boolean;
  minLength: number;
  /** Accept a label above its value (next line, or the table cell below). */
  below: boolean;
}

/**
 * Labeled values on a page: inline ("Invoice No: INV-5101"), in the table cell below or to the
 * right of a label cell, or on the next line under the label (by word boxes when the page has them,
 * else by relative position in the line).
 */
export function findLabeledValues(page: Page | undefined, lines: readonly PageLine[], match: HeadMatcher, options: FindOptions): LabeledValue[] {
  const found: LabeledValue[] = [];
  const limit = Math.min(lines.length, options.maxLines ?? lines.length);
  const tokensOf = lines.map((l) => rawTokens(l.text));
  for (let l = 0; l < limit; l++) {
    const tokens = tokensOf[l]!;
    for (let i = 0; i < tokens.length; i++) {
      const head = match(tokens, i);
      if (!head) continue;
      let j = head.end;
      let numberWord = false;
      let separated = tokens[j - 1]!.colon;
      if (tokens[j] && isNumberWord(tokens[j]!.core)) {
        numberWord = true;
        separated ||= tokens[j]!.colon || /^#[:.]?$/.test(tokens[j]!.text);
        j++;
      } else if (tokens[j] && /^#\S/.test(tokens[j]!.text)) {
        numberWord = true; // "Invoice #5103"
      }
      if (options.requireNumberWord && !numberWord) continue;
      while (tokens[j] && isSeparator(tokens[j]!)) {
        separated = true;
        j++;
      }
      const common = { label: head.label, line: l, numberWord, separated, abbreviated: head.abbreviated };
      const inline = tokens[j] ? identifierValue(tokens[j]!.text, { minLength: options.minLength, allowYear: numberWord || separated }) : undefined;
      if (inline) {
        found.push({ ...common, value: inline, placement: 'inline' });
        i = j;
        continue;
      }
      // Nothing usable after the label on its line: a label over its value (tables, forms).
      // Only when the label ends its cell or its line, so prose ("invoice number as reference") is not read as a label.
      if (!options.below || (tokens[j] && !numberWord) || !headerLike(lines[l]!.text, tokens)) continue;
      const below = valueBelow(page, lines, tokensOf, l, tokens[i]!, tokens[j - 1]!, options.minLength);
      if (below) found.push({ ...common, value: below.value, placement: below.placement });
    }
  }
  return found;
}

/** A line of labels (a table header, a form row), not prose: short, no sentence end. */
function headerLike(text: string, tokens: readonly RawToken[]): boolean {
  return tokens.length <= IDENTIFIER_SETTINGS.headerWords && !/[.!?]$/.test(text.trim());
}

/** The identifier under a label: the table cell below it, else the next line's token under it. */
function valueBelow(
  page: Page | undefined,
  lines: readonly PageLine[],
  tokensOf: RawToken[][],
  l: number,
  first: RawToken,
  last: RawToken,
  minLength: number,
): { value: string; placement: Placement } | undefined {
  const labelText = lines[l]!.text.slice(first.start, last.end).toLowerCase();
  if (page) {
    for (const table of page.tables) {
      for (const cell of table.cells) {
        // The label's own cell: the same words, give or take a trailing ":" or ".".
        const text = cell.text.replace(/\s+/g, ' ').trim().toLowerCase().replace(/[:#.\s]+$/, '');
        if (text === '' || text !== labelText.replace(/[:#.\s]+$/, '')) continue;
        // The cell below (a header over values) or to the right (a key-value table).
        for (const [row, column] of [[cell.row + cell.rowSpan, cell.column], [cell.row, cell.column + cell.columnSpan]] as const) {
          const target = table.cells.find((c) => c.row === row && c.column === column);
          const value = target ? identifierValue(target.text.trim().split(/\s+/)[0] ?? '', { minLength, allowYear: true }) : undefined;
          if (value) return { value, placement: 'cell' };
        }
      }
    }
  }
  const next = tokensOf[l + 1];
  if (!next || next.length === 0) return undefined;
  // By boxes when there are any: the next line's words that overlap the label horizontally.
  const labelBox = boxesOf(page, lines[l]!.text, first, last);
  if (labelBox) {
    for (const token of next) {
      const box = boxesOf(page, lines[l + 1]!.text, token, token);
      if (box && box.left < labelBox.right && box.right > labelBox.left) {
        const value = identifierValue(token.text, { minLength, allowYear: true });
        if (value) return { value, placement: 'below' };
      }
    }
    return undefined;
  }
  // Without geometry: the token whose relative position in its line is closest to the label's.
  const here = first.start / Math.max(1, lines[l]!.text.length);
  let best: { value: string; distance: number } | undefined;
  for (const token of next) {
    const value = identifierValue(token.text, { minLength, allowYear: true });
    if (!value) continue;
    const distance = Math.abs(token.start / Math.max(1, lines[l + 1]!.text.length) - here);
    if (!best || distance < best.distance) best = { value, distance };
  }
  return best && best.distance < IDENTIFIER_SETTINGS.belowDistance ? { value: best.value, placement: 'below' } : undefined;
}

/** The horizontal extent of the words of a line's text span, when the page has word boxes. */
function boxesOf(page: Page | undefined, lineText: string, first: RawToken, last: RawToken): { left: number; right: number } | undefined {
  if (!page) return undefined;
  const line = page.lines.find((candidate) => candidate.text.replace(/\s+/g, ' ').trim() === lineText);
  if (!line) return undefined;
  // Words of the line in order; whitespace tokens of the line correspond to them one to one.
  const before = lineText.slice(0, first.start).split(/\s+/).filter(Boolean).length;
  const count = lineText.slice(first.start, last.end).split(/\s+/).filter(Boolean).length;
  const boxes = line.words.slice(before, before + count).map((w) => page.words[w]?.box).filter((b) => b !== undefined);
  if (boxes.length === 0) return undefined;
  return { left: Math.min(...boxes.map((b) => b.left)), right: Math.max(...boxes.map((b) => b.left + b.width)) };
}
