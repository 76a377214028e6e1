/**
 * Which business field a schema property asks for: its name, title and description (and its parent
 * object's name: `seller.name` is the vendor's name) against the field lexicon of ../knowledge/fields.ts,
 * in any of its languages. `invoice_number`, `numero_facture`, `Rechnungsnummer` and a property `number`
 * inside `document` all ask for the document's number.
 */
import { FIELD_CONCEPTS, type FieldConcept, TAX_QUALIFIERS } from '../knowledge/fields.ts';
import type { FieldInfo, LeafType } from './extract-schema.ts';
import { CONCEPT_WEIGHTS } from './weights/concepts.ts';

/** Words that stand for "number" in names and labels. */
const NUMBER_WORDS = new Set(['no', 'nr', 'num', 'number', 'numero', 'nummer', 'n', 'nº', '#', 'id', 'nbr']);
/** Abbreviations people use in property names. */
const EXPAND: Record<string, string> = { qty: 'quantity', amt: 'amount', incl: 'including', inclusive: 'including', excl: 'excluding', exclusive: 'excluding', inv: 'invoice', desc: 'description', addr: 'address', cust: 'customer', dt: 'date', tel: 'phone', telephone: 'phone', ccy: 'currency', curr: 'currency' };
/** Words that carry no meaning of their own in a property name ("of", "de", "der"). */
const STOP = new Set(['the', 'of', 'a', 'an', 'for', 'de', 'du', 'des', 'la', 'le', 'les', 'l', 'd', 'der', 'die', 'das', 'dem', 'den', 'van', 'het', 'del', 'di', 'da', 'do', 'dos', 'et', 'und', 'en', 'y', 'e', 'and', 'or', 'this', 'is']);
/** Words that say what shape a value has, not which value: they need not be explained by a concept. */
const GENERIC = new Set(['name', 'value', 'text', 'field', 'info', 'information', 'detail', 'amount', 'data', 'string', 'full', '#']);

/** Property-name words: accents off, camelCase and snake_case split, abbreviations expanded, plurals cut. */
export function nameTokens(text: string): string[] {
  const spaced = text
    .replace(/([a-z])([A-Z])/g, '$1 $2')
    .replace(/([A-Z]+)([A-Z][a-z])/g, '$1 $2')
    .normalize('NFKD')
    .replace(/\p{M}/gu, '')
    .toLowerCase()
    .replace(/n\s?[°º]/g, ' # ');
  const out: string[] = [];
  for (const match of spaced.matchAll(/#|[\p{L}\p{N}]+/gu)) {
    let word = match[0];
    if (STOP.has(word)) continue;
    if (NUMBER_WORDS.has(word)) word = '#';
    word = EXPAND[word] ?? word;
    if (word.length > CONCEPT_WEIGHTS.pluralLetters && word.endsWith('s') && !word.endsWith('ss')) word = word.slice(0, -1);
    out.push(word);
  }
  return out;
}

interface Term {
  concept: FieldConcept;
  tokens: string[];
  joined: string;
  weight: number;
  /** A word people name such a field with (`names`), not a label documents print. */
  named: boolean;
}

const TERMS: Term[] = FIELD_CONCEPTS.flatMap((concept) => {
  const terms: Term[] = [];
  const add = (lists: Partial<Record<string, string>> | undefined, weight: number, named = false) => {
    for (const list of Object.values(lists ?? {})) {
      for (const raw of (list ?? '').split(',')) {
        const tokens = nameTokens(raw.trim());
        if (tokens.length > 0) terms.push({ concept, tokens, joined: tokens.join(''), weight, named });
      }
    }
  };
  add(concept.labels, CONCEPT_WEIGHTS.label);
  add(concept.names, CONCEPT_WEIGHTS.label, true);
  add(concept.weak, CONCEPT_WEIGHTS.weakLabel);
  return terms;
});

/** Terms by their first word, and by their letters glued ("invoicenumber"): lookups, not scans. */
const BY_FIRST = new Map<string, Term[]>();
const BY_JOINED = new Map<string, Term[]>();
for (const term of TERMS) {
  for (const [map, key] of [[BY_FIRST, term.tokens[0]!], [BY_JOINED, term.joined]] as const) {
    const list = map.get(key);
    if (list) list.push(term);
    else map.set(key, [term]);
  }
}

/** Every term occurring in `tokens` (as words in a row, or glued: "invoicenumber", "rechnungs nummer"), with where. */
function occurrences(tokens: string[]): Array<{ term: Term; at: number[] }> {
  const out: Array<{ term: Term; at: number[] }> = [];
  for (let i = 0; i < tokens.length; i++) {
    for (const term of BY_FIRST.get(tokens[i]!) ?? []) {
      const n = term.tokens.length;
      if (i + n <= tokens.length && term.tokens.every((t, j) => tokens[i + j] === t)) out.push({ term, at: Array.from({ length: n }, (_, j) => i + j) });
    }
    let joined = '';
    for (let j = i; j < Math.min(tokens.length, i + CONCEPT_WEIGHTS.joinedWords); j++) {
      joined += tokens[j];
      for (const term of BY_JOINED.get(joined) ?? []) if (term.tokens.length !== j - i + 1) out.push({ term, at: Array.from({ length: j - i + 1 }, (_, k) => i + k) });
    }
  }
  return out;
}

export interface ConceptMatch {
  concept: FieldConcept;
  /** 0..1: how fully the concept explains the name. */
  score: number;
}

/** Whether a leaf of this type can hold a value of this kind. */
function typeFits(concept: FieldConcept, type: LeafType): boolean {
  switch (concept.kind) {
    case 'amount':
    case 'percent':
    case 'quantity':
      // A string asks for the amount as printed ("980.00 EUR"): label proximity reads that.
      return type === 'number' || type === 'integer' || type === 'any';
    case 'identifier':
      return type !== 'boolean' && type !== 'null';
    default:
      return type === 'string' || type === 'any';
  }
}

/**
 * Whether a term explains a name better than the best so far: a higher score; at a tie, the longer
 * term ("customer #" over "customer"), then what people name a field with before what documents
 * print ("from" names the issuer; printed, it starts a period).
 */
function isBetter(term: Term, score: number, best: Term, bestScore: number): boolean {
  if (score !== bestScore) return score > bestScore;
  if (term.tokens.length !== best.tokens.length) return term.tokens.length > best.tokens.length;
  return term.named && !best.named;
}

/** The best concept for the words of one text, and how much of the text it explains. */
function bestFor(tokens: string[], inItem: boolean, type: LeafType): ConceptMatch | undefined {
  const meaningful = tokens.filter((t) => !GENERIC.has(t)).length;
  // Generic words alone ("name", "number") do not say whose or of what: only a parent or title can.
  if (meaningful === 0 && !inItem) return undefined;
  let best: ConceptMatch | undefined;
  let bestTerm: Term | undefined;
  for (const { term, at } of occurrences(tokens)) {
    if (Boolean(term.concept.item) !== inItem || !typeFits(term.concept, type)) continue;
    const covered = at.filter((i) => !GENERIC.has(tokens[i]!)).length;
    // A name of generic words only ("amount", "number") is explained by a term equal to it.
    const coverage = meaningful === 0 ? (at.length === tokens.length ? 1 : 0) : covered / meaningful;
    const score = coverage * term.weight;
    if (!bestTerm || isBetter(term, score, bestTerm, best!.score)) {
      best = { concept: term.concept, score };
      bestTerm = term;
    }
  }
  return best && best.score > 0 ? best : undefined;
}

const wordsOf = (list: string) => new Set(list.split(',').flatMap((w) => nameTokens(w.trim())));
const TAX = { tax: wordsOf(TAX_QUALIFIERS.tax), including: wordsOf(TAX_QUALIFIERS.including), excluding: wordsOf(TAX_QUALIFIERS.excluding), gross: wordsOf(TAX_QUALIFIERS.gross), net: wordsOf(TAX_QUALIFIERS.net), notAmount: wordsOf(TAX_QUALIFIERS.notAmount), amount: wordsOf(TAX_QUALIFIERS.amount) };
const CONCEPT_BY_ID = new Map(FIELD_CONCEPTS.map((c) => [c.id, c]));
const DOCUMENT_NUMBER = CONCEPT_BY_ID.get('document_number')!;

/**
 * An amount named by its tax: "total with VAT", "montant TTC", "Bruttobetrag" ask for the total;
 * "total without tax", "amount before tax", "Total HT", "Nettobetrag" for the subtotal; a tax word
 * unqualified ("total_tax_amount", "InvoiceTotalVATAmount", "tax_paid") for the tax. Undefined when
 * the words say nothing of tax, or speak of its rate or number.
 */
function taxQualified(tokens: string[]): FieldConcept | undefined {
  // German and Dutch glue the words: "Bruttobetrag", "nettobedrag", "Mehrwertsteuerbetrag".
  const parts = tokens.flatMap((t) => {
    for (const set of [TAX.gross, TAX.net, TAX.tax]) for (const w of set) if (w.length >= 4 && t.length > w.length && t.startsWith(w)) return [w, t.slice(w.length)];
    return [t];
  });
  if (parts.some((t) => TAX.notAmount.has(t))) return undefined;
  const taxAt = parts.map((t, i) => (TAX.tax.has(t) ? i : -1)).filter((i) => i >= 0);
  for (const i of taxAt) {
    const before = parts.slice(Math.max(0, i - 2), i);
    if (before.some((t) => TAX.including.has(t))) return CONCEPT_BY_ID.get('total');
    if (before.some((t) => TAX.excluding.has(t))) return CONCEPT_BY_ID.get('subtotal');
  }
  const amount = taxAt.length > 0 || parts.some((t) => TAX.amount.has(t));
  // A name that is only a gross or net word ("gross", "netto", "HT") asks for that amount too.
  const alone = parts.length === 1;
  if ((amount || alone) && parts.some((t) => TAX.gross.has(t))) return CONCEPT_BY_ID.get('total');
  if ((amount || alone) && parts.some((t) => TAX.net.has(t))) return CONCEPT_BY_ID.get('subtotal');
  // A tax word alone ("VAT") or with an amount word ("total_tax_amount") is the tax; with other words
  // ("income_tax" on a payslip) it is left to the lexicon.
  return taxAt.length > 0 && (parts.length === 1 || parts.some((t) => TAX.amount.has(t))) ? CONCEPT_BY_ID.get('tax') : undefined;
}

/**
 * The concept a leaf asks for, or undefined. `parent` is the object holding the leaf (its name
 * qualifies a generic key: `seller.name`, `document.number`); `inItem` says the leaf is a field of an
 * array's items (a line item's `amount` is a line amount, not the document's total).
 */
export function conceptOfField(info: FieldInfo, parent: FieldInfo | undefined, type: LeafType, inItem: boolean): ConceptMatch | undefined {
  const memo = JSON.stringify([info.key, info.title, info.description, parent?.key, parent?.title, type, inItem]);
  if (MEMO.has(memo)) return MEMO.get(memo);
  const found = matchField(info, parent, type, inItem);
  if (MEMO.size > 50_000) MEMO.clear();
  MEMO.set(memo, found);
  return found;
}

const MEMO = new Map<string, ConceptMatch | undefined>();

function matchField(info: FieldInfo, parent: FieldInfo | undefined, type: LeafType, inItem: boolean): ConceptMatch | undefined {
  const key = nameTokens(info.key);
  const title = info.title ? nameTokens(info.title) : [];
  const parentWords = parent ? [...nameTokens(parent.key), ...(parent.title ? nameTokens(parent.title) : [])] : [];
  const description = info.description ? nameTokens(info.description.split(/[.;,(]/)[0] ?? '').slice(0, CONCEPT_WEIGHTS.descriptionWords) : [];
  // German written without umlauts spells them out ("faelligkeitsdatum"): the lexicon has the plain letter.
  const folded = key.map((t) => t.replace(/ae/g, 'a').replace(/oe/g, 'o').replace(/ue/g, 'u'));
  const candidates: Array<{ tokens: string[]; weight: number }> = [
    { tokens: key, weight: CONCEPT_WEIGHTS.key },
    { tokens: folded.join() === key.join() ? [] : folded, weight: CONCEPT_WEIGHTS.foldedKey },
    { tokens: title, weight: CONCEPT_WEIGHTS.title },
    { tokens: [...parentWords, ...key], weight: CONCEPT_WEIGHTS.parentAndKey },
    { tokens: [...parentWords, ...title], weight: CONCEPT_WEIGHTS.parentAndTitle },
    { tokens: description, weight: CONCEPT_WEIGHTS.description },
  ];
  let best: ConceptMatch | undefined;
  for (const { tokens, weight } of candidates) {
    if (tokens.length === 0) continue;
    // An amount whose words speak of tax is decided by what qualifies the tax (before any lexicon term).
    const byTax = !inItem && (type === 'number' || type === 'integer') ? taxQualified(tokens) : undefined;
    const match = byTax ? { concept: byTax, score: 1 } : bestFor(tokens, inItem, type);
    if (match && match.score * weight > (best?.score ?? 0)) best = { concept: match.concept, score: match.score * weight };
  }
  if (!best && !parent && !inItem && key.length > 0 && key.every((t) => t === '#') && typeFits(DOCUMENT_NUMBER, type)) {
    // A bare "no", "number" or "#" of the document itself (not inside an object or an item) is its number.
    return { concept: DOCUMENT_NUMBER, score: CONCEPT_WEIGHTS.documentsOwnNumber };
  }
  return best && best.score >= CONCEPT_WEIGHTS.minScore ? best : undefined;
}
