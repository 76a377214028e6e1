/**
 * Consolidating consensus votes (API §4–§5): pure functions over what each vote answered and how sure
 * it was. They know nothing of how a vote was produced, so the local engine's bagged votes and an LLM
 * provider's repeated calls go through the same code.
 *
 * Rules (API): classification — the most-voted category wins, ties to the highest summed score;
 * splits and partitions — page by page by majority, ties to the higher-confidence vote. Likelihoods
 * are vote shares; with a single vote they are the vote's own confidence.
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
  const likelihood = votes.length === 1 ? scored[0]![winner]! : count.get(winner)! / votes.length;
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
    likelihood.push(votes.length === 1 ? (perVote[0]!.label[p] === undefined ? 0 : confidenceAt(votes[0]!, p)) : top / votes.length);
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
// Extracted values (votes that are plain JSON outputs, e.g. an LLM provider's samples)

/**
 * Votes → one value, leaf by leaf: the value most votes gave (ties to the earliest vote), its
 * likelihood the share of votes that gave it (1 for a single vote). Objects are decided key by key;
 * arrays first by length (the most common), then item by item among the votes of that length.
 */
export function consolidateValues(votes: readonly unknown[]): { value: unknown; likelihoods: Tree<number> } {
  if (votes.length === 0) throw new Error('consolidateValues needs at least one vote');
  return consolidateNode(votes, votes.length);
}

function consolidateNode(votes: readonly unknown[], total: number): { value: unknown; likelihoods: Tree<number> } {
  const shape = (v: unknown) => (v === undefined ? 'missing' : v === null ? 'null' : Array.isArray(v) ? `array:${v.length}` : typeof v === 'object' ? 'object' : `=${JSON.stringify(v)}`);
  const groups = new Map<string, unknown[]>();
  for (const v of votes) groups.set(shape(v), [...(groups.get(shape(v)) ?? []), v]);
  const [winner, agreeing] = [...groups].sort((a, b) => b[1].length - a[1].length)[0]!;
  const share = agreeing.length / total;
  if (winner === 'object') {
    const value: Record<string, unknown> = {};
    const likelihoods: Record<string, Tree<number>> = {};
    const keys = [...new Set(agreeing.flatMap((v) => Object.keys(v as object)))];
    for (const key of keys) {
      const part = consolidateNode(
        agreeing.map((v) => (v as Record<string, unknown>)[key]),
        total,
      );
      if (part.value === undefined) continue;
      value[key] = part.value;
      likelihoods[key] = part.likelihoods;
    }
    return { value, likelihoods };
  }
  if (winner.startsWith('array:')) {
    const length = (agreeing[0] as unknown[]).length;
    const items = Array.from({ length }, (_, i) => consolidateNode(agreeing.map((v) => (v as unknown[])[i]), total));
    return { value: items.map((i) => i.value), likelihoods: items.map((i) => i.likelihoods) };
  }
  return { value: winner === 'missing' ? undefined : agreeing[0], likelihoods: clamp01(share) };
}
