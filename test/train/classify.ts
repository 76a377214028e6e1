/**
 * Fitting the learned likelihood of a classification (functions/models/local/classify.ts,
 * CLASSIFY_FEATURES) on the corpus truth, and measuring it on sources held out of fitting.
 *
 * Rows: every readable corpus document classified among all the corpus categories, and among
 * smaller sets of them that hold its type (a user asks for a few categories, not 54): the likelihood
 * must mean the same whatever the number asked. A row is positive when the category chosen is the
 * document's type. What classification chooses does not depend on this model.
 */
import { classify, CLASSIFY_FEATURES } from '../../functions/models/local/classify.ts';
import type { LogisticModel } from '../../functions/models/local/logistic-model.ts';
import { DocumentProblem } from '../../functions/documents/sniff.ts';
import type { Doc } from '../../functions/documents/doc.ts';
import { corpusDoc, manifest } from '../support/corpus.ts';
import { CORPUS_CATEGORIES } from '../support/corpus-score.ts';
import { seededRandom } from '../support/pdf-fixtures.ts';
import { fitCalibratedModel, leaveOneSourceOutModels, type SourcedRow } from './logistic.ts';

/** The L2 penalty of the fit (as for split pages, and for the same reason: chosen once, not tuned). */
export const CLASSIFY_LAMBDA = 10;
/** The sizes of the smaller category sets each document is also classified among. */
export const SUBSET_SIZES = [3, 6, 12];
const SEED = 41;

export interface ClassifyRow extends SourcedRow {
  path: string;
  /** How many categories were asked. */
  asked: number;
}

/** The features of classifying `doc` among `categories` (one vote, as the API's default). */
export function classifyFeatures(doc: Doc, categories: ReadonlyArray<{ name: string; description: string }>): { category: string; features: number[] } {
  let features: number[] = [];
  const result = classify({ doc, categories: [...categories], instructions: null, firstNPages: undefined, nConsensus: 1, seed: 'corpus' }, { model: null, trace: (x) => (features = x) });
  return { category: result.output.category, features };
}

export async function classifyRows(): Promise<ClassifyRow[]> {
  const random = seededRandom(SEED);
  const rows: ClassifyRow[] = [];
  for (const entry of manifest()) {
    let doc: Doc;
    try {
      doc = await corpusDoc(entry.path);
    } catch (error) {
      if (error instanceof DocumentProblem) continue; // (an EPUB: a 422 for a user, no likelihood)
      throw error;
    }
    const own = CORPUS_CATEGORIES.find((c) => c.name === entry.type)!;
    const others = CORPUS_CATEGORIES.filter((c) => c !== own);
    const sets = [CORPUS_CATEGORIES, ...SUBSET_SIZES.map((size) => {
      const pool = [...others];
      const picked = Array.from({ length: size - 1 }, () => pool.splice(Math.floor(random() * pool.length), 1)[0]!);
      // The document's own type at a random place among them (the first category is the default of no evidence).
      picked.splice(Math.floor(random() * size), 0, own);
      return picked;
    })];
    for (const categories of sets) {
      const { category, features } = classifyFeatures(doc, categories);
      rows.push({ source: entry.source.repo, path: entry.path, asked: categories.length, features, right: category === entry.type });
    }
  }
  return rows;
}

export function fitClassifyModel(rows: readonly SourcedRow[], fitted: Record<string, unknown>): LogisticModel {
  return fitCalibratedModel(rows, CLASSIFY_FEATURES, CLASSIFY_LAMBDA, fitted);
}

/** One model per source, each fitted on the rows of every other source. */
export function leaveOneSourceOutClassify(rows: readonly SourcedRow[]): Map<string, LogisticModel> {
  return leaveOneSourceOutModels(rows, (kept, source) => fitClassifyModel(kept, { held_out: source, rows: kept.length }));
}
