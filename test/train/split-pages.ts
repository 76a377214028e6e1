/**
 * Fitting the learned likelihood of a split's pages (functions/models/local/split.ts,
 * SPLIT_PAGE_FEATURES) on the corpus truth, and measuring it on sources held out of fitting.
 *
 * Rows: every page of the splits the benchmark runs (assembled bundles of corpus documents and the
 * corpus files that hold several documents), and of more bundles assembled the same way; a row is
 * positive when the page's label is right. What the split decides does not depend on this model:
 * only the likelihood it gives with each page.
 *
 * Held out: for each source (repository), a model fitted on the pages of every other source gives
 * that source's pages their likelihood. Those figures are the ones reported.
 */
import type { LogisticModel } from '../../functions/models/local/logistic-model.ts';
import { SPLIT_PAGE_FEATURES } from '../../functions/models/local/split.ts';
import type { SplitCase } from '../support/corpus-eval.ts';
import { fitCalibratedModel, leaveOneSourceOutModels, type SourcedRow } from './logistic.ts';

/**
 * The L2 penalty of the fit. Strong, because the rows are far from independent: a document's pages
 * share their segment's features and one source holds about half the pages. Chosen once among 1, 3
 * and 10 by the leave-one-source-out log loss of the pages (10: 0.551 against 0.568 for the base
 * rate; 1: 0.573, worse than the base rate).
 */
export const SPLIT_LAMBDA = 10;
/** Bundles assembled for fitting (the benchmark's first BUNDLE_COUNT among them, with the same seed). */
export const TRAINING_BUNDLES = 80;

export function pageRows(cases: readonly SplitCase[]): SourcedRow[] {
  return cases.flatMap((c) => c.expected.map((name, i) => ({ source: c.sources[i]!, features: c.features[i]!, right: c.got[i] === name })));
}

export function fitSplitModel(rows: readonly SourcedRow[], fitted: Record<string, unknown>): LogisticModel {
  return fitCalibratedModel(rows, SPLIT_PAGE_FEATURES, SPLIT_LAMBDA, fitted);
}

/** One model per source, each fitted on the pages of every other source. */
export function leaveOneSourceOutSplit(rows: readonly SourcedRow[]): Map<string, LogisticModel> {
  return leaveOneSourceOutModels(rows, (kept, source) => fitSplitModel(kept, { held_out: source, pages: kept.length }));
}
