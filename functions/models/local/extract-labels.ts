/**
 * Label proximity: where a field's label is printed, and the words its value should be in.
 *
 * A label occurrence is a run of words of one segment whose stems are the field's (found through
 * the index's postings, so only lines that mention the field are read), widened to the colon that
 * ends it and to a qualifier just before it ("Due Date" for a field asking for a date: "Due" makes
 * the label less like "Invoice Date"). Its value is looked for where documents put values:
 *   inline — after the label on its segment ("Invoice Date: March 5, 2024"), cut before the next
 *            label ("… Due Date: …");
 *   right  — the next segment of the line ("Subtotal            17,454.00");
 *   below  — the segment under it ("Bill To:" over "Contoso Engineering Inc");
 *   cells  — the cell to the right of, or below, a cell holding just the label.
 */
import { blockBelow, cellAt, type DocIndex, segmentAfter, segmentBelow, type XSegment, type XWord } from './extract-index.ts';
import { bestPhrase, type Phrase, type PhraseSource, wordStems } from './extract-words.ts';
import { LABEL_SETTINGS, PLACEMENT_WEIGHT as PLACEMENTS } from './weights/extract-labels.ts';
import { LINKING_WORDS } from '../knowledge/fields.ts';

export type Placement =
  /** "Label: value" on one segment. */
  | 'colon'
  /** "Label value" at the start of a segment, no colon. */
  | 'inline'
  /** A label inside running text ("… quoting the invoice number …"). */
  | 'prose'
  | 'right'
  | 'below'
  | 'cellRight'
  | 'cellBelow'
  /** The lines after the first of a block under a label (an address under "Bill To:"). */
  | 'block'
  /** The first line of the first page (a letterhead: the issuer's name). */
  | 'letterhead'
  /** A value recognized by itself, with no label (an enum option, a currency sign, an e-mail). */
  | 'unlabeled';

/** How much each placement is worth (weights/extract-labels.ts). */
export const PLACEMENT_WEIGHT: Readonly<Record<Placement, number>> = PLACEMENTS;

export interface LabelMatch {
  /** The label's words (run, qualifier and colon word). */
  words: XWord[];
  similarity: number;
  source: PhraseSource | undefined;
  colon: boolean;
  /** The label is all of its segment: its value is elsewhere (right, below, next cell). */
  whole: boolean;
  atStart: boolean;
}

export interface Region {
  words: XWord[];
  placement: Placement;
  label: LabelMatch;
  /** A qualifier sat between the label and this region ("VAT 20%   166.72"): a little less sure. */
  qualified?: boolean;
}

/** A currency printed apart from its amount ("Total   RM   9.00"). */
const CURRENCY_MARK = /^\(?([$€£¥₹]|RM|Rs\.?|USD|EUR|GBP|MYR|INR|AUD|CAD|SGD)\)?$/;
/** Separator words between a label and its value. */
const SEPARATOR = /^[:=\-–—#|]+$/;
/** Words that qualify a label rather than give its value: a rate ("6%", "@ 6%"), a parenthesized unit or currency. */
const QUALIFIER = /^\(?@?[\d.,]+\s?%\)?:?$|^\([^)]{1,12}\):?$|^@$/;
/** A word of the field lexicon's labels: letters only, every stem a label word ("Total", "ROUNDED"). */
export function isLexiconWord(word: XWord, vocabulary: ReadonlySet<string>): boolean {
  return !/\d/.test(word.text) && word.stems.length > 0 && word.stems.every((s) => vocabulary.has(s));
}

/** A segment that is at most two letters or marks: a currency mark or OCR debris, no value. */
const DEBRIS = /^[^\p{N}\s]{1,2}$/u;

/** Words that open with a label of their own: up to three words of letters, the last ending in a colon. */
function startsWithLabel(words: XWord[]): boolean {
  for (let k = 0; k < Math.min(LABEL_SETTINGS.labelTailWords, words.length); k++) {
    if (!isLetterWord(words[k]!)) return false;
    if (endsLabel(words[k]!)) return true;
  }
  return false;
}

/**
 * Up to three words of letters (or a rate): they lengthen a label rather than give a value. A word
 * may hold one digit among two letters or more: OCR reads a faint S as 5 ("G5T").
 */
function labelTail(words: XWord[]): boolean {
  const count = (text: string, pattern: RegExp) => text.match(pattern)?.length ?? 0;
  const wordOfLetters = (text: string) => {
    const digits = count(text, /\d/g);
    return digits === 0 ? /\p{L}/u.test(text) : digits === 1 && count(text, /\p{L}/gu) >= 2;
  };
  return words.length <= LABEL_SETTINGS.labelTailWords && words.every((w) => QUALIFIER.test(w.text) || wordOfLetters(w.text));
}

/** Words that are one aside in brackets, "(ISSQN / Federais)", "(in EUR)": a label's qualifier, however many words. */
const bracketedAside = (words: XWord[]) => words.length <= LABEL_SETTINGS.labelTailWords && /^\([^()]{1,40}\):?$/.test(words.map((w) => w.text).join(' '));

const LINKERS = new Set(LINKING_WORDS.split(',').map((w) => w.trim()));
/** Whether a word is an article, preposition or conjunction (../knowledge/fields.ts LINKING_WORDS), in any case, accents off. */
export const isLinkingWord = (text: string) => LINKERS.has(text.normalize('NFKD').replace(/\p{M}/gu, '').toLowerCase());
const isLetterWord = (w: XWord) => /^[\p{L}][\p{L}.'’&/-]*:?$/u.test(w.text);
const endsLabel = (w: XWord) => w.text.endsWith(':') || w.text === ':';

/**
 * Labels of a field in the document: each run of words carrying the field's stems, scored against
 * its phrases. `weightOf` lets votes weigh phrase sources differently.
 */
export function findLabels(index: DocIndex, phrases: readonly Phrase[], weightOf: (s: PhraseSource) => number, limit = LABEL_SETTINGS.maxLabels): LabelMatch[] {
  const stems = new Set(phrases.flatMap((p) => p.stems));
  const hits = new Set<number>();
  for (const stem of stems) for (const id of index.byStem.get(stem) ?? []) {
    hits.add(id);
    if (hits.size > limit * LABEL_SETTINGS.wordsPerLabel) break;
  }
  const matches: LabelMatch[] = [];
  const done = new Set<number>();
  for (const id of [...hits].sort((a, b) => a - b)) {
    if (done.has(id) || matches.length >= limit) continue;
    const word = index.words[id]!;
    const segment = index.segments[word.segment]!;
    const words = segment.words;
    const at = words.indexOf(word);
    // A word with a digit is a value ("#8", "No.5"), never a word of a label.
    const matched = (w: XWord) => !/\d/.test(w.text) && w.stems.some((s) => stems.has(s));
    if (!matched(word)) continue;
    // The run: contiguous words with the field's stems (a bare "#" or "No." joins it).
    let start = at;
    while (start > 0 && matched(words[start - 1]!) && !endsLabel(words[start - 1]!)) start--;
    let end = at + 1;
    // (A stop word between label words joins them: "Net Cost of Repairs", "Date of Issue".)
    const stopWord = (w: XWord | undefined) => w !== undefined && w.stems.length === 0 && /^\p{L}{1,4}$/u.test(w.text);
    while (end < words.length && end - start < LABEL_SETTINGS.maxLabelWords && !endsLabel(words[end - 1]!)) {
      if (matched(words[end]!)) end++;
      else if (stopWord(words[end]) && words[end + 1] && matched(words[end + 1]!)) end += 2;
      else break;
    }
    for (let k = start; k < end; k++) done.add(words[k]!.id);
    // A colon within two more words ends the label there ("Tax (8%):", "Date (UTC):", "TVA 20 % :").
    if (!endsLabel(words[end - 1]!)) {
      for (let k = end; k < Math.min(words.length, end + LABEL_SETTINGS.labelTailWords); k++) {
        if (endsLabel(words[k]!) && !/\d{2}/.test(words[k]!.text.replace(/\(\d+(\.\d+)?%\):?$/, ''))) {
          end = k + 1;
          break;
        }
        // A rate printed apart from its percent sign ("20 %") is part of the label; other numbers end it.
        if (/\d/.test(words[k]!.text) && words[k + 1]?.text !== '%') break;
      }
    }
    // Up to two qualifier words before the run ("Due" of "Due Date"), unless they follow a label (a
    // value). A run that ends its segment after a joining word is a heading's subject: the words
    // before it say what about it ("Informations sur le vendeur"), they do not qualify it.
    const heading = words.slice(end).every((w) => SEPARATOR.test(w.text));
    let from = start;
    while (from > 0 && start - from < LABEL_SETTINGS.maxQualifierWords && isLetterWord(words[from - 1]!) && !endsLabel(words[from - 1]!) && !(heading && isLinkingWord(words[from - 1]!.text))) from--;
    const label = words.slice(from, end);
    const { similarity, source } = labelSimilarity(label, phrases, weightOf);
    if (similarity <= 0) continue;
    // A rate printed before the label ("6.00% GST") qualifies it as one printed after it does.
    const first = words.slice(0, from).every((w) => QUALIFIER.test(w.text));
    matches.push({
      words: label,
      similarity,
      source,
      colon: endsLabel(label[label.length - 1]!),
      whole: first && words.slice(end).every((w) => SEPARATOR.test(w.text) || QUALIFIER.test(w.text)),
      atStart: first,
    });
  }
  return matches;
}

/**
 * How well a label's words match the phrases. A label printed as alternatives split by a slash
 * ("Käufer/Leistungsempfänger:", "Datum/Date:") says either one: each alternative is matched alone
 * too, so the other does not dilute it.
 */
function labelSimilarity(label: XWord[], phrases: readonly Phrase[], weightOf: (s: PhraseSource) => number): ReturnType<typeof bestPhrase> {
  let best = bestPhrase([...new Set(label.flatMap((w) => w.stems))], phrases, weightOf);
  const text = label.map((w) => w.text).join(' ');
  if (!/\p{L}\s*\/\s*\p{L}/u.test(text)) return best;
  for (const alternative of text.split('/')) {
    const match = bestPhrase([...new Set(alternative.split(/\s+/).flatMap(wordStems))], phrases, weightOf);
    if (match.similarity > best.similarity) best = match;
  }
  return best;
}

/**
 * The words of a value up to the next label: "March 5, 2024 Due Date: …" ends before "Due". Words
 * before a later colon belong to that label when they are label words of the schema (`vocabulary`).
 */
export function cutAtNextLabel(words: XWord[], vocabulary: ReadonlySet<string>): XWord[] {
  for (let k = 1; k < words.length; k++) {
    // A word of letters ending in a colon starts the next label ("10:30" and "(8%):" do not).
    if (!endsLabel(words[k]!) || !isLetterWord(words[k]!)) continue;
    let start = k;
    while (start > 0 && k - start < LABEL_SETTINGS.labelTailWords && isLetterWord(words[start - 1]!) && words[start - 1]!.stems.length > 0 && words[start - 1]!.stems.every((s) => vocabulary.has(s))) start--;
    return words.slice(0, start);
  }
  return words;
}

function dropSeparators(words: XWord[]): XWord[] {
  let start = 0;
  while (start < words.length && SEPARATOR.test(words[start]!.text)) start++;
  return words.slice(start);
}

/** A pseudo-segment of just the label's words (for "below" when the label ends a longer segment). */
function labelSegment(index: DocIndex, label: LabelMatch): XSegment {
  const segment = index.segments[label.words[0]!.segment]!;
  if (label.whole) return segment;
  const boxes = label.words.flatMap((w) => (w.box ? [w.box] : []));
  const left = Math.min(...boxes.map((b) => b.left));
  const top = Math.min(...boxes.map((b) => b.top));
  const box = boxes.length ? { left, top, width: Math.max(...boxes.map((b) => b.left + b.width)) - left, height: Math.max(...boxes.map((b) => b.top + b.height)) - top } : undefined;
  return { id: -1, line: segment.line, words: label.words, ...(box ? { box } : {}) };
}

/** A "right" or "below" value of a label that does not stand alone on its segment is less sure. */
export function placementFactor(placement: Placement, label: LabelMatch): number {
  if (placement === 'right') return label.whole || label.colon ? 1 : LABEL_SETTINGS.rightOfRunningLabel;
  if (placement === 'below') return label.whole ? 1 : label.colon ? LABEL_SETTINGS.belowColonLabel : LABEL_SETTINGS.belowRunningLabel;
  return 1;
}

/** Where the value of a label may be: each region with its placement. */
export function valueRegions(index: DocIndex, label: LabelMatch, vocabulary: ReadonlySet<string>): Region[] {
  const regions: Region[] = [];
  const last = label.words[label.words.length - 1]!;
  const segment = index.segments[last.segment]!;
  // (A separator printed after a rate, "GST @ 6% :", closes the label.)
  const after = dropSeparators(segment.words.slice(segment.words.indexOf(last) + 1));
  while (after.length > 0 && SEPARATOR.test(after[after.length - 1]!.text)) after.pop();
  if (after.length > 0) {
    const placement: Placement = label.colon ? 'colon' : label.atStart ? 'inline' : 'prose';
    regions.push({ words: cutAtNextLabel(after, vocabulary), placement, label });
    // A tax code and a faint currency mark between the label and its amount ("GST  A  RN 4.87").
    const amountAt = after.findIndex((w) => !DEBRIS.test(w.text));
    if (amountAt > 0 && amountAt <= LABEL_SETTINGS.amountAfterQualifier && /^\d[\d,.]*[.,]\d{2}$/.test(after[amountAt]!.text)) regions.push({ words: cutAtNextLabel(after.slice(amountAt), vocabulary), placement, label, qualified: true });
    // Only a qualifier or a currency's mark follows ("VAT 20%", "Amount (EUR)", "Importe Total: $"),
    // or a few more words of a longer label the lexicon does not know ("Total Incl. GST@6%"): the
    // value may still be beside or under it.
    if (!after.every((w) => QUALIFIER.test(w.text) || CURRENCY_MARK.test(w.text)) && !labelTail(after) && !bracketedAside(after)) return regions;
  }
  // The label ends its segment, or only a qualifier or a tail of label words follows it: the value
  // is beside it, under it, or in the next cell. A tail closed like a label ("(Inclusive GST) RM",
  // "GST@6%") makes the label the whole segment.
  const closing = after[after.length - 1]?.text ?? '';
  if (after.length > 0 && (QUALIFIER.test(closing) || CURRENCY_MARK.test(closing) || closing.endsWith(')'))) label = { ...label, whole: true };
  // A value after such words is less sure, unless they are a currency's mark, which says nothing of
  // what the value is ("Subtotal: $" beside its amount is as sure as "Subtotal:").
  const qualified = after.length > 0 && !after.every((w) => CURRENCY_MARK.test(w.text));
  // A colon printed apart ("Total    :    9.00") is not the value: the one after it is.
  const right = segmentPastMarks(index, segment);
  // Another label beside this one ("Owner:   Inspection Location:") is no value.
  if (right && !startsWithLabel(dropSeparators(right.words))) {
    regions.push({ words: cutAtNextLabel(dropSeparators(spacedDate(index, right)), vocabulary), placement: 'right', label, qualified });
    // A speck or two of two letters at most between label and value (OCR's "Ri" for a faint "RM", a
    // tax code and a mark: "A RN"), or more words of the label printed apart ("TOTAL   ROUNDED   RM
    // 30.90"): the value may be after it.
    const apart = right.words.every((w) => isLexiconWord(w, vocabulary));
    const specks = right.words.length <= LABEL_SETTINGS.debrisWords && right.words.every((w) => DEBRIS.test(w.text));
    const further = specks || apart ? segmentPastMarks(index, right) : undefined;
    if (further) regions.push({ words: cutAtNextLabel(dropSeparators(further.words), vocabulary), placement: 'right', label, qualified: !apart });
  }
  const below = segmentBelow(index, labelSegment(index, label));
  if (below) regions.push({ words: cutAtNextLabel(dropSeparators(below.words), vocabulary), placement: 'below', label, qualified });
  const cell = last.cell;
  if (cell && label.words.every((w) => w.cell && w.cell.table === cell.table && w.cell.row === cell.row && w.cell.column === cell.column)) {
    const own = cellAt(index, cell.table, cell.row, cell.column);
    // Only a cell that is all label: "Total" beside its amount, a column header over its values.
    if (own && own.words.every((w) => label.words.includes(w) || SEPARATOR.test(w.text))) {
      const table = index.tables[cell.table]!;
      for (let column = cell.column + 1; column < table.columnCount; column++) {
        const next = cellAt(index, cell.table, cell.row, column);
        if (next === own) continue;
        if (next && next.words.length > 0) regions.push({ words: dropSeparators(next.words), placement: 'cellRight', label });
        break;
      }
      const down = cellAt(index, cell.table, cell.row + 1, cell.column);
      if (down && down.words.length > 0) regions.push({ words: dropSeparators(down.words), placement: 'cellBelow', label });
    }
  }
  return regions;
}

/** The next segment to the right that is more than separators and currency marks ("Total  :  RM  9.00"). */
/**
 * A segment's words, and those of the segments after it on its line when together they print one
 * date spread out by its slashes, as a form's date boxes do: "08  /  02  /  23".
 */
function spacedDate(index: DocIndex, segment: XSegment): XWord[] {
  const piece = (s: XSegment) => s.words.every((w) => /^(\d{1,4}|\/)$/.test(w.text));
  if (!piece(segment)) return segment.words;
  const words = [...segment.words];
  // (At most the five pieces of "DD / MM / YY".)
  for (let next = segmentAfter(index, segment), joined = 1; next && joined < 5 && piece(next); next = segmentAfter(index, next), joined++) words.push(...next.words);
  return words.length > segment.words.length && words.some((w) => w.text === '/') ? words : segment.words;
}

function segmentPastMarks(index: DocIndex, segment: XSegment): XSegment | undefined {
  let right = segmentAfter(index, segment);
  while (right && right.words.every((w) => SEPARATOR.test(w.text) || CURRENCY_MARK.test(w.text) || /^[^\p{L}\p{N}]+$/u.test(w.text))) right = segmentAfter(index, right);
  return right;
}

/**
 * The block under a label (a name, then address lines): the segments stacked under its value's first
 * segment. For an inline label ("Customer: Contoso Inc") the block starts with that value's line.
 */
export function labelBlock(index: DocIndex, label: LabelMatch, maxLines = LABEL_SETTINGS.blockLines): XSegment[] {
  const last = label.words[label.words.length - 1]!;
  const segment = index.segments[last.segment]!;
  const rest = segment.words.slice(segment.words.indexOf(last) + 1);
  if (rest.length > 0) {
    const below = blockBelow(index, segment, maxLines);
    return [{ ...segment, words: dropSeparators(rest) }, ...below.slice(1)];
  }
  const first = segmentBelow(index, labelSegment(index, label));
  return first ? blockBelow(index, first, maxLines) : [];
}
