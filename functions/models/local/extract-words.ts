/**
 * How the extractor compares the words of a schema with the words of a document: label stems (Porter
 * stems with business abbreviations expanded: "Qty" is "quantity", "No." and "#" are one number word,
 * "PO" is "purchase order"), the phrases a field may be labelled with (its name, title, description
 * and a small lexicon of synonyms), and the similarity of a printed label to a phrase.
 */
import { stemOf } from '../shared/words.ts';
import { PHRASE_WEIGHTS } from './weights/extract-words.ts';

/** The stem every "number" word stands for: "No.", "Nr", "#", "number", "ID". */
export const NUMBER = '#';

/** Abbreviations and variants printed on business documents → the word(s) they stand for. */
const ABBREVIATIONS: Record<string, string> = {
  qty: 'quantity',
  qnty: 'quantity',
  amt: 'amount',
  acct: 'account',
  acc: 'account',
  desc: 'description',
  descr: 'description',
  inv: 'invoice',
  dt: 'date',
  tel: 'phone',
  telephone: 'phone',
  ph: 'phone',
  mobile: 'phone',
  ref: 'reference',
  bal: 'balance',
  addr: 'address',
  pmt: 'payment',
  pymt: 'payment',
  txn: 'transaction',
  trans: 'transaction',
  cust: 'customer',
  po: 'purchase order',
  email: 'email',
  mail: 'email',
  vat: 'tax',
  gst: 'tax',
  hst: 'tax',
  stmt: 'statement',
  dob: 'date birth',
  sku: 'item code',
  pcs: 'quantity',
  curr: 'currency',
  ccy: 'currency',
  excl: 'excluding',
  exclusive: 'excluding',
  incl: 'including',
  inclusive: 'including',
  comp: 'comprobante',
  vto: 'vencimiento',
  // Number words.
  no: NUMBER,
  nr: NUMBER,
  nro: NUMBER,
  num: NUMBER,
  number: NUMBER,
  nº: NUMBER,
  id: NUMBER,
  identifier: NUMBER,
  '#': NUMBER,
};

/** The words that say "number" in a label ("No", "Nr", "#", "Identifier"). */
export const NUMBER_WORDS: readonly string[] = Object.keys(ABBREVIATIONS).filter((word) => ABBREVIATIONS[word] === NUMBER);

/**
 * Words that say nothing about which field a label is: articles and the like, in the corpus
 * languages ("l'" of "Informations sur l'acheteur", "la" of "Nom de la société"). Smaller than the
 * classifier's stop list on purpose: "to" and "from" tell "Bill To" from "Bill From", "de" and "von"
 * are labels of their own ("De : Société X").
 */
const LABEL_STOP = new Set([
  ...['a', 'an', 'the', 'of', 'for', 'and', 'or', 'in', 'on', 'at', 'is', 'are', 'was', 'be', 'this', 'that', 'which', 'its', 'it', 'as', 'with'],
  ...['l', 'd', 'le', 'la', 'les', 'el', 'los', 'las', 'il', 'lo', 'gli', 'der', 'die', 'das', 'den', 'dem', 'het'],
]);

const stemCache = new Map<string, string[]>();

/** Label stems of one word as printed ("Date:" → ["date"], "No." → ["#"], "E-mail" → ["email"]). */
export function wordStems(text: string): string[] {
  let cached = stemCache.get(text);
  if (cached) return cached;
  const lower = text
    .normalize('NFKD')
    .replace(/\p{M}/gu, '')
    .toLowerCase()
    // "N°" and "Nº" are the number word.
    .replace(/\bn\s?[°º]/g, ' nº ')
    .replace(/e-mail/g, 'email')
    // "P.O." and "A/C" are one abbreviation each.
    .replace(/\b([a-z])\.([a-z])\.?/g, '$1$2')
    .replace(/\ba\/c\b/g, 'acct');
  cached = [];
  for (const match of lower.matchAll(/#|[\p{L}\p{N}º]+/gu)) {
    const raw = match[0];
    // Numbers are values, not label words.
    if (/\d/.test(raw)) continue;
    const expanded = ABBREVIATIONS[raw] ?? raw;
    for (const word of expanded.split(' ')) {
      if (LABEL_STOP.has(word)) continue;
      cached.push(word === NUMBER ? NUMBER : stemOf(word));
    }
  }
  if (stemCache.size > 100_000) stemCache.clear();
  stemCache.set(text, cached);
  return cached;
}

/** Stems of a free text (a property name split into words, a title, a description). */
export function textStems(text: string): string[] {
  const words = text
    // camelCase and digits→letters boundaries are word boundaries; so are _ - . and spaces.
    .replace(/([a-z])([A-Z])/g, '$1 $2')
    .replace(/([A-Z]+)([A-Z][a-z])/g, '$1 $2')
    .replace(/[_\-./]+/g, ' ')
    .split(/\s+/)
    .filter(Boolean);
  return words.flatMap(wordStems);
}

// ---------------------------------------------------------------------------------------------
// Phrases

export interface Phrase {
  /** Distinct stems. */
  stems: string[];
  /** How much a perfect match with this phrase is worth (0..1). */
  weight: number;
  /**
   * F-measure β: 1 for names (label and phrase should be the same words), 0.5 for descriptions
   * (a label made of the description's words is good even if it uses only some of them).
   */
  beta: number;
  /** What the phrase came from, for the votes' perturbations ("key", "title", "synonym", …). */
  source: PhraseSource;
}

export type PhraseSource = 'key' | 'title' | 'description' | 'synonym' | 'parent';

/**
 * Synonyms of business documents. Groups are interchangeable ways to label one thing ("subtotal",
 * "net amount"): a field named with one phrase of a group may be labelled with any other. Directed
 * entries only go one way ("description" columns are often headed "Item"; "item" fields are not
 * "descriptions").
 */
const GROUPS: string[][] = [
  ['vendor', 'seller', 'supplier', 'merchant', 'bill from', 'remit to', 'issued by', 'payee', 'sold by', 'from'],
  ['customer', 'client', 'buyer', 'bill to', 'billed to', 'sold to', 'invoice to', 'purchaser', 'payer'],
  ['total', 'amount due', 'total due', 'grand total', 'balance due', 'total amount', 'amount payable', 'invoice total', 'total payable', 'gross', 'gross amount', 'gross total'],
  ['subtotal', 'sub total', 'net amount', 'net total', 'total before tax', 'total excluding tax', 'net'],
  ['tax', 'tax amount', 'sales tax', 'tax total'],
  ['invoice date', 'date of issue', 'issue date', 'issued', 'billing date', 'invoice dated'],
  ['due date', 'payment due', 'due by', 'due', 'pay by', 'payment due date'],
  ['invoice number', 'invoice #', 'bill number'],
  ['quantity', 'units', 'count', 'pieces'],
  ['unit price', 'price', 'rate', 'unit cost', 'price each', 'cost'],
  ['line total', 'extended price', 'line amount'],
  ['account number', 'account #'],
  ['opening balance', 'beginning balance', 'previous balance', 'balance forward', 'starting balance', 'balance brought forward', 'opening'],
  ['closing balance', 'ending balance', 'new balance', 'balance carried forward', 'closing', 'final balance'],
  ['statement period', 'period', 'statement dates', 'billing period'],
  ['payment terms', 'terms'],
  ['email', 'email address', 'contact email'],
  ['phone', 'contact number', 'cell'],
  ['purchase order', 'order number', 'order reference', 'order'],
  ['company', 'company name', 'organization', 'organisation', 'business'],
  ['salary', 'pay', 'compensation', 'annual salary', 'wage'],
  ['department', 'dept', 'division'],
  ['job title', 'position', 'role', 'designation', 'occupation'],
  ['employer', 'company', 'organization'],
  ['start date', 'hire date', 'date joined', 'joined'],
  ['revenue', 'sales', 'turnover'],
  ['store', 'shop', 'merchant'],
  ['tracking number', 'tracking', 'tracking #', 'waybill'],
  ['weight', 'gross weight', 'mass'],
  ['reference', 'ref'],
];

const DIRECTED: Array<[string, string[]]> = [
  ['amount', ['total', 'line total', 'sum', 'value']],
  ['description', ['item', 'details', 'product', 'service', 'particulars', 'item description', 'memo', 'narrative', 'transaction', 'name']],
  ['name', ['full name']],
  ['balance', ['running balance']],
  ['date', ['dated', 'day']],
  ['invoice number', ['invoice', 'reference']],
];

/** Every rewrite rule: when a name contains `concept`, it may be labelled with each of `alternatives`. */
const STEMMED_LEXICON = [
  ...GROUPS.flatMap((group) => group.map((concept) => ({ concept: textStems(concept), alternatives: group.filter((g) => g !== concept).map(textStems) }))),
  ...DIRECTED.map(([concept, alternatives]) => ({ concept: textStems(concept), alternatives: alternatives.map(textStems) })),
].filter((rule) => rule.concept.length > 0);

const unique = (stems: string[]) => [...new Set(stems)];

/**
 * The phrases of a field: its name (split into words), title and description, and the lexicon's
 * synonyms of its name and title. Weights say how telling a perfect match with each is.
 */
export function fieldPhrases(info: { key: string; title?: string; description?: string }): Phrase[] {
  const phrases: Phrase[] = [];
  const add = (stems: string[], weight: number, beta: number, source: PhraseSource) => {
    const distinct = unique(stems);
    if (distinct.length === 0) return;
    const key = distinct.join(' ');
    const existing = phrases.find((p) => p.stems.join(' ') === key);
    if (existing) existing.weight = Math.max(existing.weight, weight);
    else phrases.push({ stems: distinct, weight, beta, source });
  };
  const names: Array<[string[], PhraseSource]> = [];
  if (info.key) names.push([textStems(info.key), 'key']);
  if (info.title) names.push([textStems(info.title), 'title']);
  for (const [stems, source] of names) {
    add(stems, PHRASE_WEIGHTS.name, PHRASE_WEIGHTS.nameBeta, source);
    for (const synonym of synonymsOf(stems)) add(synonym, PHRASE_WEIGHTS.synonym, PHRASE_WEIGHTS.synonymBeta, 'synonym');
  }
  if (info.description) {
    // The first clause: "Total amount due, including tax" → "total amount due".
    const clause = info.description.split(/[.;,(]/)[0] ?? '';
    add(textStems(clause).slice(0, PHRASE_WEIGHTS.descriptionWords), PHRASE_WEIGHTS.description, PHRASE_WEIGHTS.descriptionBeta, 'description');
  }
  return phrases;
}

/**
 * The lexicon's rewrites of a name: the longest concept of each rule it contains replaced by each
 * alternative ("net amount" → "subtotal"; "customer name" → "bill to name").
 */
export function synonymsOf(stems: string[]): string[][] {
  const out: string[][] = [];
  const seen = new Set<string>();
  const set = new Set(stems);
  for (const { concept, alternatives } of STEMMED_LEXICON) {
    if (!concept.every((s) => set.has(s))) continue;
    const rest = stems.filter((s) => !concept.includes(s));
    for (const alternative of alternatives) {
      const phrase = [...alternative, ...rest];
      const key = [...new Set(phrase)].sort().join(' ');
      if (seen.has(key) || out.length >= PHRASE_WEIGHTS.maxSynonyms) continue;
      seen.add(key);
      out.push(phrase);
    }
  }
  return out;
}

// ---------------------------------------------------------------------------------------------
// Similarity

/** Whether a printed label stem stands for a phrase stem: equal, or an abbreviation of it ("stmt."). */
function stemCredit(label: string, phrase: string): number {
  if (label === phrase) return 1;
  if (label.length >= PHRASE_WEIGHTS.abbreviationLetters && phrase.length > label.length && phrase.startsWith(label)) return PHRASE_WEIGHTS.abbreviation;
  return 0;
}

/**
 * How well a printed label's stems match a phrase: the F-measure of the shared stems (precision:
 * the label's words the phrase has; recall: the phrase's words the label has), times the phrase weight.
 */
export function labelSimilarity(label: readonly string[], phrase: Phrase): number {
  if (label.length === 0) return 0;
  let shared = 0;
  for (const l of label) {
    let best = 0;
    for (const p of phrase.stems) best = Math.max(best, stemCredit(l, p));
    shared += best;
  }
  const precision = shared / label.length;
  const recall = Math.min(1, shared / phrase.stems.length);
  if (precision === 0 || recall === 0) return 0;
  const b2 = phrase.beta * phrase.beta;
  return (phrase.weight * ((1 + b2) * precision * recall)) / (b2 * precision + recall);
}

/** The best phrase match of a label: similarity and the phrase's source. */
export function bestPhrase(label: readonly string[], phrases: readonly Phrase[], weightOf: (source: PhraseSource) => number = () => 1): { similarity: number; source: PhraseSource | undefined } {
  let similarity = 0;
  let source: PhraseSource | undefined;
  for (const phrase of phrases) {
    const s = labelSimilarity(label, phrase) * weightOf(phrase.source);
    if (s > similarity) {
      similarity = s;
      source = phrase.source;
    }
  }
  return { similarity, source };
}
