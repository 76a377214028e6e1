/**
 * Fitting the learned scoring of extraction candidates (functions/models/local/learned.ts) on the
 * corpus truth, and measuring it on sources held out of fitting.
 *
 * Rows: the value the engine gives each header field (its hand-set choice, with no model: what it
 * chooses does not depend on the model), on every truth document × schema wording; a row is
 * positive when the value is right for the field by the benchmark's own judgement
 * (test/support/corpus-score.ts). A field the document does not print has no right value: any value
 * there is wrong, which is what teaches the model to leave such fields null. A field given no value
 * has no row (there is nothing to judge), but counts among the fields the threshold's budget is of.
 *
 * Held out: for each source (repository), a model fitted on the rows of every other source scores
 * that source's documents, through the whole engine. Those figures are the ones reported.
 */
import type { Doc } from '../../functions/documents/doc.ts';
import { extract, type TracedCandidate } from '../../functions/models/local/extract.ts';
import { type CandidateModel, FEATURE_NAMES } from '../../functions/models/local/learned.ts';
import { corpusDoc, type ExtractionTruth, manifest } from '../support/corpus.ts';
import { judgeField, type SchemaVariant, type TruthField, truthFieldsOf } from '../support/corpus-score.ts';
import { fitLogistic, plattScaling } from './logistic.ts';

/**
 * What a wrong value costs, in missing ones: a confident wrong value is worse than an honest null
 * (a user trusts it). A value right with probability p is worth keeping when p > (1 - p) × WRONG_COST,
 * so the threshold on the calibrated probability is WRONG_COST / (1 + WRONG_COST): 2/3. It is a
 * decision rule, not a number fitted to the corpus.
 */
export const WRONG_COST = 2;
export const THRESHOLD = WRONG_COST / (1 + WRONG_COST);
/** The L2 penalty of the fit: chosen once (not tuned on held-out figures). */
export const LAMBDA = 1;

export interface Row {
  source: string;
  /** Document × wording × field (a scan's two readings each give a row). */
  group: string;
  features: number[];
  right: boolean;
}

export interface Group {
  source: string;
  /** Whether the document prints the field (else the only right answer is null). */
  printed: boolean;
}

export interface TrainingSet {
  rows: Row[];
  /** Every field of every document × wording, with or without candidates. */
  groups: Map<string, Group>;
}

function sameKeys(a: readonly string[], b: readonly string[]): boolean {
  return a.length === b.length && a.every((k, i) => k === b[i]);
}

/** The rows of one document under one wording. */
function rowsOf(doc: Doc, truth: ExtractionTruth, variant: SchemaVariant, source: string, set: TrainingSet): void {
  const traced: TracedCandidate[] = [];
  extract({ doc, schema: variant.schema, instructions: null, nConsensus: 1, seed: 'corpus' }, { model: null, trace: (row) => traced.push(row) });
  for (const field of truthFieldsOf(truth)) {
    const group = `${truth.path}|${variant.name}|${field}`;
    set.groups.set(group, { source, printed: truth.fields[field] !== null && truth.fields[field] !== undefined });
    for (const row of traced) {
      if (!row.kept || !sameKeys(row.path, variant.fields[field as TruthField])) continue;
      set.rows.push({ source, group, features: row.features, right: judgeField(truth, field, row.value) === 'right' });
    }
  }
}

export async function trainingSet(truths: readonly ExtractionTruth[], variants: readonly SchemaVariant[]): Promise<TrainingSet> {
  const sources = new Map(manifest().map((e) => [e.path, e.source.repo]));
  const set: TrainingSet = { rows: [], groups: new Map() };
  for (const truth of truths) {
    const doc = await corpusDoc(truth.path);
    for (const variant of variants) rowsOf(doc, truth, variant, sources.get(truth.path)!, set);
  }
  return set;
}

const sigmoid = (z: number) => 1 / (1 + Math.exp(-z));

function fitRows(rows: readonly Row[]): (x: readonly number[]) => number {
  const { weights, bias } = fitLogistic(
    rows.map((r) => r.features),
    rows.map((r) => (r.right ? 1 : 0)),
    LAMBDA,
  );
  return (x) => sigmoid(bias + x.reduce((s, v, i) => s + v * weights[i]!, 0));
}

/**
 * Fits the model on these rows. Its calibration is fitted on out-of-fold probabilities — each
 * source's rows scored by a model fitted without that source — so that its likelihoods hold on
 * documents of a new source, not only on the ones the weights were fitted on (which a model always
 * finds easier). Its threshold is the decision rule THRESHOLD on those likelihoods.
 */
export function fitModel(rows: readonly Row[], fitted: Record<string, unknown>): CandidateModel {
  const { weights, bias } = fitLogistic(
    rows.map((r) => r.features),
    rows.map((r) => (r.right ? 1 : 0)),
    LAMBDA,
  );
  const outOfFold = new Array<number>(rows.length).fill(0);
  for (const source of new Set(rows.map((r) => r.source))) {
    const score = fitRows(rows.filter((r) => r.source !== source));
    rows.forEach((r, i) => {
      if (r.source === source) outOfFold[i] = score(r.features);
    });
  }
  // Platt scaling: how the out-of-fold probabilities relate to being right on a new source, fitted
  // once more (a fit on a source's own rows is surer of itself than it should be). A source counts by
  // the square root of its rows (its documents are alike and easy). Measured (README): by rows,
  // held-out likelihoods above 0.9 were 97.6% right with 2.3% of fields wrong; every source the same,
  // 99.7% and 1.2% but 74.2% right; by the square root, between.
  const logit = (p: number) => Math.log(Math.max(1e-6, p) / Math.max(1e-6, 1 - p));
  const calibration = plattScaling(rows, outOfFold.map(logit));
  const threshold = THRESHOLD;
  // The business fields it has seen values of: the only ones it judges.
  const concepts = FEATURE_NAMES.flatMap((name, i) => (name.startsWith('concept:') && name !== 'concept:none' && rows.some((r) => r.features[i] === 1) ? [name.slice('concept:'.length)] : []));
  return { features: [...FEATURE_NAMES], weights, bias: Math.round(bias * 1e6) / 1e6, calibration, threshold: Math.round(threshold * 1e6) / 1e6, concepts, fitted };
}

/** One model per source, each fitted on the rows of every other source. */
export function leaveOneSourceOut(set: TrainingSet): Map<string, CandidateModel> {
  const sources = [...new Set([...set.groups.values()].map((g) => g.source))].sort();
  const models = new Map<string, CandidateModel>();
  for (const source of sources) {
    const rows = set.rows.filter((r) => r.source !== source);
    const groups = new Map([...set.groups].filter(([, g]) => g.source !== source));
    models.set(source, fitModel(rows, { held_out: source, rows: rows.length, fields: groups.size }));
  }
  return models;
}
