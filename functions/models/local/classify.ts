/**
 * Classification (API §5) by weighted term evidence: the document's first pages against each
 * category's query (name, description, lexicon, instructions; ./evidence.ts). Scores are the shares
 * of evidence (summing to 1); the reasoning quotes the phrases that decided it.
 *
 * Votes: the document is read and counted once; each vote only re-weights the features it matched
 * (bagging, ./random.ts), so n_consensus 5 costs little more than 1.
 */
import type { ClassifyRequest, ClassifyResult } from '../engine.ts';
import { type ClassificationVote, consolidateClassification } from '../shared/consensus.ts';
import { buildQueries, cueScores, decisiveQuotes, formatQuotes, labelScores, type Queries, type TextEvidence, textEvidence, titleLines } from './evidence.ts';
import { jitteredWeight, votedWeights } from './random.ts';
import { type Cue, formatCues, layoutCues } from './cues.ts';
import { docPages, pageLines, scoreShares } from './text.ts';
import { boundedLogit, type LogisticModel, probabilityOf } from './logistic-model.ts';
import { CLASSIFY_WEIGHTS } from './weights/classify.ts';
import { CLASSIFY_MODEL } from './weights/classify-likelihood.ts';
import { EVIDENCE_WEIGHTS } from './weights/evidence.ts';

interface Read {
  queries: Queries;
  evidence: TextEvidence;
  /** Evidence of the first page's title lines alone. */
  title: TextEvidence;
  cues: Cue[];
}

/**
 * What a classification's likelihood is learned from (`npm run train`, test/train/classify.ts), in
 * the order of the model's weights.
 */
export const CLASSIFY_FEATURES = [
  /** logit of the chosen category's share of the evidence */
  'share',
  /** log of the chosen category's evidence over the runner-up's */
  'margin',
  /** log(1 + the chosen category's evidence) */
  'evidence',
  /** the first page's title names the chosen category */
  'titled',
  /** the runner-up is named by the title too */
  'runner_up_titled',
  /** a layout cue of the chosen category (a block of totals, an abstract, …) */
  'layout',
  /** log of the number of categories asked */
  'categories',
  /** no category has any evidence (the first is only a default) */
  'no_evidence',
] as const;

export interface ClassifyOptions {
  /** The likelihood model (null: the likelihood is the chosen category's share of the evidence). */
  model: LogisticModel | null;
  /** Given each vote's features (CLASSIFY_FEATURES), for training and measuring. */
  trace?: (features: number[]) => void;
}

export function classify(request: ClassifyRequest, options: ClassifyOptions = { model: CLASSIFY_MODEL }): ClassifyResult {
  const names = request.categories.map((c) => c.name);
  const pages = docPages(request.doc, request.firstNPages);
  const pageTexts = pages.map((page) => pageLines(page));
  const lines = pageTexts.flat();
  const queries = buildQueries(request.categories, request.instructions);
  const pagesWithText = Math.max(1, pages.filter((p) => p.words.length > 0 || p.blocks.length > 0).length);
  const evidence = textEvidence(queries, lines, CLASSIFY_WEIGHTS.averagePageTokens * pagesWithText);
  const title = textEvidence(queries, titleLines(pageTexts[0] ?? []), CLASSIFY_WEIGHTS.averagePageTokens);
  const cues = [...layoutCues(pages.slice(0, CLASSIFY_WEIGHTS.cuePages), pageTexts.slice(0, CLASSIFY_WEIGHTS.cuePages)), ...formatCues(request.doc.kind)];
  const read: Read = { queries, evidence, title, cues };
  // The words of every page add up (a handbook's 83 pages of "loss" and "expense"), while its title is
  // said once ("Handbook for …"): the title counts as much more as the pages grow.
  const titleGrowth = Math.pow(pagesWithText, CLASSIFY_WEIGHTS.titleGrowth);

  const n = Math.max(1, Math.floor(request.nConsensus));
  const votes: ClassificationVote[] = [];
  for (let v = 0; v < n; v++) {
    const bag = n === 1 ? null : votedWeights(queries.features, request.seed, v, n, CLASSIFY_WEIGHTS.featureSpread);
    // A vote weighs the layout cues as it weighs words: each a little differently.
    const cueWeight = (cue: string) => (n === 1 ? 1 : jitteredWeight(request.seed, v, n, `cue:${cue}`, CLASSIFY_WEIGHTS.cueSpread));
    const titleWeight = EVIDENCE_WEIGHTS.title * titleGrowth * (n === 1 ? 1 : jitteredWeight(request.seed, v, n, 'title', CLASSIFY_WEIGHTS.cueSpread));
    votes.push(vote(read, bag, titleWeight, cueScores(queries, cues, cueWeight), names, lines.length === 0, options));
  }
  return consolidateClassification(votes, names);
}

function vote(read: Read, bag: Float64Array | null, titleWeight: number, cues: Float64Array, names: string[], noText: boolean, options: ClassifyOptions): ClassificationVote {
  const { queries, evidence } = read;
  const raw = labelScores(queries, evidence, bag);
  const titled = labelScores(queries, read.title, bag);
  for (let l = 0; l < raw.length; l++) raw[l] += titleWeight * titled[l]! + cues[l]!;
  const shares = scoreShares([...raw], CLASSIFY_WEIGHTS.prior, CLASSIFY_WEIGHTS.power);
  // The best share; equal shares go to the category given first (deterministic).
  let chosen = 0;
  for (let c = 1; c < names.length; c++) if (shares[c]! > shares[chosen]!) chosen = c;
  const runnerUp = runnerUpOf(raw, chosen);
  const top = Math.max(0, raw[chosen]!);
  const second = Math.max(0, raw[runnerUp] ?? 0);
  const features = [
    boundedLogit(shares[chosen]!),
    Math.log((1 + top) / (1 + second)),
    Math.log(1 + top),
    titled[chosen]! > 0 ? 1 : 0,
    (titled[runnerUp] ?? 0) > 0 ? 1 : 0,
    cues[chosen]! > 0 ? 1 : 0,
    Math.log(names.length),
    raw[chosen]! <= 0 ? 1 : 0,
  ];
  options.trace?.(features);
  const scores = Object.fromEntries(names.map((name, c) => [name, shares[c]!]));
  // With no evidence at all the answer is a guess among the categories, and its likelihood says so.
  const confidence = options.model && raw[chosen]! > 0 ? probabilityOf(options.model, features) : shares[chosen]!;
  return { choice: { category: names[chosen]!, reasoning: explain(read, bag, raw, shares, chosen, runnerUp, noText, confidence) }, scores, confidence };
}

/** The category with the most evidence after the chosen one (the first given among equals), or -1 when there is none. */
function runnerUpOf(raw: Float64Array, chosen: number): number {
  let runnerUp = -1;
  for (let c = 0; c < raw.length; c++) if (c !== chosen && (runnerUp < 0 || raw[c]! > raw[runnerUp]!)) runnerUp = c;
  return runnerUp;
}

const pct = (x: number) => x.toFixed(2);

/** The evidence for a category in words: the document's phrases that count most, and its layout cues. */
function because(read: Read, bag: Float64Array | null, label: number, limit: number): string {
  const quotes = decisiveQuotes(read.queries, read.evidence, label, bag, limit);
  const layout = read.cues.filter((c) => (read.queries.cues[label]!.get(c.cue) ?? 0) > 0).map((c) => c.evidence);
  const words = quotes.length > 0 ? `on the document's words ${formatQuotes(quotes)}` : '';
  const shape = layout.length > 0 ? `${words ? ' and ' : 'on '}its layout (${layout.join('; ')})` : '';
  return `${words}${shape}`;
}

function explain(read: Read, bag: Float64Array | null, raw: Float64Array, shares: number[], chosen: number, runnerUp: number, noText: boolean, confidence: number): string {
  const { queries, evidence } = read;
  const name = queries.labels[chosen]!;
  if (raw[chosen]! <= 0) {
    const why = noText ? 'The document has no readable text' : "None of the categories' words or phrases appear in the document";
    return `${why}, so there is no evidence for any category; "${name}" (the first category) is only a default, with low confidence (${pct(shares[chosen]!)}).`;
  }
  let text = `Classified as "${name}" (score ${pct(shares[chosen]!)}) ${because(read, bag, chosen, CLASSIFY_WEIGHTS.quotes)}.`;
  if (runnerUp >= 0 && raw[runnerUp]! > 0) {
    text += ` Next best "${queries.labels[runnerUp]}" (${pct(shares[runnerUp]!)}) ${because(read, bag, runnerUp, CLASSIFY_WEIGHTS.runnerUpQuotes)}.`;
  }
  // Said by the likelihood returned with the answer (learned and calibrated), not by the evidence's share:
  // among many categories a right answer's share is small.
  if (confidence < CLASSIFY_WEIGHTS.lowConfidence) text += ` Low confidence (${pct(confidence)}): the evidence is thin or shared with other categories.`;
  return text;
}
