/**
 * Learned scoring of extraction candidates (issue 41). Where several values compete for one field
 * (./extract.ts: the values near its labels, and the business reading's candidates for the fields it
 * reads), each candidate is described by general features — how well its label matches the field's
 * words, where the value sits from the label, what the business reading thought of it, the field's
 * kind and concept, how it ranks among the field's other candidates, what the value looks like — and
 * a logistic model turns them into the probability that the value is right for the field.
 *
 * That probability orders the candidates and is the likelihood the API returns: it is calibrated on
 * the corpus (the benchmark prints the reliability table on sources held out of fitting). A field
 * whose best candidate is below the model's threshold is null: the threshold is chosen so that, on
 * the sources it was fitted on, at most MAX_WRONG of the fields get a wrong value.
 *
 * The weights are data (./weights/candidates.ts), written by `npm run train` (test/train/), never
 * by hand. Without a model there the engine scores candidates as before (the hand-set weights).
 */
import { CANDIDATE_MODEL } from './weights/candidates.ts';
import type { PhraseSource } from './extract-words.ts';
import type { Placement } from './extract-labels.ts';

/** What the extraction knows of one candidate when it is scored. */
export interface CandidateFacts {
  /** The hand-set score (label similarity × placement × phrase source × reading fit), 0..1. */
  base: number;
  similarity: number;
  fit: number;
  factor: number;
  placement: Placement;
  source: PhraseSource | undefined;
  /** From the business reading (./business.ts): its score, its rank in its list, and whether other amounts confirm it. */
  business?: { score: number; rank: number; corroborated: boolean };
  /** The field: its business concept (when the business reading reads it) and what kind of value it takes. */
  concept: string | undefined;
  kind: { number: boolean; date: boolean; enum: boolean; identifier: boolean; name: boolean };
  /** Among the field's candidates: this one's rank by `base` (0 = best), the best other `base`, how many there are. */
  rank: number;
  bestOther: number;
  count: number;
  /** The value as printed. */
  text: string;
}

/** The concepts the business reading reads, each a feature of its own. */
const CONCEPTS = ['vendor_name', 'customer_name', 'document_number', 'issue_date', 'due_date', 'total', 'subtotal', 'tax', 'balance_due', 'currency'];
const PLACEMENTS: Placement[] = ['colon', 'inline', 'prose', 'right', 'below', 'cellRight', 'cellBelow', 'block', 'letterhead', 'unlabeled'];
const SOURCES: Array<PhraseSource | 'none'> = ['key', 'title', 'description', 'synonym', 'parent', 'none'];

/** The features, by name, in the order of the model's weights. */
export const FEATURE_NAMES: readonly string[] = [
  'base',
  'similarity',
  'fit',
  'factor',
  ...PLACEMENTS.map((p) => `placement:${p}`),
  ...SOURCES.map((s) => `source:${s}`),
  'business',
  'business:score',
  'business:first',
  'business:corroborated',
  ...CONCEPTS.map((c) => `concept:${c}`),
  'concept:none',
  'kind:number',
  'kind:date',
  'kind:enum',
  'kind:identifier',
  'kind:name',
  'rank:first',
  'rank:inverse',
  'margin',
  'count',
  'value:chars',
  'value:digits',
  'value:words',
];

export function featuresOf(f: CandidateFacts): number[] {
  const digits = f.text.replace(/\D/g, '').length;
  const chars = f.text.replace(/\s/g, '').length;
  const words = f.text.trim().split(/\s+/).filter(Boolean).length;
  const one = (yes: boolean) => (yes ? 1 : 0);
  return [
    f.base,
    Math.min(f.similarity, 1.5),
    f.fit,
    f.factor,
    ...PLACEMENTS.map((p) => one(f.placement === p)),
    ...SOURCES.map((s) => one((f.source ?? 'none') === s)),
    one(f.business !== undefined),
    f.business?.score ?? 0,
    one(f.business?.rank === 0),
    one(f.business?.corroborated === true),
    ...CONCEPTS.map((c) => one(f.concept === c)),
    one(f.concept === undefined),
    one(f.kind.number),
    one(f.kind.date),
    one(f.kind.enum),
    one(f.kind.identifier),
    one(f.kind.name),
    one(f.rank === 0),
    1 / (1 + f.rank),
    f.base - f.bestOther,
    Math.log1p(f.count) / Math.log(25),
    Math.min(chars, 60) / 60,
    chars === 0 ? 0 : digits / chars,
    Math.min(words, 10) / 10,
  ];
}

/** A fitted logistic model (./weights/candidates.ts). */
export interface CandidateModel {
  /** The feature names it was fitted with (must equal FEATURE_NAMES, in order). */
  features: string[];
  weights: number[];
  bias: number;
  /** A field's best candidate below this probability leaves the field null. */
  threshold: number;
  /** What it was fitted on, for whoever reads the file. */
  fitted: Record<string, unknown>;
}

export function probability(model: CandidateModel, x: readonly number[]): number {
  let z = model.bias;
  for (let i = 0; i < x.length; i++) z += model.weights[i]! * x[i]!;
  return 1 / (1 + Math.exp(-z));
}

/** The model fitted on the whole corpus (null when none was trained, or when it no longer fits the features). */
export function shippedModel(): CandidateModel | null {
  const model = CANDIDATE_MODEL;
  if (!model) return null;
  return model.features.length === FEATURE_NAMES.length && model.features.every((name, i) => name === FEATURE_NAMES[i]) ? model : null;
}
