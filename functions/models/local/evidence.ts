/**
 * Weighted term evidence between a text and a set of labels (classification categories or split
 * subdocuments), shared by ./classify.ts and ./split.ts.
 *
 * Each label becomes a weighted query of features (stems and two-word phrases):
 *   - its name (strongest: a document that names itself is rarely wrong), name phrases above all;
 *   - its description;
 *   - the lexicon's vocabulary for document types the name or description mentions (./lexicon.ts);
 *   - what the request's `instructions` say about it (clauses that mention the label's name).
 * A feature several labels ask for separates them less: query weights are scaled by an idf over the
 * labels. A text's evidence for a label is the BM25 sum over the features it contains, with title
 * occurrences boosted. Phrases are features of their own, so a phrase match also counts its words:
 * phrase matches count more.
 */
import { CUE_WORDS, type LayoutCue } from '../knowledge/document-types.ts';
import { NEGATIONS } from '../knowledge/negation.ts';
import { isPhrase, phraseKey, stemOf, textFeatures, tokenize } from '../shared/words.ts';
import { LEXICON, type LexiconEntry } from './lexicon.ts';
import type { Cue } from './cues.ts';
import { categoryIdf, type CountedText, countFeatures, type FeatureCount, type PageLine, saturatedTf } from './text.ts';
import { BM25_SETTINGS, EVIDENCE_WEIGHTS } from './weights/evidence.ts';

export interface Label {
  name: string;
  description: string;
}

/** Words that describe any document, not a kind of document ("a document showing ..."). */
const GENERIC = new Set(
  `document documents file files page pages form kind type show showing given contains containing include
  including listing issued provided usually typically mention mentioning treat classify category label
  consider always anything something thing`
    .split(/\s+/)
    .filter(Boolean)
    .map(stemOf),
);

const NEGATION_WORDS = Object.values(NEGATIONS)
  .flatMap((list) => list.split(',').map((w) => w.trim()))
  .join('|');
/** A clause of instructions that denies something is skipped rather than read backwards. */
const NEGATION = new RegExp(`(?<![\\p{L}\\p{N}-])(?:${NEGATION_WORDS})(?![\\p{L}\\p{N}-])`, 'iu');
/** A negation word and the rest of its clause: what a description denies. */
const DENIED_SPAN = new RegExp(`(?<![\\p{L}\\p{N}-])(?:${NEGATION_WORDS})(?=\\s)[^,.;:()\\[\\]\\n]*`, 'giu');

export interface Queries {
  /** The labels asked for, then (with `background`) the hidden ones: document kinds nobody asked for. */
  labels: string[];
  /** How many of `labels` were asked for. */
  visible: number;
  /** Feature strings by id. */
  features: string[];
  index: Map<string, number>;
  /** Per label, per feature id: query weight × label idf (0 when the label does not ask for it). */
  weights: Float64Array[];
  /** Per label, the features of its names (its own and its lexicon synonyms): any in a title names the page. */
  nameFeatures: Array<Set<number>>;
  /** Per label, the layout cues of the kinds it calls on (./cues.ts), each with its weight (1, or less from a description). */
  cues: Array<Map<LayoutCue, number>>;
}

function containsRun(stems: readonly string[], run: readonly string[]): boolean {
  if (run.length === 0 || run.length > stems.length) return false;
  outer: for (let i = 0; i + run.length <= stems.length; i++) {
    for (let j = 0; j < run.length; j++) if (stems[i + j] !== run[j]) continue outer;
    return true;
  }
  return false;
}

/** Instruction clauses that mention a label, as (label index, clause) pairs. */
function instructionClauses(instructions: string | null, names: string[][]): Array<{ label: number; clause: string }> {
  if (!instructions) return [];
  const out: Array<{ label: number; clause: string }> = [];
  for (const clause of instructions.split(/[.;!?\n]+/)) {
    if (clause.trim() === '' || NEGATION.test(clause)) continue;
    const stems = tokenize(clause).filter((t) => !t.stop).map((t) => t.stem);
    names.forEach((name, label) => {
      if (containsRun(stems, name)) out.push({ label, clause });
    });
  }
  return out;
}

export interface QueryOptions {
  /**
   * Add the lexicon's document kinds that no label names as hidden labels (for splits: a packing
   * list among invoices should look like something else, not like a weak invoice). They also make
   * words every kind of document shares ("total", "date") count less.
   */
  background?: boolean;
}

export function buildQueries(labels: readonly Label[], instructions: string | null, options: QueryOptions = {}): Queries {
  const index = new Map<string, number>();
  const features: string[] = [];
  const idOf = (feature: string) => {
    let id = index.get(feature);
    if (id === undefined) {
      id = features.push(feature) - 1;
      index.set(feature, id);
    }
    return id;
  };
  const triggered = new Set<number>();
  const raw = labels.map(() => new Map<number, number>());
  const cues = labels.map(() => new Map<LayoutCue, number>());
  const nameFeatures = labels.map(() => new Set<number>());
  const put = (label: number, feature: string, weight: number, fromName = false) => {
    // A generic word is no evidence of a kind, unless it is what the label is called; a number alone never is.
    if (!isPhrase(feature) && ((!fromName && GENERIC.has(feature)) || /^\d+$/.test(feature))) return;
    const id = idOf(feature);
    const map = raw[label]!;
    map.set(id, Math.max(map.get(id) ?? 0, weight));
  };

  const nameStems = labels.map((label) => textFeatures(label.name).stems);
  /**
   * A name as features: its phrases, and its words when it is the label's own name (a synonym's or
   * a hidden kind's single words are too common: "document" of "identity document"). As title
   * features: its one stem, or its phrases ("bank statement", not "statement" alone).
   */
  const addName = (l: number, stems: readonly string[], own: boolean) => {
    // One word of a longer name says less than the name ("power" of "power purchase agreement"), and a
    // generic one ("document" of "policy document") nothing.
    if (stems.length === 1) put(l, stems[0]!, EVIDENCE_WEIGHTS.nameStem, true);
    else if (own) for (const stem of stems) if (!GENERIC.has(stem)) put(l, stem, EVIDENCE_WEIGHTS.nameStem * EVIDENCE_WEIGHTS.wordOfLongerName, true);
    for (let i = 1; i < stems.length; i++) put(l, phraseKey(stems[i - 1]!, stems[i]!), EVIDENCE_WEIGHTS.namePhrase, true);
    if (stems.length === 1 && !/^\d+$/.test(stems[0]!)) nameFeatures[l]!.add(idOf(stems[0]!));
    for (let i = 1; i < stems.length; i++) nameFeatures[l]!.add(idOf(phraseKey(stems[i - 1]!, stems[i]!)));
  };
  labels.forEach((label, l) => {
    const name = textFeatures(label.name);
    addName(l, name.stems, true);
    // What the description denies ("no fillable fields") is no evidence for the label.
    const { kept, denied } = deniedSpans(label.description);
    const description = textFeatures(kept);
    for (const stem of description.stems) put(l, stem, EVIDENCE_WEIGHTS.descriptionStem);
    for (const phrase of description.phrases) put(l, phrase, EVIDENCE_WEIGHTS.descriptionPhrase);

    // The lexicon: entries the name names count fully, entries only the description names count less.
    for (const { entry, byName, subsumed, endsName } of calledOn(name.stems, description.stems)) {
      triggered.add(LEXICON.indexOf(entry));
      const factor = (byName ? 1 : EVIDENCE_WEIGHTS.lexiconFromDescription) * (subsumed ? EVIDENCE_WEIGHTS.lexiconSubsumed : 1);
      for (const feature of entry.features) put(l, feature, factor * (isPhrase(feature) ? EVIDENCE_WEIGHTS.lexiconPhrase : EVIDENCE_WEIGHTS.lexiconStem));
      // The type's other names are synonyms of the label's name ("pay slip", "statement of account").
      // (Of a kind only part of the name calls on, only when that part ends the name, as the noun it
      // qualifies: a "medical bill" is a bill, a "book listing" is no booking.)
      if (byName && (!subsumed || endsName)) for (const synonym of entry.triggers) addName(l, synonym, false);
      for (const [cue, weight] of entry.cues) cues[l]!.set(cue, Math.max(cues[l]!.get(cue) ?? 0, factor * weight));
    }
    // A label named for a layout ("slides", "spreadsheet") is that layout first: of two labels whose
    // kinds both have it (a pitch deck is slides too), the one named for it wins when nothing else tells them apart.
    for (const cue of namedCues(name.stems)) cues[l]!.set(cue, Math.max(cues[l]!.get(cue) ?? 0, EVIDENCE_WEIGHTS.namedCue));
    // A layout the description denies counts against the label, whatever its name calls on.
    for (const cue of deniedCues(denied)) cues[l]!.set(cue, -EVIDENCE_WEIGHTS.deniedCue);
  });

  // Instructions: a clause that mentions a label lends it its other words, and its quoted phrases most.
  for (const { label, clause } of instructionClauses(instructions, nameStems)) {
    const own = new Set(nameStems[label]);
    const { stems, phrases } = textFeatures(clause);
    for (const stem of stems) if (!own.has(stem)) put(label, stem, EVIDENCE_WEIGHTS.instructionStem);
    for (const phrase of phrases) if (!phrase.split(' ').every((s) => own.has(s))) put(label, phrase, EVIDENCE_WEIGHTS.instructionPhrase);
    for (const quoted of clause.matchAll(/["“‘'`]([^"”’'`]{2,60})["”’'`]/g)) {
      const q = textFeatures(quoted[1]!);
      if (q.stems.length === 1) put(label, q.stems[0]!, EVIDENCE_WEIGHTS.instructionQuote);
      for (const phrase of q.phrases) put(label, phrase, EVIDENCE_WEIGHTS.instructionQuote);
    }
  }

  // Hidden labels: each lexicon kind no label triggered, named by its names, asking for its terms.
  const hidden: string[] = [];
  if (options.background) {
    LEXICON.forEach((entry, e) => {
      if (triggered.has(e)) return;
      const map = new Map<number, number>();
      raw.push(map);
      nameFeatures.push(new Set());
      hidden.push(entry.triggers[0]!.join(' '));
      cues.push(new Map(entry.cues));
      const l = raw.length - 1;
      for (const stems of entry.triggers) addName(l, stems, false);
      for (const feature of entry.features) put(l, feature, isPhrase(feature) ? EVIDENCE_WEIGHTS.lexiconPhrase : EVIDENCE_WEIGHTS.lexiconStem);
    });
  }

  // Scale by the idf over labels: how many labels ask for each feature.
  const labelFrequency = new Int32Array(features.length);
  for (const map of raw) for (const id of map.keys()) labelFrequency[id]!++;
  const weights = raw.map((map) => {
    const w = new Float64Array(features.length);
    for (const [id, weight] of map) w[id] = weight * categoryIdf(labelFrequency[id]!, raw.length);
    return w;
  });
  return { labels: [...labels.map((l) => l.name), ...hidden], visible: labels.length, features, index, weights, nameFeatures, cues };
}

/**
 * The lexicon's kinds a label calls on: those one of whose names its name (or, less, its description)
 * says. A name inside a longer name that another kind is called by counts less: a "medical bill" is
 * a medical bill before it is an invoice, an "O&M agreement" that kind of agreement before any contract.
 * And only when it ends the longer name, as the noun the rest qualifies: elsewhere it is another
 * word, and the kind is not called on: a "bill of lading" is no bill, a "lettre de voiture" no letter.
 */
function calledOn(name: readonly string[], description: readonly string[]): Array<{ entry: LexiconEntry; byName: boolean; subsumed: boolean; endsName: boolean }> {
  const found: Array<{ entry: LexiconEntry; byName: boolean; run: readonly string[] }> = [];
  for (const entry of LEXICON) {
    const longest = (stems: readonly string[], names: readonly string[][]) => names.filter((t) => containsRun(stems, t)).sort((a, b) => b.length - a.length)[0];
    // Its callers only in a label's name: a description's "booking" is no call on books.
    const byName = longest(name, [...entry.triggers, ...entry.callers]);
    const byDescription = byName ? undefined : longest(description, entry.triggers);
    if (byName) found.push({ entry, byName: true, run: byName });
    else if (byDescription) found.push({ entry, byName: false, run: byDescription });
  }
  const endsRun = (run: readonly string[], part: readonly string[]) => part.length <= run.length && part.every((stem, i) => run[run.length - part.length + i] === stem);
  return found.flatMap((f) => {
    const within = found.filter((g) => g !== f && g.byName === f.byName && g.run.length > f.run.length && containsRun(g.run, f.run) && !g.entry.triggers.some((t) => t.join(' ') === f.run.join(' ')));
    if (!within.every((g) => endsRun(g.run, f.run))) return [];
    return [{ entry: f.entry, byName: f.byName, endsName: f.byName && endsRun(name, f.run), subsumed: within.length > 0 }];
  });
}

// ---------------------------------------------------------------------------------------------
// A text's evidence

export interface TextEvidence {
  /** Matched feature ids, and for each its BM25-saturated frequency and its counts. */
  ids: number[];
  strength: Float64Array;
  counts: FeatureCount[];
  /** Content tokens in the text. */
  length: number;
}

export function textEvidence(queries: Queries, lines: readonly PageLine[], averageLength: number): TextEvidence {
  return weigh(countFeatures(lines, queries.index), averageLength);
}

/** Each page's evidence, BM25 lengths measured against the document's own average page. */
export function pagesEvidence(queries: Queries, pages: readonly PageLine[][]): TextEvidence[] {
  const counted = pages.map((lines) => countFeatures(lines, queries.index));
  const average = Math.max(1, counted.reduce((sum, c) => sum + c.length, 0) / Math.max(1, counted.length));
  return counted.map((c) => weigh(c, average));
}

function weigh({ counts, length }: CountedText, averageLength: number): TextEvidence {
  const ids = [...counts.keys()].sort((a, b) => a - b);
  const strength = new Float64Array(ids.length);
  const list: FeatureCount[] = [];
  ids.forEach((id, i) => {
    const count = counts.get(id)!;
    list.push(count);
    strength[i] = saturatedTf(count.tf + (BM25_SETTINGS.titleBoost - 1) * count.titleTf, length, averageLength);
  });
  return { ids, strength, counts: list, length };
}

/** Each label's evidence in the text; `bag` (per feature id) is a vote's feature weighting. */
export function labelScores(queries: Queries, evidence: TextEvidence, bag: Float64Array | null): Float64Array {
  const scores = new Float64Array(queries.labels.length);
  for (let i = 0; i < evidence.ids.length; i++) {
    const id = evidence.ids[i]!;
    const s = evidence.strength[i]! * (bag ? bag[id]! : 1);
    if (s === 0) continue;
    for (let l = 0; l < scores.length; l++) scores[l] += queries.weights[l]![id]! * s;
  }
  return scores;
}

export interface Quote {
  /** The words as printed. */
  text: string;
  /** How often the feature occurs. */
  count: number;
  inTitle: boolean;
  contribution: number;
}

/**
 * The phrases that decided a label, strongest first: the features with the largest contributions,
 * a word left out when a chosen phrase already quotes it.
 */
export function decisiveQuotes(queries: Queries, evidence: TextEvidence, label: number, bag: Float64Array | null, limit: number): Quote[] {
  const scored: Quote[] = [];
  for (let i = 0; i < evidence.ids.length; i++) {
    const id = evidence.ids[i]!;
    const contribution = queries.weights[label]![id]! * evidence.strength[i]! * (bag ? bag[id]! : 1);
    if (contribution <= 0) continue;
    const count = evidence.counts[i]!;
    scored.push({ text: count.surface, count: count.tf, inTitle: count.surfaceInTitle, contribution });
  }
  scored.sort((a, b) => b.contribution - a.contribution || a.text.localeCompare(b.text));
  const chosen: Quote[] = [];
  for (const quote of scored) {
    const lower = quote.text.toLowerCase();
    if (chosen.some((c) => c.text.toLowerCase().includes(lower) || lower.includes(c.text.toLowerCase()))) continue;
    chosen.push(quote);
    if (chosen.length >= limit) break;
  }
  return chosen;
}

/** Quotes as a reasoning fragment: "INVOICE" (title), "Amount Due" ×2. */
export function formatQuotes(quotes: readonly Quote[]): string {
  return quotes.map((q) => `"${q.text}"${q.inTitle ? ' (title)' : ''}${q.count > 1 ? ` ×${q.count}` : ''}`).join(', ');
}

// ---------------------------------------------------------------------------------------------
// Layout and titles

/** A description's text without what it denies (each negation word to the end of its clause), and the denied words. */
export function deniedSpans(description: string): { kept: string; denied: string } {
  const denied: string[] = [];
  const kept = description.replace(DENIED_SPAN, (span) => {
    denied.push(span);
    return ' ';
  });
  return { kept, denied: denied.join(' ') };
}

const CUE_STEMS = (Object.entries(CUE_WORDS) as Array<[LayoutCue, string]>).map(([cue, words]) => [cue, new Set(textFeatures(words).stems)] as const);

/** The layout cues words name (knowledge/document-types.ts CUE_WORDS): a label's name, or what its description denies. */
function namedCues(stems: readonly string[]): LayoutCue[] {
  return CUE_STEMS.filter(([, words]) => stems.some((s) => words.has(s))).map(([cue]) => cue);
}

const deniedCues = (denied: string): LayoutCue[] => (denied ? namedCues(textFeatures(denied).stems) : []);

/**
 * What a text's layout cues (./cues.ts) add to each label: a cue many labels share separates them
 * less; a cue a label's description denies takes from it.
 */
export function cueScores(queries: Queries, cues: readonly Cue[], weightOf: (cue: LayoutCue) => number = () => 1): Float64Array {
  const scores = new Float64Array(queries.labels.length);
  for (const { cue, strength: seen } of cues) {
    const strength = seen * weightOf(cue);
    const having = queries.cues.filter((c) => (c.get(cue) ?? 0) > 0).length;
    const idf = categoryIdf(Math.max(1, having), queries.labels.length);
    queries.cues.forEach((c, l) => {
      scores[l] += EVIDENCE_WEIGHTS.cue * strength * idf * (c.get(cue) ?? 0);
    });
  }
  return scores;
}

/** A name of a kind as a key: its content stems in order ("credit note" → "credit not"). */
const nameKey = (stems: readonly string[]) => stems.join(' ');
/** Whether `entry` prints a name as one of its features: the stem alone, or every phrase of it. */
function printsName(entry: LexiconEntry, stems: readonly string[]): boolean {
  if (stems.length === 1) return entry.features.includes(stems[0]!);
  for (let i = 1; i < stems.length; i++) if (!entry.features.includes(phraseKey(stems[i - 1]!, stems[i]!))) return false;
  return true;
}
/**
 * The names of kinds of documents (the lexicon's triggers) that name one kind only: "credit note",
 * not "tax invoice" (what Malaysian till receipts are titled too: a feature of receipts), nor two
 * letters ("ID").
 */
const KIND_NAMES: ReadonlySet<string> = new Set(
  LEXICON.flatMap((entry) =>
    entry.triggers
      .filter((name) => nameKey(name).length > EVIDENCE_WEIGHTS.kindNameCharacters && !LEXICON.some((other) => other !== entry && (other.triggers.some((t) => nameKey(t) === nameKey(name)) || printsName(other, name))))
      .map(nameKey),
  ),
);

/**
 * The title lines of a page: its first short lines, and a line further down the top that only names
 * a kind of document ("CREDIT NOTE" under a receipt's seven lines of letterhead).
 */
export function titleLines(all: readonly PageLine[]): PageLine[] {
  // (A picture's text, ./text.ts PageLine.picture, is no title.)
  const lines = all.filter((l) => !l.picture);
  const first = lines.slice(0, EVIDENCE_WEIGHTS.titleLines).filter((l) => l.text.split(' ').length <= EVIDENCE_WEIGHTS.titleLineWords);
  const naming = lines.slice(EVIDENCE_WEIGHTS.titleLines, EVIDENCE_WEIGHTS.namingLines).filter((l) => KIND_NAMES.has(nameKey(textFeatures(l.text).stems)));
  // An aside in brackets qualifies a title, it names no document of its own: "Gutschrift (Selbst
  // ausgestellte Rechnung)" is a credit note that serves as the invoice.
  return [...first, ...naming].map((l) => ({ ...l, text: l.text.replace(/\([^()]*\)/g, ' ').replace(/\s+/g, ' ').trim() })).filter((l) => l.text !== '');
}
