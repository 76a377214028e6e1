/**
 * Reading the standard fields of a business document (invoice, receipt, bill, estimate, statement):
 * who issued it, for whom, its number and dates, its amounts and currency. Each field of the lexicon
 * (../knowledge/fields.ts) gets ranked candidates — the printed words, the value they read as, and a
 * 0..1 score — that the extractor offers to the schema's leaves asking for that field.
 *
 * 1. Labels: every label of the lexicon found in the document goes to the field it names best, in any
 *    language ("Customer No." to the customer's number, never to the invoice number; "Total GST" to
 *    the tax; "Due date" to the due date), and its value is read where documents put values (after
 *    the colon, to the right, below, in the next cell).
 * 2. Reasoning across fields:
 *    - amounts: the total, subtotal and tax chosen together, so that subtotal + tax = total where the
 *      document allows; an amount the others imply is taken only where it is printed;
 *    - the issuer: a label ("From", "Seller"), a "Name:" in the block a seller's heading opens, else
 *      the letterhead — the top lines of the first page, scored by size, a company's legal form, the
 *      e-mail or web domain printed below, the name opening a sender's line ("Acme GmbH • Main St 1 •
 *      12345 Town"); never the block under "Bill to";
 *    - the customer: a label, a "Name:" in a buyer's block, the recipient under a sender's line;
 *    - the number: a label, or the number printed after the document's title ("Invoice FA-2017-0008");
 *    - the issue date: a labelled date, else the first date of the document that no other label claims;
 *    - the currency: codes, symbols and words anywhere, "$" by the country the document is from.
 * A field with no candidate is not in the document: the extractor leaves it null.
 */
import { COUNTRIES, CURRENCIES, currencyNamesIn, DOLLAR_SIGN_CODES, FORMER_CODES, MONEY_WORDS, SHARED_CURRENCY_NAMES, STATED_IN, WEAK_MARKS } from '../knowledge/currencies.ts';
import { DATE_LEAD_WORDS, DATED_WORDS, DISCOUNT_WORDS, PAYABLE_WORDS, UNTIL_WORDS } from '../knowledge/form-options.ts';
import { DAY_FIRST_WORDS, MONTH_FIRST_WORDS } from '../knowledge/date-order.ts';
import { STANDARD_TAX_RATES } from '../knowledge/tax-rates.ts';
import { DOCUMENT_TYPES } from '../knowledge/document-types.ts';
import { ADDRESS_FORMS, AUTHORIZATION_CODES, COMPANY_ENDINGS, COMPANY_OPENINGS, CONTACT_ANYWHERE, COPY_MARKS, DOCUMENT_TITLE_START, type FieldConcept, FIELD_CONCEPTS, type FieldKind, FREE_MAIL_PROVIDERS, NAME_LABELS, PAYMENT_SLIP_HEADINGS, SENDER_LABELS, STREET_ENDINGS, STREET_WORDS } from '../knowledge/fields.ts';
import { readByOcr } from '../../documents/doc.ts';
import { type DocIndex, meanOcrConfidence, normalizeToken, segmentAfter, segmentBelow, type XLine, type XSegment, type XWord } from './extract-index.ts';
import { findLabels, isLexiconWord, isLinkingWord, type LabelMatch, PLACEMENT_WEIGHT, type Placement, placementFactor, valueRegions } from './extract-labels.ts';
import type { LeafNode } from './extract-schema.ts';
import { isPlaceholderCode, parseDate, parseNumber, readValue, traitsOf, withSplitCents } from './extract-values.ts';
import { bestPhrase, NUMBER, NUMBER_WORDS, type Phrase, textStems } from './extract-words.ts';
import { formBoxValues } from './form-layouts.ts';
import { AMOUNT_WEIGHTS, CURRENCY_WEIGHTS, FIELD_FLOORS, ISSUER_WEIGHTS, LABEL_WEIGHTS, MISREAD_LABEL_WEIGHTS, PARTY_NUMBER_DATE_WEIGHTS, TRUST_WEIGHTS } from './weights/business.ts';
import { escapeRegExp, listOf } from '../shared/words.ts';
import { PAGE_WORDS } from './identifiers.ts';

export interface BusinessValue {
  concept: string;
  /** The value as the concept's kind reads it: a number, an ISO date, a code, a string. */
  value: string | number;
  words: XWord[];
  /** 0..1: how sure the reading is. */
  score: number;
  /** Other printed amounts agree with it (subtotal + tax, paid − change): OCR read it right, however unsure it was. */
  corroborated?: boolean;
}

export interface BusinessReading {
  /** Candidates for a concept, best first (empty: not in the document). */
  candidates(concept: string): BusinessValue[];
}

// ---------------------------------------------------------------------------------------------
// The lexicon as phrases

interface ConceptPhrases {
  concept: FieldConcept;
  /** Its labels, weak ones weighing less. */
  phrases: Phrase[];
  /** The same, every one weighing 1: which field a printed label names is a matter of words alone. */
  plain: Phrase[];
}

function phrasesOf(concept: FieldConcept): Phrase[] {
  const phrases: Phrase[] = [];
  const seen = new Set<string>();
  const add = (lists: Partial<Record<string, string>> | undefined, weight: number) => {
    for (const list of Object.values(lists ?? {})) {
      for (const raw of (list ?? '').split(',')) {
        const stems = [...new Set(textStems(raw.trim()))];
        const key = stems.join(' ');
        if (stems.length === 0 || seen.has(key)) continue;
        seen.add(key);
        phrases.push({ stems, weight, beta: 1, source: 'synonym' });
      }
    }
  };
  add(concept.labels, 1);
  add(concept.weak, LABEL_WEIGHTS.weakLabel);
  return phrases;
}

let lexicon: { byId: Map<string, ConceptPhrases>; all: ConceptPhrases[]; vocabulary: Set<string> } | undefined;

function conceptLexicon() {
  if (!lexicon) {
    const all = FIELD_CONCEPTS.map((concept) => {
      const phrases = phrasesOf(concept);
      return { concept, phrases, plain: phrases.map((p) => ({ ...p, weight: 1 })) };
    });
    const vocabulary = new Set<string>();
    for (const c of all) for (const p of c.phrases) for (const s of p.stems) vocabulary.add(s);
    lexicon = { byId: new Map(all.map((c) => [c.concept.id, c])), all, vocabulary };
  }
  return lexicon;
}

/**
 * The fields this module reads with reasoning of its own. Others (addresses, e-mails, IBANs, terms …)
 * are read by the extractor's label proximity, with the lexicon's labels as synonyms (labelPhrases).
 */
export const READ_HERE = new Set(['document_number', 'order_number', 'customer_number', 'contract_number', 'tax_id', 'issue_date', 'due_date', 'delivery_date', 'total', 'subtotal', 'tax', 'balance_due', 'currency', 'vendor_name', 'customer_name']);

/** A field's labels in every language, as phrases for label proximity (a little below the field's own words). */
export function labelPhrases(id: string): Phrase[] {
  return (conceptLexicon().byId.get(id)?.phrases ?? []).map((p) => ({ ...p, weight: p.weight * LABEL_WEIGHTS.proximityPhrase }));
}

/**
 * Whether another field of the lexicon names this label clearly better (it is that field's label):
 * "Customer No." is the customer number's, "INVOICE" alone the document number's (not half of
 * "Invoice from"). Labels are compared by their words alone; weak labels only weigh less as values.
 */
function labelBelongsElsewhere(index: DocIndex, label: LabelMatch, own: ConceptPhrases): boolean {
  const stems = [...new Set(label.words.flatMap((w) => w.stems))];
  const mine = bestPhrase(stems, own.plain).similarity;
  // The label read with the lexicon word printed right before or after it: "Total" of "Total Items
  // = 1.00" is a quantity's, "Total (RM)" of "Sub: Total (RM)" (OCR's colon) a subtotal's.
  const longer = neighbourLabelWords(index, label).map((side) => {
    const words = [...new Set([...stems, ...side.flatMap((w) => w.stems)])];
    return { words, mine: bestPhrase(words, own.plain).similarity };
  });
  for (const other of conceptLexicon().all) {
    if (other === own || Boolean(other.concept.item) !== Boolean(own.concept.item)) continue;
    if (bestPhrase(stems, other.plain).similarity > mine + LABEL_WEIGHTS.clearlyBetter) return true;
    for (const side of longer) {
      const theirs = bestPhrase(side.words, other.plain).similarity;
      if (theirs >= mine && theirs > side.mine + LABEL_WEIGHTS.clearlyBetter) return true;
    }
  }
  return false;
}

/**
 * The lexicon words printed just before a label, and up to two just after it (a label without a
 * colon): each side as its own list. After a label that ends its segment, the words may be in the
 * next segment ("Total    (Excluding GST):    119.25").
 */
function neighbourLabelWords(index: DocIndex, label: LabelMatch): XWord[][] {
  const first = label.words[0]!;
  const segment = index.segments[first.segment]!;
  const at = segment.words.indexOf(first);
  const { vocabulary } = conceptLexicon();
  const known = (w: XWord | undefined): w is XWord => w !== undefined && isLexiconWord(w, vocabulary);
  const sides: XWord[][] = [];
  const before = segment.words[at - 1];
  if (known(before)) sides.push([before]);
  if (!label.colon) {
    let rest = segment.words.slice(at + label.words.length);
    if (rest.length === 0) rest = segmentAfter(index, segment)?.words ?? [];
    const after: XWord[] = [];
    for (const w of rest.slice(0, LABEL_WEIGHTS.labelWordsAfter)) {
      if (!known(w)) break;
      after.push(w);
      if (w.text.endsWith(':')) break;
    }
    if (after.length > 0) sides.push(after);
  }
  return sides;
}

// ---------------------------------------------------------------------------------------------
// Reading values of a kind

function leafFor(kind: FieldKind): LeafNode {
  const leaf = (key: string, type: LeafNode['type'], format?: string): LeafNode => ({ kind: 'leaf', type, nullable: true, info: { key }, ...(format ? { format } : {}) });
  switch (kind) {
    case 'amount':
      return leaf('amount', 'number');
    case 'quantity':
      return leaf('quantity', 'number');
    case 'percent':
      return leaf('rate', 'number');
    case 'date':
      return leaf('date', 'string', 'date');
    case 'identifier':
      return leaf('number', 'string');
    case 'iban':
      return leaf('iban', 'string');
    case 'bic':
      return leaf('swift', 'string');
    case 'name':
      return leaf('name', 'string');
    case 'address':
      return leaf('address', 'string');
    case 'email':
      return leaf('email', 'string', 'email');
    case 'phone':
      return leaf('phone', 'string');
    case 'currency':
      return leaf('currency', 'string');
    case 'text':
      return leaf('text', 'string');
  }
}

/** Money as printed: a currency sign before digits, or digits grouped in thousands with cents. */
const MONEY_SHAPE = /^[-(]?[$€£¥₹]\s?\d|^\d{1,3}(,\d{3})+\.\d{2}$/;

/** Whether a read value is plausible for its kind (an identifier has a digit, a name has letters …). */
function plausible(kind: FieldKind, value: unknown, words: XWord[]): boolean {
  const text = words.map((w) => w.text).join(' ');
  switch (kind) {
    case 'identifier': {
      const v = String(value);
      if (words.some((w) => MONEY_SHAPE.test(w.text))) return false;
      // A code: a digit somewhere; not a date, a time, a page number or an amount of money ("$1,437.92").
      return /\d/.test(v) && v.length <= LABEL_WEIGHTS.identifierMaxLength && !parseDate(v, 'mdy') && !/^\d{1,2}:\d{2}/.test(v) && !/^page\b/i.test(v) && !MONEY_SHAPE.test(v);
    }
    case 'name':
      // Letters, not a number, a phone number, an address on the web or mostly digits.
      return /\p{L}{2}/u.test(String(value)) && !endsWithLinkingWord(String(value)) && !/^[\d\s.,:/-]+$/.test(text) && !/^\d+\s/.test(String(value)) && !/@|www\.|https?:/i.test(text) && !PHONE_LIKE.test(text) && (text.match(/\d/g)?.length ?? 0) <= text.length * LABEL_WEIGHTS.nameMaxDigitShare;
    case 'amount':
      return typeof value === 'number' && Number.isFinite(value) && Math.abs(value) < LABEL_WEIGHTS.amountLimit;
    default:
      return true;
  }
}

/** A name with a phone number printed after it ("Name : ESWARAN 012-6369400"): the words before it. */
function withoutTrailingPhone<T extends { value: unknown; words: XWord[] }>(kind: FieldKind, read: T | undefined): T | undefined {
  if (!read || kind !== 'name') return read;
  let end = read.words.length;
  while (end > 0 && (read.words[end - 1]!.text.match(/\d/g)?.length ?? 0) >= LABEL_WEIGHTS.phoneDigits) end--;
  if (end === read.words.length || end === 0) return read;
  const words = read.words.slice(0, end);
  return { ...read, value: words.map((w) => w.text).join(' ').replace(/[\s,;:]+$/, ''), words };
}

/** Words that are all label words of the lexicon ("Ship To", "Amount (Rs.)"): a label, not a value. */
function isLabelText(words: XWord[]): boolean {
  const { vocabulary } = conceptLexicon();
  const stems = words.flatMap((w) => w.stems);
  return stems.length > 0 && words.every((w) => !/\d/.test(w.text)) && stems.every((s) => vocabulary.has(s));
}

/**
 * Digits an OCR engine read as letters inside a number ("CSPO394921", "1CRO576494", "POSO1/0001"):
 * O after letters and before digits, or between digits, is a zero; I and l between digits a one.
 * A text layer's letters are as printed ("PO123456789" is a purchase order's number): `words` read
 * from one are left alone.
 */
export function ocrDigits(value: string, words: readonly XWord[]): string {
  if (!words.some(readByOcr)) return value;
  return value
    .replace(/(?<=[\p{L}\d])[Oo](?=\d{2,})/gu, '0')
    .replace(/(?<=\d)[Oo](?=\d)/g, '0')
    .replace(/(?<=\d)[Il|](?=\d)/g, '1');
}

const dotThousandsCache = new WeakMap<DocIndex, boolean>();

/**
 * Whether the document groups thousands with dots and prints no cents ("$14.950", "$2.000"): none of
 * its numbers has two decimals after a dot, some have three.
 */
function groupsThousandsWithDots(index: DocIndex): boolean {
  let known = dotThousandsCache.get(index);
  if (known === undefined) {
    let cents = 0;
    let thousands = 0;
    for (const w of index.words) {
      if (/\d{1,4}[./-]\d{1,2}[./-]\d{2,4}/.test(w.text)) continue; // a date
      if (/\d\.\d{2}(?!\d)/.test(w.text)) cents++;
      else if (/^\D?\d{1,3}(\.\d{3})+\D?$/.test(w.text)) thousands++;
    }
    known = cents === 0 && thousands >= LABEL_WEIGHTS.dotThousandsAmounts;
    dotThousandsCache.set(index, known);
  }
  return known;
}

/** An amount printed "14.950" in a document that groups thousands with dots is 14950, not 14.95. */
function withThousandDots(index: DocIndex, value: number, words: XWord[]): number {
  const text = words.map((w) => w.text).join('');
  if (!/^\D?\d{1,3}(\.\d{3})+\D?$/.test(text) || !groupsThousandsWithDots(index)) return value;
  return Number(text.replace(/[^\d]/g, ''));
}

interface Labelled {
  read: BusinessValue;
  label: LabelMatch;
  placement: Placement;
}


/**
 * The field's labels printed in the document (those another field names better left out). A label is
 * kept on how well its words match (a weak label as much as any); its similarity is then weighed, so a
 * weak label's value counts less.
 */
function labelsOf(index: DocIndex, id: string): LabelMatch[] {
  const entry = conceptLexicon().byId.get(id);
  if (!entry) return [];
  const out: LabelMatch[] = [];
  for (const label of findLabels(index, entry.plain, () => 1)) {
    if (label.similarity < LABEL_WEIGHTS.minLabel || labelBelongsElsewhere(index, label, entry)) continue;
    const stems = [...new Set(label.words.flatMap((w) => w.stems))];
    out.push({ ...label, similarity: bestPhrase(stems, entry.phrases).similarity });
  }
  // A party's word alone in the box under a caption is that caption's value: "Prestador" under
  // "EMITENTE DA NFS-e" says who the issuer is, it labels nothing.
  if (entry.concept.kind !== 'name') return out;
  return out.filter((l) => !(l.whole && l.words.length === 1 && underCaption(index, index.segments[l.words[0]!.segment]!)));
}

/** Whether a segment is printed right under a form's caption: two or more words, all of labels. */
function underCaption(index: DocIndex, segment: XSegment): boolean {
  // (A column beside it may print a line in between: the two lines above are looked at.)
  return [1, 2].some((up) => {
    const above = index.lines[segment.line - up];
    return above !== undefined && above.page === index.lines[segment.line]!.page && above.segments.some((s) => s.words.length >= 2 && isLabelText(s.words) && segmentBelow(index, s)?.id === segment.id);
  });
}


/** Where a label's value may be: beside, under (a little further for a label alone on its line), after. */
function regionsOf(index: DocIndex, label: LabelMatch) {
  const regions = valueRegions(index, label, conceptLexicon().vocabulary);
  if (label.whole && !regions.some((r) => r.placement === 'below')) {
    const segment = index.segments[label.words[0]!.segment]!;
    const below = segmentBelow(index, segment, LABEL_WEIGHTS.farBelow);
    if (below) regions.push({ words: below.words, placement: 'below', label });
  }
  return regions;
}

/** A reading of the document that several fields use, made once per document. */
function perDocument<T>(read: (index: DocIndex) => T): (index: DocIndex) => T {
  const cache = new WeakMap<DocIndex, T>();
  return (index) => {
    if (!cache.has(index)) cache.set(index, read(index));
    return cache.get(index)!;
  };
}

/** Lines that head an item table: a description column and a quantity or amount column on one line. */
const itemHeaderLines = perDocument((index): Set<number> => {
  const on = (id: string) => new Set(labelsOf(index, id).map((l) => l.words[0]!.line));
  const described = on('item_description');
  const counted = new Set([...on('item_amount'), ...on('item_quantity')]);
  return new Set([...described].filter((line) => counted.has(line)));
});

/** Every value of a field found through its labels, with the label and placement that gave it. */
function labelledValues(index: DocIndex, id: string, labels: LabelMatch[] = labelsOf(index, id)): Labelled[] {
  const entry = conceptLexicon().byId.get(id);
  if (!entry) return [];
  const { concept } = entry;
  const leaf = leafFor(concept.kind);
  const traits = traitsOf(leaf);
  const out: Labelled[] = [];
  for (const label of labels) {
    // An authorization's expiry ("C.A.E. Nº …" over "Fecha de Vencimiento: …") is no payment's due date.
    if (id === 'due_date' && authorizationExpiry(index, label)) continue;
    const regions = regionsOf(index, label);
    // Lines read past an identifier's line, each with the first word of the block it continues.
    const passed = new Map<(typeof regions)[number], XWord>();
    // Lines read under a tax rate.
    const underRate = new Set<(typeof regions)[number]>();
    /** The line under a region's, read below the same label. */
    const lineUnder = (region: (typeof regions)[number]) => {
      const next = segmentBelow(index, index.segments[region.words[0]!.segment]!);
      return next && { words: next.words, placement: 'below' as const, label };
    };
    for (let r = 0; r < regions.length; r++) {
      const region = regions[r]!;
      // A name is never read out of running text ("… may be subject to a 20% restocking fee").
      if (region.placement === 'prose' && (concept.kind === 'name' || concept.kind === 'address' || concept.kind === 'text')) continue;
      let read = withoutTrailingPhone(concept.kind, readValue(region.words, leaf, traits, index.dateOrder));
      if (read && index.splitCents && concept.kind === 'amount') read = withSplitCents(read, region.words);
      if (!read || !plausible(concept.kind, read.value, read.words) || isLabelText(read.words)) continue;
      // A tax's column may print its rate over its amount ("I.V.A" over "21.00" over "2,950.4"): the
      // line under a standard rate is read too (which of them is the tax, the amounts' sums tell).
      if (id === 'tax' && region.placement === 'below' && !underRate.has(region) && STANDARD_TAX_RATES.includes(read.value as number)) {
        const further = lineUnder(region);
        if (further) {
          underRate.add(further);
          regions.push(further);
        }
      }
      // A name read off a line of its own label ("Globale Nummer: 4000001123452" under "Seller:") is that label's first word;
      // words holding labels of their own ("Debiteurennummer: Factuurnummer: INV12345 …") are other fields, no name;
      // nor is one word before a long number ("GLN 4304171000002" under "Käufer"): that number's label.
      if (concept.kind === 'name' && (labelFollows(index, read.words) || read.words.some((w) => /\p{L}:$/u.test(w.text)) || labelsNumber(index, read.words))) {
        // A party's block may print an identifier first, the name on the line under it ("Käufer" over
        // "GLN 4304171000002" over "MUSTER-KUNDE GMBH"): that line is read too, once.
        const further = region.placement === 'below' && !passed.has(region) ? lineUnder(region) : undefined;
        if (further) {
          passed.set(further, region.words[0]!);
          regions.push(further);
        }
        continue;
      }
      // (A line read past the identifier's is a name only where it reads as one: not its street.)
      if (passed.has(region) && !readsAsName(read.words)) continue;
      if (concept.kind === 'identifier' && houseNumber(index, read.words)) continue;
      let factor = placementFactor(region.placement, region.label) * (region.qualified ? LABEL_WEIGHTS.qualified : 1);
      // Amounts of a document are beside their label; under it is mostly a column of an item table.
      if (concept.kind === 'amount' && (region.placement === 'below' || region.placement === 'cellBelow')) factor *= LABEL_WEIGHTS.amountBelow;
      // A date under a column header of an item table ("Date  Description  Amount") is an item's date.
      if (concept.kind === 'date' && (region.placement === 'below' || region.placement === 'cellBelow') && itemHeaderLines(index).has(label.words[0]!.line)) factor *= LABEL_WEIGHTS.itemColumnDate;
      // One word of a name's label with no colon ("SUPPLIERS" in a logo) is a label only weakly; not
      // a heading over its block, the name flush under it ("Leverancier" over "Inleenlev BV").
      if ((concept.kind === 'name' || concept.kind === 'address') && !label.colon && label.words.length === 1 && !(label.whole && headsBlock(index, label.words[0]!, passed.get(region) ?? read.words[0]!))) factor *= LABEL_WEIGHTS.nameOneWordLabel;
      // Words after a label with no colon are its value only weakly unless they delimit themselves.
      if ((region.placement === 'inline' || region.placement === 'prose') && typeof read.value === 'string' && !/\d/.test(read.value)) factor *= LABEL_WEIGHTS.inlineWithoutDigit;
      const score = Math.min(1, label.similarity * PLACEMENT_WEIGHT[region.placement] * factor * read.fit);
      let value = concept.kind === 'identifier' && typeof read.value === 'string' ? ocrDigits(read.value, read.words) : (read.value as string | number);
      if (concept.kind === 'amount' && typeof value === 'number') value = withThousandDots(index, value, read.words);
      out.push({ read: { concept: id, value, words: read.words, score }, label, placement: region.placement });
    }
  }
  return out;
}

/** Whether an authorization code (knowledge/fields.ts AUTHORIZATION_CODES) is printed on a label's line or the line above it. */
function authorizationExpiry(index: DocIndex, label: LabelMatch): boolean {
  const at = label.words[0]!.line;
  return [at - 1, at].some((id) => {
    const line = index.lines[id];
    return line !== undefined && line.page === index.lines[at]!.page && line.words.some((w) => AUTHORIZATIONS.has(normalizeToken(w.text)));
  });
}

/** Whether these words are one word followed in its segment by a long number (an identifier's label: "GLN 4304171000002"). */
function labelsNumber(index: DocIndex, words: XWord[]): boolean {
  if (words.length !== 1) return false;
  const segment = index.segments[words[0]!.segment]!;
  const next = segment.words[segment.words.indexOf(words[0]!) + 1];
  return next !== undefined && /^\d{6,}$/.test(next.text);
}

/**
 * Whether a label's word stands over a value on the next line, their left edges together, in the
 * upper part of the first page where the parties are printed: a party block's heading ("Leverancier"), not
 * a column of parts ("Supplier" over "KIA of Lansing" in an estimate's items).
 */
function headsBlock(index: DocIndex, label: XWord, value: XWord): boolean {
  const a = index.segments[label.segment]!.box;
  const b = index.segments[value.segment]!.box;
  if (!a || !b || label.page !== 0 || value.line !== label.line + 1) return false;
  const upper = a.top < LABEL_WEIGHTS.headingTopShare * (index.doc.pages[0]?.height ?? 0);
  return upper && Math.abs(a.left - b.left) <= LABEL_WEIGHTS.headingIndent * a.height;
}

/**
 * Whether the word after these, in their segment, is a label's last word ("Globale" + "Nummer:"). A
 * label in the next column ("Inleenlev BV      Factuurnummer: H5/0987") is another field's.
 */
function labelFollows(index: DocIndex, words: XWord[]): boolean {
  const last = words[words.length - 1]!;
  const line = index.lines[last.line]!;
  const next = line.words[line.words.indexOf(last) + 1];
  return next !== undefined && next.segment === last.segment && next.text.endsWith(':') && next.text.length > 1;
}

const byScore = (a: BusinessValue, b: BusinessValue) => b.score - a.score || a.words[0]!.id - b.words[0]!.id;

/** One candidate per distinct reading (the same words read twice keep the better score). */
function distinct(values: BusinessValue[]): BusinessValue[] {
  const best = new Map<string, BusinessValue>();
  for (const v of values) {
    const key = `${v.words.map((w) => w.id).join(',')}|${v.value}`;
    const known = best.get(key);
    if (!known || v.score > known.score) best.set(key, v);
  }
  return [...best.values()].sort(byScore);
}

// ---------------------------------------------------------------------------------------------
// Amounts: total, subtotal and tax together

const AMOUNT_FIELDS = ['total', 'subtotal', 'tax'] as const;
type AmountField = (typeof AMOUNT_FIELDS)[number];

const near = (a: number, b: number, tolerance = AMOUNT_WEIGHTS.sameAmount) => Math.abs(a - b) <= tolerance;
/** One cent (a unit, not a setting): amounts closer than half of it are the same amount. */
export const CENT = 0.01;

/** Printed amounts of the document (each number with two decimals, or with a currency mark). */
const printedAmounts = perDocument((index: DocIndex): Array<{ value: number; word: XWord }> => {
  const out: Array<{ value: number; word: XWord }> = [];
  for (const word of index.words) {
    if (!/\d[.,]\d{2}\b|^[$€£¥₹]/.test(word.text)) continue;
    const parsed = parseNumber(word.text.replace(/^(RM|Rs\.?|MYR|USD|EUR)/i, ''));
    if (parsed && !parsed.percent) out.push({ value: parsed.value, word });
  }
  return out;
});

/** The rates printed on the document (or on one of its lines): "GST 6%", "6.00% GST", "Tax (8.25%)", as percentages up to 30. */
function printedRates(index: DocIndex, only?: XLine): number[] {
  const rates = new Set<number>();
  for (const line of only ? [only] : index.lines) {
    for (const m of line.text.matchAll(/(?<![\d.,])(\d{1,2}(?:[.,]\d{1,3})?)\s?%/g)) {
      const rate = Number(m[1]!.replace(',', '.'));
      if (rate > 0 && rate <= AMOUNT_WEIGHTS.maxRate) rates.add(rate);
    }
  }
  return [...rates];
}

/** An amount with one dot before three digits ("$12.700"): a decimal in English, thousands in most of Europe. */
const DOT_THREE = /^\D*[1-9]\d{0,2}\.\d{3}\D*$/;

/**
 * Whether the document prints several amounts with one dot before three digits ("$2.000", "$8.000",
 * "$12.700") and cents besides ("$900.00"), so that it neither groups thousands with dots throughout
 * (groupsThousandsWithDots) nor prints decimals alike: which the dot is cannot be told, and no total,
 * subtotal or tax is read from such an amount.
 */
function dotBeforeThreeDigits(index: DocIndex): boolean {
  return !groupsThousandsWithDots(index) && index.words.filter((w) => DOT_THREE.test(w.text)).length >= LABEL_WEIGHTS.dotBeforeThreeDigitsAmounts;
}

/**
 * Whether the document prints its amounts with cents ("12.50"): then an amount printed without them
 * ("5142" among "14.00", "0.00") is likely a decimal point OCR lost, and counts much less.
 */
function printsCents(index: DocIndex): boolean {
  let cents = 0;
  let whole = 0;
  for (const w of index.words) {
    if (/^[$€£]?\d{1,3}([,.]\d{3})*[.,]\d{2}$/.test(w.text)) cents++;
    else if (/^\d{3,6}$/.test(w.text)) whole++;
  }
  return cents >= LABEL_WEIGHTS.centsAmounts && cents > whole;
}

/**
 * A tax summary row prints the base then the tax ("SR 6%  166.00  9.90", "Sales Tax  $ 9,309.03  @
 * 8.9000 %  828.50"): the tax is the small amount after it on the line, past any rate.
 */
function taxAfterBase(index: DocIndex, value: BusinessValue): BusinessValue {
  const word = value.words[value.words.length - 1]!;
  const line = index.lines[word.line]!;
  const base = value.value as number;
  const at = line.words.indexOf(word);
  for (const next of line.words.slice(at + 1, at + 1 + AMOUNT_WEIGHTS.taxWordsAfterBase)) {
    const parsed = parseNumber(next.text);
    if (parsed && !parsed.percent && parsed.value > 0 && parsed.value <= base * AMOUNT_WEIGHTS.maxTaxShare && /[.,]\d{2}$/.test(next.text)) return { ...value, value: parsed.value, words: [next] };
  }
  return value;
}

/** A tax summary's title: "GST Summary", "VAT summary", "Tax Summary" (OCR may misread the tax word). */
const SUMMARY_TITLE = /\bsumm?ary\b/i;
/** An amount in a summary's cell: "1,234.56". */
const AMOUNT_CELL = /^\d{1,3}(,\d{3})*\.\d{2}$/;

/**
 * The first row of a tax summary ("GST Summary  Amount(RM)  Tax(RM)" over "SR @ 6%  35.00  2.10"):
 * its last two amounts are the base before tax and the tax, the tax the smaller (at most 30%).
 */
function taxSummary(index: DocIndex): { subtotal: BusinessValue[]; tax: BusinessValue[]; lines: Set<number> } {
  const out = { subtotal: [] as BusinessValue[], tax: [] as BusinessValue[], lines: new Set<number>() };
  const taxWords = new Set(conceptLexicon().byId.get('tax')!.phrases.flatMap((p) => p.stems));
  // A tax's own name, a label of one word ("GST", "TVA"): "service" of "service tax" names none.
  const taxNames = new Set(conceptLexicon().byId.get('tax')!.phrases.flatMap((p) => (p.stems.length === 1 ? p.stems : [])));
  for (const line of index.lines) {
    if (!SUMMARY_TITLE.test(line.text) || !line.words.some((w) => w.stems.some((s) => taxWords.has(s)) || /tax|gst|vat/i.test(w.text))) continue;
    // The summary's lines: its title, its rows and the total row under them.
    for (let id = line.id; id <= line.id + AMOUNT_WEIGHTS.summaryRows + 1 && id < index.lines.length; id++) out.lines.add(id);
    // The first row naming a tax ("SR GST 6%"), else the first row: a service charge's row is no tax.
    const rows = index.lines.slice(line.id + 1, line.id + 1 + AMOUNT_WEIGHTS.summaryRows).filter((row) => row.words.filter((w) => AMOUNT_CELL.test(w.text)).length >= 2);
    const taxed = rows.filter((row) => row.words.some((w) => w.stems.some((s) => taxNames.has(s))));
    for (const row of [...taxed, ...rows]) {
      const amounts = row.words.filter((w) => AMOUNT_CELL.test(w.text));
      const [baseWord, taxWord] = amounts.slice(-2) as [XWord, XWord];
      const base = parseNumber(baseWord.text)!.value;
      const tax = parseNumber(taxWord.text)!.value;
      if (!(tax > 0 && tax <= base * AMOUNT_WEIGHTS.maxTaxShare)) continue;
      out.subtotal.push({ concept: 'subtotal', value: base, words: [baseWord], score: AMOUNT_WEIGHTS.summaryScore });
      out.tax.push({ concept: 'tax', value: tax, words: [taxWord], score: AMOUNT_WEIGHTS.summaryScore });
      break;
    }
  }
  return out;
}

/** An amount's words as printed, run together ("1.234,56", "RM12.00"). */
const asPrinted = (v: BusinessValue) => v.words.map((w) => w.text).join('');

/** Two amounts in one block of amounts, a few lines apart. */
const nearLines = (a: BusinessValue, b: BusinessValue) => Math.abs(a.words[0]!.line - b.words[0]!.line) <= AMOUNT_WEIGHTS.blockLines;
/** The page an amount is printed on. */
const pageOf = (v: BusinessValue) => v.words[0]!.page;
/** The readings of each amount, and of what is due. */
type AmountLists = Record<AmountField | 'balance_due', BusinessValue[]>;

/** A choice of total, subtotal and tax (each may be missing), how good it is, and whether they add up. */
interface AmountChoice {
  total?: BusinessValue;
  subtotal?: BusinessValue;
  tax?: BusinessValue;
  score: number;
  consistent: boolean;
}

/** Whether a tax is at a standard rate or a rate printed on the document of its base (106.10 × 6% = 6.37). */
type TaxAtRate = (base: number, tax: BusinessValue) => boolean;

/**
 * The total, subtotal and tax chosen together, in steps: the labelled readings of each; the best
 * combination of them (they add up, the tax is at a rate of its base, they sit in one block); the
 * amounts the chosen ones imply where the document prints them (a rounded total, a missing
 * subtotal, total or tax); the total from what was paid less the change; then each field's readings
 * ranked, the chosen first, surer when other printed amounts agree with it.
 */
function resolveAmounts(index: DocIndex, labelled: (id: string) => BusinessValue[]): AmountLists {
  const lists = amountReadings(index, labelled);
  const taxAtRate = taxAtRateOf(index);
  const best = bestCombination(lists, labelled, taxAtRate);
  // Several taxes printed in the chosen tax's block, one per rate ("BTW (20,00%): 102,00", "BTW
  // (10,00%): 51,00", …), and the amounts do not add up: which of them, or their sum, is the
  // document's tax cannot be told.
  if (best.tax && !best.consistent && severalTaxes(lists.tax, best)) {
    best.tax = undefined;
    lists.tax = [];
  }
  // An amount the others imply, where the document prints it (a tax summary's net amount, say).
  // (Never what was paid or given back: "CASH 112.48" is no total.)
  const payments = new Set(['amount_paid', 'change_given'].flatMap((id) => labelled(id).flatMap((v) => v.words.map((w) => w.id))));
  const printed = printedAmounts(index).filter((p) => !payments.has(p.word.id));
  const used = new Set([best.total, best.subtotal, best.tax].flatMap((v) => v?.words.map((w) => w.id) ?? []));
  roundTotal(index, best, labelled, printed, used);
  // (Nor an amount printed as another kind, a discount, a shipping cost or a tax withheld: "Total das
  // Retenções 1.115,00" is no tax. A rounding's figure is, above, where the rounded total is printed.)
  const otherKinds = new Set(labelled('other_amount').flatMap((v) => v.words.map((w) => w.id)));
  impliedAmounts(best, printed.filter((p) => !otherKinds.has(p.word.id)), used);
  totalFromPayment(best, labelled, printed, used);
  return rankedAmounts(lists, best, totalAgrees(best, labelled), rateAgrees(index, best, taxAtRate));
}

/**
 * Whether the block of the chosen tax prints other taxes (not its subtotal or total, not zero),
 * AMOUNT_WEIGHTS.severalTaxes amounts in all, and none of them is the sum of the others (a tax
 * summary's total row, "24.90" under "15.00" and "9.90", tells which is which).
 */
function severalTaxes(taxes: BusinessValue[], best: AmountChoice): boolean {
  const others = new Set([best.subtotal?.value, best.total?.value]);
  // (Amounts printed as money, with cents: "SERVICE CHARGE 10" prints a rate.)
  const money = (v: BusinessValue) => /[.,]\d{2}\)?$/.test(asPrinted(v));
  const amounts = [...new Set(taxes.filter((v) => nearLines(v, best.tax!) && money(v) && v.value !== 0 && !others.has(v.value)).map((v) => v.value as number))];
  const sum = amounts.reduce((a, b) => a + b, 0);
  return amounts.length >= AMOUNT_WEIGHTS.severalTaxes && !amounts.some((a) => Math.abs(2 * a - sum) < 0.005);
}

/**
 * The amount a column of amounts adds up to, where `v` is its first row: under a column's heading
 * ("Nettobetrag", "MwSt-Betrag", "Endbetrag"), one row per tax rate and then their sum ("321,40",
 * "127,59", "448,99"), the document's figure is the sum. Only rows of figures count (no words but a
 * currency's code): in a block of totals each row has its own label ("Tax 19.00" under "Subtotal
 * 100.00" is no row of the subtotal's column).
 */
function columnTotal(index: DocIndex, v: BusinessValue): BusinessValue {
  const word = v.words[v.words.length - 1];
  if (typeof v.value !== 'number' || !word?.box || v.words.length !== 1) return v;
  const figuresOnly = (line: XLine) => !line.words.some((w) => /\p{L}{2}/u.test(w.text) && !/^[A-Z]{3}$/.test(w.text));
  if (!figuresOnly(index.lines[word.line]!)) return v;
  const box = word.box;
  const below = printedAmounts(index)
    .filter(({ word: w }) => w.page === word.page && w.box && w.box.top > box.top + box.height / 2 && w.box.left < box.left + box.width && w.box.left + w.box.width > box.left)
    .filter(({ word: w }) => w.box!.top - box.top <= AMOUNT_WEIGHTS.columnRows * box.height)
    .sort((a, b) => a.word.box!.top - b.word.box!.top);
  let sum = v.value;
  for (const [row, { value, word: w }] of below.entries()) {
    if (!figuresOnly(index.lines[w.line]!)) return v;
    // (The sum of two rows at least: v's and one more.)
    if (row > 0 && Math.abs(value - sum) < 0.005) return { ...v, value, words: [w] };
    sum += value;
  }
  return v;
}

/** Each amount's labelled readings, checked against how the document prints its amounts, best first. */
function amountReadings(index: DocIndex, labelled: (id: string) => BusinessValue[]): AmountLists {
  const cents = printsCents(index);
  const dotThousands = dotBeforeThreeDigits(index);
  const checked = (list: BusinessValue[]) =>
    list
      .filter((v) => !(dotThousands && DOT_THREE.test(asPrinted(v))))
      .map((v) => (cents && !/[.,]\d{1,2}\)?-?$/.test(asPrinted(v)) ? { ...v, score: v.score * AMOUNT_WEIGHTS.withoutCents } : v))
      .sort(byScore);
  const summary = taxSummary(index);
  const summed = (list: BusinessValue[]) => list.map((v) => columnTotal(index, v));
  const lists = {
    // A tax summary's "Total" row sums its columns, not the document.
    total: checked(summed(labelled('total').filter((v) => !summary.lines.has(v.words[0]!.line)))),
    subtotal: checked(summed([...labelled('subtotal'), ...summary.subtotal])),
    tax: checked(summed([...labelled('tax').map((v) => taxAfterBase(index, v)), ...summary.tax])),
    balance_due: checked(labelled('balance_due')),
  };
  const paid = labelled('amount_paid').length > 0;
  // Nothing costs nothing where something was paid ("CASH : 327.00"): a total of zero is another
  // line's amount read into the total's (a rounding's "0.00" beside "Total").
  if (labelled('amount_paid').some((v) => (v.value as number) > 0)) lists.total = lists.total.filter((v) => v.value !== 0);
  // Nothing was paid: what is due is the total, and the total is what is due.
  if (!paid && lists.total.length === 0) lists.total = lists.balance_due.map((v) => ({ ...v, concept: 'total', score: v.score * AMOUNT_WEIGHTS.dueAsTotal }));
  if (!paid && lists.balance_due.length === 0) lists.balance_due = lists.total.map((v) => ({ ...v, concept: 'balance_due', score: v.score * AMOUNT_WEIGHTS.dueAsTotal }));
  return lists;
}

/**
 * A tax that is a standard rate or one printed on the document of its base (106.10 × 6% = 6.37).
 * (Service charges, tips and the like are charged at rates too: a tax on a line naming one is none.)
 */
function taxAtRateOf(index: DocIndex): TaxAtRate {
  const rates = [...STANDARD_TAX_RATES, ...printedRates(index)];
  const otherLines = new Set(labelsOf(index, 'other_amount').map((l) => l.words[0]!.line));
  return (base, tax) => {
    const x = tax.value as number;
    // (A tax summed from its lines' taxes, each rounded, is off the rate by a little more the larger it is.)
    const tolerance = Math.max(AMOUNT_WEIGHTS.taxAtRate, x * AMOUNT_WEIGHTS.taxAtRateShare);
    return x > 0 && !otherLines.has(tax.words[0]!.line) && rates.some((rate) => near((base * rate) / 100, x, tolerance));
  };
}

/** Every combination of the best few readings of each amount (or none), scored; the best one. */
function bestCombination(lists: AmountLists, labelled: (id: string) => BusinessValue[], taxAtRate: TaxAtRate): AmountChoice {
  const top = (list: BusinessValue[]) => list.slice(0, AMOUNT_WEIGHTS.candidates);
  const charges = top(labelled('other_amount')).map((v) => v.value as number).filter((v) => v > 0);
  const none = undefined;
  let best: AmountChoice = { score: -1, consistent: false };
  for (const total of [...top(lists.total), none]) {
    for (const subtotal of [...top(lists.subtotal), none]) {
      for (const tax of [...top(lists.tax), none]) {
        const scored = scoreCombination(total, subtotal, tax, charges, taxAtRate);
        if (scored && scored.score > best.score) best = { ...(total ? { total } : {}), ...(subtotal ? { subtotal } : {}), ...(tax ? { tax } : {}), ...scored };
      }
    }
  }
  return best;
}

/** How good a combination of total, subtotal and tax is, and whether they add up; undefined when it cannot be. */
function scoreCombination(
  total: BusinessValue | undefined,
  subtotal: BusinessValue | undefined,
  tax: BusinessValue | undefined,
  charges: number[],
  taxAtRate: TaxAtRate,
): { score: number; consistent: boolean } | undefined {
  const t = total?.value as number | undefined;
  const s = subtotal?.value as number | undefined;
  const x = tax?.value as number | undefined;
  let score = (total?.score ?? 0) + (subtotal?.score ?? 0) * AMOUNT_WEIGHTS.subtotalShare + (tax?.score ?? 0) * AMOUNT_WEIGHTS.taxShare;
  // A subtotal and a tax are printed in the total's block, a few lines from it: between readings
  // otherwise alike ("SUBTOTALS" of a parts table, "Subtotal" over the total), the nearer wins.
  if (total && subtotal && nearLines(total, subtotal)) score += AMOUNT_WEIGHTS.inTotalsBlock;
  if (total && tax && nearLines(total, tax)) score += AMOUNT_WEIGHTS.inTotalsBlock;
  // One on another page than the total is no part of its block: a page's running subtotal ("Subtotal"
  // at the foot of page 1, carried to page 2), or an amount of another page's table.
  if (total && subtotal && pageOf(total) !== pageOf(subtotal)) score -= AMOUNT_WEIGHTS.otherPage;
  if (total && tax && pageOf(total) !== pageOf(tax)) score -= AMOUNT_WEIGHTS.otherPage;
  let consistent = false;
  if (t !== undefined && s !== undefined && x !== undefined) {
    if (near(s + x, t)) (score += AMOUNT_WEIGHTS.addsUp), (consistent = true);
    else if (near(s + x, t, AMOUNT_WEIGHTS.rounding)) (score += AMOUNT_WEIGHTS.addsUpRounded), (consistent = true);
    // With a charge or a discount between them ("Service charge 10%  15.00", "Shipping 4.95").
    else if (charges.some((c) => near(s + x + c, t) || near(s + x - c, t))) (score += AMOUNT_WEIGHTS.addsUpWithCharge), (consistent = true);
    else score -= AMOUNT_WEIGHTS.doesNotAddUp;
  }
  // The tax at a rate of the subtotal, or of the total less it where no subtotal is read.
  if (tax && (subtotal ? taxAtRate(s!, tax) : t !== undefined && taxAtRate(t - x!, tax))) score += AMOUNT_WEIGHTS.rateAgrees;
  // A part is never more than the whole; no tax is more than the amount it is charged on (such a
  // pair is the two read the wrong way round), so never half the total it is in.
  if (t !== undefined && s !== undefined && s > t + AMOUNT_WEIGHTS.rounding && t > 0) score -= AMOUNT_WEIGHTS.partOverWhole;
  if (t !== undefined && x !== undefined && x * 2 > t && t > 0) score -= AMOUNT_WEIGHTS.partOverWhole;
  if (s !== undefined && x !== undefined && x * 2 > s && s > 0) return undefined;
  // The same printed number read for two fields: one of them is wrong.
  const ids = [total, subtotal, tax].filter(Boolean).map((v) => v!.words[0]!.id);
  if (new Set(ids).size < ids.length) return undefined;
  return { score, consistent };
}

/**
 * A total printed before its rounding ("TOTAL 60.31", "ROUNDING ADJ -0.01", then "60.30"): the total
 * is the rounded amount, a whole number of 5 cents printed below the rounding line (the sign of a
 * rounding is often lost to OCR, so either way).
 */
function roundTotal(index: DocIndex, best: AmountChoice, labelled: (id: string) => BusinessValue[], printed: Array<{ value: number; word: XWord }>, used: Set<number>): void {
  if (!best.total) return;
  const t = best.total.value as number;
  const roundings = labelled('other_amount').filter((v) => /round/i.test(index.lines[v.words[0]!.line]!.text) && v.value !== 0 && Math.abs(v.value as number) <= AMOUNT_WEIGHTS.rounding);
  for (const rounding of roundings) {
    const r = Math.abs(rounding.value as number);
    const below = rounding.words[0]!.line;
    const hit = printed.find((p) => p.word.line > below && !used.has(p.word.id) && (near(p.value, t - r) || near(p.value, t + r)) && Math.round(p.value * 100) % AMOUNT_WEIGHTS.roundedToCents === 0);
    if (hit) {
      best.total = { ...best.total, value: hit.value, words: [hit.word] };
      break;
    }
  }
}

/** The amount two chosen ones imply (a subtotal, a total, a tax), where the document prints it: then they are consistent. */
function impliedAmounts(best: AmountChoice, printed: Array<{ value: number; word: XWord }>, used: Set<number>): void {
  const implied = (field: AmountField, value: number, base: number): BusinessValue | undefined => {
    if (!(value > 0)) return undefined;
    const hit = printed.find((p) => near(p.value, value) && !used.has(p.word.id));
    return hit ? { concept: field, value: hit.value, words: [hit.word], score: Math.min(AMOUNT_WEIGHTS.impliedMax, base) } : undefined;
  };
  // (No tax is more than the amount it is charged on.)
  if (best.total && best.tax && !best.subtotal && (best.tax.value as number) * 2 <= (best.total.value as number)) {
    const s = implied('subtotal', (best.total.value as number) - (best.tax.value as number), Math.min(best.total.score, best.tax.score) * AMOUNT_WEIGHTS.impliedPart);
    if (s) (best.subtotal = s), (best.consistent = true);
  }
  if (best.subtotal && best.tax && !best.total) {
    const sum = (best.subtotal.value as number) + (best.tax.value as number);
    const hit = printed.find((p) => near(p.value, sum, AMOUNT_WEIGHTS.rounding) && !used.has(p.word.id) && p.value > (best.subtotal!.value as number));
    if (hit) (best.total = { concept: 'total', value: hit.value, words: [hit.word], score: Math.min(AMOUNT_WEIGHTS.impliedMax, Math.min(best.subtotal.score, best.tax.score) * AMOUNT_WEIGHTS.impliedTotal) }), (best.consistent = true);
  }
  if (best.total && best.subtotal && !best.tax && (best.subtotal.value as number) * 2 >= (best.total.value as number)) {
    const x = implied('tax', (best.total.value as number) - (best.subtotal.value as number), Math.min(best.total.score, best.subtotal.score) * AMOUNT_WEIGHTS.impliedPart);
    if (x) (best.tax = x), (best.consistent = true);
  }
}

/**
 * What was paid less the change, printed as an amount elsewhere ("2 x 95.00  190.00", CASH 200.00,
 * CHANGE 10.00): the total, where no total was read surely enough (its amount faded or misread).
 */
function totalFromPayment(best: AmountChoice, labelled: (id: string) => BusinessValue[], printed: Array<{ value: number; word: XWord }>, used: Set<number>): void {
  const paidAmount = labelled('amount_paid')[0]?.value;
  const change = labelled('change_given')[0]?.value;
  if (!(typeof paidAmount === 'number' && typeof change === 'number' && paidAmount > change)) return;
  const settled = paidAmount - change;
  const hit = printed.find((p) => near(p.value, settled, CENT / 2) && !used.has(p.word.id));
  if (!best.total || best.total.score < FIELD_FLOORS.total!) {
    if (best.total && near(best.total.value as number, settled)) best.total = { ...best.total, score: Math.max(best.total.score, AMOUNT_WEIGHTS.paidLessChange) };
    else if (hit) best.total = { concept: 'total', value: hit.value, words: [hit.word], score: AMOUNT_WEIGHTS.paidLessChange };
  } else if (hit && !near(best.total.value as number, settled, CENT / 2) && near(best.total.value as number, settled, AMOUNT_WEIGHTS.rounding)) {
    // A total a rounding away from what was paid less the change ("32.69", CASH 40.00, CHANGE
    // 7.30): the total paid is the rounded amount printed ("32.70").
    best.total = { ...best.total, value: hit.value, words: [hit.word] };
  }
}

/**
 * Other readings that agree with the total: what was paid less the change, or a subtotal equal to it
 * where no tax is printed. Independent printings agreeing are read right.
 */
function totalAgrees(best: AmountChoice, labelled: (id: string) => BusinessValue[]): boolean {
  const paidAmount = labelled('amount_paid')[0]?.value;
  const change = labelled('change_given')[0]?.value;
  const total = best.total?.value as number | undefined;
  return (
    best.consistent ||
    (total !== undefined && typeof paidAmount === 'number' && typeof change === 'number' && near(paidAmount - change, total)) ||
    (total !== undefined && !best.tax && best.subtotal !== undefined && near(best.subtotal.value as number, total))
  );
}

/**
 * A tax at a rate of the subtotal confirms both, where no total adds them up (its amount misread);
 * with no subtotal read, a tax at the rate printed on its line of the total less it ("TOTAL
 * INCLUDES 6% GST 1.51" under 26.60) confirms the tax.
 */
function rateAgrees(index: DocIndex, best: AmountChoice, taxAtRate: TaxAtRate): boolean {
  const base = best.subtotal?.value as number | undefined;
  const included = !best.subtotal && best.total && best.tax ? (best.total.value as number) - (best.tax.value as number) : undefined;
  return (
    !best.consistent &&
    best.tax !== undefined &&
    (base !== undefined
      ? taxAtRate(base, best.tax)
      : included !== undefined && printedRates(index, index.lines[best.tax.words[0]!.line]!).some((rate) => near((included * rate) / 100, best.tax!.value as number, AMOUNT_WEIGHTS.taxAtRate)))
  );
}

/** Each field's readings: the chosen one first (surer when they add up), the others after it. */
function rankedAmounts(lists: AmountLists, best: AmountChoice, totalAgreed: boolean, rateAgreed: boolean): AmountLists {
  const ranked = (field: AmountField): BusinessValue[] => {
    const chosen = best[field];
    const rest = lists[field].filter((v) => v !== chosen).map((v) => ({ ...v, score: v.score * AMOUNT_WEIGHTS.notChosen }));
    if (!chosen) return rest.filter((v) => v.score >= AMOUNT_WEIGHTS.notChosenMin);
    const rated = rateAgreed && field !== 'total';
    const corroborated = best.consistent || rated || (field !== 'tax' && totalAgreed);
    const score = best.consistent || rated ? Math.max(AMOUNT_WEIGHTS.consistentScore, chosen.score * AMOUNT_WEIGHTS.consistentBoost) : chosen.score;
    return [{ ...chosen, score: Math.min(1, score), corroborated }, ...rest];
  };
  return { total: ranked('total'), subtotal: ranked('subtotal'), tax: ranked('tax'), balance_due: lists.balance_due };
}

// ---------------------------------------------------------------------------------------------
// The issuer: labelled, or the letterhead

const ENDINGS = listOf(COMPANY_ENDINGS);
const AUTHORIZATIONS = new Set(listOf(AUTHORIZATION_CODES));
const OPENINGS = listOf(COMPANY_OPENINGS);
/** A street word of the lexicon as a pattern: "st." matches "st" and "st.". */
const STREET = listOf(STREET_WORDS)
  .map((w) => escapeRegExp(w).replace(/\\\.$/, '\\.?'))
  .join('|');
const STREET_END = listOf(STREET_ENDINGS).map(escapeRegExp).join('|');
const ADDRESS_LIKE = new RegExp(
  `\\p{L}(${STREET_END})\\s*\\d|^(no\\.?\\s*)?\\d+[a-z]?\\b[^,]*,|^no\\.?\\s*\\d|\\b(${STREET})(?![\\p{L}])[^\\n]*\\d|\\d.*\\b(${STREET})(?![\\p{L}])|\\bp\\.?o\\.? box\\b|\\b\\d{5}\\b|\\b[A-Z]{1,2}\\d{1,2}[A-Z]?\\s\\d[A-Z]{2}\\b`,
  'iu',
);
/** Words after a number that make it a house number: "No: 28, Jalan Astana" (no document's number). */
const STREET_AFTER = new RegExp(`^[,.\\s]*(\\p{L}+\\s+){0,2}?(${STREET})(?![\\p{L}])`, 'iu');

/** A short number the line goes on with a street after: "No: 28, Jalan Astana 1C" numbers a house, not a document. */
function houseNumber(index: DocIndex, words: XWord[]): boolean {
  const last = words[words.length - 1]!;
  // (OCR may run the street into the number: "28,JALAN".)
  const m = /^\d{1,4}[a-z]?([,.].*)?$/i.exec(words.map((w) => w.text).join(''));
  if (!m) return false;
  const line = index.lines[last.line]!;
  return STREET_AFTER.test([m[1] ?? '', ...line.words.slice(line.words.indexOf(last) + 1).map((w) => w.text)].join(' '));
}

function lineHeight(segment: XSegment): number {
  const heights = segment.words.flatMap((w) => (w.box ? [w.box.height] : []));
  return heights.length ? heights.reduce((a, b) => a + b, 0) / heights.length : 0;
}

/** The domain names printed on the first page (from e-mail addresses and web sites), letters only. */
function domainsOf(index: DocIndex): string[] {
  const out = new Set<string>();
  for (const word of index.words) {
    if (word.page !== 0) continue;
    const m = /(?:([a-z0-9._-]+)@|www\.|https?:\/\/(?:www\.)?)([a-z0-9-]+)\./i.exec(word.text);
    if (!m) continue;
    // (At a mail service, the mailbox's name is the one that names its owner.)
    const name = FREE_MAILS.has(m[2]!.toLowerCase()) ? letters(m[1] ?? '') : letters(m[2]!);
    if (name.length >= ISSUER_WEIGHTS.domainMinLetters) out.add(name);
  }
  return [...out];
}
const FREE_MAILS = new Set(listOf(FREE_MAIL_PROVIDERS));

/** Lower case without accents ("Société" → "societe"). */
const folded = (text: string) => text.normalize('NFKD').replace(/\p{M}/gu, '').toLowerCase();
const letters = (text: string) => folded(text).replace(/[^a-z0-9]/g, '');

/** Segments on the first page that are under a customer's label ("Bill To", "Customer"): never the issuer. */
function customerBlocks(index: DocIndex): Set<number> {
  const out = new Set<number>();
  for (const label of [...labelsOf(index, 'customer_name'), ...labelsOf(index, 'ship_to')]) {
    if (!label.whole && !label.colon) continue;
    const segment = index.segments[label.words[0]!.segment]!;
    out.add(segment.id);
    let next = segmentBelow(index, segment, LABEL_WEIGHTS.farBelow);
    for (let i = 0; next && i < ISSUER_WEIGHTS.customerBlockLines; i++, next = segmentBelow(index, next, ISSUER_WEIGHTS.customerBlockGap)) out.add(next.id);
  }
  return out;
}

/** Legal forms of companies, as printed ("Sdn" also as OCR reads it faded: "SON", "S0N"). */
const LEGAL_FORM = '(s[a-z0-9]n\\.?\\s*bhd\\.?|s\\/b|berhad|inc\\.?|incorporated|ltd\\.?|limited|llc|l\\.l\\.c\\.|llp|plc|gmbh|ag|kg|b\\.\\s?v\\.?|bv|n\\.\\s?v\\.?|s\\.a\\.?|sa|sas|sarl|s\\.a\\.r\\.l\\.?|s\\.r\\.l\\.?|srl|s\\.p\\.a\\.?|spa|lda|ltda|pte\\.?\\s*ltd\\.?|pty\\.?\\s*ltd\\.?|pvt\\.?\\s*ltd\\.?|co\\.|corp\\.?|corporation)';
/** Legal forms alone on a line ("SDN BHD" under "MR D.I.Y. (M)"): the end of the name above, no name of its own. */
const LEGAL_FORM_LINE = new RegExp(`^\\(?m?\\)?\\s*${LEGAL_FORM}$`, 'i');
/** A name ending with a legal form ("Lightroom Gallery Sdn Bhd", "Acme B.V."). */
const LEGAL_FORM_END = new RegExp(`\\s${LEGAL_FORM}[\\s.,]*$`, 'i');

/** How much of a text reads as words ("Müller", "GmbH", "McDonald's"; not OCR noise like "pe4195.T)"): 0..1. */
function wordlike(words: XWord[]): number {
  let good = 0;
  for (const w of words) if (/^[(&]?[\p{Lu}\p{Ll}]\p{Ll}+(\p{Lu}\p{Ll}*)*[.,')]?$|^[(&]?[\p{Lu}]{2,}[.,')]?$|^[\p{Lu}]\.?$|^&$|^\(?[\p{Lu}]\)?$|^([\p{Lu}]\.){2,}[\p{Lu}]?\.?$|^\d+$|^[\p{Lu}\p{Ll}]+['’][\p{Ll}]?s?$/u.test(w.text)) good++;
  return words.length ? good / words.length : 0;
}

/** A registration number in brackets run into a word before it: "SB(306295-X)". */
const GLUED_REGISTRATION = /\p{L}\(\d[\dA-Z-]*\)?/u;
const DATE_LIKE = /\b\d{1,2}[/.-]\d{1,2}[/.-]\d{2,4}\b/;

/** Whether the letters of a text are all capitals (and there are some). */
function allCapitals(text: string): boolean {
  return /\p{L}/u.test(text) && text === text.toUpperCase();
}

/** A company or tax registration number printed next to a name: "(742014-W)", "(JM0352019-T)", "M3012". */
const REGISTRATION = /^(?=.*\d)(?=.*[A-Z(-])\(?[A-Z\d-]+\)?[.,]?$/;
const PHONE_LIKE = /[({]?\d{2,4}[)}]?[\s.-]?\d{3,4}[\s.-]\d{3,4}/;

interface NameRun {
  words: XWord[];
  /** The line it starts on, in the order of the page's top lines. */
  order: number;
  height: number;
  /** The name opens a sender's line: its address follows on the same line ("Acme GmbH · Main St 1 · 12345 Town"). */
  sender?: boolean;
}

/** Words that separate the parts of a sender's line: "·", "•", "|", "-", "–". */
const PART_SEPARATOR = /^[·•|\-–—]$/;

/**
 * The name that opens a sender's line, the issuer's address printed on one line (over the address
 * window of a letter, or as a letterhead): "Hetzner Online GmbH • Industriestr. 25 • 91710
 * Gunzenhausen", "Alphabet, Lilienthalallee 26, 80786 München". The name ends at the first
 * separator (or comma) when what follows it reads as an address.
 */
function senderName(words: XWord[]): XWord[] | undefined {
  for (let i = 0; i < words.length - 1 && i <= ISSUER_WEIGHTS.senderNameWords; i++) {
    const separator = PART_SEPARATOR.test(words[i]!.text);
    const comma = !separator && words[i]!.text.endsWith(',');
    if (!separator && !comma) continue;
    const rest = words.slice(i + 1).map((w) => w.text).join(' ');
    // An address in parts: a town after a comma alone ("Middletown, NY 10940") is no sender's line.
    if (!ADDRESS_LIKE.test(rest) || (comma && !/,/.test(rest))) return undefined;
    const name = separator ? words.slice(0, i) : [...words.slice(0, i), { ...words[i]!, text: words[i]!.text.slice(0, -1) }];
    return name.length > 0 ? name : undefined;
  }
  return undefined;
}

/**
 * Whether words are all of one layer of the page: all printed in its text layer, or all read by OCR
 * (a scan's, or a picture's on a page with a text layer: ../../documents/pictures.ts).
 */
function oneLayer(words: readonly XWord[]): boolean {
  return words.every((w) => !readByOcr(w)) || words.every(readByOcr);
}

/**
 * The runs of words at the top of the first page that may be the issuer's name: each segment, each
 * whole line (letterheads are often printed letter-spaced, in several segments), and a line with the
 * next (a name on two lines: "THREE STOOGES" over "BISTRO & CAFE", "MR D.I.Y. (M)" over "SDN BHD").
 */
function nameRuns(index: DocIndex, top: XLine[], excluded: Set<number>): NameRun[] {
  const runs: NameRun[] = [];
  const clean = (words: XWord[]) => {
    // A name ends where a label or a title starts ("AMNOSH ...... Invoice").
    // (A title is capitalised: "bon" in "Au bon moulin" is no "Bon de commande".)
    const cut = words.findIndex((w, i) => i > 0 && (w.text.endsWith(':') || (/^\p{Lu}/u.test(w.text) && DOCUMENT_TITLE_START.test(w.text))));
    let kept = (cut > 0 ? words.slice(0, cut) : words).filter((w) => !/^[.…_\-|]+$/.test(w.text));
    // ... and at a registration number in brackets OCR ran into its last word ("RETAIL SB(306295-X) FKA …").
    const glued = kept.findIndex((w) => GLUED_REGISTRATION.test(w.text));
    if (glued >= 0) kept = [...kept.slice(0, glued), { ...kept[glued]!, text: kept[glued]!.text.slice(0, kept[glued]!.text.indexOf('(')) }];
    // A registration number printed beside the name ("(742014-W)", "M3012") is not part of it.
    let start = 0;
    let end = kept.length;
    while (start < end && REGISTRATION.test(kept[start]!.text)) start++;
    while (end > start && REGISTRATION.test(kept[end - 1]!.text)) end--;
    return kept.slice(start, end);
  };
  top.forEach((line, order) => {
    const segments = line.segments.filter((s) => !excluded.has(s.id));
    if (segments.length === 0) return;
    const height = Math.max(...segments.map(lineHeight));
    for (const segment of segments) runs.push({ words: clean(segment.words), order, height: lineHeight(segment) });
    // (The whole line is one name only when it is printed in one layer: a name read in a picture, a
    // logo's, does not go on into the heading printed as text beside it.)
    const words = segments.flatMap((s) => s.words);
    if (segments.length > 1 && oneLayer(words)) runs.push({ words: clean(words), order, height });
    const sender = line.segments[0] === segments[0] ? senderName(segments[0]!.words) : undefined;
    if (sender) runs.push({ words: clean(sender), order, height, sender: true });
    // A name on two lines: both look like words, neither is an address, the first has no legal form
    // of its own and is not a note in lower case, both are printed at about the same size.
    const next = top[order + 1];
    if (!next) return;
    const below = next.segments.filter((s) => !excluded.has(s.id));
    if (below.length === 0) return;
    const first = clean(segments.flatMap((s) => s.words));
    const second = clean(below.flatMap((s) => s.words));
    const firstText = first.map((w) => w.text).join(' ');
    const nextText = second.map((w) => w.text).join(' ');
    if (first.length === 0 || second.length === 0 || ADDRESS_LIKE.test(nextText) || CONTACT_ANYWHERE.test(nextText) || PHONE_LIKE.test(nextText)) return;
    if (LEGAL_FORM_END.test(firstText) || firstText === firstText.toLowerCase() || wordlike(first) < 1 || wordlike(second) < ISSUER_WEIGHTS.secondLineWordlike) return;
    // A party's heading ("Leverancier", "Seller") over its name is a label, no first half of the name.
    if (isLabelText(first)) return;
    // One name is printed in one style: a line in capitals continues in capitals ("BREWERY TAP" is not
    // continued by "Owner by Castle Blue S/B"); and a date is no part of a name.
    if (allCapitals(firstText) !== allCapitals(nextText) || DATE_LIKE.test(nextText)) return;
    const nextHeight = Math.max(...below.map(lineHeight));
    if (Math.abs(nextHeight - height) > ISSUER_WEIGHTS.sameSize * Math.max(nextHeight, height)) return;
    runs.push({ words: [...first, ...second], order, height });
  });
  return runs;
}


/**
 * Whether the run is the whole of its line or two lines (a registration number beside it aside) and
 * the line under it is an address or a phone.
 */
function headsAnAddress(top: XLine[], run: NameRun): boolean {
  const last = run.words[run.words.length - 1]!;
  const order = top.findIndex((l) => l.id === last.line);
  const first = top[run.order]!;
  if (order < 0 || run.words[0] !== first.words.find((w) => /\p{L}/u.test(w.text))) return false;
  const after = top[order]!.words.slice(top[order]!.words.indexOf(last) + 1);
  if (after.some((w) => /[\p{L}\d]/u.test(w.text) && !REGISTRATION.test(w.text))) return false;
  const below = top[order + 1];
  return below !== undefined && addressOrPhone(below.words);
}

/** Whether words print an address or a phone number: a party's details, under or beside its name. */
function addressOrPhone(words: readonly XWord[]): boolean {
  const text = words.map((w) => w.text).join(' ');
  return ADDRESS_LIKE.test(text) || PHONE_LIKE.test(text);
}


function letterheadCandidates(index: DocIndex, domains: string[]): BusinessValue[] {
  const firstPage = index.lines.filter((l) => l.page === 0 && !l.inCell);
  if (firstPage.length === 0) return [];
  const pageHeight = index.doc.pages[0]?.height ?? 0;
  const heights = firstPage.flatMap((l) => l.segments.map(lineHeight)).filter((h) => h > 0).sort((a, b) => a - b);
  const median = heights[heights.length >> 1] || 1;
  // (The recipient printed under a sender's line is the customer too.)
  const excluded = new Set([...customerBlocks(index), ...recipientUnderSender(index).flatMap((v) => v.words.map((w) => w.segment))]);
  const out: BusinessValue[] = [];
  const top = firstPage.filter((l) => !l.box || !pageHeight || l.box.top < pageHeight * ISSUER_WEIGHTS.topShare).slice(0, ISSUER_WEIGHTS.topLines);
  // The document's title ("TAX INVOICE"): a letterhead printed above it is the issuer's, and the
  // names under it are mostly the customer's (an unlabelled bill-to block).
  const title = top.findIndex((line) => line.segments.some((s) => s.words.length <= ISSUER_WEIGHTS.titleWords && DOCUMENT_TITLE_START.test(s.words.map((w) => w.text).join(' '))));
  const orderOf = new Map<BusinessValue, number>();
  // Lines that are not candidates (addresses, titles, labels) do not push the name further down.
  let rank = 0;
  const rankOf = new Map<number, number>();
  for (const run of nameRuns(index, top, excluded)) {
    const { words } = run;
    const text = words.map((w) => w.text).join(' ').replace(/[\s,.;:|]+$/, '');
    if (words.length === 0 || words.length > ISSUER_WEIGHTS.maxWords || !/\p{L}{2}/u.test(text) || isLabelText(words) || LEGAL_FORM_LINE.test(text)) continue;
    // (Nor do the sheet's copy and page number: "Original", "Pagina 1 de 1".)
    if (COPIES.has(words.map((w) => letters(w.text)).join(' ')) || pageNumbering(words)) continue;
    if (DOCUMENT_TITLE_START.test(text) || ADDRESS_LIKE.test(text) || CONTACT_ANYWHERE.test(text) || PHONE_LIKE.test(text) || words.some((w) => w.text.endsWith(':'))) continue;
    if (parseDate(text, 'mdy') || (text.match(/\d/g)?.length ?? 0) > text.length / ISSUER_WEIGHTS.digitsDivisor) continue;
    const size = run.height / median;
    // A short word alone ("URI", "Co") is a name only printed large.
    if ((text.match(/\p{L}/gu)?.length ?? 0) < ISSUER_WEIGHTS.shortNameLetters && size < ISSUER_WEIGHTS.shortNameSize) continue;
    const lower = text.toLowerCase();
    // (A note written in lower case above the letterhead does not push the name down either.)
    // (Nor does a logo OCR read as noise: "Aap dick" read at 12 and 53.)
    const noise = meanOcrConfidence(words) < ISSUER_WEIGHTS.noiseConfidence;
    if (!rankOf.has(run.order)) rankOf.set(run.order, text === lower || noise ? rank : rank++);
    let score = ISSUER_WEIGHTS.firstName - rankOf.get(run.order)! * ISSUER_WEIGHTS.perRank;
    const legal = LEGAL_FORM_END.test(text);
    const ending = legal || hasCompanyEnding(text) || OPENINGS.some((o) => lower.startsWith(`${o} `));
    if (legal) score += ISSUER_WEIGHTS.legalForm;
    else if (ending) score += ISSUER_WEIGHTS.companyWord;
    if (size > ISSUER_WEIGHTS.largerThan) score += Math.min(ISSUER_WEIGHTS.sizeMax, (size - 1) * ISSUER_WEIGHTS.perSize);
    // All lower case: a note or a name written above, not a letterhead.
    if (text === lower && !ending) score -= ISSUER_WEIGHTS.lowerCase;
    // OCR noise ("cull fide <B R") is no name; nor is a name with a bracket left open ("ISE (SETIA
    // SDN BHD"): part of it was lost.
    score -= (1 - wordlike(words)) * ISSUER_WEIGHTS.notWordlike;
    const broken = (text.match(/\(/g)?.length ?? 0) !== (text.match(/\)/g)?.length ?? 0);
    if (broken) score -= ISSUER_WEIGHTS.brokenBracket;
    if (matchesDomain(text, domains)) score += ISSUER_WEIGHTS.spellsDomain;
    // The first name of the page over its address or its phone: a letterhead's block.
    if (rankOf.get(run.order) === 0 && !noise && !broken && text !== lower && headsAnAddress(top, run)) score += ISSUER_WEIGHTS.letterheadBlock;
    if (run.sender && !noise && !broken) score += ISSUER_WEIGHTS.senderLine;
    if (score <= ISSUER_WEIGHTS.minScore) continue;
    const value: BusinessValue = { concept: 'vendor_name', value: text, words, score: Math.min(ISSUER_WEIGHTS.maxScore, score) };
    orderOf.set(value, run.order);
    out.push(value);
  }
  if (title > 0 && out.some((v) => orderOf.get(v)! < title)) for (const v of out) if (orderOf.get(v)! > title) v.score *= ISSUER_WEIGHTS.belowTitle;
  // A name printed on two lines of a logo ("AMNOSH" over "SUPPLIERS") that spells the web domain.
  for (const domain of domains) {
    for (let i = 0; i + 1 < top.length; i++) {
      const words = [top[i]!.segments[0]!.words[0]!, top[i + 1]!.segments[0]!.words[0]!];
      if (letters(words.map((w) => w.text).join('')) === domain) out.push({ concept: 'vendor_name', value: words.map((w) => w.text).join(' '), words, score: ISSUER_WEIGHTS.logoSpellsDomain });
    }
  }
  return distinct(out);
}

const COPIES = new Set(listOf(COPY_MARKS).map((mark) => mark.split(' ').map(letters).join(' ')));
/** The page words (identifiers.ts), as letters. */
const PAGE_WORD_SET = new Set(PAGE_WORDS.map(letters));
/** Whether words number the page: a page word, then a number ("Pagina 1 de 1", "Page 2/3"). */
const pageNumbering = (words: XWord[]) => words.length >= 2 && PAGE_WORD_SET.has(letters(words[0]!.text)) && /\d/.test(words[1]!.text);

/** Whether a name spells one of the document's e-mail or web domains ("Amnosh Suppliers", amnoshsuppliers.com). */
function matchesDomain(text: string, domains: string[]): boolean {
  const joined = letters(text);
  if (joined.length < ISSUER_WEIGHTS.domainMinLetters) return false;
  const prefix = ISSUER_WEIGHTS.domainPrefixLetters;
  // (Or the name's main word, half its letters or more, starts with the domain: "Die Vordefinierte
  // Firma", vordefiniert.de.)
  const main = text.split(/\s+/).map(letters).filter((w) => 2 * w.length >= joined.length);
  const starts = (d: string) => joined.startsWith(d) || main.some((w) => w.startsWith(d));
  return domains.some((d) => d === joined || (d.length >= prefix && starts(d)) || (joined.length >= prefix && d.startsWith(joined)));
}

const SLIP_HEADINGS = listOf(PAYMENT_SLIP_HEADINGS);
const SENDERS = new Set(listOf(SENDER_LABELS).map(normalizeToken));
/** Whether a name's last word joins it to more ("NF-E EMITIDA EM"): the name was cut at its line's end. */
const endsWithLinkingWord = (name: string) => isLinkingWord(name.trim().split(/\s+/).at(-1)!.replace(/[.,;:]+$/, ''));

/** The first line of a payment slip's heading on each page that prints one (PAYMENT_SLIP_HEADINGS). */
function paymentSlipStarts(index: DocIndex): Map<number, number> {
  const out = new Map<number, number>();
  for (const line of index.lines) {
    if (out.has(line.page)) continue;
    const text = line.text.toLowerCase().replace(/[^\p{L}\s]+/gu, ' ').replace(/\s+/g, ' ');
    if (SLIP_HEADINGS.some((heading) => text.includes(heading))) out.set(line.page, line.id);
  }
  return out;
}

/**
 * Names under labels of the issuer, less those under a sender's label ("From:") on a payment slip:
 * the payer's. (The page is looked through for a slip only when a sender's label was read.)
 */
function issuerLabelled(index: DocIndex): BusinessValue[] {
  const found = labelledValues(index, 'vendor_name');
  const fromSender = (l: Labelled) => SENDERS.has(normalizeToken(l.label.words.map((w) => w.text).join('')));
  const slips = found.some(fromSender) ? paymentSlipStarts(index) : new Map<number, number>();
  const onSlip = (l: Labelled) => {
    const start = slips.get(l.label.words[0]!.page);
    return start !== undefined && l.read.words[0]!.line > start;
  };
  return distinct(found.filter((l) => !(fromSender(l) && onSlip(l))).map((l) => l.read));
}

/** A label's words as compared: lower case, no accents, no colon. */
const plainWord = (text: string) => folded(text).replace(/:+$/, '');
const NAME_LABEL_WORDS = listOf(NAME_LABELS).map((label) => label.split(/\s+/).map(plainWord));

/** How many words of the line a name label is, with its colon ("Nom de la société:"): 0 if none. */
function nameLabelLength(words: XWord[]): number {
  let best = 0;
  for (const label of NAME_LABEL_WORDS) {
    if (label.length <= best || label.length > words.length) continue;
    const last = words[label.length - 1]!.text;
    if (last.endsWith(':') && label.every((w, i) => plainWord(words[i]!.text) === w)) best = label.length;
  }
  return best;
}

/**
 * A party's name printed under a generic name label in the block its heading opens: "Verkäufer",
 * then "Nummer: …", "Name: Rohstoff AG Salzgitter". The block ends at the next party's heading.
 */
function readHeadedNames(index: DocIndex, id: 'vendor_name' | 'customer_name'): BusinessValue[] {
  // A heading is a short line of words holding a party's label ("Seller", "Informations sur le
  // vendeur"; not "de:", not a name label).
  const isHeading = (l: LabelMatch) => {
    const line = index.lines[l.words[0]!.line]!;
    return (
      line.segments.length === 1 &&
      line.words.length <= PARTY_NUMBER_DATE_WEIGHTS.headingWords &&
      !/\d/.test(line.text) &&
      l.words.map((w) => w.text).join('').replace(/[^\p{L}]/gu, '').length >= PARTY_NUMBER_DATE_WEIGHTS.headingLetters &&
      nameLabelLength(line.words) === 0 &&
      // ("Lieferant GmbH" is a supplier's name, and "Rechnung" alone the document's title: no headings.)
      !hasCompanyEnding(line.text) &&
      !(line.words.length === 1 && DOCUMENT_TITLE_START.test(line.text))
    );
  };
  const headings = (concept: string) => new Set(labelsOf(index, concept).flatMap((l) => (isHeading(l) ? [l.words[0]!.line] : [])));
  const own = headings(id);
  const others = new Set([...headings(id === 'vendor_name' ? 'customer_name' : 'vendor_name'), ...headings('ship_to')]);
  const out: BusinessValue[] = [];
  for (const start of own) {
    if (others.has(start)) continue;
    // Without a "Name:" line, the block's first line past its "label: value" lines, where it reads as
    // a name ("Verkäufer:", "Globale Nummer: 4000001123452", "Lieferant GmbH").
    let first: BusinessValue | undefined;
    let firstSeen = false;
    let named = false;
    for (let k = 1; k <= PARTY_NUMBER_DATE_WEIGHTS.headedNameLines; k++) {
      const line = index.lines[start + k];
      if (!line || line.page !== index.lines[start]!.page || others.has(line.id) || own.has(line.id)) break;
      const length = nameLabelLength(line.words);
      if (length === 0) {
        if (!firstSeen && !line.words.some((w) => w.text.includes(':'))) {
          firstSeen = true;
          if (readsAsName(line.words)) first = { concept: id, value: line.words.map((w) => w.text).join(' '), words: line.words, score: PARTY_NUMBER_DATE_WEIGHTS.headedFirstLine };
        }
        continue;
      }
      named = true;
      const below = index.lines[line.id + 1];
      const words = length < line.words.length ? line.words.slice(length) : below && below.page === line.page ? below.words : [];
      const text = words.map((w) => w.text).join(' ');
      if (words.length > 0 && /\p{L}{2}/u.test(text) && !isLabelText(words) && !words.some((w) => w.text.endsWith(':')) && !ADDRESS_LIKE.test(text)) {
        out.push({ concept: id, value: text, words, score: PARTY_NUMBER_DATE_WEIGHTS.headedName });
      }
      break;
    }
    if (!named && first) out.push(first);
  }
  return out;
}

/**
 * Words that read as a party's name: a few words from a capital, letters, no label, no address (nor
 * the word "address": "MON ADRESSE LIGNE 1"), contact or title, no long number, no placeholder
 * ("SELLER_ADDR_1"); not a sentence ("ou des n° courts, appels ou SMS…").
 */
function readsAsName(words: XWord[]): boolean {
  const text = words.map((w) => w.text).join(' ');
  if (words.length > PARTY_NUMBER_DATE_WEIGHTS.nameMaxWords || !/^[^\p{L}]*\p{Lu}/u.test(text) || text.includes('_') || ADDRESS_WORD.test(text)) return false;
  return /\p{L}{2}/u.test(text) && !/\d{2}/.test(text) && !ADDRESS_LIKE.test(text) && !CONTACT_ANYWHERE.test(text) && !PHONE_LIKE.test(text) && !DOCUMENT_TITLE_START.test(text) && !isLabelText(words);
}

/** The word "address" in the corpus languages (and its abbreviation). */
const ADDRESS_WORD = /(?<![\p{L}])(address|addr|adresse|adres|anschrift|direcci[oó]n|indirizzo|endere[cç]o)(?![\p{L}])/iu;

/** Whether a text ends with a company's legal form ("Lieferant GmbH", "Acme Ltd."), or holds one between words. */
function hasCompanyEnding(text: string): boolean {
  const lower = text.toLowerCase();
  return ENDINGS.some((e) => lower.endsWith(` ${e}`) || lower.endsWith(` ${e}.`) || lower.includes(` ${e} `));
}

/** The seller's and the buyer's names in their blocks (each read once: the other party's reading needs them too). */
const sellerNames = perDocument((index) => readHeadedNames(index, 'vendor_name'));
const buyerNames = perDocument((index) => readHeadedNames(index, 'customer_name'));

/**
 * The party named under the first company-name label of the first page ("Razón Social:"), in its top
 * part, where no customer label is printed above it. Over any address or phone line in its column,
 * it is the issuer's: an Argentine invoice's issuer box ("Razón Social: MARCIO Y AGUSTIN ADDAMO", then
 * "Domicilio Comercial: …") over the buyer's ("Apellido y Nombre / Razón Social: …"). Under the
 * issuer's address and phone, the issuer's block is complete: it is the next block's, the customer's
 * ("Av. Rivadavia 12994", "Tel./Fax: …", then "RAZON SOCIAL: LA SEGUNDA COOP LTDA"). ("Name:" is a
 * customer's label itself: it names no one here.)
 */
const firstCompanyName = perDocument((index: DocIndex): BusinessValue | undefined => {
  const before = (a: XWord, b: XWord) => (a.box && b.box ? a.box.top < b.box.top : a.line < b.line);
  const customers = labelsOf(index, 'customer_name').map((l) => l.words[0]!).filter((w) => w.page === 0);
  const pageHeight = index.doc.pages[0]?.height ?? 0;
  const firstPage = index.lines.filter((l) => l.page === 0 && !l.inCell);
  const details = firstPage.flatMap((l) => l.segments).filter((s) => addressOrPhone(s.words));
  for (const line of firstPage) {
    for (const segment of line.segments) {
      const length = nameLabelLength(segment.words);
      if (length === 0) continue;
      const words = segment.words.slice(length);
      const label = segment.words[0]!;
      if (customers.some((w) => !before(label, w)) || !readsAsName(words) || (label.box && pageHeight && label.box.top >= pageHeight * ISSUER_WEIGHTS.topShare)) return undefined;
      // (An address above in another column, "Punto de Venta: 00003" on the right, is another block's.)
      const column = (other: XSegment) => !other.box || !segment.box || (other.box.left < segment.box.left + segment.box.width && other.box.left + other.box.width > segment.box.left);
      const issuerAbove = details.some((s) => column(s) && before(s.words[0]!, label));
      return { concept: issuerAbove ? 'customer_name' : 'vendor_name', value: words.map((w) => w.text).join(' '), words, score: ISSUER_WEIGHTS.companyNameLabel };
    }
  }
  return undefined;
});

/** The first company-name label's party, if it is this one. */
const companyNamed = (index: DocIndex, id: 'vendor_name' | 'customer_name') => [firstCompanyName(index)].filter((v): v is BusinessValue => v?.concept === id);

/** The issuer's candidates (read once: the unlabelled address block keeps away from them too). */
const vendorCandidates = perDocument((index: DocIndex): BusinessValue[] => {
  const domains = domainsOf(index);
  const byLabel = [...issuerLabelled(index), ...sellerNames(index), ...companyNamed(index, 'vendor_name')].map((v) => ({ ...v, score: Math.min(1, v.score * (matchesDomain(String(v.value), domains) ? ISSUER_WEIGHTS.labelledSpellsDomain : 1)) }));
  return distinct([...byLabel, ...letterheadCandidates(index, domains)]);
});

// ---------------------------------------------------------------------------------------------
// The customer: the first line of the block under its label

/** A form of address as compared: "Dr." and "dr" alike. */
const addressForm = (text: string) => plainWord(text).replace(/\.$/, '');
const FORMS_OF_ADDRESS = new Set(listOf(ADDRESS_FORMS).map(addressForm));

/**
 * The recipient printed under the sender's line, as a letter's address window holds them (the
 * sender's address on one small line, the recipient's block under it): "Hetzner Online GmbH •
 * Industriestr. 25 • …" over "Usegroup Inh. Jochen Stärk". A form of address alone on its line
 * ("Herr") and a line of "label: value" are passed over; an address ends the search.
 */
const recipientUnderSender = perDocument((index): BusinessValue[] => {
  const lines = index.lines.filter((l) => l.page === 0 && !l.inCell).slice(0, ISSUER_WEIGHTS.topLines);
  const heightOf = (l: XLine) => Math.max(0, ...l.segments.map(lineHeight));
  // The sender's line separates its parts with marks, or is printed smaller than the block under it
  // (a receipt's address line, commas between its parts and as large as its other lines, is none).
  const at = lines.findIndex((l, i) => {
    const words = l.segments.flatMap((s) => s.words);
    if (senderName(words) === undefined) return false;
    const next = lines[i + 1];
    return words.some((w) => PART_SEPARATOR.test(w.text)) || (next !== undefined && heightOf(l) < PARTY_NUMBER_DATE_WEIGHTS.senderSmaller * heightOf(next));
  });
  if (at < 0) return [];
  const sender = lines[at]!.segments[0]!.box;
  // The window's block is printed flush under the sender's line, close under it. Other columns beside
  // it (the letterhead's address, read in between) are passed over without counting.
  const flush = (s: XSegment) => !sender || !s.box || Math.abs(s.box.left - sender.left) <= PARTY_NUMBER_DATE_WEIGHTS.recipientIndent * s.box.height;
  const close = (s: XSegment) => !sender || !s.box || s.box.top - (sender.top + sender.height) <= PARTY_NUMBER_DATE_WEIGHTS.recipientGap * s.box.height;
  const under = lines.slice(at + 1).flatMap((line) => line.segments.filter(flush).slice(0, 1));
  for (const segment of under.slice(0, PARTY_NUMBER_DATE_WEIGHTS.recipientLines)) {
    if (!close(segment)) break;
    let words = segment.words;
    if (words.length === 1 && FORMS_OF_ADDRESS.has(addressForm(words[0]!.text))) continue;
    if (words[0]!.text.endsWith(':') || (words.length > 1 && words[1]!.text === ':')) continue;
    // A name ends where a label starts ("Muster GmbH Rechnungsnummer: 2015738820").
    const cut = words.findIndex((w) => w.text.endsWith(':'));
    if (cut >= 0) words = words.slice(0, cut);
    const labelStart = words.findIndex((w, i) => i > 0 && w.text.replace(/\P{L}/gu, '').length >= 3 && isLabelText([w]));
    if (labelStart > 0) words = words.slice(0, labelStart);
    const text = words.map((w) => w.text).join(' ');
    // (A name ends with no house number: "Flugzeugallee 17" is a street.)
    // (Nor is a web domain, "saldoapps.com", a name.)
    if (words.length === 0 || ADDRESS_LIKE.test(text) || CONTACT_ANYWHERE.test(text) || PHONE_LIKE.test(text) || !/\p{L}{2}/u.test(text) || /\s\d+[a-z]?$/i.test(text) || /^\S+\.[a-z]{2,}$/i.test(text) || isLabelText(words)) return [];
    return [{ concept: 'customer_name', value: text, words, score: PARTY_NUMBER_DATE_WEIGHTS.recipientUnderSender }];
  }
  return [];
});

/**
 * The first line of an address block printed with no label, as an envelope's window shows the
 * recipient: a few lines flush one under the other in the upper half of the first page, a name over
 * a street or a postcode ("Adatum Corporation" over "Station Road, 21" and "48436 Düsseldorf"). A
 * block under a label ("Delivery Address", "Bill to:") is the label's to read; the issuer's own block
 * (on the page's first line, above any address, or named as the issuer finds it: its label, its
 * block's heading, its letterhead, its sender's line) is no recipient.
 */
const unlabelledAddressBlock = perDocument((index): BusinessValue[] => {
  const page = index.doc.pages[0];
  if (!page) return [];
  const lines = index.lines.filter((l) => l.page === 0 && !l.inCell);
  const segments = lines.flatMap((l) => l.segments).filter((s) => s.box && s.box.top < PARTY_NUMBER_DATE_WEIGHTS.blockTopShare * page.height);
  if (segments.length === 0) return [];
  const firstTop = Math.min(...segments.map((s) => s.box!.top));
  // The issuer's best name as the other readings find it (its labelled or headed name, its letterhead,
  // its sender's line). (A second letterhead name, another block's, may be the recipient's.)
  const issuer = vendorCandidates(index).filter((v) => v.score >= FIELD_FLOORS.vendor_name).sort(byScore).slice(0, 1);
  const issuerWords = new Set(issuer.flatMap((v) => v.words.map((w) => w.id)));
  const issuerNames = new Set(issuer.map((v) => letters(String(v.value))));
  const sender = lines.map((l) => senderName(l.segments.flatMap((s) => s.words))).find((name) => name !== undefined);
  if (sender) issuerNames.add(letters(sender.map((w) => w.text).join(' ')));
  // The segment printed flush right over `s`, close enough to be the line before it in a block.
  const above = (s: XSegment) => {
    const box = s.box!;
    let best: XSegment | undefined;
    for (const o of segments) {
      if (o === s || !o.box || o.box.top >= box.top) continue;
      if (Math.abs(o.box.left - box.left) > PARTY_NUMBER_DATE_WEIGHTS.recipientIndent * box.height) continue;
      if (box.top - (o.box.top + o.box.height) > PARTY_NUMBER_DATE_WEIGHTS.blockLineGap * box.height) continue;
      if (!best || o.box.top > best.box!.top) best = o;
    }
    return best;
  };
  const over = new Map(segments.map((s) => [s, above(s)] as const));
  const below = new Map<XSegment, XSegment>();
  for (const s of segments) {
    const o = over.get(s);
    if (o && !below.has(o)) below.set(o, s);
  }
  // The issuer's address is printed first: a recipient's block is printed under an address line
  // (a receipt's store name over its own address is no recipient).
  const addressTops = segments.filter((s) => ADDRESS_LIKE.test(s.words.map((w) => w.text).join(' '))).map((s) => s.box!.top);
  // (An address line has more letters than digits: a table's row of codes and prices is none.)
  const addressLine = (s: XSegment) => {
    const text = s.words.map((w) => w.text).join(' ');
    return ADDRESS_LIKE.test(text) && (text.match(/\p{L}/gu) ?? []).length > (text.match(/\d/g) ?? []).length;
  };
  // The issuer's own block (its best name over its own address) printed apart: then a block printed
  // first is no issuer's, even with no address above it ("Adatum Corporation" on the left, the
  // issuer's "CRONUS DE" over "Hofstraße 12" on the right).
  const headsAddress = (s: XSegment) => {
    for (let next = below.get(s), k = 0; next && k < PARTY_NUMBER_DATE_WEIGHTS.blockMaxLines; next = below.get(next), k++) if (addressLine(next)) return true;
    return false;
  };
  // (A segment outside the page's top has nothing below it in `below`: it heads nothing.)
  const issuerBlock = issuer.some((v) => v.words.some((w) => headsAddress(index.segments[w.segment]!)));
  const out: BusinessValue[] = [];
  for (const first of segments) {
    if (over.get(first) || (!issuerBlock && (first.box!.top <= firstTop || !addressTops.some((top) => top < first.box!.top)))) continue;
    const block = [first];
    // (The block ends at a line of "label: value": contact details, identifiers, another block's heading.)
    for (let next = below.get(first); next && block.length < PARTY_NUMBER_DATE_WEIGHTS.blockMaxLines && !next.words.some((w) => w.text.includes(':')); next = below.get(next)) block.push(next);
    // A form of address alone on its line ("Herr") is followed by the name.
    const named = first.words.length === 1 && FORMS_OF_ADDRESS.has(addressForm(first.words[0]!.text)) ? block.slice(1) : block;
    if (named.length < 2 || !named.slice(1).some(addressLine)) continue;
    const words = named[0]!.words;
    const text = words.map((w) => w.text).join(' ');
    // (Nor a part of an address: "TAMAN DAYA,", "Level 6, Bangunan TH, …", "LOT".)
    if (/,$/.test(text) || (text.match(/,/g) ?? []).length >= 2 || (words.length === 1 && letters(text).length <= PARTY_NUMBER_DATE_WEIGHTS.blockNameLetters)) continue;
    // (Nor a box's caption, "Nome / Nome Empresarial", that a name label opens.)
    if (NAME_LABEL_WORDS.some((label) => label.length <= words.length && label.every((w, i) => plainWord(words[i]!.text) === w))) continue;
    if (!readsAsName(words) || words.some((w) => w.text.endsWith(':')) || words.some((w) => issuerWords.has(w.id))) continue;
    if (issuerNames.has(letters(text))) continue;
    out.push({ concept: 'customer_name', value: text, words, score: PARTY_NUMBER_DATE_WEIGHTS.unlabelledBlock });
  }
  // Two blocks with no label and neither the issuer's: which one is the recipient is not told.
  return out.length === 1 ? out : [];
});

/**
 * The name a billing address opens: the line right under a customer's address label alone on its
 * line ("Billing address" over "Globex Corporation" over "12 Main Street"), where it reads as a name.
 */
function billingAddressNames(index: DocIndex): BusinessValue[] {
  const out: BusinessValue[] = [];
  for (const label of labelsOf(index, 'customer_address')) {
    if (!label.whole) continue;
    const below = segmentBelow(index, index.segments[label.words[0]!.segment]!, LABEL_WEIGHTS.farBelow);
    if (below && readsAsName(below.words)) out.push({ concept: 'customer_name', value: below.words.map((w) => w.text).join(' '), words: below.words, score: PARTY_NUMBER_DATE_WEIGHTS.addressOpensWithName });
  }
  return out;
}

function customerCandidates(index: DocIndex): BusinessValue[] {
  const out: BusinessValue[] = [...buyerNames(index), ...recipientUnderSender(index), ...unlabelledAddressBlock(index), ...companyNamed(index, 'customer_name'), ...billingAddressNames(index)];
  // "Name:" in the seller's block names the seller, whatever the customer's labels say.
  const sellers = new Set(sellerNames(index).flatMap((v) => v.words.map((w) => w.id)));
  for (const { read, label, placement } of labelledValues(index, 'customer_name')) {
    if (read.words.some((w) => sellers.has(w.id))) continue;
    // "Bill To:" over a name and an address: a name that is the whole first line under it is surer.
    const wholeLine = placement === 'below' && label.whole && index.segments[read.words[0]!.segment]!.words.every((w) => read.words.includes(w));
    out.push(wholeLine ? { ...read, score: Math.min(1, read.score * PARTY_NUMBER_DATE_WEIGHTS.customerWholeLine) } : read);
  }
  return distinct(out.filter((v) => !ADDRESS_LIKE.test(String(v.value)) && !CONTACT_ANYWHERE.test(String(v.value)) && !DOCUMENT_TITLE_START.test(String(v.value))));
}

// ---------------------------------------------------------------------------------------------
// The document's number


/**
 * Numbers under the document number's labels. A weak label that names a number ("Claim #", "RO
 * Number", "Workfile ID") is as often another number as the document's; on a document that prints
 * no strong label ("Invoice No", "Receipt #"), it is the best there is and counts a little more.
 */
function documentNumberCandidates(index: DocIndex): BusinessValue[] {
  // A number labelled as another document's that other documents cite ("Quotation Ref" on an order)
  // is that document's; on an order, the order's own number ("PURCHASE ORDER: PO123456789") is its number.
  const own = ownCitedType(index);
  const ownOrNone = (l: LabelMatch) => {
    const type = citedTypeOf(l);
    return own === undefined || type === undefined || type === own;
  };
  const labels = [...labelsOf(index, 'document_number').filter(ownOrNone), ...(own ? labelsOf(index, 'order_number').filter((l) => citedTypeOf(l) === own) : [])];
  const found = labelledValues(index, 'document_number', labels);
  // (A number word alone, "#", names no document; a word with neither colon nor number word, as in
  // a legend's "EST=ESTIMATE", labels nothing.)
  const isStrong = (l: LabelMatch) => {
    const stems = l.words.flatMap((w) => w.stems);
    return l.similarity > LABEL_WEIGHTS.weakLabel && stems.some((s) => s !== NUMBER) && (l.colon || stems.includes(NUMBER));
  };
  const strong = labels.some(isStrong);
  return distinct([
    ...titleNumberCandidates(index),
    ...found
      // A digit or a letter alone under a weak label counts or numbers something else: a till ("POS
      // No: 1"), a table, a cover. (Under "Invoice No:" it is the invoice's: a first invoice is No 1.)
      .filter(({ read, label }) => isStrong(label) || normalizeToken(String(read.value)).length >= 2)
      .map(({ read, label }) => {
        const namesNumber = label.words.some((w) => w.stems.includes(NUMBER));
        return !strong && namesNumber && label.similarity <= LABEL_WEIGHTS.weakLabel ? { ...read, score: Math.min(1, read.score * PARTY_NUMBER_DATE_WEIGHTS.soleNumberLabel) } : read;
      }),
  ]);
}

/**
 * The documents whose numbers others cite (`CITED_TYPES`), each with the stems of its names
 * (`knowledge/document-types.ts`): "PO Number" or "Quotation Ref" printed on an invoice numbers them.
 */
const CITED_TYPES = ['purchase_order', 'estimate'];
const citedTypeNames = DOCUMENT_TYPES.filter((t) => CITED_TYPES.includes(t.id)).map((t) => ({
  id: t.id,
  names: t.names.split(',').map((n) => textStems(n.trim())).filter((stems) => stems.length > 0),
}));

/** The cited document type some name of which these stems all hold. */
function citedTypeIn(stems: string[]): string | undefined {
  return citedTypeNames.find((t) => t.names.some((name) => name.every((s) => stems.includes(s))))?.id;
}

const citedTypeOf = (label: LabelMatch) => citedTypeIn(label.words.flatMap((w) => w.stems));

/**
 * The cited type the document is, by the title printed highest on its first page, in its top part
 * ("PURCHASE ORDER", "Quotation", "Devis"); null when that title names another kind ("Invoice"),
 * undefined when none is printed there.
 */
const ownCitedType = perDocument((index: DocIndex): string | null | undefined => {
  const pageHeight = index.doc.pages[0]?.height ?? 0;
  let best: { top: number; type: string | null } | undefined;
  // (A text file's lines have no boxes: they are in the order printed.)
  index.lines.forEach((line, order) => {
    if (line.page !== 0 || line.inCell || (line.box && pageHeight && line.box.top >= pageHeight * ISSUER_WEIGHTS.topShare)) return;
    const top = line.box?.top ?? order;
    for (const segment of line.segments) {
      const title = DOCUMENT_TITLE_START.exec(segment.words.map((w) => w.text).join(' '));
      if (title && (!best || top < best.top)) best = { top, type: citedTypeIn(textStems(title[0])) ?? null };
    }
  });
  return best?.type;
});

/** A word that is only a number word ("No.", "Nr", "N°", "#"). */
const isNumberWord = (w: XWord) => w.text === '#' || (w.stems.length === 1 && w.stems[0] === NUMBER);
/** An amount as printed ("1,234.56", "12,00", OCR's "0,00TOTALE"): no document's number. */
const AMOUNT_LIKE = /^[-+]?\d{1,3}([.,\s]\d{3})*[.,]\d{2}(?!\d)/;

/**
 * Titles whose number is often not the document's: "Order 4711" on an invoice numbers the order;
 * "Bill", "Check", "Ticket", "Bon", "Nota", "Statement" and "Cash …" also head other things
 * ("BILL 18550" on a receipt, a statement of account).
 */
const TITLE_NUMBERS_OTHER = /order|^(bill|check|guest check|ticket|bon|nota|statement)$|^cash/i;

/**
 * The number printed after the document's title, as a heading does: "Invoice FA-2017-0008",
 * "Rechnung RE1001", "Gutschrift (Selbst ausgestellte Rechnung) Nr. 471102".
 */
function titleNumberCandidates(index: DocIndex): BusinessValue[] {
  const own = ownCitedType(index);
  const out: BusinessValue[] = [];
  for (const line of index.lines) {
    if (line.page !== 0 || line.inCell) continue;
    const words = line.segments[0]?.words ?? [];
    const title = DOCUMENT_TITLE_START.exec(words.map((w) => w.text).join(' '));
    if (!title || TITLE_NUMBERS_OTHER.test(title[0])) continue;
    // "Quotation No: Q-17" under an invoice's title numbers the quotation.
    const cited = citedTypeIn(textStems(title[0]));
    if (cited && own !== undefined && cited !== own) continue;
    // The title's words, then a qualifier in brackets, then a number word.
    let i = 0;
    let joined = '';
    while (i < words.length && joined.length < title[0].length) joined += (i > 0 ? ' ' : '') + words[i++]!.text;
    // The title is whole words ("Invoice:", not "Invoice-Nr.").
    if (!/^[:.]?$/.test(joined.slice(title[0].length))) continue;
    if (words[i]?.text.startsWith('(')) {
      while (i < words.length && !words[i]!.text.endsWith(')')) i++;
      i++;
    }
    const numbered = i < words.length && isNumberWord(words[i]!);
    if (numbered) i++;
    const word = words[i];
    if (!word) continue;
    // A number printed in groups: "18550 - 389 - 4768".
    let end = i + 1;
    while (end + 1 < words.length && /^[-/]$/.test(words[end]!.text) && /^\d+[:;,.]?$/.test(words[end + 1]!.text)) end += 2;
    const value = words.slice(i, end).map((w) => w.text).join(' ').replace(/^[#:]+|[:;,.]+$/g, '');
    if (!/\d/.test(value) || isPlaceholderCode(value) || (!numbered && value.length < PARTY_NUMBER_DATE_WEIGHTS.titleNumberChars) || AMOUNT_LIKE.test(value) || parseDate(value, index.dateOrder)) continue;
    out.push({ concept: 'document_number', value: ocrDigits(value, words.slice(i, end)), words: words.slice(i, end), score: PARTY_NUMBER_DATE_WEIGHTS.titleNumber });
  }
  return out;
}

// ---------------------------------------------------------------------------------------------
// Dates


const DATE_LEADS = new Set(DATE_LEAD_WORDS);

/** The words from `start` that a date read off them spans (`chars`: the length of the text it was read from). */
function dateSpan(words: XWord[], start: number, chars: number): XWord[] {
  let end = start;
  let length = words[start]!.text.length;
  while (length < chars && end + 1 < words.length) length += 1 + words[++end]!.text.length;
  return words.slice(start, end + 1);
}

/**
 * A letter's dateline on the first page, the place and then the date ("München, den 01.11.2024",
 * "Paris, le 5 mars 2024", "Madrid, el 3/2/2024"): the document's own date, as sure as a labelled one.
 */
function datelineCandidates(index: DocIndex): BusinessValue[] {
  const out: BusinessValue[] = [];
  for (const line of index.lines) {
    if (line.page !== 0 || line.inCell) continue;
    const words = line.words;
    for (let i = 1; i + 1 < words.length; i++) {
      if (!DATE_LEADS.has(words[i]!.text.toLowerCase()) || !/^\p{Lu}[\p{L}.'’-]*,$/u.test(words[i - 1]!.text)) continue;
      const text = words.slice(i + 1, i + 1 + PARTY_NUMBER_DATE_WEIGHTS.dateWords).map((w) => w.text).join(' ');
      const date = parseDate(text, index.dateOrder);
      if (!date) continue;
      out.push({ concept: 'issue_date', value: date.iso, words: dateSpan(words, i + 1, date.length), score: PARTY_NUMBER_DATE_WEIGHTS.dateline });
    }
  }
  return out;
}

/** The last word of each phrase between a document's number and its date ("vom", "du", "of", "dated"). */
const DATED_LAST_WORDS = new Set(DATED_WORDS.map((w) => w.split(/\s+/).at(-1)!));

/**
 * The date on the document's title line: "Handelsrechnung (380) Nr. 47110815 vom 01.12.2025", "Facture
 * n° 12 du 05/11/2017", "Invoice No. 27 dated 15/03/2025". Not on an order's or a statement's title
 * line (TITLE_NUMBERS_OTHER): an invoice's "Order 4711 of …" dates the order.
 */
function titleDateCandidates(index: DocIndex): BusinessValue[] {
  const out: BusinessValue[] = [];
  const dated = (words: XWord[], from: number): BusinessValue | undefined => {
    if (!DATED_LAST_WORDS.has(words[from]?.text.toLowerCase() ?? '')) return undefined;
    const text = words.slice(from + 1, from + 1 + PARTY_NUMBER_DATE_WEIGHTS.dateWords).map((w) => w.text).join(' ');
    const date = parseDate(text, index.dateOrder);
    return date ? { concept: 'issue_date', value: date.iso, words: dateSpan(words, from + 1, date.length), score: PARTY_NUMBER_DATE_WEIGHTS.titleDate } : undefined;
  };
  const dateAlone = (words: XWord[]): BusinessValue | undefined => {
    const text = words.map((w) => w.text).join(' ');
    const date = parseDate(text, index.dateOrder);
    return date && date.length >= text.length ? { concept: 'issue_date', value: date.iso, words, score: PARTY_NUMBER_DATE_WEIGHTS.titleDate } : undefined;
  };
  index.lines.forEach((line, l) => {
    if (line.page !== 0 || line.inCell) return;
    const title = DOCUMENT_TITLE_START.exec((line.segments[0]?.words ?? []).map((w) => w.text).join(' '));
    if (!title || TITLE_NUMBERS_OTHER.test(title[0])) return;
    // The date follows the title's number ("Rechnung gemäß Bestellung vom …" dates the order) …
    const words = line.words;
    const number = words.findIndex((w) => /\d/.test(w.text));
    if (number < 0) return;
    for (let i = number + 1; i + 1 < words.length; i++) {
      const value = dated(words, i);
      if (value) return void out.push(value);
    }
    // … on its line, or opening the line under it ("Gutschrift Nr. 471102" over "vom 05.03.2018"), or
    // alone on that line ("Invoice 103767" over "February 17, 2026").
    const next = index.lines[l + 1];
    const value = next && next.page === 0 && !next.inCell ? (dated(next.words, 0) ?? dateAlone(next.words)) : undefined;
    if (value) out.push(value);
  });
  return out;
}

const PAYABLE = new Set(PAYABLE_WORDS.map(plainWord));
// (Longest first: "bis zum" before "bis".)
const UNTIL = UNTIL_WORDS.map((phrase) => phrase.split(/\s+/).map(plainWord)).sort((a, b) => b.length - a.length);
const DISCOUNT = new Set(DISCOUNT_WORDS.map(plainWord));

/**
 * The due date a payment term's sentence gives after an "until" word: "Zahlbar innerhalb 30 Tagen
 * netto bis 04.04.2018", "Payable within 30 days, by 15/03/2025" (knowledge/form-options.ts
 * PAYABLE_WORDS, UNTIL_WORDS). A line that names a discount gives an early payment's deadline, none.
 */
function termsDueDates(index: DocIndex): BusinessValue[] {
  const out: BusinessValue[] = [];
  for (const line of index.lines) {
    const plain = line.words.map((w) => plainWord(w.text.replace(/[,.;:]+$/, '')));
    if (!plain.some((w) => PAYABLE.has(w)) || plain.some((w) => DISCOUNT.has(w))) continue;
    for (let i = 1; i < plain.length; i++) {
      const until = UNTIL.find((phrase) => phrase.every((w, k) => plain[i + k] === w));
      if (!until) continue;
      const from = i + until.length;
      if (from >= line.words.length) break;
      const text = line.words.slice(from, from + PARTY_NUMBER_DATE_WEIGHTS.dateWords).map((w) => w.text).join(' ');
      const date = parseDate(text, index.dateOrder);
      if (!date) continue;
      out.push({ concept: 'due_date', value: date.iso, words: dateSpan(line.words, from, date.length), score: PARTY_NUMBER_DATE_WEIGHTS.termsDue });
      break;
    }
  }
  return out;
}

function issueDateCandidates(index: DocIndex, labelled: (id: string) => BusinessValue[]): BusinessValue[] {
  const out = [...datelineCandidates(index), ...titleDateCandidates(index), ...labelled('issue_date')];
  if (out.length > 0) return out;
  // No labelled date: the first date printed, unless another label claims it (due, delivery, birth …).
  const claimed = new Set(['due_date', 'delivery_date', 'other_date'].flatMap((id) => labelled(id).flatMap((v) => v.words.map((w) => w.id))));
  for (const line of index.lines) {
    // A date in running text dates something the sentence speaks of ("… derived from the Guide
    // DR2MC18, CCC Data Date 01/17/2024, and potentially …"), not the document.
    if (runningText(line.words)) continue;
    for (let i = 0; i < line.words.length; i++) {
      const text = line.words.slice(i, i + PARTY_NUMBER_DATE_WEIGHTS.dateWords).map((w) => w.text).join(' ');
      const date = parseDate(text.replace(/^[^\d\p{L}]+/u, ''), index.dateOrder);
      if (!date) continue;
      const words = dateSpan(line.words, i, date.length);
      if (words.some((w) => claimed.has(w.id))) continue;
      return [{ concept: 'issue_date', value: date.iso, words, score: PARTY_NUMBER_DATE_WEIGHTS.firstDate }];
    }
  }
  return [];
}

/** A line of a sentence: ten words or more, at least half of them words in small letters. */
function runningText(words: XWord[]): boolean {
  return words.length >= PARTY_NUMBER_DATE_WEIGHTS.runningTextWords && words.filter((w) => /^\p{Ll}+[,.;:]?$/u.test(w.text)).length * 2 >= words.length;
}

// ---------------------------------------------------------------------------------------------
// Currency

interface MarkInfo {
  code: string;
  strong: boolean;
}

const MARKS = new Map<string, MarkInfo>();
for (const c of CURRENCIES) for (const mark of c.marks) MARKS.set(mark, { code: c.code, strong: !WEAK_MARKS.has(mark) });
const SYMBOLS = ['US$', 'A$', 'C$', 'CA$', 'NZ$', 'HK$', 'S$', 'R$', '$', '€', '£', '¥', '₹', '₱', '₩', '₽', '₺', '₪', '฿', '₫', '₦'];

/** Each country's cues as whole-word patterns (lower case), with the first word of each: compiled once. */
const COUNTRY_PATTERNS = COUNTRIES.map(({ code, cues, postal }) => ({
  code,
  postal,
  patterns: cues.map((cue) => ({ first: cue.split(' ')[0]!, re: new RegExp(`(^|[^\\p{L}])${cue.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&')}($|[^\\p{L}])`, 'u') })),
}));

/** The countries whose cues the document prints (in the order of COUNTRIES), each with the first word that says so. */
const countriesRead = new WeakMap<DocIndex, Array<{ code: string; word: XWord }>>();

function countriesOf(index: DocIndex): Array<{ code: string; word: XWord }> {
  const known = countriesRead.get(index);
  if (known) return known;
  const found: Array<{ code: string; word: XWord }> = [];
  for (const { code, patterns, postal } of COUNTRY_PATTERNS) {
    let word: XWord | undefined;
    for (const line of index.lines) {
      const lower = line.text.toLowerCase();
      const cue = patterns.find((p) => p.re.test(lower));
      if (cue) word = line.words.find((w) => w.text.toLowerCase().includes(cue.first));
      else if (postal?.test(line.text)) word = line.words.find((w) => /^\d{5}/.test(w.text));
      if (word) break;
    }
    if (word) found.push({ code, word });
  }
  countriesRead.set(index, found);
  return found;
}

/** The dollar of the country the document is from ("$" with no country's cues is a US dollar). */
function dollarCountry(index: DocIndex): string {
  return countriesOf(index)[0]?.code ?? 'USD';
}

/**
 * The currency of the country the document is from, when its cues name one currency only. It is no
 * reading of its own (a document that prints no currency has none to extract), but a mark OCR was
 * unsure of ("(RM)" read at 40) that agrees with it was read right.
 */
function homeCurrency(index: DocIndex): { code: string; word: XWord } | undefined {
  const countries = countriesOf(index);
  const codes = new Set(countries.map((c) => c.code));
  return codes.size === 1 ? countries[0] : undefined;
}

/** An amount as printed after or before a currency mark: "1,250.00", "12,50", "99". */
const AMOUNT_SHAPE = /^-?\(?\d{1,3}([,.\s]?\d{3})*([.,]\d{1,2})?\)?$/;
const ISO_CODES = new Set(CURRENCIES.map((c) => c.code));

/** The currency a code or mark printed apart names ("AUD", "RM", "€"): an ISO code in any case, a mark as printed. */
function codeOfMark(text: string): string | undefined {
  return ISO_CODES.has(text.toUpperCase()) ? text.toUpperCase() : MARKS.get(text)?.code;
}

/**
 * A currency sign OCR was unsure of is as often a misread digit or letter ("$2.00" for "92.00",
 * "£1.00" for "81.00"): Tesseract reads a printed "$1,320.00" at 85–97. (Words not OCRed are sure: 100.)
 */
const surelyRead = (word: XWord) => (word.confidence ?? 100) >= CURRENCY_WEIGHTS.sureSymbolConfidence;

/**
 * The document's currency from what it prints: ISO codes, marks beside amounts ("RM 12.00", "12,50 €"),
 * names ("US Dollars"). On scanned pages a lone symbol is often a misread letter, so marks count only
 * next to a number there. "$" is the dollar of the code printed elsewhere, else of the country the
 * document is from, else the US dollar.
 */
function currencyCandidates(index: DocIndex): BusinessValue[] {
  const votes = new Map<string, { count: number; words: XWord[] }>();
  const vote = (code: string | undefined, word: XWord, weight: number) => {
    if (!code) return;
    const entry = votes.get(code) ?? { count: 0, words: [] };
    entry.count += weight;
    entry.words.push(word);
    votes.set(code, entry);
  };
  const dollars: XWord[] = [];
  const misread: XWord[] = [];
  // Symbols on scanned pages: OCR reads "x" as "¥" and "$" as "£"; one of them alone proves nothing.
  const scannedSymbols = new Map<string, XWord[]>();
  const scanned = (symbol: string, word: XWord) => scannedSymbols.set(symbol, [...(scannedSymbols.get(symbol) ?? []), word]);
  index.words.forEach((word, i) => {
    const ocr = index.doc.pages[word.page]?.ocr ?? false;
    const next = index.words[i + 1];
    const prev = index.words[i - 1];
    // A word naming money on the mark's line: "Cost $", "Netto EUR", "Total Amount (DEM)".
    const moneyWord = (w: XWord | undefined) => w?.line === word.line && MONEY_WORDS.has(w.text.toLowerCase().replace(/[:.]$/, ''));
    // A mark in brackets states the currency of a column or a total: "Amount (RM)", "Balance Due (AUD)".
    const bracketed = /\(([A-Za-z$€£¥₹]{1,3}\.?)\)/.exec(word.text)?.[1];
    // (A single letter in brackets is a note or a side, "(P)", not a currency.)
    if (bracketed && !/^[A-Za-z]\.?$/.test(bracketed)) {
      // (A former code only after a word naming money, "Total Amount (DEM)": "(ESP)" may name Spain.)
      const former = FORMER_CODES.has(bracketed) && moneyWord(prev);
      const code = codeOfMark(bracketed) ?? MARKS.get(bracketed.toUpperCase())?.code ?? (former ? bracketed : undefined);
      if (code && (code !== 'USD' || bracketed !== '$')) return vote(code, word, CURRENCY_WEIGHTS.bracketed);
    }
    // A mark over a column naming money in brackets: "RM(TOTAL)", "EUR(AMOUNT)" (a "$" there is left
    // to the dollar's rules below, as a "$" in brackets is).
    const heading = /^([A-Za-z$€£¥₹]{1,3})\(([A-Za-z]+)\)$/.exec(word.text);
    if (heading && MONEY_WORDS.has(heading[2]!.toLowerCase())) {
      const code = codeOfMark(heading[1]!);
      if (code && heading[1] !== '$') return vote(code, word, CURRENCY_WEIGHTS.bracketed);
    }
    // A mark after a word and a slash heads a column of amounts in it: "Einzel/€", "Preis/EUR".
    const slashed = /^\p{L}[\p{L}.]*\/([A-Za-z€£¥₹]{1,3})$/u.exec(word.text)?.[1];
    const slashedCode = slashed && codeOfMark(slashed);
    if (slashedCode && !WEAK_MARKS.has(slashed)) return vote(slashedCode, word, CURRENCY_WEIGHTS.bracketed);
    const raw = word.text.replace(/^[([]+|[)\]:,;]+$/g, '');
    // Beside a number: the amount itself, not a word that ends in a digit ("Param4 R").
    const besideNumber = (next?.line === word.line && /^[-(]?\d/.test(next.text)) || (prev?.line === word.line && /^[-+(]?\d[\d.,']*[)]?$/.test(prev.text));
    // A mark after a word naming money heads a column of amounts in it: "Cost $", "Price $", "Netto
    // EUR"; or states the document's: "Beträge in EUR".
    const headsMoney = moneyWord(prev);
    const statedIn = prev?.line === word.line && STATED_IN.has(prev.text.toLowerCase()) && moneyWord(index.words[i - 2]);
    const weight = besideNumber ? CURRENCY_WEIGHTS.besideNumber : headsMoney || statedIn ? CURRENCY_WEIGHTS.bracketed : CURRENCY_WEIGHTS.apart;
    if (ISO_CODES.has(raw) || (besideNumber && FORMER_CODES.has(raw))) return vote(raw, word, weight);
    // A "$" set apart from its amount ("$  60.00", a price column): on a scan, only several.
    if (raw === '$') {
      if ((besideNumber || headsMoney) && !ocr) dollars.push(word);
      else if ((besideNumber || headsMoney) && surelyRead(word)) scanned(raw, word);
      return;
    }
    const mark = MARKS.get(raw) ?? MARKS.get(raw.replace(/\.$/, ''));
    if (mark) {
      // Short marks on scanned pages are as often misread letters: only several of them count.
      if (ocr && (raw.length === 1 || !mark.strong)) {
        if (besideNumber && surelyRead(word)) scanned(raw, word);
        return;
      }
      if (besideNumber || mark.strong) vote(mark.code, word, weight);
      return;
    }
    // A symbol or code printed against the number: "$1,250.00", "RM12.00", "12,50€".
    for (const symbol of SYMBOLS) {
      const amount = raw.startsWith(symbol) ? raw.slice(symbol.length) : raw.endsWith(symbol) ? raw.slice(0, -symbol.length) : '';
      if (!AMOUNT_SHAPE.test(amount)) continue;
      if (ocr && symbol.length === 1) {
        if (surelyRead(word)) scanned(symbol, word);
      }
      else if (symbol === '$') dollars.push(word);
      else vote(MARKS.get(symbol)?.code, word, CURRENCY_WEIGHTS.besideNumber);
      return;
    }
    const code = /^(RM|Rs\.?|MYR|USD|EUR|GBP|INR|AUD|CAD|SGD|PHP)(?=\d)/.exec(raw)?.[1];
    if (code) vote(MARKS.get(code)?.code, word, CURRENCY_WEIGHTS.besideNumber);
    else if (ocr && /^[A-Z][A-Za-z]$/.test(raw) && next?.line === word.line && /^\d/.test(next.text)) misread.push(word);
  });
  // Two letters before amounts, one letter off a mark of the country's currency ("RH 86.00", "RN 4.87"
  // for a faint "RM"): several of them are that mark misread.
  const home = homeCurrency(index);
  const homeMarks = CURRENCIES.find((c) => c.code === home?.code)?.marks.filter((m) => m.length === 2) ?? [];
  const offByOne = misread.filter((w) => homeMarks.some((m) => m[0] === w.text[0] && m[1] !== w.text[1]));
  if (offByOne.length >= CURRENCY_WEIGHTS.misreadMarks) for (const word of offByOne) vote(home!.code, word, CURRENCY_WEIGHTS.misread);
  for (const [symbol, words] of scannedSymbols) {
    if (words.length < CURRENCY_WEIGHTS.scannedSymbols) continue;
    if (symbol === '$') dollars.push(...words);
    else for (const word of words) vote(MARKS.get(symbol)?.code, word, CURRENCY_WEIGHTS.besideNumber);
  }
  // Currency words: "US Dollars", "euros", "ringgit".
  for (const line of index.lines) for (const { code, at } of currencyNamesIn(line.words.map((w) => w.text))) vote(code, line.words[at]!, CURRENCY_WEIGHTS.named);
  // A name several currencies share ("pesos"), on a document from a country whose currency it is.
  for (const { word: name, codes } of SHARED_CURRENCY_NAMES) {
    if (!home || !codes.includes(home.code)) continue;
    for (const id of index.byToken.get(name) ?? []) vote(home.code, index.words[id]!, CURRENCY_WEIGHTS.named);
  }
  if (dollars.length > 0) {
    const printed = [...votes.keys()].filter((code) => DOLLAR_SIGN_CODES.has(code)).sort((a, b) => votes.get(b)!.count - votes.get(a)!.count)[0];
    const code = printed ?? dollarCountry(index);
    for (const word of dollars) vote(code, word, CURRENCY_WEIGHTS.besideNumber);
  }
  // The country agreeing with a printed mark counts as one more mark.
  const agreeing = home && votes.get(home.code);
  if (agreeing) agreeing.count += CURRENCY_WEIGHTS.homeCountry;
  const ranked = [...votes].sort((a, b) => b[1].count - a[1].count);
  const total = ranked.reduce((sum, [, v]) => sum + v.count, 0);
  // One mark is thin evidence; several agreeing are not.
  // Its evidence is the mark OCR read surest (agreeing marks vouch for each other).
  const surest = (words: XWord[]) => words.reduce((a, b) => ((b.confidence ?? 100) > (a.confidence ?? 100) ? b : a));
  // A mark OCR was unsure of, in the currency of the country the document is from, was read right.
  return ranked.map(([code, v]) => ({ concept: 'currency', value: code, words: [surest(v.words)], score: Math.min(CURRENCY_WEIGHTS.maxScore, CURRENCY_WEIGHTS.base + CURRENCY_WEIGHTS.perMark * v.count) * (v.count / total), corroborated: code === home?.code }));
}

// ---------------------------------------------------------------------------------------------

/**
 * Numeric dates that read both ways (02/07/2015) are month-first only in the United States (and a
 * few others): on a document whose amounts are in another currency, they are day-first.
 */
function settleDateOrder(index: DocIndex, currencies: BusinessValue[]): void {
  if (index.dateOrderKnown) return;
  if (writtenDayFirst(index)) {
    index.dateOrder = 'dmy';
    return;
  }
  const currency = currencies[0];
  const code = currency && currency.score >= CURRENCY_WEIGHTS.sureForDateOrder ? currency.value : dollarCountry(index);
  if (code !== 'USD') index.dateOrder = 'dmy';
}

const MONTH_FIRST = new Set(listOf(MONTH_FIRST_WORDS));
const DAY_FIRST = new Set(Object.values(DAY_FIRST_WORDS).flatMap(listOf));

/**
 * Whether the document is written in a language that puts the day first (../knowledge/date-order.ts):
 * more of its words are such a language's than English's, and at least CURRENCY_WEIGHTS.dayFirstLanguageWords.
 */
function writtenDayFirst(index: DocIndex): boolean {
  let dayFirst = 0;
  let monthFirst = 0;
  for (const word of index.words) {
    const plain = folded(word.text).replace(/[^\p{L}]/gu, '');
    if (DAY_FIRST.has(plain)) dayFirst++;
    else if (MONTH_FIRST.has(plain)) monthFirst++;
  }
  return dayFirst >= CURRENCY_WEIGHTS.dayFirstLanguageWords && dayFirst > monthFirst;
}

/** Every way to delete one letter from a word (and the word itself): two words one edit apart share one. */
function deletions(word: string): string[] {
  const out = [word];
  for (let i = 0; i < word.length; i++) out.push(word.slice(0, i) + word.slice(i + 1));
  return out;
}

/** The lexicon's label words of five letters or more by the words they make with a letter lost, and the stem each stands for. */
let labelWords: Map<string, Set<string>> | undefined;
const stemOfLabelWord = new Map<string, string>();

/**
 * Label words an OCR engine misread by one letter ("Involce", "INVDICE", "Tatal", "nunber"): on
 * scanned pages, a word of five letters or more one edit from a word of the lexicon's labels (or a
 * number word) also counts as that word.
 */
function readMisspelledLabels(index: DocIndex): void {
  if (!labelWords) {
    labelWords = new Map();
    for (const stem of conceptLexicon().vocabulary) if (stem.length >= MISREAD_LABEL_WEIGHTS.minLetters && /^[a-z]+$/.test(stem)) stemOfLabelWord.set(stem, stem);
    for (const word of NUMBER_WORDS) if (word.length >= MISREAD_LABEL_WEIGHTS.minLetters) stemOfLabelWord.set(word, NUMBER);
    for (const word of stemOfLabelWord.keys()) {
      for (const d of deletions(word)) {
        const set = labelWords.get(d) ?? new Set<string>();
        set.add(word);
        labelWords.set(d, set);
      }
    }
  }
  const { vocabulary } = conceptLexicon();
  const relabel = (word: XWord, stem: string) => {
    word.stems = [stem];
    const list = index.byStem.get(stem);
    if (list) {
      list.push(word.id);
      list.sort((a, b) => a - b);
    } else index.byStem.set(stem, [word.id]);
  };
  for (const word of index.words) {
    if (!index.doc.pages[word.page]?.ocr || word.stems.length !== 1) continue;
    const stem = word.stems[0]!;
    // "No" read as "ND", "N0", "Ho" or "Mo" after a label word ("INVOICE ND :", "Document Ho"): a number's label.
    if (MISREAD_NO.test(stem) && afterLabelWord(index, word, vocabulary)) {
      relabel(word, NUMBER);
      continue;
    }
    // A short label word with a letter lost, before a number word: "Do: No" for "Doc No".
    const short = misreadShortLabel(stem);
    if (short && beforeNumberWord(index, word)) {
      relabel(word, short);
      continue;
    }
    if (stem.length < MISREAD_LABEL_WEIGHTS.minLetters || vocabulary.has(stem) || !/^[a-z]+$/.test(stem)) continue;
    const matches = new Set<string>();
    for (const d of deletions(stem)) for (const m of labelWords.get(d) ?? []) if (Math.abs(m.length - stem.length) <= 1) matches.add(m);
    if (matches.size !== 1) continue;
    relabel(word, stemOfLabelWord.get([...matches][0]!)!);
  }
}

/** The first words of the lexicon's "<word> No" labels, and the short ones by the words they make with a letter lost. */
let numberLabels: { words: Set<string>; byLetterLost: Map<string, Set<string>> } | undefined;

/**
 * The short word of a number's label ("doc" of "Doc No", "bill") that this word is with one letter
 * lost ("do", "bil"). Only when exactly one fits (a letter misread instead would make real words
 * labels: "Box No" is one letter off the Dutch "Bon nr").
 */
function misreadShortLabel(stem: string): string | undefined {
  if (!numberLabels) {
    const words = new Set<string>();
    for (const c of conceptLexicon().all) for (const p of c.phrases) if (p.stems.length === 2 && p.stems[1] === NUMBER) words.add(p.stems[0]!);
    const byLetterLost = new Map<string, Set<string>>();
    for (const word of words) {
      if (word.length < MISREAD_LABEL_WEIGHTS.shortMinLetters || word.length > MISREAD_LABEL_WEIGHTS.shortMaxLetters) continue;
      for (const lost of deletions(word).slice(1)) byLetterLost.set(lost, (byLetterLost.get(lost) ?? new Set<string>()).add(word));
    }
    numberLabels = { words, byLetterLost };
  }
  // (A word that is such a label itself, "RO Number", is read as it is.)
  if (stem.length < MISREAD_LABEL_WEIGHTS.shortMinLetters - 1 || stem.length > MISREAD_LABEL_WEIGHTS.shortMaxLetters - 1 || !/^[a-z]+$/.test(stem) || numberLabels.words.has(stem)) return undefined;
  const fits = numberLabels.byLetterLost.get(stem);
  return fits?.size === 1 ? [...fits][0] : undefined;
}

/** Whether the next word on the line is a number word ("No", "#") or its misreading ("Mo", "ND"). */
function beforeNumberWord(index: DocIndex, word: XWord): boolean {
  const segment = index.segments[word.segment]!;
  const next = segment.words[segment.words.indexOf(word) + 1];
  return next !== undefined && next.stems.length === 1 && (next.stems[0] === NUMBER || MISREAD_NO.test(next.stems[0]!));
}

/** How OCR misreads a faded "No": one letter off, never a word of its own ("to", "do", "so"). */
const MISREAD_NO = /^(n[d0qa]|[hm][o0])$/;

/** Whether the word follows a label word of the lexicon on its line ("Invoice", "Document"). */
function afterLabelWord(index: DocIndex, word: XWord, vocabulary: Set<string>): boolean {
  const segment = index.segments[word.segment]!;
  const before = segment.words[segment.words.indexOf(word) - 1];
  return before !== undefined && before.stems.length > 0 && before.stems.every((s) => vocabulary.has(s) && s !== NUMBER);
}


/**
 * How far OCR's reading of a value's words can be trusted: Tesseract is sure (80–96) of what it read
 * right and unsure (20–50) of the digits it misread ("80.1" for "80.90"); a value read from unsure
 * words is better left null than given wrong. Words not OCRed are trusted.
 */
function ocrTrust(words: XWord[]): number {
  const confidences = words.flatMap((w) => (w.confidence === undefined ? [] : [w.confidence]));
  if (confidences.length === 0) return 1;
  const low = Math.min(...confidences);
  return Math.max(TRUST_WEIGHTS.minTrust, Math.min(1, (low - TRUST_WEIGHTS.unsureConfidence) / TRUST_WEIGHTS.sureSpan));
}

/**
 * Readings OCR seldom turns into another plausible reading: a name (letters), a date (a misread digit
 * mostly makes no date). Their words' trust counts by its square root.
 */
const SOFT_TRUST = new Set(['vendor_name', 'customer_name', 'issue_date']);

/** How far a reading is trusted: fully when other printed values agree with it, else as far as OCR was sure of its words. */
function trustOf(v: BusinessValue): number {
  // Other printed values agree with it (amounts that add up, paid less change): OCR read it right.
  if (v.corroborated) return 1;
  // A date's time ("25/01/2018 1:22:56PM") is read with it but is no part of the date: OCR's doubt
  // about the time says nothing of the date.
  const dateWords = v.concept.endsWith('_date') ? v.words.filter((w) => !TIME_WORD.test(w.text)) : v.words;
  const trust = ocrTrust(dateWords.length > 0 ? dateWords : v.words);
  return SOFT_TRUST.has(v.concept) ? Math.sqrt(trust) : trust;
}


/** A time of day as printed after a date: "1:22:56PM", "14:03", "8.13", "PM". */
const TIME_WORD = /^(\d{1,2}[:.]\d{2}([:.]\d{2})?\s*([ap]\.?m\.?)?|[ap]\.?m\.?)$/i;

export function readBusiness(index: DocIndex): BusinessReading {
  // Read once: the currency also settles how numeric dates are read.
  const currencies = currencyCandidates(index);
  settleDateOrder(index, currencies);
  readMisspelledLabels(index);
  const labelledCache = new Map<string, BusinessValue[]>();
  const labelled = (id: string): BusinessValue[] => {
    let list = labelledCache.get(id);
    if (!list) {
      list = distinct(labelledValues(index, id).map((l) => l.read));
      labelledCache.set(id, list);
    }
    return list;
  };
  const resolved = new Map<string, BusinessValue[]>();
  let amounts: ReturnType<typeof resolveAmounts> | undefined;
  return {
    candidates(concept: string): BusinessValue[] {
      const known = resolved.get(concept);
      if (known) return known;
      let list: BusinessValue[];
      switch (concept) {
        case 'total':
        case 'subtotal':
        case 'tax':
        case 'balance_due':
          amounts ??= resolveAmounts(index, labelled);
          list = amounts[concept];
          break;
        case 'vendor_name':
          list = vendorCandidates(index);
          break;
        case 'customer_name':
          list = customerCandidates(index);
          break;
        case 'issue_date':
          list = issueDateCandidates(index, labelled);
          break;
        case 'document_number':
          list = documentNumberCandidates(index);
          break;
        case 'due_date':
          list = [...labelled('due_date'), ...termsDueDates(index)];
          break;
        case 'currency':
          list = [...labelled('currency'), ...currencies];
          break;
        default:
          list = labelled(concept);
      }
      // A box of a standard form the page is printed on says what its value is.
      // (The form's layout, found by its captions, says what the box's value is.)
      list = [...formBoxValues(index).filter((v) => v.concept === concept).map((v) => ({ ...v, score: TRUST_WEIGHTS.formBox })), ...list];
      const floor = FIELD_FLOORS[concept] ?? TRUST_WEIGHTS.defaultFloor;
      list = list
        .map((v) => ({ ...v, score: v.score * trustOf(v) }))
        .filter((v) => v.score >= floor)
        .sort(byScore);
      resolved.set(concept, list);
      return list;
    },
  };
}


