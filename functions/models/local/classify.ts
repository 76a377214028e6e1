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
import { type Cue, layoutCues } from './cues.ts';
import { categoryIdf, docPages, pageLines, scoreShares } from './text.ts';

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

/** Pages read for layout cues and for the text (a long document says what it is in its first pages). */
const CUE_PAGES = 12;
/** A layout cue is worth this much evidence for a kind that has it (scaled down when many categories share it). */
const CUE_WEIGHT = 3;
/** The first page's title lines count this many times more again: a document names itself there. */
const FIRST_TITLE_WEIGHT = 1.5;
const FIRST_TITLE_LINES = 6;

interface Read {
  queries: Queries;
  evidence: TextEvidence;
  /** Evidence of the first page's title lines alone. */
  title: TextEvidence;
  cues: Cue[];
  /** Per category: what the cues add. */
  cueScores: Float64Array;
}

export function classify(request: ClassifyRequest): ClassifyResult {
  const names = request.categories.map((c) => c.name);
  const pages = docPages(request.doc, request.firstNPages);
  const pageTexts = pages.map((page) => pageLines(page));
  const lines = pageTexts.flat();
  const queries = buildQueries(request.categories, request.instructions);
  const pagesWithText = Math.max(1, pages.filter((p) => p.words.length > 0 || p.blocks.length > 0).length);
  const evidence = textEvidence(queries, lines, AVERAGE_PAGE_TOKENS * pagesWithText);
  const firstTitle = (pageTexts[0] ?? []).slice(0, FIRST_TITLE_LINES).filter((l) => l.text.split(' ').length <= 12);
  const title = textEvidence(queries, firstTitle, AVERAGE_PAGE_TOKENS);
  const cues = layoutCues(pages.slice(0, CUE_PAGES), pageTexts.slice(0, CUE_PAGES));
  const read: Read = { queries, evidence, title, cues, cueScores: cueScores(queries, cues) };

  const n = Math.max(1, Math.floor(request.nConsensus));
  const votes: ClassificationVote[] = [];
  for (let v = 0; v < n; v++) {
    const bag = n === 1 ? null : baggedWeights(queries.features, request.seed, v, n);
    votes.push(vote(read, bag, names, lines.length === 0));
  }
  return consolidateClassification(votes, names);
}

/** What the document's layout cues add to each category: a cue many categories share separates them less. */
function cueScores(queries: Queries, cues: readonly Cue[]): Float64Array {
  const scores = new Float64Array(queries.labels.length);
  for (const { cue, strength } of cues) {
    const having = queries.cues.filter((c) => c.has(cue)).length;
    if (having === 0) continue;
    const idf = categoryIdf(having, queries.labels.length);
    queries.cues.forEach((c, l) => {
      scores[l] += CUE_WEIGHT * strength * idf * (c.get(cue) ?? 0);
    });
  }
  return scores;
}

function vote(read: Read, bag: Float64Array | null, names: string[], noText: boolean): ClassificationVote {
  const { queries, evidence } = read;
  const raw = labelScores(queries, evidence, bag);
  const titled = labelScores(queries, read.title, bag);
  for (let l = 0; l < raw.length; l++) raw[l] += FIRST_TITLE_WEIGHT * titled[l]! + read.cueScores[l]!;
  const shares = scoreShares([...raw], PRIOR, POWER);
  // The best share; equal shares go to the category given first (deterministic).
  let chosen = 0;
  for (let c = 1; c < names.length; c++) if (shares[c]! > shares[chosen]!) chosen = c;
  const scores = Object.fromEntries(names.map((name, c) => [name, shares[c]!]));
  return { choice: { category: names[chosen]!, reasoning: explain(read, bag, raw, shares, chosen, noText) }, scores };
}

const pct = (x: number) => x.toFixed(2);

/** The evidence for a category in words: the document's phrases that count most, and its layout cues. */
function because(read: Read, bag: Float64Array | null, label: number, limit: number): string {
  const quotes = decisiveQuotes(read.queries, read.evidence, label, bag, limit);
  const layout = read.cues.filter((c) => read.queries.cues[label]!.has(c.cue)).map((c) => c.evidence);
  const words = quotes.length > 0 ? `on the document's words ${formatQuotes(quotes)}` : '';
  const shape = layout.length > 0 ? `${words ? ' and ' : 'on '}its layout (${layout.join('; ')})` : '';
  return `${words}${shape}`;
}

function explain(read: Read, bag: Float64Array | null, raw: Float64Array, shares: number[], chosen: number, noText: boolean): string {
  const { queries, evidence } = read;
  const name = queries.labels[chosen]!;
  if (raw[chosen]! <= 0) {
    const why = noText ? 'The document has no readable text' : "None of the categories' words or phrases appear in the document";
    return `${why}, so there is no evidence for any category; "${name}" (the first category) is only a default, with low confidence (${pct(shares[chosen]!)}).`;
  }
  let text = `Classified as "${name}" (score ${pct(shares[chosen]!)}) ${because(read, bag, chosen, QUOTES)}.`;
  let runnerUp = -1;
  for (let c = 0; c < raw.length; c++) if (c !== chosen && (runnerUp < 0 || raw[c]! > raw[runnerUp]!)) runnerUp = c;
  if (runnerUp >= 0 && raw[runnerUp]! > 0) {
    text += ` Next best "${queries.labels[runnerUp]}" (${pct(shares[runnerUp]!)}) ${because(read, bag, runnerUp, RUNNER_UP_QUOTES)}.`;
  }
  if (shares[chosen]! < 0.5) text += ' Low confidence: the evidence is thin or shared with other categories.';
  return text;
}
