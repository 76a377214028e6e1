/**
 * Two OCR readings of one document (Page.secondWords: Tesseract's reading is the page's text, PP-OCR's
 * a second one beside it). Two readers seldom misread a printed value the same way, so extraction
 * reads the document both ways and keeps, leaf by leaf:
 * - a value both readings found alike, or that only the first found;
 * - a value only the second found, when it is of a closed form, found with a high likelihood
 *   (TWO_READINGS_SETTINGS.secondOnlyLikelihood), or found where the first reader read nothing it could make out;
 * - the first reading's text where the second's is the same or the start of it (readsOn);
 * - one name read at one place with a word read two ways: that word from the reader much surer of it
 *   (settledWordByWord);
 * - of two amounts, the one the items' amounts (or another column of an array) add up to;
 * - null where they found different values: one of them misread it, and which cannot be told.
 * Arrays (line items) come from the first reading whole: rows cannot be paired leaf by leaf.
 */
import type { Box, Doc, Page, Word } from '../../documents/doc.ts';
import { layoutPage } from '../../documents/layout.ts';
import type { ExtractResult, Found, Tree } from '../engine.ts';
import { CURRENCIES } from '../knowledge/currencies.ts';
import { CENT } from './business.ts';
import { normalizeToken } from './extract-index.ts';
import { TWO_READINGS_SETTINGS } from './weights/two-readings.ts';

/** The document as the second reader read it, or undefined when no page was read twice. */
export function secondReading(doc: Doc): Doc | undefined {
  if (!doc.pages.some((p) => p.secondWords && p.unit !== 'none')) return undefined;
  return { kind: doc.kind, pages: doc.pages.map((page) => (page.secondWords && page.unit !== 'none' ? laidOut(page, page.unit, page.secondWords) : page)) };
}

function laidOut(page: Page, unit: 'pt' | 'px', words: Page['words']): Page {
  const { number, width, height } = page;
  const read = layoutPage({ number, width, height, unit, ocr: true, words, rules: page.rules ?? [] });
  return { ...page, ...read, secondWords: undefined };
}

interface Leaf {
  value: unknown;
  source: Tree<Found | null> | undefined;
  likelihood: Tree<number> | undefined;
}

const isObject = (x: unknown): x is Record<string, unknown> => x !== null && typeof x === 'object' && !Array.isArray(x);
const child = <T>(tree: Tree<T> | undefined, key: string): Tree<T> | undefined => (isObject(tree) ? (tree as Record<string, Tree<T>>)[key] : undefined);

/** The first reading's result, with each leaf where the second reading differs settled as the module says. */
export function agreeReadings(first: ExtractResult, second: ExtractResult, firstDoc?: Doc): ExtractResult {
  const unread = (source: Tree<Found | null> | undefined) => firstDoc !== undefined && readNothingAt(firstDoc, source);
  const settle = (a: Leaf, b: Leaf) => (firstDoc === undefined ? undefined : settledWordByWord(firstDoc, a, b));
  const sums = { of: columnSums(first.output), held: numbersOutsideArrays(first.output) };
  const agreed = agree({ value: first.output, source: first.sources, likelihood: first.likelihoods }, { value: second.output, source: second.sources, likelihood: second.likelihoods }, unread, settle, sums);
  return { output: agreed.value as Record<string, unknown>, sources: agreed.source ?? {}, likelihoods: agreed.likelihood ?? {}, choices: first.choices };
}

const NONE: Leaf = { value: null, source: null, likelihood: 0 };

function agree(a: Leaf, b: Leaf, unread: (source: Tree<Found | null> | undefined) => boolean, settle: (a: Leaf, b: Leaf) => string | undefined, sums: ItemSums): Leaf {
  if (Array.isArray(a.value)) return a;
  if (isObject(a.value) && isObject(b.value)) {
    const value: Record<string, unknown> = {};
    const source: Record<string, Tree<Found | null>> = {};
    const likelihood: Record<string, Tree<number>> = {};
    for (const key of new Set([...Object.keys(a.value), ...Object.keys(b.value)])) {
      const one = agree(
        { value: a.value[key], source: child(a.source, key), likelihood: child(a.likelihood, key) },
        { value: b.value[key], source: child(b.source, key), likelihood: child(b.likelihood, key) },
        unread,
        settle,
        sums,
      );
      if (one.value !== undefined) value[key] = one.value;
      if (one.source !== undefined) source[key] = one.source;
      if (one.likelihood !== undefined) likelihood[key] = one.likelihood;
    }
    return { value, source, likelihood };
  }
  if (a.value === null || a.value === undefined) {
    if (b.value === null || b.value === undefined) return a.value === undefined ? b : a;
    if (isObject(b.value)) {
      // An object only the second reading found: each of its values as if the first found none of them.
      const kept = agree({ value: {}, source: {}, likelihood: {} }, b, unread, settle, sums);
      return Object.values(kept.value as Record<string, unknown>).some((v) => v !== null && v !== undefined) ? kept : { ...NONE, value: a.value };
    }
    const sure = Array.isArray(b.value) || closedForm(b.value) || (typeof b.likelihood === 'number' && b.likelihood >= TWO_READINGS_SETTINGS.secondOnlyLikelihood) || unread(b.source);
    return sure ? b : NONE;
  }
  if (b.value === null || b.value === undefined) return a;
  if (JSON.stringify(a.value) === JSON.stringify(b.value) || readsOn(a.value, b.value)) return a;
  // Amounts read two ways: the one the items add up to (six charges of 165.00 over a total read as
  // "950 00" and "990 00").
  if (typeof a.value === 'number' && typeof b.value === 'number') {
    const first = a.value;
    const same = (x: number, y: number) => Math.abs(x - y) < CENT / 2;
    // (A sum another field of the first reading holds, a subtotal under a total with its tax, decides nothing here.)
    const heldElsewhere = (sum: number) => sums.held.filter((n) => same(n, sum)).length > (same(first, sum) ? 1 : 0);
    const sumsTo = (n: number) => sums.of.some((sum) => same(sum, n) && !heldElsewhere(sum));
    if (sumsTo(a.value) !== sumsTo(b.value)) return sumsTo(a.value) ? a : b;
  }
  const settled = settle(a, b);
  return settled === undefined ? NONE : { ...a, value: settled };
}

/** What the first reading's items add up to, column by column, and the numbers of its other fields. */
interface ItemSums {
  of: number[];
  held: number[];
}

/** The numbers of an output outside its arrays (its header fields). */
function numbersOutsideArrays(output: unknown): number[] {
  if (typeof output === 'number') return [output];
  if (!isObject(output)) return [];
  return Object.values(output).flatMap(numbersOutsideArrays);
}

/**
 * The sums of the first reading's item columns: for each array of objects in the output, each number
 * field two or more of its items give, added up (the line items' amounts).
 */
function columnSums(output: unknown): number[] {
  const out: number[] = [];
  const visit = (value: unknown) => {
    if (Array.isArray(value)) {
      const rows = value.filter(isObject);
      const keys = new Set(rows.flatMap((row) => Object.keys(row)));
      for (const key of keys) {
        const numbers = rows.map((row) => row[key]).filter((v): v is number => typeof v === 'number');
        if (numbers.length >= 2) out.push(numbers.reduce((sum, n) => sum + n, 0));
      }
      value.forEach(visit);
    } else if (isObject(value)) Object.values(value).forEach(visit);
  };
  visit(output);
  return out;
}

/**
 * Whether the first reading's text holds all the second's, in the same letters and digits (spaces and
 * marks aside) and perhaps more after it: the readers agree on what is printed and differ only on
 * where a space falls ("L ars Peeters" / "Lars Peeters") or on how much of it the second read
 * ("LIGHTROOM GALLERY SDN BHD" / "LIGHTROOM GALLERY SDN B"). Not the other way round: more than the
 * first reading read is read by one reader only.
 */
function readsOn(first: unknown, second: unknown): boolean {
  // (A letter O and a zero are one shape, printed alike in many fonts: "COMMUNITY0059" / "COMMUNITYOO59".)
  const spelled = (text: string) => normalizeToken(text).replace(/o/g, '0');
  return typeof first === 'string' && typeof second === 'string' && spelled(second) !== '' && spelled(first).startsWith(spelled(second));
}

/** A value that is a date as extraction gives it ("2018-03-05"): read from digits, never settled word by word. */
const ISO_DATE = /^\d{4}-\d{2}-\d{2}/;

/**
 * Where the readers found one name at one place and differ on some of its words ("Timeless
 * Kitchenette Sdn Bhd" / "… San Bhd"): each word they read differently is taken from the reader
 * surer of it by TWO_READINGS_SETTINGS.wordMargin, the first reading's text otherwise kept. Words with digits are never
 * settled so (both readers misread digits with confidence: "P0S01" for "POS01"), nor a word one
 * reader read as two others. Undefined when the two values are not the same words read twice, or a
 * word stays in doubt.
 */
function settledWordByWord(doc: Doc, a: Leaf, b: Leaf): string | undefined {
  if (typeof a.value !== 'string' || typeof b.value !== 'string' || ISO_DATE.test(a.value) || !/\p{L}/u.test(a.value)) return undefined;
  const placeA = boxOrigin(a.source);
  const placeB = boxOrigin(b.source);
  if (!placeA || !placeB || placeA.page !== placeB.page) return undefined;
  const page = doc.pages[placeA.page - 1];
  const first = wordsWithin(page?.words ?? [], placeA.box);
  const second = wordsWithin(page?.secondWords ?? [], placeB.box);
  // Exactly the words each value was read from.
  if (spelledAll(first) !== normalizeToken(a.value) || spelledAll(second) !== normalizeToken(b.value)) return undefined;
  let text = a.value;
  let from = 0;
  const paired = new Set<Word>();
  for (const word of first) {
    const over = second.filter((other) => sameSpot(word, other));
    over.forEach((other) => paired.add(other));
    if (spelledAll(over) === normalizeToken(word.text)) continue;
    if (over.length !== 1 || /\d/.test(word.text + over[0]!.text)) return undefined;
    const mine = word.confidence ?? 100;
    const theirs = over[0]!.confidence ?? 100;
    if (Math.abs(mine - theirs) < TWO_READINGS_SETTINGS.wordMargin) return undefined;
    const at = text.indexOf(word.text, from);
    if (at < 0) return undefined;
    if (theirs > mine) text = text.slice(0, at) + over[0]!.text + text.slice(at + word.text.length);
    from = at + (theirs > mine ? over[0]!.text.length : word.text.length);
  }
  // (A word only the second reader read there: not the same words.)
  return paired.size === second.length ? text : undefined;
}

function boxOrigin(source: Tree<Found | null> | undefined): { page: number; box: Box } | undefined {
  const origin = source && typeof source === 'object' && 'origin' in source ? (source as Found).origin : undefined;
  return origin?.kind === 'box' ? origin : undefined;
}

const spelledAll = (words: readonly Word[]) => words.map((w) => normalizeToken(w.text)).join('');

/** The words whose middle lies in the box, in reading order (top to bottom by line, then left to right). */
function wordsWithin(words: readonly Word[], box: Box): Word[] {
  const inside = words.filter((w) => {
    if (!w.box) return false;
    const x = w.box.left + w.box.width / 2;
    const y = w.box.top + w.box.height / 2;
    return x >= box.left && x <= box.left + box.width && y >= box.top && y <= box.top + box.height;
  });
  return inside.sort((p, q) => (Math.abs(p.box!.top - q.box!.top) > Math.min(p.box!.height, q.box!.height) / 2 ? p.box!.top - q.box!.top : p.box!.left - q.box!.left));
}

/** Whether two readers' words are printed at one place: on one line, and most of the narrower across the other. */
function sameSpot(one: Word, other: Word): boolean {
  const a = one.box!;
  const b = other.box!;
  const down = Math.min(a.top + a.height, b.top + b.height) - Math.max(a.top, b.top);
  const across = Math.min(a.left + a.width, b.left + b.width) - Math.max(a.left, b.left);
  return down > Math.min(a.height, b.height) / 2 && across > Math.min(a.width, b.width) / 2;
}

/**
 * Whether the first reader read nothing at the value's place, or only words it could not make out
 * over most of it: a block it did not see (white on a coloured band, a faded print, a logo's
 * lettering), where no reading disagrees.
 */
function readNothingAt(doc: Doc, source: Tree<Found | null> | undefined): boolean {
  const place = boxOrigin(source);
  if (!place || place.box.width <= 0) return false;
  const { page, box } = place;
  // The spans across the place of the words read surely on its line(s) (half their height inside it).
  const spans = (doc.pages[page - 1]?.words ?? [])
    .filter((w) => (w.confidence ?? 100) >= TWO_READINGS_SETTINGS.unreadConfidence && w.box && Math.min(w.box.top + w.box.height, box.top + box.height) - Math.max(w.box.top, box.top) > w.box.height / 2)
    .map((w) => [Math.max(w.box!.left, box.left), Math.min(w.box!.left + w.box!.width, box.left + box.width)] as const)
    .filter(([from, to]) => to > from)
    .sort((a, b) => a[0] - b[0]);
  let covered = 0;
  let end = box.left;
  for (const [from, to] of spans) {
    covered += Math.max(0, to - Math.max(from, end));
    end = Math.max(end, to);
  }
  return covered < TWO_READINGS_SETTINGS.readShare * box.width;
}

/** Values of a closed form, which a misreading seldom turns into another valid one: a known currency code, a calendar date. */
function closedForm(value: unknown): boolean {
  return typeof value === 'string' && (CURRENCIES.some((c) => c.code === value) || /^\d{4}-\d{2}-\d{2}(T|$)/.test(value));
}
