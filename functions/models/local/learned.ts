/**
 * How sure the built-in engine is of a value it extracted (issue 41). A field's candidates compete
 * by the hand-set score (./extract.ts); the value a field gets is then described by general
 * features — how well its label matches the field's words, where the value sits from the label,
 * what the business reading thought of it, the field's kind and concept, how far it led the field's
 * other candidates, what the value looks like — and a logistic model, fitted on exactly such chosen
 * values of the corpus, turns them into the probability that the value is right.
 *
 * That probability is the likelihood the API returns (the benchmark prints the reliability table on
 * sources held out of fitting). Below the model's threshold the field is null: the threshold is
 * chosen so that, on the sources it was fitted on, at most MAX_WRONG of the fields get a wrong value.
 *
 * The weights are data (./weights/candidates.ts), written by `npm run train` (test/train/), never
 * by hand. Without a model there the engine scores candidates as before (the hand-set weights).
 */
import { COMPANY_ENDINGS } from '../knowledge/fields.ts';
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
  /** Where the value is: read by OCR, on the first page, how far down its page (0 top … 1 bottom; undefined without geometry). */
  where: { ocr: boolean; firstPage: boolean; top: number | undefined };
  /** The share of the value's words that are label words of the schema or the lexicon ("Bill To", "Invoice"). */
  labelWords: number;
  /** The share of the field's candidates that read the same value. */
  agreement: number;
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
  'value:company_ending',
  'value:upper',
  'value:label_words',
  'where:ocr',
  'where:first_page',
  'where:top',
  'where:no_geometry',
  'agreement',
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
    one(COMPANY_ENDING.test(f.text.trim())),
    chars === 0 ? 0 : f.text.replace(/[^\p{Lu}]/gu, '').length / chars,
    f.labelWords,
    one(f.where.ocr),
    one(f.where.firstPage),
    f.where.top ?? 0,
    one(f.where.top === undefined),
    f.agreement,
  ];
}

/** A name ending like a company's ("… GmbH", "… Sdn Bhd", "… Trading"): ../knowledge/fields.ts COMPANY_ENDINGS. */
const COMPANY_ENDING = new RegExp(
  `(^|\\s)(${COMPANY_ENDINGS.split(',')
    .map((w) => w.trim().replace(/[.*+?^${}()|[\]\\/]/g, '\\$&'))
    .filter(Boolean)
    .join('|')})$`,
  'i',
);

/** A fitted logistic model (./weights/candidates.ts). */
export interface CandidateModel {
  /** The feature names it was fitted with (must equal FEATURE_NAMES, in order). */
  features: string[];
  weights: number[];
  bias: number;
  /**
   * Platt scaling of the model's probability to what it is worth on a new source: p' = sigmoid(shift
   * + scale × logit(p)), fitted on out-of-fold probabilities (a model is surer on the sources it was
   * fitted on than it should be).
   */
  calibration: { scale: number; shift: number };
  /** A field's value below this (calibrated) probability leaves the field null. */
  threshold: number;
  /**
   * The business fields (../knowledge/fields.ts concepts) it was fitted on. It judges only the values
   * of fields that ask for one of these: of any other field it knows nothing, and the engine's own
   * score stays the likelihood.
   */
  concepts: string[];
  /** What it was fitted on, for whoever reads the file. */
  fitted: Record<string, unknown>;
}

/** The calibrated probability that a value with these features is right. */
export function probability(model: CandidateModel, x: readonly number[]): number {
  let z = model.bias;
  for (let i = 0; i < x.length; i++) z += model.weights[i]! * x[i]!;
  // logit(sigmoid(z)) = z
  return 1 / (1 + Math.exp(-(model.calibration.shift + model.calibration.scale * z)));
}

/** Whether the model judges the value of a field that asks for `concept` (undefined: no business field). */
export function judges(model: CandidateModel, concept: string | undefined): boolean {
  return concept !== undefined && model.concepts.includes(concept);
}

/** The model fitted on the whole corpus (null when none was trained, or when it no longer fits the features). */
export function shippedModel(): CandidateModel | null {
  const model = CANDIDATE_MODEL;
  if (!model) return null;
  return Array.isArray(model.concepts) && model.features.length === FEATURE_NAMES.length && model.features.every((name, i) => name === FEATURE_NAMES[i]) ? model : null;
}
