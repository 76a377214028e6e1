/**
 * Consolidating consensus votes (API §4–§5): pure functions over what each vote answered and how sure
 * it was. They know nothing of how a vote was produced, so the local engine's bagged votes and an LLM
 * provider's repeated calls go through the same code.
 *
 * Rules (API): classification — the most-voted category wins, ties to the highest summed score;
 * splits and partitions — page by page by majority, ties to the higher-confidence vote. Likelihoods
 * are vote shares; with a single vote they are the vote's own confidence; votes that carry their own
 * likelihood (a classification's, a split's per page) each count by it.
 */
import type { ClassificationChoice, ClassifyResult, PartitionEntry, PartitionResult, SplitEntry, SplitResult, Tree } from '../engine.ts';

/** The entry name of pages that match no subdocument (API §4.1). */
export const OTHER = 'other';

const clamp01 = (x: number) => (Number.isFinite(x) ? Math.min(1, Math.max(0, x)) : 0);
const mean = (xs: readonly number[]) => (xs.length === 0 ? 0 : xs.reduce((a, b) => a + b, 0) / xs.length);

// ---------------------------------------------------------------------------------------------
// Classification

export interface ClassificationVote {
  choice: ClassificationChoice;
  /** The vote's 0..1 score per category (summing to 1); a vote without scores gives 1 to its choice. */
  scores?: Record<string, number>;
  /** The vote's likelihood that its choice is right (else its choice's score). */
  confidence?: number;
}

function voteScores(vote: ClassificationVote, categories: readonly string[]): Record<string, number> {
  const given = vote.scores;
  const raw = categories.map((c) => Math.max(0, given ? (given[c] ?? 0) : c === vote.choice.category ? 1 : 0));
  const total = raw.reduce((a, b) => a + b, 0);
  return Object.fromEntries(categories.map((c, i) => [c, total > 0 ? raw[i]! / total : 1 / categories.length]));
}

export function consolidateClassification(votes: readonly ClassificationVote[], categories: readonly string[]): ClassifyResult {
  if (votes.length === 0) throw new Error('consolidateClassification needs at least one vote');
  const scored = votes.map((v) => voteScores(v, categories));
  const count = new Map<string, number>();
  const summed = new Map<string, number>();
  votes.forEach((v, i) => {
    count.set(v.choice.category, (count.get(v.choice.category) ?? 0) + 1);
    for (const c of categories) summed.set(c, (summed.get(c) ?? 0) + scored[i]![c]!);
  });
  // Most votes; ties to the highest summed score; then the order categories were given in.
  const ranked = [...count.keys()].sort(
    (a, b) => count.get(b)! - count.get(a)! || summed.get(b)! - summed.get(a)! || categories.indexOf(a) - categories.indexOf(b),
  );
  const winner = ranked[0]!;
  // The output explains the winner with the reasoning of its most confident vote.
  let best = -1;
  votes.forEach((v, i) => {
    if (v.choice.category === winner && (best < 0 || scored[i]![winner]! > scored[best]![winner]!)) best = i;
  });
  const scores = Object.fromEntries(categories.map((c) => [c, summed.get(c)! / votes.length]));
  // Several votes: the winner's votes, each counted by its own likelihood when it has one (the local
  // engine's are learned and calibrated), over all votes; votes without one (a provider's) make it the
  // winner's share of votes.
  const likelihood = votes.length === 1 ? (votes[0]!.confidence ?? scored[0]![winner]!) : votes.reduce((sum, v) => sum + (v.choice.category === winner ? (v.confidence ?? 1) : 0), 0) / votes.length;
  return {
    output: { category: winner, reasoning: votes[best]!.choice.reasoning },
    scores,
    consensus: { choices: votes.map((v) => ({ ...v.choice })), likelihoods: clamp01(likelihood) },
  };
}

// ---------------------------------------------------------------------------------------------
// Splits

export interface SplitVote {
  entries: SplitEntry[];
  /** The vote's overall confidence, 0..1 (it breaks ties between votes). */
  confidence: number;
  /** Per page (index = page - 1), the vote's confidence in its label for that page. */
  pageConfidence?: number[];
}

export interface SplitConsolidation {
  pageCount: number;
  /** Whether a subdocument allows several instances (each its own entry). */
  multipleInstances: (name: string) => boolean;
}

/** Per page of one vote: its label and the index of the entry (instance) that holds it. */
function splitLabels(vote: SplitVote, pageCount: number): { label: Array<string | undefined>; instance: number[] } {
  const label = Array<string | undefined>(pageCount).fill(undefined);
  const instance = Array<number>(pageCount).fill(-1);
  vote.entries.forEach((entry, e) => {
    for (const page of entry.pages) {
      const p = page - 1;
      if (Number.isInteger(page) && p >= 0 && p < pageCount && label[p] === undefined) {
        label[p] = entry.name;
        instance[p] = e;
      }
    }
  });
  return { label, instance };
}

const confidenceAt = (vote: SplitVote | PartitionVote, p: number) => vote.pageConfidence?.[p] ?? vote.confidence;

/** Entries in API order: pages ascending, entries by first page. */
function orderEntries<T extends { pages: number[] }>(entries: T[]): T[] {
  for (const e of entries) e.pages.sort((a, b) => a - b);
  return entries.filter((e) => e.pages.length > 0).sort((a, b) => a.pages[0]! - b.pages[0]!);
}

/** Entries with per-page likelihoods → a SplitResult in API order (choices are filled by the caller). */
function splitResultOf(entries: Array<{ name: string; pages: number[]; likelihoods: number[] }>): SplitResult {
  const ordered = orderEntries(entries);
  return {
    output: ordered.map((e) => ({ name: e.name, pages: e.pages })),
    consensus: { likelihoods: ordered.map((e) => ({ name: clamp01(mean(e.likelihoods)), pages: e.likelihoods.map(clamp01) })), choices: [] },
  };
}

/**
 * Builds entries from page labels: instances of a multi-instance name where `startsInstance` says so,
 * every other name (and "other") in one entry.
 */
function assembleSplit(
  labels: readonly string[],
  startsInstance: (p: number) => boolean,
  likelihood: readonly number[],
  multipleInstances: (name: string) => boolean,
): SplitResult {
  const entries: Array<{ name: string; pages: number[]; likelihoods: number[] }> = [];
  const single = new Map<string, (typeof entries)[number]>();
  let current: (typeof entries)[number] | undefined;
  labels.forEach((name, p) => {
    if (multipleInstances(name) && name !== OTHER) {
      if (!current || current.name !== name || labels[p - 1] !== name || startsInstance(p)) {
        current = { name, pages: [], likelihoods: [] };
        entries.push(current);
      }
      current.pages.push(p + 1);
      current.likelihoods.push(likelihood[p]!);
      return;
    }
    current = undefined;
    let entry = single.get(name);
    if (!entry) {
      entry = { name, pages: [], likelihoods: [] };
      single.set(name, entry);
      entries.push(entry);
    }
    entry.pages.push(p + 1);
    entry.likelihoods.push(likelihood[p]!);
  });
  return splitResultOf(entries);
}

export function consolidateSplits(votes: readonly SplitVote[], options: SplitConsolidation): SplitResult {
  if (votes.length === 0) throw new Error('consolidateSplits needs at least one vote');
  const { pageCount, multipleInstances } = options;
  const perVote = votes.map((v) => splitLabels(v, pageCount));
  const labels: string[] = [];
  const likelihood: number[] = [];
  for (let p = 0; p < pageCount; p++) {
    const count = new Map<string, number>();
    perVote.forEach(({ label }) => {
      if (label[p] !== undefined) count.set(label[p]!, (count.get(label[p]!) ?? 0) + 1);
    });
    const top = Math.max(0, ...count.values());
    const tied = [...count.keys()].filter((name) => count.get(name) === top);
    let winner = tied[0] ?? OTHER;
    if (tied.length > 1) {
      // A tie goes to the label of the most confident vote among those that voted for a tied label.
      let bestConfidence = -Infinity;
      votes.forEach((vote, v) => {
        const name = perVote[v]!.label[p];
        if (name !== undefined && tied.includes(name) && confidenceAt(vote, p) > bestConfidence) {
          bestConfidence = confidenceAt(vote, p);
          winner = name;
        }
      });
    }
    labels.push(winner);
    // Several votes: the votes for the winner, each counted by its own likelihood for the page when it
    // gives one (the local engine's, learned and calibrated), over all votes; else the share of votes.
    const agreeing = votes.reduce((sum, vote, v) => sum + (perVote[v]!.label[p] === winner ? (vote.pageConfidence?.[p] ?? 1) : 0), 0);
    likelihood.push(votes.length === 1 ? (perVote[0]!.label[p] === undefined ? 0 : confidenceAt(votes[0]!, p)) : agreeing / votes.length);
  }

  // Instances of a multi-instance name: a page starts a new one when most votes that put it and the
  // page before under that name put them in different entries (ties to the most confident vote).
  const startsInstance = (p: number) => {
    if (p === 0) return true;
    let split = 0;
    let joined = 0;
    let bestConfidence = -Infinity;
    let bestSplits = false;
    perVote.forEach(({ label, instance }, v) => {
      if (label[p] !== labels[p] || label[p - 1] !== labels[p]) return;
      const apart = instance[p] !== instance[p - 1];
      if (apart) split++;
      else joined++;
      if (confidenceAt(votes[v]!, p) > bestConfidence) {
        bestConfidence = confidenceAt(votes[v]!, p);
        bestSplits = apart;
      }
    });
    return split === joined ? bestSplits : split > joined;
  };

  const result = votes.length === 1 ? singleSplit(votes[0]!, labels, likelihood, multipleInstances) : assembleSplit(labels, startsInstance, likelihood, multipleInstances);
  result.consensus.choices = votes.map((v) => v.entries.map((e) => ({ name: e.name, pages: [...e.pages] })));
  return result;
}

/**
 * One vote is its own answer, normalized: pages outside it go to "other", names without multiple
 * instances are merged into one entry, and a multi-instance entry keeps its pages even when they are
 * not contiguous (a provider may say so).
 */
function singleSplit(vote: SplitVote, labels: readonly string[], likelihood: readonly number[], multipleInstances: (name: string) => boolean): SplitResult {
  const pageCount = labels.length;
  const { instance } = splitLabels(vote, pageCount);
  const byInstance = new Map<string, { name: string; pages: number[]; likelihoods: number[] }>();
  const entries: Array<{ name: string; pages: number[]; likelihoods: number[] }> = [];
  for (let p = 0; p < pageCount; p++) {
    const name = labels[p]!;
    const key = multipleInstances(name) && name !== OTHER && instance[p]! >= 0 ? `#${instance[p]}` : `=${name}`;
    let entry = byInstance.get(key);
    if (!entry) {
      entry = { name, pages: [], likelihoods: [] };
      byInstance.set(key, entry);
      entries.push(entry);
    }
    entry.pages.push(p + 1);
    entry.likelihoods.push(likelihood[p]!);
  }
  return splitResultOf(entries);
}

// ---------------------------------------------------------------------------------------------
// Partitions

export interface PartitionVote {
  entries: PartitionEntry[];
  /** The vote's overall confidence, 0..1 (it breaks ties between votes). */
  confidence: number;
  /** Per page (index = page - 1), the vote's confidence in the key(s) it gave that page. */
  pageConfidence?: number[];
  /** Per printed key, the vote's confidence that the key is a record of the document. */
  keyConfidence?: Record<string, number>;
}

export interface PartitionConsolidation {
  pageCount: number;
  allowOverlap: boolean;
}

/** Keys compare without case, spaces or punctuation: "INV-5101", "inv 5101" and "INV5101" agree. */
export function normalizeKey(key: string): string {
  const compact = key.toUpperCase().replace(/[^\p{L}\p{N}]/gu, '');
  return compact === '' ? key.trim().toUpperCase() : compact;
}

export function consolidatePartitions(votes: readonly PartitionVote[], options: PartitionConsolidation): PartitionResult {
  if (votes.length === 0) throw new Error('consolidatePartitions needs at least one vote');
  const { pageCount, allowOverlap } = options;
  const n = votes.length;

  // How each key is printed: the form most votes used, ties to the most confident vote's.
  const printed = new Map<string, Map<string, { count: number; confidence: number }>>();
  votes.forEach((vote) => {
    for (const entry of vote.entries) {
      const forms = printed.get(normalizeKey(entry.key)) ?? new Map<string, { count: number; confidence: number }>();
      printed.set(normalizeKey(entry.key), forms);
      const form = forms.get(entry.key) ?? { count: 0, confidence: -Infinity };
      form.count++;
      form.confidence = Math.max(form.confidence, vote.confidence);
      forms.set(entry.key, form);
    }
  });
  const printedForm = (norm: string) =>
    [...printed.get(norm)!].sort((a, b) => b[1].count - a[1].count || b[1].confidence - a[1].confidence)[0]![0];

  // Per vote, per page: the normalized keys it gives the page.
  const pageKeys = votes.map((vote) => {
    const keys = Array.from({ length: pageCount }, () => new Set<string>());
    for (const entry of vote.entries) {
      for (const page of entry.pages) if (Number.isInteger(page) && page >= 1 && page <= pageCount) keys[page - 1]!.add(normalizeKey(entry.key));
    }
    return keys;
  });

  const chunks = new Map<string, { pages: number[]; likelihoods: number[] }>();
  for (let p = 0; p < pageCount; p++) {
    const count = new Map<string, number>();
    let none = 0;
    pageKeys.forEach((keys) => {
      if (keys[p]!.size === 0) none++;
      for (const key of keys[p]!) count.set(key, (count.get(key) ?? 0) + 1);
    });
    // A page most votes leave out stays out (a cover page, a page before the first record).
    if (count.size === 0 || none * 2 > n) continue;
    const rank = (a: string, b: string) => count.get(b)! - count.get(a)! || tieBreak(votes, pageKeys, p, a, b);
    const ranked = [...count.keys()].sort(rank);
    let chosen = allowOverlap ? ranked.filter((key) => count.get(key)! * 2 > n) : [];
    if (chosen.length === 0) chosen = [ranked[0]!];
    for (const key of chosen) {
      const chunk = chunks.get(key) ?? { pages: [], likelihoods: [] };
      chunks.set(key, chunk);
      chunk.pages.push(p + 1);
      chunk.likelihoods.push(n === 1 ? confidenceAt(votes[0]!, p) : count.get(key)! / n);
    }
  }

  const entries = orderEntries([...chunks].map(([norm, chunk]) => ({ norm, key: printedForm(norm), ...chunk })));
  // A chunk's own likelihood: the share of votes that found this record at all (one vote: its confidence).
  const keyLikelihood = (norm: string, key: string) => {
    if (n === 1) return votes[0]!.keyConfidence?.[key] ?? votes[0]!.confidence;
    return votes.filter((v) => v.entries.some((e) => normalizeKey(e.key) === norm)).length / n;
  };
  return {
    output: entries.map((e) => ({ key: e.key, pages: e.pages })),
    consensus: {
      likelihoods: entries.map((e) => ({ key: clamp01(keyLikelihood(e.norm, e.key)), pages: e.likelihoods.map(clamp01) })),
      choices: votes.map((v) => v.entries.map((e) => ({ key: e.key, pages: [...e.pages] }))),
    },
  };
}

/** Equal counts on a page: the key of the most confident vote that gave the page either key first. */
function tieBreak(votes: readonly PartitionVote[], pageKeys: Array<Array<Set<string>>>, p: number, a: string, b: string): number {
  let best = -Infinity;
  let answer = 0;
  votes.forEach((vote, v) => {
    const keys = pageKeys[v]![p]!;
    const hasA = keys.has(a);
    const hasB = keys.has(b);
    if (hasA === hasB) return;
    const confidence = confidenceAt(vote, p);
    if (confidence > best) {
      best = confidence;
      answer = hasA ? -1 : 1;
    }
  });
  return answer || (a < b ? -1 : a > b ? 1 : 0);
}

// ---------------------------------------------------------------------------------------------
// Extracted values: votes that are plain JSON outputs (an LLM provider's samples, the inputs of
// POST /v1/consensus). One reconciliation for both: list items are aligned by content, then every
// leaf is voted.

/**
 * Votes → one value, leaf by leaf: the value most votes gave (ties to the earliest vote), its
 * likelihood the share of votes that gave it (1 for a single vote). Objects are decided key by key;
 * list items are first aligned by content across the votes (see `reconcile`), then voted item by item.
 */
export function consolidateValues(votes: readonly unknown[]): { value: unknown; likelihoods: Tree<number> } {
  if (votes.length === 0) throw new Error('consolidateValues needs at least one vote');
  const { value, likelihoods } = reconcile(votes);
  return { value, likelihoods };
}

/** One voted leaf of a reconciliation, at its canonical path ("items.0.amount"). */
export interface ReconciledField {
  path: string;
  value: unknown;
  /** supporting / total: the share of all inputs that gave this value. */
  likelihood: number;
  supporting: number;
  total: number;
}

/** Where each input's list item sits, for one canonical list item. */
export interface PathAlignment {
  canonicalPath: string;
  /** Per input (in input order): the path of its item aligned here, or null when it has none. */
  sourcePaths: Array<string | null>;
}

export interface Reconciliation {
  /** The consensus value (undefined only when most inputs have nothing at all). */
  value: unknown;
  /** Parallel to `value`: a 0..1 likelihood at each leaf. */
  likelihoods: Tree<number>;
  /** Every leaf of `value` (scalars, nulls and empty lists or objects), in document order. */
  fields: ReconciledField[];
  /** The input whose list items seeded the alignment: the most complete one (most non-null leaves), ties to the earliest. */
  referenceIndex: number;
  /** With `alignment`: one entry per canonical list item. */
  pathAlignments?: PathAlignment[];
  /** With `alignment`: each input with its list items moved to their canonical places (null where it has no item; items aligned nowhere dropped). */
  alignedInputs?: unknown[];
}

export interface ReconcileOptions {
  /** A JSON Schema of the inputs: properties come in its order, and a property no input gives is null (likelihood 0). */
  schema?: Record<string, unknown>;
  /** Keep the alignment (path alignments and aligned inputs): memory in the size of all inputs. */
  alignment?: boolean;
}

/** Two list items are the same item when their content is at least this similar (0..1). */
export const ITEM_MATCH_THRESHOLD = 0.5;

interface Entry {
  input: number;
  value: unknown;
  /** The value's path in its own input. */
  source: string;
}

interface Reconciler {
  total: number;
  referenceIndex: number;
  fields: ReconciledField[];
  alignments?: PathAlignment[];
  bigrams: Map<string, Map<string, number>>;
}

const joinPath = (path: string, key: string | number) => (path === '' ? String(key) : `${path}.${key}`);

/**
 * Reconciles several JSON values of one shape (API POST /v1/consensus; the n_consensus of LLM
 * providers): list items are aligned by content — each list's items are matched to the items of
 * the reference input's list (and to items earlier inputs added) by similarity, best pairs first,
 * at ITEM_MATCH_THRESHOLD or above; an item no other matches starts a new place — and an aligned
 * item is kept when at least half of all inputs have it, in the order of its mean position. Then
 * every leaf is voted: values compare as text without case or spacing, numbers by value
 * (the text "1250.0" is 1250; "1,250" is not), the most common form of the winning value is kept, and its
 * likelihood is the share of all inputs that gave it. Objects are decided key by key; an object,
 * list or value most inputs lack is left out.
 */
export function reconcile(inputs: readonly unknown[], options: ReconcileOptions = {}): Reconciliation {
  if (inputs.length === 0) throw new Error('reconcile needs at least one input');
  const referenceIndex = mostComplete(inputs);
  const r: Reconciler = { total: inputs.length, referenceIndex, fields: [], bigrams: new Map() };
  if (options.alignment) r.alignments = [];
  const entries = inputs.map((value, input): Entry => ({ input, value, source: '' }));
  const { value, likelihoods, aligned } = node(r, entries, inputs.length, '', options.schema);
  const result: Reconciliation = { value, likelihoods, fields: r.fields, referenceIndex };
  if (options.alignment) {
    result.pathAlignments = r.alignments;
    result.alignedInputs = inputs.map((input, i) => (aligned ? aligned[i] : input));
  }
  return result;
}

/** The input with the most non-null leaves (ties to the earliest). */
function mostComplete(inputs: readonly unknown[]): number {
  const leaves = (v: unknown): number => {
    if (v === null || v === undefined) return 0;
    if (Array.isArray(v)) return v.reduce((n: number, item) => n + leaves(item), 0);
    if (typeof v === 'object') return Object.values(v as object).reduce((n: number, item) => n + leaves(item), 0);
    return 1;
  };
  let best = 0;
  let bestCount = -1;
  inputs.forEach((input, i) => {
    const count = leaves(input);
    if (count > bestCount) {
      best = i;
      bestCount = count;
    }
  });
  return best;
}

type Shape = 'missing' | 'null' | 'object' | 'array' | `=${string}`;

function shapeOf(v: unknown): Shape {
  if (v === undefined) return 'missing';
  if (v === null) return 'null';
  if (Array.isArray(v)) return 'array';
  if (typeof v === 'object') return 'object';
  return `=${scalarKey(v)}`;
}

/** How a scalar compares: numbers (and plain numeric text) by value, text without case, spacing or compatibility forms. */
function scalarKey(v: unknown): string {
  if (typeof v === 'number') return `n:${v}`;
  if (typeof v === 'boolean') return `b:${v}`;
  const text = String(v).normalize('NFKC').trim().replace(/\s+/g, ' ');
  if (/^-?\d+(\.\d+)?$/.test(text)) return `n:${Number(text)}`;
  return `s:${text.toLowerCase()}`;
}

function schemaProperties(schema: Record<string, unknown> | undefined): Record<string, Record<string, unknown>> {
  const properties = schema?.properties;
  return properties && typeof properties === 'object' && !Array.isArray(properties) ? (properties as Record<string, Record<string, unknown>>) : {};
}

function schemaItems(schema: Record<string, unknown> | undefined): Record<string, unknown> | undefined {
  const items = schema?.items;
  return items && typeof items === 'object' && !Array.isArray(items) ? (items as Record<string, unknown>) : undefined;
}

interface NodeResult {
  value: unknown;
  likelihoods: Tree<number>;
  /** Per input: its value here, aligned (alignment only). */
  aligned?: unknown[];
}

/**
 * One node of the reconciliation. `voters`: how many inputs vote here (all inputs at the top; the
 * inputs whose value is an object for that object's keys; the inputs that have a list item for the
 * item): those without a value vote for leaving it out. Likelihoods are shares of all inputs.
 */
function node(r: Reconciler, entries: readonly Entry[], voters: number, path: string, schema: Record<string, unknown> | undefined): NodeResult {
  // Group the votes by shape in input order: a tie goes to the group of the earliest vote, and a value beats leaving it out.
  const sorted = [...entries].sort((a, b) => a.input - b.input);
  const groups = new Map<Shape, Entry[]>();
  for (const e of sorted) {
    const shape = shapeOf(e.value);
    let group = groups.get(shape);
    if (!group) groups.set(shape, (group = []));
    group.push(e);
  }
  const missing = voters - entries.length + (groups.get('missing')?.length ?? 0);
  groups.delete('missing');
  let winner: Shape = 'missing';
  let best = missing;
  for (const [shape, group] of groups) {
    if (group.length >= best && !(group.length === best && winner !== 'missing')) {
      winner = shape;
      best = group.length;
    }
  }
  const agreeing = groups.get(winner) ?? [];
  const share = clamp01(best / r.total);
  const aligned = r.alignments ? alignedOfEntries(r, entries) : undefined;

  if (winner === 'object') {
    const value: Record<string, unknown> = {};
    const likelihoods: Record<string, Tree<number>> = {};
    const properties = schemaProperties(schema);
    const keys = [...new Set([...Object.keys(properties), ...agreeing.flatMap((e) => Object.keys(e.value as object))])];
    const alignedObjects = aligned ? new Map(agreeing.map((e) => [e.input, { ...(e.value as Record<string, unknown>) }])) : undefined;
    for (const key of keys) {
      if (key === '__proto__') continue;
      const childPath = joinPath(path, key);
      const children = agreeing.filter((e) => (e.value as Record<string, unknown>)[key] !== undefined).map((e) => ({ input: e.input, value: (e.value as Record<string, unknown>)[key], source: joinPath(e.source, key) }));
      if (children.length === 0 && Object.hasOwn(properties, key)) {
        // Asked for by the schema, given by no input: null, and no input supports it.
        value[key] = null;
        likelihoods[key] = 0;
        r.fields.push({ path: childPath, value: null, likelihood: 0, supporting: 0, total: r.total });
        continue;
      }
      const part = node(r, children, agreeing.length, childPath, properties[key]);
      if (alignedObjects && part.aligned) for (const child of children) alignedObjects.get(child.input)![key] = part.aligned[child.input];
      if (part.value === undefined) continue;
      value[key] = part.value;
      likelihoods[key] = part.likelihoods;
    }
    if (keys.length === 0 && path !== '') r.fields.push({ path, value, likelihood: share, supporting: best, total: r.total });
    if (aligned && alignedObjects) for (const [input, object] of alignedObjects) aligned[input] = object;
    return { value, likelihoods, aligned };
  }

  if (winner === 'array') return listNode(r, agreeing, path, schemaItems(schema), share, best, aligned);

  if (winner === 'missing') return { value: undefined, likelihoods: 0, aligned };
  // A scalar or null: the most common form among the agreeing votes (ties to the earliest).
  const forms = new Map<string, { value: unknown; count: number }>();
  for (const e of agreeing) {
    const form = JSON.stringify(e.value);
    const seen = forms.get(form);
    if (seen) seen.count++;
    else forms.set(form, { value: e.value, count: 1 });
  }
  let value: unknown = null;
  let top = -1;
  for (const form of forms.values()) {
    if (form.count > top) {
      value = form.value;
      top = form.count;
    }
  }
  r.fields.push({ path, value, likelihood: share, supporting: best, total: r.total });
  return { value, likelihoods: share, aligned };
}

/** Per input, its value at this node as given (the alignment of its children replaces parts of it). */
function alignedOfEntries(r: Reconciler, entries: readonly Entry[]): unknown[] {
  const aligned = new Array<unknown>(r.total).fill(undefined);
  for (const e of entries) aligned[e.input] = e.value;
  return aligned;
}

interface Slot {
  /** The item the others are compared with: the first one placed here. */
  representative: unknown;
  members: Entry[];
  /** Sum of the members' relative positions in their lists (0..1). */
  positions: number;
  /** The relative position of the reference list's item here, if it has one. */
  referencePosition?: number;
  /** Inputs that already have an item here. */
  inputs: Set<number>;
  order: number;
}

function listNode(r: Reconciler, lists: readonly Entry[], path: string, itemSchema: Record<string, unknown> | undefined, share: number, support: number, aligned: unknown[] | undefined): NodeResult {
  // The reference list: the reference input's when it voted for a list here, else the first list of the most common length.
  const lengths = new Map<number, number>();
  for (const e of lists) lengths.set((e.value as unknown[]).length, (lengths.get((e.value as unknown[]).length) ?? 0) + 1);
  let modeLength = 0;
  let modeCount = -1;
  for (const [length, count] of lengths) {
    if (count > modeCount) {
      modeLength = length;
      modeCount = count;
    }
  }
  const reference = lists.find((e) => e.input === r.referenceIndex) ?? lists.find((e) => (e.value as unknown[]).length === modeLength)!;
  const ordered = [reference, ...lists.filter((e) => e !== reference)];

  const slots: Slot[] = [];
  const byKey = new Map<string, Slot[]>();
  // Every item placed in a slot indexes it by its content: an identical item of a later input goes
  // there without being compared (answers to one question repeat one another).
  const place = (slot: Slot, e: Entry, key: string, index: number, length: number) => {
    slot.members.push(e);
    slot.inputs.add(e.input);
    const position = length > 1 ? index / (length - 1) : 0;
    slot.positions += position;
    if (e.input === reference.input) slot.referencePosition = position;
    const same = byKey.get(key);
    if (!same) byKey.set(key, [slot]);
    else if (!same.includes(slot)) same.push(slot);
  };
  for (const list of ordered) {
    const items = list.value as unknown[];
    const taken = new Array<boolean>(items.length).fill(false);
    const keys = items.map(canonicalKey);
    // Identical items first (cheap), then the rest by similarity, best pairs first.
    items.forEach((item, j) => {
      const slot = byKey.get(keys[j]!)?.find((s) => !s.inputs.has(list.input));
      if (slot) {
        place(slot, { input: list.input, value: item, source: joinPath(list.source, j) }, keys[j]!, j, items.length);
        taken[j] = true;
      }
    });
    const pairs: Array<{ j: number; slot: Slot; similarity: number }> = [];
    items.forEach((item, j) => {
      if (taken[j]) return;
      for (const slot of slots) {
        if (slot.inputs.has(list.input)) continue;
        const similarity = similar(r, item, slot.representative);
        if (similarity >= ITEM_MATCH_THRESHOLD) pairs.push({ j, slot, similarity });
      }
    });
    pairs.sort((a, b) => b.similarity - a.similarity || a.slot.order - b.slot.order || a.j - b.j);
    for (const { j, slot } of pairs) {
      if (taken[j] || slot.inputs.has(list.input)) continue;
      place(slot, { input: list.input, value: items[j], source: joinPath(list.source, j) }, keys[j]!, j, items.length);
      taken[j] = true;
    }
    items.forEach((item, j) => {
      if (taken[j]) return;
      const slot: Slot = { representative: item, members: [], positions: 0, inputs: new Set(), order: slots.length };
      place(slot, { input: list.input, value: item, source: joinPath(list.source, j) }, keys[j]!, j, items.length);
      slots.push(slot);
    });
  }

  // Kept: the items at least half of all inputs have; in the reference list's order, the others
  // where their mean relative position puts them.
  const at = (slot: Slot) => slot.referencePosition ?? slot.positions / slot.members.length;
  const kept = slots.filter((slot) => slot.members.length * 2 >= r.total).sort((a, b) => at(a) - at(b) || a.order - b.order);
  const value: unknown[] = [];
  const likelihoods: Tree<number>[] = [];
  const alignedLists = aligned ? new Map(lists.map((e) => [e.input, new Array<unknown>(kept.length).fill(null)])) : undefined;
  kept.forEach((slot, k) => {
    const itemPath = joinPath(path, k);
    if (r.alignments) {
      const sourcePaths = new Array<string | null>(r.total).fill(null);
      for (const m of slot.members) sourcePaths[m.input] = m.source;
      r.alignments.push({ canonicalPath: itemPath, sourcePaths });
    }
    const part = node(r, slot.members, slot.members.length, itemPath, itemSchema);
    if (alignedLists && part.aligned) for (const m of slot.members) alignedLists.get(m.input)![k] = part.aligned[m.input];
    value.push(part.value === undefined ? null : part.value);
    likelihoods.push(part.likelihoods);
  });
  if (kept.length === 0) r.fields.push({ path, value, likelihood: share, supporting: support, total: r.total });
  if (aligned && alignedLists) for (const [input, list] of alignedLists) aligned[input] = list;
  return { value, likelihoods, aligned };
}

/** A value's identity for the "identical items" pass: its JSON with object keys sorted and scalars compared as votes compare them. */
function canonicalKey(v: unknown): string {
  if (v === null || v === undefined) return 'null';
  if (Array.isArray(v)) return `[${v.map(canonicalKey).join(',')}]`;
  if (typeof v === 'object') {
    return `{${Object.keys(v as object)
      .sort()
      .map((k) => `${JSON.stringify(k)}:${canonicalKey((v as Record<string, unknown>)[k])}`)
      .join(',')}}`;
  }
  return JSON.stringify(scalarKey(v));
}

/**
 * How alike two values are, 0..1: scalars that vote alike 1, other texts by their character pairs
 * (Dice), numbers by their relative difference; objects the mean over the keys either gives a value;
 * lists the mean of each item's best match in the other list.
 */
function similar(r: Reconciler, a: unknown, b: unknown): number {
  const aEmpty = a === null || a === undefined;
  const bEmpty = b === null || b === undefined;
  if (aEmpty || bEmpty) return aEmpty && bEmpty ? 1 : 0;
  const aList = Array.isArray(a);
  const bList = Array.isArray(b);
  if (aList || bList) {
    if (!aList || !bList) return 0;
    if (a.length === 0 || b.length === 0) return a.length === b.length ? 1 : 0;
    const best = (xs: unknown[], ys: unknown[]) => xs.reduce((sum: number, x) => sum + Math.max(...ys.map((y) => similar(r, x, y))), 0);
    return (best(a, b) + best(b, a)) / (a.length + b.length);
  }
  const aObject = typeof a === 'object';
  const bObject = typeof b === 'object';
  if (aObject || bObject) {
    if (!aObject || !bObject) return 0;
    const ao = a as Record<string, unknown>;
    const bo = b as Record<string, unknown>;
    let sum = 0;
    let count = 0;
    for (const key of new Set([...Object.keys(ao), ...Object.keys(bo)])) {
      const x = ao[key];
      const y = bo[key];
      if ((x === null || x === undefined) && (y === null || y === undefined)) continue;
      sum += similar(r, x, y);
      count++;
    }
    return count === 0 ? 1 : sum / count;
  }
  const ka = scalarKey(a);
  const kb = scalarKey(b);
  if (ka === kb) return 1;
  if (ka.startsWith('n:') && kb.startsWith('n:')) {
    const x = Number(ka.slice(2));
    const y = Number(kb.slice(2));
    const scale = Math.max(Math.abs(x), Math.abs(y));
    return scale === 0 ? 1 : Math.max(0, 1 - Math.abs(x - y) / scale);
  }
  if (ka.startsWith('b:') || kb.startsWith('b:')) return 0;
  return dice(r, ka.slice(2), kb.slice(2));
}

/** The Dice coefficient of two texts' character pairs (each text's pairs counted once per occurrence; cached). */
function dice(r: Reconciler, a: string, b: string): number {
  if (a.length < 2 || b.length < 2) return a === b ? 1 : 0;
  const pa = bigramsOf(r, a);
  const pb = bigramsOf(r, b);
  let common = 0;
  for (const [pair, count] of pa) common += Math.min(count, pb.get(pair) ?? 0);
  return (2 * common) / (a.length - 1 + b.length - 1);
}

const MAX_CACHED_TEXTS = 100_000;

function bigramsOf(r: Reconciler, text: string): Map<string, number> {
  let pairs = r.bigrams.get(text);
  if (pairs) return pairs;
  pairs = new Map();
  for (let i = 0; i < text.length - 1; i++) {
    const pair = text.slice(i, i + 2);
    pairs.set(pair, (pairs.get(pair) ?? 0) + 1);
  }
  if (r.bigrams.size < MAX_CACHED_TEXTS) r.bigrams.set(text, pairs);
  return pairs;
}
