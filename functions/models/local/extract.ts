/**
 * Extraction (API §6) for `quire-local`: fills a JSON Schema from a Doc by label proximity, with
 * provenance read off the words each value came from.
 *
 * 1. The schema is compiled into a field tree (./extract-schema.ts: $refs, nullability, bounds).
 * 2. The Doc is indexed once (./extract-index.ts): segments, tables, stem postings.
 * 3. Each scalar leaf gets candidates: its labels in the document (name, title, description,
 *    synonyms, its parent object's name: ./extract-words.ts), the value near each label (same line
 *    after a colon, the segment or cell to the right, the line or cell below:
 *    ./extract-labels.ts), read as the leaf's type (./extract-values.ts). A few leaves have
 *    label-less candidates: the issuer's name in the letterhead, an enum option or currency
 *    printed anywhere, an e-mail address.
 * 4. A vote scores the candidates (label similarity × placement × how well the value reads, each
 *    weight perturbed by the vote's seed when there are several votes) and assigns them greedily,
 *    best first: a leaf takes one value, a label serves one leaf, a printed value backs one leaf.
 *    Arrays of objects come from tables or aligned lines (./extract-arrays.ts).
 * 5. The output is built from the schema: a value nothing backs is null where the schema allows,
 *    else (when required) the plainest valid value with no source and likelihood 0, else left out.
 *    Several votes are consolidated leaf by leaf by majority (ties to the more likely value).
 */
import type { Box, Doc, Origin } from '../../documents/doc.ts';
import type { ExtractRequest, ExtractResult, Extractor, Found, Tree } from '../engine.ts';
import { CONTACT_LINE_START, DOCUMENT_TITLE_LINE } from '../knowledge/fields.ts';
import { type ItemLeaf, type Items, type ItemsRead, type ItemValue, itemsFromLines, itemsFromTables, scalarItems } from './extract-arrays.ts';
import { itemsFromPricedLines } from './extract-priced-lines.ts';
import { blockBelow, contextOf, type DocIndex, indexDoc, type XSegment, type XWord } from './extract-index.ts';
import { findLabels, labelBlock, type LabelMatch, PLACEMENT_WEIGHT, type Placement, placementFactor, type Region, valueRegions } from './extract-labels.ts';
import { type BusinessReading, type BusinessValue, labelPhrases, READ_HERE, readBusiness } from './business.ts';
import { conceptOfField } from './concepts.ts';
import { type ArrayNode, compileSchema, type FieldInfo, type FieldNode, type LeafNode, leafAccepts, type ObjectNode } from './extract-schema.ts';
import { booleanOf, currencyOf, EMAIL, type LeafTraits, type Read, readValue, traitsOf } from './extract-values.ts';
import { fieldPhrases, type Phrase, type PhraseSource, textStems } from './extract-words.ts';
import { type CandidateFacts, type CandidateModel, featuresOf, judges, probability, shippedModel } from './learned.ts';
import { jitteredWeight } from './random.ts';
import { agreeReadings, secondReading } from './two-readings.ts';
import { EXTRACT_WEIGHTS } from './weights/extract.ts';

// ---------------------------------------------------------------------------------------------
// Weights

interface Weights {
  placement: Record<Placement, number>;
  phrase: Record<PhraseSource, number>;
  /** A scalar candidate is taken at this score. */
  threshold: number;
  /** A table column is matched to a property at this header similarity. */
  column: number;
}

/** The weights before any vote moves them (EXTRACT_WEIGHTS, and the placements of ./extract-labels.ts). */
const BASE: Weights = {
  placement: { ...PLACEMENT_WEIGHT },
  phrase: { ...EXTRACT_WEIGHTS.phrase },
  threshold: EXTRACT_WEIGHTS.threshold,
  column: EXTRACT_WEIGHTS.column,
};

/** How much a vote may move each weight (relative). */
const SPREAD = EXTRACT_WEIGHTS.spread;

function weightsFor(seed: string, vote: number, n: number): Weights {
  const j = (key: string, spread: number) => jitteredWeight(seed, vote, n, `extract:${key}`, spread);
  const placement = { ...BASE.placement };
  for (const key of Object.keys(placement) as Placement[]) placement[key] *= j(`placement:${key}`, SPREAD.placement);
  const phrase = { ...BASE.phrase };
  for (const key of Object.keys(phrase) as PhraseSource[]) phrase[key] *= j(`phrase:${key}`, SPREAD.phrase);
  return { placement, phrase, threshold: BASE.threshold * j('threshold', SPREAD.threshold), column: BASE.column * j('column', SPREAD.column) };
}

// ---------------------------------------------------------------------------------------------
// The plan: the schema's tree with its leaves and arrays numbered

type Plan =
  | { kind: 'object'; node: ObjectNode; children: Array<{ key: string; required: boolean; plan: Plan }> }
  | { kind: 'leaf'; node: LeafNode; ref: number }
  /** `item`: the plan of one item (absent when items are not looked for). */
  | { kind: 'array'; node: ArrayNode; ref: number; item?: Plan }
  /** Nothing is looked for (a recursion cutoff, an array inside an array item). */
  | { kind: 'none'; node: FieldNode };

interface Candidate {
  read: Read;
  placement: Placement;
  /** Placement adjustments (a label that does not stand alone is a weaker "right" or "below"). */
  factor: number;
  similarity: number;
  source: PhraseSource | undefined;
  /** One label serves one leaf: leaves taking the same label in the same role exclude each other. */
  labelKey: string | undefined;
  /** Whether the value's words can back only this leaf. */
  exclusive: boolean;
  /** From the business reading: its score, its rank in the concept's list, whether other amounts confirm it. */
  business?: { score: number; rank: number; corroborated: boolean };
}

interface ScalarField {
  ref: number;
  node: LeafNode;
  traits: LeafTraits;
  /** The leaf's own phrases, and its parent's name joined with them. */
  phrases: Phrase[];
  /** The parent object's phrases alone, for the leaf that is its main value (the customer's name). */
  parentPhrases: Phrase[];
  /** What the phrases were made from: leaves with equal keys have equal phrases (and share work). */
  phraseKey: string;
  parentKey: string;
  /** The parent's own words can label this leaf (its main value, or the start or end of a range). */
  takesParentLabel: boolean;
  vendorLike: boolean;
  /** The business field this leaf asks for (./concepts.ts), read by ./business.ts instead of by its own words. */
  concept: string | undefined;
  candidates: Candidate[];
}

interface ArrayField {
  ref: number;
  node: ArrayNode;
  phrases: Phrase[];
  kind: 'objects' | 'scalars' | 'none';
  /** For object items: the item's plan (its leaves number into `leaves`). */
  itemPlan?: Plan;
  leaves: ItemLeaf[];
}

interface Planned {
  root: Plan;
  scalars: ScalarField[];
  arrays: ArrayField[];
  /** Every stem any field is labelled with: words of the next label when cutting a value. */
  vocabulary: Set<string>;
}

/** Label words common on documents even when the schema does not ask for them: they end a value. */
const GENERIC_LABELS = ['phone', 'tel', 'fax', 'email', 'date', 'number', 'page', 'total', 'tax', 'attn', 'attention', 'contact', 'website', 'web', 'ship to', 'bill to', 'due', 'terms', 'reference'];

/** Names that say the field is the document's issuer: found in the letterhead when unlabelled. */
const VENDOR_STEMS = new Set(['vendor', 'seller', 'supplier', 'issuer', 'merchant', 'store', 'shop', 'bank', 'biller', 'sender', 'payee', 'compani', 'provid', 'from', 'remitt', 'employ', 'util']);
/** …unless the name also says it is the other party ("customer company"). */
const RECIPIENT_STEMS = new Set(['custom', 'client', 'buyer', 'bill', 'ship', 'payer', 'recipi', 'consigne', 'purchas', 'to', 'tenant', 'patient', 'employe']);

/** The "main value" names of an object: its name takes the object's label ("Customer: Acme Inc"). */
const MAIN_STEMS = new Set(['name', 'compani', 'full', 'titl', 'valu', 'label']);

function combine(parent: Phrase[], own: Phrase[]): Phrase[] {
  const out: Phrase[] = [];
  for (const p of parent) {
    if (p.source === 'description') continue;
    for (const o of own) {
      if (o.source === 'description' || out.length >= EXTRACT_WEIGHTS.combinedPhrases) continue;
      out.push({ stems: [...new Set([...p.stems, ...o.stems])], weight: p.weight * o.weight, beta: 1, source: p.source === 'synonym' || o.source === 'synonym' ? 'synonym' : 'key' });
    }
  }
  return out;
}

/** The inputs of a field's phrases, normalized: two fields with equal identities have equal phrases. */
function phraseIdentity(info: FieldInfo): string {
  const clause = (info.description ?? '').split(/[.;,(]/)[0] ?? '';
  return JSON.stringify([textStems(info.key), info.title ? textStems(info.title) : [], textStems(clause)]);
}

/** The concepts a schema's document-level fields ask for (outside arrays), as the plan reads them. */
function documentConcepts(node: FieldNode, parent: FieldInfo | undefined): Set<string> {
  if (node.kind === 'leaf') {
    const concept = conceptOfField(node.info, parent, node.type, false)?.concept.id;
    return new Set(concept ? [concept] : []);
  }
  if (node.kind !== 'object') return new Set();
  return new Set(node.properties.flatMap((p) => [...documentConcepts(p.node, node.info.key ? node.info : undefined)]));
}

function plan(root: FieldNode): Planned {
  const planned: Planned = { root: { kind: 'none', node: root }, scalars: [], arrays: [], vocabulary: new Set(GENERIC_LABELS.flatMap(textStems)) };
  const remember = (phrases: Phrase[]) => {
    for (const p of phrases) for (const s of p.stems) planned.vocabulary.add(s);
  };

  const walk = (node: FieldNode, parent: FieldInfo | undefined): Plan => {
    switch (node.kind) {
      case 'object': {
        // The main value: the first property named like one ("name", "company"), else none.
        const main = node.properties.find((p) => p.node.kind === 'leaf' && p.node.type === 'string' && textStems(p.key).some((s) => MAIN_STEMS.has(s)));
        const children = node.properties.map(({ key, required, node: child }) => {
          if (child.kind === 'leaf') return { key, required, plan: leafPlan(child, node.info.key ? node.info : undefined, main?.node === child) };
          return { key, required, plan: walk(child, node.info.key ? node.info : undefined) };
        });
        return { kind: 'object', node, children };
      }
      case 'leaf':
        return leafPlan(node, parent, false);
      case 'array':
        return arrayPlan(node);
      case 'cutoff':
        return { kind: 'none', node };
    }
  };

  const asked = documentConcepts(root, undefined);
  const leafPlan = (node: LeafNode, parent: FieldInfo | undefined, main: boolean): Plan => {
    const traits = traitsOf(node);
    let concept = conceptOfField(node.info, parent, node.type, false)?.concept.id;
    // What was paid ("amount_paid", "Total paid") is the document's total when the schema asks for no
    // total besides it: what a receipt's buyer paid is its total, not the cash handed over.
    if (concept === 'amount_paid' && !asked.has('total')) concept = 'total';
    // A field the lexicon knows but ./business.ts does not read is labelled as the lexicon says too.
    const own = [...fieldPhrases(node.info), ...(concept && !READ_HERE.has(concept) ? labelPhrases(concept) : [])];
    const parentPhrases = parent ? fieldPhrases(parent) : [];
    // A bare "Name:" could be anyone's: the leaf's own words count a little less inside an object.
    const phrases = parent ? [...own.map((p) => ({ ...p, weight: p.weight * EXTRACT_WEIGHTS.ownWordsInObject })), ...combine(parentPhrases, own)] : own;
    const parentAlone = parentPhrases.map((p) => ({ ...p, weight: p.weight * EXTRACT_WEIGHTS.parentAlone, source: 'parent' as const }));
    const stems = new Set([...textStems(node.info.key), ...(parent ? textStems(parent.key) : [])]);
    const parentKey = parent ? phraseIdentity(parent) : '';
    const field: ScalarField = {
      ref: planned.scalars.length,
      node,
      traits,
      phrases,
      parentPhrases: parentAlone,
      phraseKey: `${phraseIdentity(node.info)}/${parentKey}`,
      parentKey,
      takesParentLabel: main || traits.rangeEnd !== undefined,
      vendorLike: [...stems].some((s) => VENDOR_STEMS.has(s)) && ![...stems].some((s) => RECIPIENT_STEMS.has(s)),
      concept: concept && READ_HERE.has(concept) ? concept : undefined,
      candidates: [],
    };
    remember(phrases);
    remember(parentAlone);
    planned.scalars.push(field);
    return { kind: 'leaf', node, ref: field.ref };
  };

  const arrayPlan = (node: ArrayNode): Plan => {
    const field: ArrayField = { ref: planned.arrays.length, node, phrases: fieldPhrases(node.info), kind: 'none', leaves: [] };
    planned.arrays.push(field);
    remember(field.phrases);
    const items = node.items;
    if (items.kind === 'object') {
      field.kind = 'objects';
      field.itemPlan = itemPlan(items, field.leaves, [], field.phrases);
    } else if (items.kind === 'leaf') {
      field.kind = 'scalars';
      const leaf: ItemLeaf = { path: [], node: items, traits: traitsOf({ ...items, info: { ...items.info, key: items.info.key || node.info.key } }), phrases: field.phrases };
      field.leaves.push(leaf);
      field.itemPlan = { kind: 'leaf', node: items, ref: 0 };
    }
    return { kind: 'array', node, ref: field.ref, ...(field.itemPlan ? { item: field.itemPlan } : {}) };
  };

  /**
   * An item object's plan; its leaves (nested objects flattened) are numbered into `leaves`. The
   * item's main text (its name or description) may be headed by the array's own name: the "Item"
   * column of `items`.
   */
  const itemPlan = (node: ObjectNode, leaves: ItemLeaf[], path: string[], arrayPhrases: Phrase[]): Plan => {
    const main = node.properties.find((p) => p.node.kind === 'leaf' && p.node.type === 'string' && textStems(p.key).some((s) => MAIN_STEMS.has(s) || s === 'descript'));
    const children = node.properties.map(({ key, required, node: child }) => {
      if (child.kind === 'leaf') {
        // A line item's column as the lexicon knows it, in every language ("Qté", "Menge", "Bedrag").
        const concept = conceptOfField({ ...child.info, key }, undefined, child.type, true)?.concept.id;
        const own = [...fieldPhrases({ ...child.info, key }), ...(concept ? labelPhrases(concept) : [])];
        const phrases = main?.node === child && path.length === 0 ? [...own, ...arrayPhrases.map((p) => ({ ...p, weight: p.weight * EXTRACT_WEIGHTS.arrayNameOnItem, source: 'parent' as const }))] : own;
        remember(phrases);
        leaves.push({ path: [...path, key], node: child, traits: traitsOf(child), phrases, ...(concept ? { concept } : {}) });
        return { key, required, plan: { kind: 'leaf', node: child, ref: leaves.length - 1 } as Plan };
      }
      if (child.kind === 'object' && path.length < EXTRACT_WEIGHTS.itemDepth) return { key, required, plan: itemPlan(child, leaves, [...path, key], []) };
      return { key, required, plan: { kind: 'none', node: child } as Plan };
    });
    return { kind: 'object', node, children };
  };

  planned.root = walk(root, undefined);
  return planned;
}

// ---------------------------------------------------------------------------------------------
// Candidates of scalar leaves (computed once, shared by every vote)


/**
 * The issuer's letterhead: the first line of the first page that reads like a name (not a title, not
 * a label), and the block under it.
 */
function letterhead(index: DocIndex, vocabulary: ReadonlySet<string>): XSegment[] | undefined {
  const lines = index.lines.filter((l) => l.page === 0 && !l.inCell).slice(0, EXTRACT_WEIGHTS.letterheadLines);
  for (const line of lines) {
    for (const segment of line.segments) {
      const text = segment.words.map((w) => w.text).join(' ');
      if (!/\p{L}{2}/u.test(text) || segment.words.some((w) => w.text.endsWith(':')) || DOCUMENT_TITLE_LINE.test(text.replace(/[^\p{L} ]/gu, '').trim())) continue;
      if (isLabelText(segment.words, vocabulary)) continue;
      if (/\d/.test(segment.words[0]!.text) || segment.words.length > EXTRACT_WEIGHTS.letterheadWords) continue;
      return blockBelow(index, segment, EXTRACT_WEIGHTS.letterheadBlockLines);
    }
  }
  return undefined;
}

/** The lines of an address: from the block's second line, up to contact details. */
function addressLines(block: XSegment[]): XWord[] {
  const words: XWord[] = [];
  for (const segment of block.slice(1)) {
    const text = segment.words.map((w) => w.text).join(' ');
    if (CONTACT_LINE_START.test(text) || EMAIL.test(text)) break;
    words.push(...segment.words);
  }
  return words;
}

/** Whether words are nothing but label words of the schema ("Invoice #", "Due Date"). */
function isLabelText(words: XWord[], vocabulary: ReadonlySet<string>): boolean {
  const stems = words.flatMap((w) => w.stems);
  return stems.length > 0 && words.every((w) => !/\d/.test(w.text)) && stems.every((s) => vocabulary.has(s));
}

/**
 * A boolean's own name printed as a value or beside a checkbox: "Status: Paid" (true), "☑ Insured"
 * (true), "☐ Insured" or "not paid" (false).
 */
function booleanByLabel(index: DocIndex, label: LabelMatch): Read | undefined {
  const first = label.words[0]!;
  const segment = index.segments[first.segment]!;
  const before = segment.words[segment.words.indexOf(first) - 1];
  if (!before) return undefined;
  const mark = booleanOf(before.text);
  if (mark !== undefined && /^(\[.?\]|\(.?\)|[☐□☑☒✓✔xX])$/.test(before.text)) return { value: mark, words: [before], fit: 1 };
  if (/^(not|no|non|never)$/i.test(before.text)) return { value: false, words: [before, ...label.words], fit: EXTRACT_WEIGHTS.booleanByLabel };
  if (before.text.endsWith(':')) return { value: true, words: label.words, fit: EXTRACT_WEIGHTS.booleanByLabel };
  return undefined;
}

const labelKeyOf = (label: LabelMatch) => `${label.words[0]!.id}-${label.words[label.words.length - 1]!.id}`;

const baseScore = (c: Candidate, w: Weights) => Math.min(1, c.similarity * w.phrase[c.source ?? 'key'] * w.placement[c.placement] * c.factor * c.read.fit);

/**
 * Work shared between leaves. Fields with the same words (a schema of `total_1` … `total_5000`:
 * digits are not label words) find the same labels; the same words read as the same kind of leaf
 * give the same value; fields alike in both get the same candidates. This keeps a huge schema to
 * about one pass over each distinct label.
 */
interface DocCaches {
  letterhead?: XSegment[] | null;
  currencies?: XWord[];
  emails?: XWord[];
  /** Phrase-set key → its labels (the strongest EXTRACT_WEIGHTS.maxLabels). */
  labels: Map<string, LabelMatch[]>;
  regions: Map<LabelMatch, Region[]>;
  /** Leaf signature → small number, so reads are cached per (region, signature) cheaply. */
  signatures: Map<string, number>;
  regionReads: Map<Region, Map<number, Read | null>>;
  wordReads: Map<string, Read | null>;
  /** Field key (phrases, signature, flags) → candidates. */
  candidates: Map<string, Candidate[]>;
}

function cachedLabels(index: DocIndex, key: string, phrases: Phrase[], caches: DocCaches): LabelMatch[] {
  let labels = caches.labels.get(key);
  if (!labels) {
    // Weak labels never reach the threshold; of the rest, the strongest (first in reading order on ties).
    const found = findLabels(index, phrases, () => 1, EXTRACT_WEIGHTS.maxLabels * EXTRACT_WEIGHTS.labelsLookedAt).filter((l) => l.similarity >= EXTRACT_WEIGHTS.minLabel);
    labels = found
      .map((label, order) => ({ label, order }))
      .sort((a, b) => b.label.similarity - a.label.similarity || a.order - b.order)
      .slice(0, EXTRACT_WEIGHTS.maxLabels)
      .sort((a, b) => a.order - b.order)
      .map((x) => x.label);
    caches.labels.set(key, labels);
  }
  return labels;
}

function cachedRegions(index: DocIndex, label: LabelMatch, vocabulary: ReadonlySet<string>, caches: DocCaches): Region[] {
  let regions = caches.regions.get(label);
  if (!regions) {
    regions = valueRegions(index, label, vocabulary);
    caches.regions.set(label, regions);
  }
  return regions;
}

/** What makes two leaves read words the same way: their type, constraints and traits. */
function leafSignature(node: LeafNode, traits: LeafTraits): string {
  return JSON.stringify([node.type, node.enum, node.format, node.pattern?.source, node.minLength, node.maxLength, node.minimum, node.maximum, node.exclusiveMinimum, node.exclusiveMaximum, node.multipleOf, traits]);
}

function internSignature(signature: string, caches: DocCaches): number {
  let id = caches.signatures.get(signature);
  if (id === undefined) {
    id = caches.signatures.size;
    caches.signatures.set(signature, id);
  }
  return id;
}

/**
 * A leaf's candidates, found in steps: the values near its labels (and its parent's), the issuer's
 * letterhead, a boolean's name negated, and values recognizable without a label (enum options,
 * currency marks, e-mail addresses). Each value is kept once (its best finding), the best
 * EXTRACT_WEIGHTS.maxCandidates by default weights. Leaves alike share their candidates (DocCaches).
 */
function scalarCandidates(index: DocIndex, field: ScalarField, vocabulary: ReadonlySet<string>, caches: DocCaches): Candidate[] {
  const signature = internSignature(leafSignature(field.node, field.traits), caches);
  const memo = `${field.phraseKey}|${field.parentKey}|${signature}|${field.takesParentLabel}|${field.vendorLike}`;
  const known = caches.candidates.get(memo);
  if (known) return known;

  const leaf = leafReader(index, field, vocabulary, caches, signature);
  labelledCandidates(leaf);
  letterheadCandidates(leaf);
  negatedNameCandidates(leaf);
  enumOptionCandidates(leaf);
  currencyMarkCandidates(leaf);
  emailCandidates(leaf);

  const candidates = [...leaf.found.values()].sort((a, b) => baseScore(b, BASE) - baseScore(a, BASE)).slice(0, EXTRACT_WEIGHTS.maxCandidates);
  caches.candidates.set(memo, candidates);
  return candidates;
}

/** What the steps of scalarCandidates share: the leaf, its readers of words, and the candidates found so far. */
interface LeafReader {
  index: DocIndex;
  field: ScalarField;
  vocabulary: ReadonlySet<string>;
  caches: DocCaches;
  /** Candidates by the words and value they read (the best finding of each). */
  found: Map<string, Candidate>;
  add: (candidate: Candidate) => void;
  /** The value of a label's region as this kind of leaf (cached: many leaves read the same regions). */
  readRegion: (region: Region) => Read | undefined;
  /** The value of some words as this kind of leaf (cached). */
  read: (words: XWord[]) => Read | undefined;
}

function leafReader(index: DocIndex, field: ScalarField, vocabulary: ReadonlySet<string>, caches: DocCaches, signature: number): LeafReader {
  const { node, traits } = field;
  const found = new Map<string, Candidate>();
  const add = (candidate: Candidate) => {
    // Whatever found it, a value the leaf would not validate is no value.
    if (!leafAccepts(node, candidate.read.value)) return;
    const key = `${candidate.read.words.map((w) => w.id).join(',')}|${JSON.stringify(candidate.read.value)}`;
    const existing = found.get(key);
    if (!existing || baseScore(candidate, BASE) > baseScore(existing, BASE)) found.set(key, candidate);
  };
  const readRegion = (region: Region): Read | undefined => {
    let reads = caches.regionReads.get(region);
    if (!reads) caches.regionReads.set(region, (reads = new Map()));
    let value = reads.get(signature);
    if (value === undefined) {
      value = readValue(region.words, node, traits, index.dateOrder) ?? null;
      // Text made only of the schema's label words is the next label ("Invoice #"), not a value.
      if (value && typeof value.value === 'string' && isLabelText(value.words, vocabulary)) value = { ...value, fit: value.fit * EXTRACT_WEIGHTS.labelTextValue };
      reads.set(signature, value);
    }
    return value ?? undefined;
  };
  const read = (words: XWord[]): Read | undefined => {
    if (words.length === 0) return undefined;
    const key = `${words.map((w) => w.id).join(',')}|${signature}`;
    let value = caches.wordReads.get(key);
    if (value === undefined) caches.wordReads.set(key, (value = readValue(words, node, traits, index.dateOrder) ?? null));
    return value ?? undefined;
  };
  return { index, field, vocabulary, caches, found, add, readRegion, read };
}

/** The values near the leaf's labels (and its parent's, for its main value or an address). */
function labelledCandidates({ index, field, vocabulary, caches, add, readRegion, read }: LeafReader): void {
  const { node, traits } = field;
  const role = traits.rangeEnd ?? 'value';
  const sets: Array<{ phrases: Phrase[]; key: string; parent: boolean }> = [{ phrases: field.phrases, key: field.phraseKey, parent: false }];
  if (field.parentPhrases.length > 0 && (field.takesParentLabel || traits.address)) sets.push({ phrases: field.parentPhrases, key: field.parentKey, parent: true });
  for (const { phrases, key: setKey, parent } of sets) {
    for (const label of cachedLabels(index, setKey, phrases, caches)) {
      const key = `${labelKeyOf(label)}:${role}`;
      // The parent's label gives an address its block (the lines under the name), nothing else.
      if (parent && traits.address && !field.takesParentLabel) {
        const value = read(addressLines(labelBlock(index, label)));
        if (value) add({ read: value, placement: 'block', factor: 1, similarity: label.similarity, source: 'parent', labelKey: `${key}:block`, exclusive: true });
        continue;
      }
      for (const region of cachedRegions(index, label, vocabulary, caches)) {
        const value = readRegion(region);
        if (!value) continue;
        let factor = placementFactor(region.placement, region.label) * (region.qualified ? EXTRACT_WEIGHTS.qualified : 1);
        // Words after a label with no colon ("Employment Verification Letter") are a label's value
        // only weakly: typed values (numbers, dates, codes) delimit themselves, plain words do not.
        if ((region.placement === 'inline' || region.placement === 'prose') && typeof value.value === 'string' && !/\d/.test(value.value)) factor *= EXTRACT_WEIGHTS.inlineWithoutDigit;
        add({ read: value, placement: region.placement, factor, similarity: label.similarity, source: label.source, labelKey: key, exclusive: true });
      }
      if (node.type === 'boolean') {
        const value = booleanByLabel(index, label);
        if (value) add({ read: value, placement: 'colon', factor: 1, similarity: label.similarity, source: label.source, labelKey: key, exclusive: true });
      }
    }
  }
}

/** The issuer's name and address, unlabelled at the top of the first page. */
function letterheadCandidates({ index, field, vocabulary, caches, add, read }: LeafReader): void {
  const { traits } = field;
  if (!field.vendorLike || !(traits.name || traits.address || field.takesParentLabel)) return;
  if (caches.letterhead === undefined) caches.letterhead = letterhead(index, vocabulary) ?? null;
  const block = caches.letterhead;
  if (!block) return;
  const value = read(traits.address && !field.takesParentLabel ? addressLines(block) : block[0]!.words);
  if (value) add({ read: value, placement: 'letterhead', factor: 1, similarity: 1, source: undefined, labelKey: undefined, exclusive: true });
}

/** "Unpaid", "Uninsured" after a label: a boolean's name negated. */
function negatedNameCandidates({ index, field, add }: LeafReader): void {
  const { node } = field;
  if (node.type !== 'boolean') return;
  for (const word of node.info.key.replace(/([a-z])([A-Z])/g, '$1 $2').toLowerCase().split(/[^a-z]+/)) {
    if (word.length < EXTRACT_WEIGHTS.negatedNameLetters || word === 'is' || word === 'has') continue;
    for (const id of [...(index.byToken.get(`un${word}`) ?? []), ...(index.byToken.get(`non${word}`) ?? [])].slice(0, EXTRACT_WEIGHTS.negatedNameHits)) {
      const negated = index.words[id]!;
      const segment = index.segments[negated.segment]!;
      if (segment.words[segment.words.indexOf(negated) - 1]?.text.endsWith(':')) add({ read: { value: false, words: [negated], fit: EXTRACT_WEIGHTS.negatedName }, placement: 'colon', factor: 1, similarity: EXTRACT_WEIGHTS.negatedNameSimilarity, source: 'key', labelKey: undefined, exclusive: true });
    }
  }
}

/** An enum's option printed anywhere, read as the leaf reads it. */
function enumOptionCandidates({ index, field, add, read }: LeafReader): void {
  const { node } = field;
  if (!(node.enum && node.enum.length > 0 && node.enum.length <= EXTRACT_WEIGHTS.enumOptions)) return;
  for (const option of node.enum) {
    if (typeof option !== 'string') continue;
    const first = option.trim().split(/\s+/)[0] ?? '';
    const token = first.toLowerCase().replace(/[^\p{L}\p{N}]/gu, '');
    if (token.length < EXTRACT_WEIGHTS.enumTokenLength) continue;
    for (const id of (index.byToken.get(token) ?? []).slice(0, EXTRACT_WEIGHTS.enumHits)) {
      const word = index.words[id]!;
      const segment = index.segments[word.segment]!;
      const value = read(segment.words.slice(segment.words.indexOf(word)));
      if (value && value.value === option) add({ read: value, placement: 'unlabeled', factor: 1, similarity: 1, source: undefined, labelKey: undefined, exclusive: false });
    }
  }
}

/** A currency mark printed anywhere, for a currency field (a string, or an enum of ISO codes named "currency"). */
function currencyMarkCandidates({ index, field, caches, add }: LeafReader): void {
  const { node, traits } = field;
  const currencyField = (traits.currency && node.type === 'string') || (node.enum !== undefined && node.enum.length > 0 && node.enum.every((o) => typeof o === 'string' && /^[A-Z]{3}$/.test(o)) && textStems(node.info.key).includes('currenc'));
  if (!currencyField) return;
  caches.currencies ??= index.words.filter((w) => currencyOf(w.text) !== undefined).slice(0, EXTRACT_WEIGHTS.currencyMarks);
  for (const word of caches.currencies) {
    const code = currencyOf(word.text)!;
    const value = node.enum ? node.enum.find((o) => o === code) : code;
    if (value !== undefined) add({ read: { value, words: [word], fit: EXTRACT_WEIGHTS.currencyMark }, placement: 'unlabeled', factor: 1, similarity: 1, source: undefined, labelKey: undefined, exclusive: false });
  }
}

/** An e-mail address printed anywhere, for an e-mail field. */
function emailCandidates({ index, field, caches, add }: LeafReader): void {
  if (field.node.format !== 'email') return;
  caches.emails ??= index.words.filter((w) => EMAIL.test(w.text)).slice(0, EXTRACT_WEIGHTS.emails);
  for (const word of caches.emails) add({ read: { value: EMAIL.exec(word.text)![0], words: [word], fit: 1 }, placement: 'unlabeled', factor: EXTRACT_WEIGHTS.email, similarity: 1, source: undefined, labelKey: undefined, exclusive: true });
}

// ---------------------------------------------------------------------------------------------
// One vote

interface Chosen {
  read: Read;
  likelihood: number;
}

interface Vote {
  scalars: Map<number, Chosen>;
  arrays: Map<number, Items | ItemValue[]>;
}

/**
 * How a field's value is kept and how sure it is (./learned.ts): the candidates compete by the
 * hand-set score, best first, as always; the one a field gets is then judged by the learned model —
 * its probability of being right is the likelihood, and below the model's threshold the field is
 * left null. Without a model the hand-set score is the likelihood. `trace` sees every candidate a
 * field got (training and the benchmark, test/train/).
 */
export interface Scoring {
  model: CandidateModel | null;
  trace?: (row: TracedCandidate) => void;
}

export interface TracedCandidate {
  /** The leaf's path in the output (object keys). */
  path: string[];
  value: unknown;
  features: number[];
  /** The likelihood it was given (the model's probability, or the hand-set score). */
  likelihood: number;
  /** Whether it was kept (false: the model left the field null). */
  kept: boolean;
}

/** What the model is told of a candidate of `field`, given the hand-set scores of all of its candidates. */
function factsOf(index: DocIndex, planned: Planned, field: ScalarField, candidate: Candidate, bases: readonly number[], i: number): CandidateFacts {
  const base = bases[i]!;
  const rank = bases.filter((b, j) => b > base || (b === base && j < i)).length;
  const bestOther = Math.max(0, ...bases.filter((_, j) => j !== i));
  const { node, traits } = field;
  return {
    base,
    similarity: candidate.similarity,
    fit: candidate.read.fit,
    factor: candidate.factor,
    placement: candidate.placement,
    source: candidate.source,
    ...(candidate.business ? { business: candidate.business } : {}),
    concept: field.concept,
    kind: { number: node.type === 'number' || node.type === 'integer', date: traits.date, enum: (node.enum?.length ?? 0) > 0, identifier: traits.identifier, name: traits.name },
    rank,
    bestOther,
    count: bases.length,
    text: candidate.read.words.map((w) => w.text).join(' '),
    where: whereOf(index, candidate.read.words[0]),
    labelWords: share(candidate.read.words, (w) => w.stems.length > 0 && w.stems.every((s) => planned.vocabulary.has(s))),
    agreement: share(field.candidates, (c) => JSON.stringify(c.read.value) === JSON.stringify(candidate.read.value)),
  };
}

const share = <T>(items: readonly T[], test: (item: T) => boolean) => (items.length === 0 ? 0 : items.filter(test).length / items.length);

function whereOf(index: DocIndex, word: XWord | undefined): CandidateFacts['where'] {
  const page = word ? index.doc.pages[word.page] : undefined;
  const top = word?.box && page && page.height > 0 ? Math.min(1, Math.max(0, word.box.top / page.height)) : undefined;
  return { ocr: page?.ocr === true, firstPage: word?.page === 0, top };
}

function runVote(index: DocIndex, planned: Planned, weights: Weights, scoring: Scoring, paths: ReadonlyMap<number, string[]>): Vote {
  const weightOf = (source: PhraseSource) => weights.phrase[source];
  // Scalars: every candidate above the threshold, best first; a leaf, a label and a value's words
  // are each used once.
  const ranked: Array<{ field: ScalarField; at: number; candidate: Candidate; score: number; bases: number[]; order: number }> = [];
  let order = 0;
  for (const field of planned.scalars) {
    const bases = field.candidates.map((candidate) => baseScore(candidate, weights));
    field.candidates.forEach((candidate, at) => {
      if (bases[at]! >= weights.threshold) ranked.push({ field, at, candidate, score: bases[at]!, bases, order: order++ });
    });
  }
  ranked.sort((a, b) => b.score - a.score || a.order - b.order);
  const scalars = new Map<number, Chosen>();
  const labels = new Set<string>();
  const words = new Set<number>();
  const decided = new Set<number>();
  for (const { field, at, candidate, score, bases } of ranked) {
    if (decided.has(field.ref)) continue;
    if (candidate.labelKey && labels.has(candidate.labelKey)) continue;
    if (candidate.exclusive && candidate.read.words.some((w) => words.has(w.id))) continue;
    decided.add(field.ref);
    if (candidate.labelKey) labels.add(candidate.labelKey);
    if (candidate.exclusive) for (const w of candidate.read.words) words.add(w.id);
    // The value of a business field the model was fitted on is judged: kept with the model's
    // probability, or left null below its threshold. Any other keeps the engine's score.
    const facts = scoring.model || scoring.trace ? factsOf(index, planned, field, candidate, bases, at) : undefined;
    const features = facts ? featuresOf(facts) : undefined;
    const model = scoring.model && judges(scoring.model, facts!.concept) ? scoring.model : null;
    const likelihood = model ? probability(model, features!) : score;
    const kept = !model || likelihood >= model.threshold;
    if (kept) scalars.set(field.ref, { read: candidate.read, likelihood });
    scoring.trace?.({ path: paths.get(field.ref)!, value: candidate.read.value, features: features!, likelihood, kept });
  }

  // Arrays in schema order; a table gives the items of one array only.
  const arrays = new Map<number, Items | ItemValue[]>();
  const tables = new Set<number>();
  for (const array of planned.arrays) {
    if (array.kind === 'objects') {
      const fromTables = itemsFromTables(index, array.leaves, weights.column, weightOf, tables);
      const fromLines = itemsFromLines(index, array.leaves, weights.column, weightOf);
      // The header that names the item's properties best: a table's, or a header line's over unruled
      // lines if they hold as many items; under the same header, the lines when they hold half again the
      // items (a table detected over the first rows only, cut short by a heading or a wrapped cell).
      const tableFirst = (table: ItemsRead, lines: ItemsRead) =>
        table.headerLine === lines.headerLine ? lines.items.length < EXTRACT_WEIGHTS.linesOverTable * table.items.length : table.score >= lines.score || lines.items.length < table.items.length;
      const found = fromTables && fromTables.items.length > 0 && (!fromLines || tableFirst(fromTables, fromLines)) ? fromTables : fromLines;
      // No table a header names: lines whose figures multiply out (a till receipt's items).
      arrays.set(array.ref, withoutCopies(found?.items ?? itemsFromPricedLines(index, array.leaves) ?? []));
    } else if (array.kind === 'scalars') {
      arrays.set(array.ref, scalarItems(index, array.phrases, array.leaves[0]!, weights.column, weightOf, planned.vocabulary));
    }
  }
  return { scalars, arrays };
}

/**
 * Items read from a document printed again (an invoice's "original", "duplicado" and "triplicado"
 * pages): the items are their first run repeated whole, each repeat starting on a later page than the
 * run before it ended. Only the first copy's are items. The same line printed twice on one page stays.
 */
function withoutCopies(items: Items): Items {
  const valueOf = (item: Map<number, ItemValue>) => JSON.stringify([...item].sort(([a], [b]) => a - b).map(([leaf, value]) => [leaf, value.read.value]));
  const pages = (item: Map<number, ItemValue>) => [...item.values()].flatMap((value) => value.read.words.map((word) => word.page));
  const keys = items.map(valueOf);
  for (let n = 1; n * 2 <= items.length; n++) {
    if (items.length % n !== 0 || !keys.every((key, i) => key === keys[i % n])) continue;
    const copies = Array.from({ length: items.length / n }, (_, k) => items.slice(k * n, k * n + n).flatMap(pages));
    if (copies.every((run) => run.length > 0) && copies.every((run, k) => k === 0 || Math.min(...run) > Math.max(...copies[k - 1]!))) return items.slice(0, n);
  }
  return items;
}

// ---------------------------------------------------------------------------------------------
// Provenance

/** The merged origin of a value's words: a union box, a cell, or a span from first to last word. */
function originOf(words: XWord[]): { origin: Origin; words: XWord[] } {
  const first = words[0]!;
  const o = first.origin;
  switch (o.kind) {
    case 'box': {
      const same = words.filter((w) => w.origin.kind === 'box' && w.origin.page === o.page);
      const boxes = same.map((w) => (w.origin as { box: Box }).box);
      const left = Math.min(...boxes.map((b) => b.left));
      const top = Math.min(...boxes.map((b) => b.top));
      const box = { left, top, width: Math.max(...boxes.map((b) => b.left + b.width)) - left, height: Math.max(...boxes.map((b) => b.top + b.height)) - top };
      return { origin: { kind: 'box', page: o.page, box }, words: same };
    }
    case 'cell': {
      const same = words.filter((w) => w.origin.kind === 'cell' && w.origin.row === o.row && w.origin.column === o.column && w.origin.sheetIndex === o.sheetIndex);
      return { origin: { ...o }, words: same };
    }
    case 'docx_paragraph': {
      const same = words.filter((w) => w.origin.kind === 'docx_paragraph' && w.origin.paragraph === o.paragraph);
      const last = same[same.length - 1]!.origin as typeof o;
      return { origin: { kind: 'docx_paragraph', paragraph: o.paragraph, charStart: o.charStart, charEnd: last.charEnd }, words: same };
    }
    case 'docx_cell': {
      const same = words.filter((w) => w.origin.kind === 'docx_cell' && w.origin.table === o.table && w.origin.row === o.row && w.origin.column === o.column);
      const last = same[same.length - 1]!.origin as typeof o;
      return { origin: { kind: 'docx_cell', table: o.table, row: o.row, column: o.column, charStart: o.charStart, charEnd: last.charEnd }, words: same };
    }
    case 'text': {
      const same = words.filter((w) => w.origin.kind === 'text');
      const last = same[same.length - 1]!.origin as typeof o;
      return { origin: { kind: 'text', lineStart: o.lineStart, lineEnd: last.lineEnd, charStart: o.charStart, charEnd: last.charEnd }, words: same };
    }
  }
}

/** Context: the value's line or table row, at most about 200 characters around the value. */
function clip(context: string, content: string): string {
  const text = context.replace(/\s+/g, ' ').trim();
  if (text.length <= 200) return text;
  const at = Math.max(0, text.indexOf(content.slice(0, 40)));
  const start = Math.max(0, Math.min(at - 60, text.length - 200));
  return text.slice(start, start + 200).trim();
}

function foundOf(index: DocIndex, words: XWord[]): Found {
  const ordered = [...words].sort((a, b) => a.id - b.id);
  const { origin, words: kept } = originOf(ordered);
  const content = kept.map((w) => w.text).join(' ');
  return { content, context: clip(contextOf(index, kept[0]!), content), origin };
}

// ---------------------------------------------------------------------------------------------
// Output trees

interface Out {
  value: unknown;
  source: Tree<Found | null>;
  likelihood: Tree<number>;
  /** Whether anything under this node was found in the document. */
  found: boolean;
  /** Left out of its object (optional, not nullable, nothing found). */
  omit: boolean;
}

const omitted: Out = { value: undefined, source: null, likelihood: 0, found: false, omit: true };

/**
 * A field nothing backs: null, whatever the schema says (API §6: every leaf of an output is nullable;
 * a made-up 0, "" or date would read as data), with likelihood 0 when the schema did not allow null
 * (the answer is "not found", not "absent"); an optional one the schema cannot hold null is left out.
 */
function missing(node: FieldNode, required: boolean): Out {
  if (node.nullable) return { value: null, source: null, likelihood: EXTRACT_WEIGHTS.nullLikelihood, found: false, omit: false };
  if (!required) return omitted;
  return { value: null, source: null, likelihood: 0, found: false, omit: false };
}

interface Lookup {
  leaf(ref: number): Chosen | ItemValue | undefined;
  array(ref: number): Out[] | undefined;
}

function build(index: DocIndex, p: Plan, required: boolean, lookup: Lookup, root = false): Out {
  switch (p.kind) {
    case 'leaf': {
      const chosen = lookup.leaf(p.ref);
      if (!chosen) return missing(p.node, required);
      return { value: chosen.read.value, source: foundOf(index, chosen.read.words), likelihood: clamp01(chosen.likelihood), found: true, omit: false };
    }
    case 'object': {
      const value: Record<string, unknown> = {};
      const source: Record<string, Tree<Found | null>> = {};
      const likelihood: Record<string, Tree<number>> = {};
      let found = false;
      for (const child of p.children) {
        const out = build(index, child.plan, child.required, lookup);
        if (out.omit) continue;
        value[child.key] = out.value;
        source[child.key] = out.source;
        likelihood[child.key] = out.likelihood;
        found ||= out.found;
      }
      // An object nothing of which is in the document is itself "not found".
      if (!found && !root) {
        if (p.node.nullable) return missing(p.node, required);
        if (!required) return omitted;
      }
      return { value, source, likelihood, found, omit: false };
    }
    case 'array': {
      const items = (lookup.array(p.ref) ?? []).slice(0, p.node.maxItems);
      if (items.length < p.node.minItems) return missing(p.node, required);
      return { value: items.map((i) => i.value), source: items.map((i) => i.source), likelihood: items.map((i) => i.likelihood), found: items.length > 0, omit: false };
    }
    case 'none':
      return missing(p.node, required);
  }
}

const clamp01 = (x: number) => (Number.isFinite(x) ? Math.min(1, Math.max(0, x)) : 0);

function buildVote(index: DocIndex, planned: Planned, vote: Vote): Out {
  const arrays = new Map<number, Out[]>();
  for (const array of planned.arrays) {
    const found = vote.arrays.get(array.ref) ?? [];
    const itemPlan = array.itemPlan;
    if (!itemPlan) continue;
    const outs: Out[] = [];
    for (const item of found) {
      // Object items are maps leaf → value; scalar items are values.
      const values = item instanceof Map ? item : new Map([[0, item as ItemValue]]);
      const out = build(index, itemPlan, true, { leaf: (ref) => values.get(ref), array: () => undefined });
      if (out.found && !out.omit) outs.push(out);
    }
    arrays.set(array.ref, outs);
  }
  return build(index, planned.root, true, { leaf: (ref) => vote.scalars.get(ref), array: (ref) => arrays.get(ref) }, true);
}

// ---------------------------------------------------------------------------------------------
// Consensus

/**
 * Votes → one answer, leaf by leaf: the value most votes gave (ties to the most likely), its
 * likelihood the share of votes that gave it. Objects and arrays are decided first by shape (null or
 * not, how many items), then their parts among the votes that agree.
 */
function consolidate(p: Plan, outs: Out[], total: number): Out {
  const key = (o: Out) => (o.omit ? 'omit' : o.value === null ? 'null' : p.kind === 'object' ? 'object' : p.kind === 'array' ? `array:${(o.value as unknown[]).length}` : `=${JSON.stringify(o.value)}`);
  const groups = new Map<string, Out[]>();
  for (const o of outs) {
    const k = key(o);
    const group = groups.get(k);
    if (group) group.push(o);
    else groups.set(k, [o]);
  }
  const best = (group: Out[]) => Math.max(...group.map((o) => (typeof o.likelihood === 'number' ? o.likelihood : o.found ? 1 : 0)));
  const [winnerKey, winners] = [...groups].sort((a, b) => b[1].length - a[1].length || best(b[1]) - best(a[1]))[0]!;
  const share = winners.length / total;
  if (winnerKey === 'omit') return omitted;
  if (winnerKey === 'null' || (p.kind !== 'object' && p.kind !== 'array')) {
    const top = winners.reduce((a, b) => (best([b]) > best([a]) ? b : a));
    return { ...top, likelihood: share };
  }
  if (p.kind === 'object') {
    const value: Record<string, unknown> = {};
    const source: Record<string, Tree<Found | null>> = {};
    const likelihood: Record<string, Tree<number>> = {};
    let found = false;
    for (const child of p.children) {
      const parts = winners.map((o) => {
        const v = (o.value as Record<string, unknown>)[child.key];
        if (v === undefined) return omitted;
        return { value: v, source: (o.source as Record<string, Tree<Found | null>>)[child.key]!, likelihood: (o.likelihood as Record<string, Tree<number>>)[child.key]!, found: v !== null, omit: false };
      });
      const out = consolidate(child.plan, parts, total);
      if (out.omit) continue;
      value[child.key] = out.value;
      source[child.key] = out.source;
      likelihood[child.key] = out.likelihood;
      found ||= out.found;
    }
    return { value, source, likelihood, found, omit: false };
  }
  // Arrays: item by item among the votes with the winning length.
  const length = (winners[0]!.value as unknown[]).length;
  const items: Out[] = [];
  const itemPlan: Plan = p.item ?? { kind: 'none', node: p.node.items };
  for (let i = 0; i < length; i++) {
    const parts = winners.map((o) => ({
      value: (o.value as unknown[])[i],
      source: (o.source as Tree<Found | null>[])[i]!,
      likelihood: (o.likelihood as Tree<number>[])[i]!,
      found: true,
      omit: false,
    }));
    items.push(consolidate(itemPlan, parts, total));
  }
  return { value: items.map((i) => i.value), source: items.map((i) => i.source), likelihood: items.map((i) => i.likelihood), found: length > 0, omit: false };
}

// ---------------------------------------------------------------------------------------------

/** The printed text of amount words without their currency marks ("RM9.00" → "9.00"). */
const printedAmount = (words: XWord[]) => words.map((w) => w.text).join(' ').replace(/^[^\d(-]+|[^\d)]+$/g, '');

/** A business value as the leaf's type: a number, a printed amount, a date or date-time, an enum option. */
function adapt(found: BusinessValue, field: ScalarField, index: DocIndex): Read | undefined {
  const { node, traits } = field;
  const { value, words } = found;
  let out: unknown;
  if (node.enum && node.enum.length > 0) {
    out = node.enum.find((o) => typeof o === 'string' && typeof value === 'string' && o.toUpperCase() === value.toUpperCase());
    // A currency not among the options is no option: its sign read again would be another country's
    // ("$" of Argentine pesos is no US dollar). Other values may read as an option by their words.
    if (out === undefined) return field.concept === 'currency' ? undefined : readValue(words, node, traits, index.dateOrder);
  } else if (node.type === 'number' || node.type === 'integer') {
    out = typeof value === 'number' ? value : /^\d+$/.test(value) ? Number(value) : undefined;
  } else if (node.type === 'string' || node.type === 'any') {
    if (typeof value === 'number') out = printedAmount(words);
    else if (node.format === 'date-time' && /^\d{4}-\d{2}-\d{2}$/.test(value)) out = `${value}T00:00:00Z`;
    else out = value;
  }
  if (out === undefined || !leafAccepts(node, out)) return undefined;
  return { value: out, words, fit: 1 };
}

/** Candidates of a leaf that asks for a business field: what ./business.ts read for it, nothing else. */
function businessCandidates(business: BusinessReading, field: ScalarField, index: DocIndex): Candidate[] {
  const out: Candidate[] = [];
  for (const [rank, found] of business.candidates(field.concept!).slice(0, EXTRACT_WEIGHTS.maxCandidates).entries()) {
    const read = adapt(found, field, index);
    // A currency is often read off the total's own word ("$1,155.00"): that word backs both.
    const facts = { score: found.score, rank, corroborated: found.corroborated === true };
    if (read) out.push({ read, placement: 'colon', factor: 1, similarity: found.score, source: 'key', labelKey: undefined, exclusive: field.concept !== 'currency', business: facts });
  }
  return out;
}

/** Extraction; a document OCRed by two readers is read both ways and their answers agreed (./two-readings.ts). */
/** `scoring`: the shipped learned model by default; training and the benchmark give their own, and a trace. */
export function extract(request: ExtractRequest, scoring: Scoring = { model: shippedModel() }): ExtractResult {
  const first = extractReading(request, request.doc, scoring);
  const second = secondReading(request.doc);
  return second ? agreeReadings(first, extractReading(request, second, scoring), request.doc) : first;
}

/** Each scalar leaf's path in the output, by its number. */
function leafPaths(p: Plan, path: string[] = [], out = new Map<number, string[]>()): Map<number, string[]> {
  if (p.kind === 'leaf') out.set(p.ref, path);
  if (p.kind === 'object') for (const child of p.children) leafPaths(child.plan, [...path, child.key], out);
  return out;
}

function extractReading(request: ExtractRequest, doc: Doc, scoring: Scoring): ExtractResult {
  const { root } = compileSchema(request.schema);
  const index = indexDoc(doc);
  const planned = plan(root);
  const caches: DocCaches = { labels: new Map(), regions: new Map(), signatures: new Map(), regionReads: new Map(), wordReads: new Map(), candidates: new Map() };
  const business = planned.scalars.some((f) => f.concept) ? readBusiness(index) : undefined;
  for (const field of planned.scalars) {
    field.candidates = field.concept && business ? businessCandidates(business, field, index) : scalarCandidates(index, field, planned.vocabulary, caches);
  }

  const n = Math.max(1, Math.min(16, Math.floor(request.nConsensus) || 1));
  const votes: Out[] = [];
  const paths = leafPaths(planned.root);
  for (let v = 0; v < n; v++) votes.push(buildVote(index, planned, runVote(index, planned, weightsFor(request.seed, v, n), v === 0 ? scoring : { model: scoring.model }, paths)));
  const result = n === 1 ? votes[0]! : consolidate(planned.root, votes, n);

  const asObject = (value: unknown) => (value !== null && typeof value === 'object' && !Array.isArray(value) ? (value as Record<string, unknown>) : {});
  return {
    output: asObject(result.value),
    sources: result.value !== null && typeof result.value === 'object' ? result.source : {},
    likelihoods: result.value !== null && typeof result.value === 'object' ? result.likelihood : {},
    choices: votes.map((v) => asObject(v.value)),
  };
}

export const localExtractor: Extractor = {
  extract: async (request) => extract(request),
};
