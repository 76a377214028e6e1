/**
 * Classification (API §5) by weighted term evidence: the document's first pages against each
 * category's query (name, description, lexicon, instructions; ./evidence.ts). Scores are the shares
 * of evidence (summing to 1); the reasoning quotes the phrases that decided it.
 *
 * Votes: the document is read and counted once; each vote only re-weights the features it matched
 * (bagging, ./random.ts), so n_consensus 5 costs little more than 1.
 */
import type { ClassifyRequest, ClassifyResult } from '../engine.ts';
import { type ClassificationVote, consolidateClassification } from './consensus.ts';
import { buildQueries, decisiveQuotes, formatQuotes, labelScores, type Queries, type TextEvidence, textEvidence } from './evidence.ts';
import { baggedWeights } from './random.ts';
import { docPages, pageLines, scoreShares } from './text.ts';

/** Content tokens of an ordinary page: the BM25 length a page is measured against. */
export const AVERAGE_PAGE_TOKENS = 180;

/**
 * Evidence every category has before reading (so thin evidence gives a low confidence) and how
 * sharply evidence separates categories. With these, one title word against nothing gives about
 * 0.4 among 5 categories, a typical invoice against receipt-like distractors 0.8–0.95.
 */
const PRIOR = 2;
const POWER = 2;

/** How many phrases a reasoning quotes for the chosen category, and for the runner-up. */
const QUOTES = 5;
const RUNNER_UP_QUOTES = 2;

export function classify(request: ClassifyRequest): ClassifyResult {
  const names = request.categories.map((c) => c.name);
  const pages = docPages(request.doc, request.firstNPages);
  const lines = pages.flatMap((page) => pageLines(page));
  const queries = buildQueries(request.categories, request.instructions);
  const pagesWithText = Math.max(1, pages.filter((p) => p.words.length > 0 || p.blocks.length > 0).length);
  const evidence = textEvidence(queries, lines, AVERAGE_PAGE_TOKENS * pagesWithText);

  const n = Math.max(1, Math.floor(request.nConsensus));
  const votes: ClassificationVote[] = [];
  for (let v = 0; v < n; v++) {
    const bag = n === 1 ? null : baggedWeights(queries.features, request.seed, v, n);
    votes.push(vote(queries, evidence, bag, names, lines.length === 0));
  }
  return consolidateClassification(votes, names);
}

function vote(queries: Queries, evidence: TextEvidence, bag: Float64Array | null, names: string[], noText: boolean): ClassificationVote {
  const raw = labelScores(queries, evidence, bag);
  const shares = scoreShares([...raw], PRIOR, POWER);
  // The best share; equal shares go to the category given first (deterministic).
  let chosen = 0;
  for (let c = 1; c < names.length; c++) if (shares[c]! > shares[chosen]!) chosen = c;
  const scores = Object.fromEntries(names.map((name, c) => [name, shares[c]!]));
  return { choice: { category: names[chosen]!, reasoning: explain(queries, evidence, bag, raw, shares, chosen, noText) }, scores };
}

const pct = (x: number) => x.toFixed(2);

function explain(
  queries: Queries,
  evidence: TextEvidence,
  bag: Float64Array | null,
  raw: Float64Array,
  shares: number[],
  chosen: number,
  noText: boolean,
): string {
  const name = queries.labels[chosen]!;
  if (raw[chosen]! <= 0) {
    const why = noText ? 'The document has no readable text' : "None of the categories' words or phrases appear in the document";
    return `${why}, so there is no evidence for any category; "${name}" (the first category) is only a default, with low confidence (${pct(shares[chosen]!)}).`;
  }
  const quotes = decisiveQuotes(queries, evidence, chosen, bag, QUOTES);
  let text = `Classified as "${name}" (score ${pct(shares[chosen]!)}) on the document's words ${formatQuotes(quotes)}.`;
  let runnerUp = -1;
  for (let c = 0; c < raw.length; c++) if (c !== chosen && (runnerUp < 0 || raw[c]! > raw[runnerUp]!)) runnerUp = c;
  if (runnerUp >= 0 && raw[runnerUp]! > 0) {
    const against = decisiveQuotes(queries, evidence, runnerUp, bag, RUNNER_UP_QUOTES);
    text += ` Next best "${queries.labels[runnerUp]}" (${pct(shares[runnerUp]!)}) on ${formatQuotes(against)}.`;
  }
  if (shares[chosen]! < 0.5) text += ' Low confidence: the evidence is thin or shared with other categories.';
  return text;
}
