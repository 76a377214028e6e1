/**
 * Partitioning (API §4.2): one chunk per record of a repeated kind, keyed by a value printed in it.
 *
 * 1. On every page, find the key's value by label proximity: the key's words as a label ("Invoice
 *    No: INV-5101", "Inv. # INV-5101", a table header "Invoice number" over its value), each
 *    candidate scored by how label-like its label is and how identifier-like its value.
 * 2. Walk the pages in order: a page with a value belongs to it; a page without one continues the
 *    record before it (continuation pages rarely repeat the number). A page where a second record
 *    starts below the end of the previous one holds both: with `allow_overlap` it belongs to both,
 *    without it to the one that fills more of the page.
 *
 * Votes: candidates are found once; a vote jitters the weights of the candidate features and the
 * acceptance threshold (seeded), so a borderline label can be read differently, a clear one cannot.
 */
import type { Page } from '../../documents/doc.ts';
import type { PartitionRequest, PartitionResult } from '../engine.ts';
import { consolidatePartitions, normalizeKey, type PartitionVote } from '../shared/consensus.ts';
import { STOP_WORDS } from '../shared/words.ts';
import {
  anyNumberLabel,
  findLabeledValues,
  hasLetters,
  type HeadMatcher,
  isNumberWord,
  keyHeadMatcher,
  type LabeledValue,
  pageMarker,
  type PageMarker,
  rawTokens,
} from './identifiers.ts';
import { jitteredWeight } from './random.ts';
import { type PageLine, pageLines } from './text.ts';
import { PARTITION_WEIGHTS } from './weights/partition.ts';

/** Lines that end a record: above the next record's key they are the previous record's tail, not the next one's letterhead. */
const RECORD_END = /\b(?:total|subtotal|amount due|balance due|balance|thank you|signature|signed|net pay|closing)\b/i;

/** Whether the lines above a page's first key finish the record carried from the page before. */
function isTail(lines: readonly PageLine[], firstLine: number, share: number): boolean {
  if (share >= PARTITION_WEIGHTS.tailShare) return true;
  return share > 0 && lines.slice(0, firstLine).some((line) => RECORD_END.test(line.text));
}

export function partition(request: PartitionRequest): PartitionResult {
  const n = Math.max(1, Math.floor(request.nConsensus));
  const pages = request.doc.pages;
  const matchers = keyMatchers(request.key, request.instructions);
  const lines = pages.map((page) => pageLines(page));
  const candidates = pages.map((page, p) => findCandidates(page, lines[p]!, matchers));
  const markers = lines.map((l) => pageMarker(l));

  const votes: PartitionVote[] = [];
  for (let v = 0; v < n; v++) {
    const weight = (feature: keyof typeof PARTITION_WEIGHTS.features) => PARTITION_WEIGHTS.features[feature] * jitteredWeight(request.seed, v, n, `partition:${feature}`, PARTITION_WEIGHTS.featureSpread);
    const threshold = PARTITION_WEIGHTS.threshold * jitteredWeight(request.seed, v, n, 'partition:threshold', PARTITION_WEIGHTS.thresholdSpread);
    votes.push(runVote(candidates, lines, markers, weight, threshold, request.allowOverlap));
  }
  return consolidatePartitions(votes, { pageCount: pages.length, allowOverlap: request.allowOverlap });
}

// ---------------------------------------------------------------------------------------------
// The key and its labels

/**
 * Label matchers for a key: its head words ("invoice" of "invoice number"), and labels quoted in the
 * instructions ("the number follows 'Ref:'"). A key that is only a number word ("ID") matches any
 * numbered label.
 */
function keyMatchers(key: string, instructions: string): HeadMatcher[] {
  const matchers: HeadMatcher[] = [];
  const head = headWords(key);
  matchers.push(head.length > 0 ? keyHeadMatcher(head) : anyNumberLabel);
  // A quoted label is taken as printed, number words included ("Ref:", "Order #").
  for (const quoted of instructions.matchAll(/["“‘'`]([^"”’'`]{2,40})["”’'`]/g)) {
    const words = rawTokens(quoted[1]!)
      .map((t) => t.core)
      .filter((core) => /\p{L}/u.test(core) && !STOP_WORDS.has(core));
    if (words.length > 0 && words.length <= PARTITION_WEIGHTS.quotedLabelWords) matchers.push(keyHeadMatcher(words));
  }
  return matchers;
}

/** A label's words without stop words and number words: "Invoice No." → ["invoice"]. */
function headWords(text: string): string[] {
  return rawTokens(text)
    .map((t) => t.core)
    .filter((core) => core !== '' && !STOP_WORDS.has(core) && !isNumberWord(core) && /\p{L}/u.test(core));
}

// ---------------------------------------------------------------------------------------------
// Candidates

interface Candidate extends LabeledValue {
  norm: string;
}

function findCandidates(page: Page, lines: readonly PageLine[], matchers: readonly HeadMatcher[]): Candidate[] {
  const found: Candidate[] = [];
  const seen = new Set<string>();
  for (const match of matchers) {
    for (const value of findLabeledValues(page, lines, match, { requireNumberWord: false, minLength: PARTITION_WEIGHTS.valueLength, below: true })) {
      const id = `${value.line}:${value.value}`;
      if (seen.has(id)) continue;
      seen.add(id);
      found.push({ ...value, norm: normalizeKey(value.value) });
    }
  }
  return found;
}

type Weight = (feature: keyof typeof PARTITION_WEIGHTS.features) => number;

function candidateScore(c: Candidate, lineCount: number, weight: Weight): number {
  let score = weight('label') * (c.abbreviated ? PARTITION_WEIGHTS.abbreviatedLabel : 1);
  if (c.numberWord) score += weight('numberWord');
  if (c.separated) score += weight('separator');
  if (hasLetters(c.value)) score += weight('mixedValue');
  else if (c.value.replace(/\D/g, '').length >= PARTITION_WEIGHTS.digitDigits) score += weight('digitValue');
  score += weight('adjacent') * (c.placement === 'below' ? PARTITION_WEIGHTS.nextLineBelow : 1);
  if (c.line < Math.max(PARTITION_WEIGHTS.topLines, lineCount * PARTITION_WEIGHTS.topShare)) score += weight('top');
  return score;
}

/** Score above the threshold → 0.5..1 (a logistic curve; 1.0 above the threshold ≈ 0.95). */
const confidenceOf = (score: number, threshold: number) => 1 / (1 + Math.exp(-PARTITION_WEIGHTS.confidenceSlope * (score - threshold)));

// ---------------------------------------------------------------------------------------------
// One vote

function runVote(
  candidates: readonly Candidate[][],
  lines: readonly PageLine[][],
  markers: readonly PageMarker[],
  weight: Weight,
  threshold: number,
  allowOverlap: boolean,
): PartitionVote {
  const chunks = new Map<string, { key: string; pages: number[]; confidence: number }>();
  const pageConfidence: number[] = [];
  const assign = (norm: string, page: number) => {
    const pages = chunks.get(norm)!.pages;
    if (pages[pages.length - 1] !== page) pages.push(page);
  };
  let current: string | undefined;

  candidates.forEach((onPage, p) => {
    const lineCount = Math.max(1, lines[p]!.length);
    // The accepted values of the page, each at its first line, in reading order.
    const values = new Map<string, { line: number; confidence: number }>();
    for (const c of onPage) {
      const score = candidateScore(c, lineCount, weight);
      if (score < threshold) continue;
      const confidence = confidenceOf(score, threshold);
      if (!chunks.has(c.norm)) chunks.set(c.norm, { key: c.value, pages: [], confidence });
      const chunk = chunks.get(c.norm)!;
      chunk.confidence = Math.max(chunk.confidence, confidence);
      const seen = values.get(c.norm);
      if (!seen) values.set(c.norm, { line: c.line, confidence });
      else seen.confidence = Math.max(seen.confidence, confidence);
    }

    if (values.size === 0) {
      // A first page ("Page 1 of 2") without a key is a record we cannot name: do not carry into it.
      if (markers[p]!.index === 1) current = undefined;
      if (current !== undefined) {
        assign(current, p + 1);
        pageConfidence[p] = PARTITION_WEIGHTS.carriedConfidence * chunks.get(current)!.confidence;
      }
      return;
    }

    // How much of the page each record fills: from its first value to the next record's, the top
    // of the page going to the record carried over from the page before.
    const ordered = [...values].sort((a, b) => a[1].line - b[1].line);
    const share = new Map<string, number>();
    const firstLine = ordered[0]![1].line;
    const carried = current !== undefined && !values.has(current) ? current : undefined;
    const topOwner = carried ?? ordered[0]![0];
    share.set(topOwner, firstLine / lineCount);
    ordered.forEach(([norm, { line }], i) => {
      const end = i + 1 < ordered.length ? ordered[i + 1]![1].line : lineCount;
      share.set(norm, (share.get(norm) ?? 0) + (end - line) / lineCount);
    });

    let keys: string[];
    if (allowOverlap) {
      keys = ordered.map(([norm]) => norm);
      if (carried !== undefined && isTail(lines[p]!, firstLine, share.get(carried)!)) keys.unshift(carried);
    } else {
      // The record that fills most of the page; equal shares go to the earlier one.
      const owners = carried !== undefined ? [carried, ...ordered.map(([norm]) => norm)] : ordered.map(([norm]) => norm);
      keys = [owners.reduce((best, norm) => (share.get(norm)! > share.get(best)! ? norm : best))];
    }
    for (const key of keys) assign(key, p + 1);
    pageConfidence[p] = Math.min(...keys.map((k) => values.get(k)?.confidence ?? PARTITION_WEIGHTS.carriedConfidence * chunks.get(k)!.confidence));
    current = ordered[ordered.length - 1]![0];
  });

  const entries = [...chunks.values()].filter((c) => c.pages.length > 0);
  const keyConfidence = Object.fromEntries(entries.map((c) => [c.key, c.confidence]));
  const confidence = entries.length === 0 ? 0 : entries.reduce((s, c) => s + c.confidence, 0) / entries.length;
  return {
    entries: entries.map((c) => ({ key: c.key, pages: c.pages })),
    confidence,
    pageConfidence: Array.from({ length: candidates.length }, (_, p) => pageConfidence[p] ?? 0),
    keyConfidence,
  };
}
