/**
 * `npm run train`: fits the learned parts of the built-in engine on the corpus truth and writes their
 * weights as data files of functions/models/local/weights/. Deterministic: the same truth and code
 * give the same file. Review its diff like code; `npm run bench -- accuracy` measures it on sources
 * held out of fitting.
 *
 *   candidates    the scoring of extraction candidates (functions/models/local/learned.ts)
 *   split-pages   the likelihood of a split's pages (functions/models/local/split.ts)
 *   classify      the likelihood of a classification (functions/models/local/classify.ts)
 *
 * `npm run train` fits them all; `npm run train -- split-pages` one.
 */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { FEATURE_NAMES } from '../../functions/models/local/learned.ts';
import { REPO_ROOT } from '../../lib/local/invoker.ts';
import { corpusAvailable, extractionTruths, splitTruths } from '../support/corpus.ts';
import { CORPUS_CATEGORIES, SCHEMA_VARIANTS } from '../support/corpus-score.ts';
import { splitCases } from '../bench/accuracy.ts';
import { fitModel, LAMBDA, WRONG_COST, trainingSet } from './candidates.ts';
import { fitSplitModel, pageRows, SPLIT_LAMBDA, TRAINING_BUNDLES } from './split-pages.ts';
import { CLASSIFY_LAMBDA, classifyRows, fitClassifyModel, SUBSET_SIZES } from './classify.ts';
import type { LogisticModel } from '../../functions/models/local/logistic-model.ts';

if (!corpusAvailable()) throw new Error('npm run train needs ../shared/corpus');
const TARGETS = ['candidates', 'split-pages', 'classify'];
const asked = process.argv.slice(2);
for (const target of asked) if (!TARGETS.includes(target)) throw new Error(`npm run train: no target ${target} (targets: ${TARGETS.join(', ')})`);
const wanted = (target: string) => asked.length === 0 || asked.includes(target);

if (wanted('candidates')) await trainCandidates();
if (wanted('split-pages')) await trainSplitPages();
if (wanted('classify')) await trainClassify();

async function trainCandidates(): Promise<void> {
  const started = performance.now();
  const truths = extractionTruths();
  const set = await trainingSet(truths, SCHEMA_VARIANTS);
  const positives = set.rows.filter((r) => r.right).length;
  const model = fitModel(set.rows, {
    documents: truths.length,
    wordings: SCHEMA_VARIANTS.length,
    fields: set.groups.size,
    values: set.rows.length,
    right_values: positives,
    lambda: LAMBDA,
    wrong_cost: WRONG_COST,
  });

  const file = join(REPO_ROOT, 'functions/models/local/weights/candidates.ts');
  const source = `/**
 * The learned scoring of extraction candidates (../learned.ts): written by \`npm run train\`
 * (test/train/candidates.ts) from the corpus truth, never by hand. One weight per feature, by name.
 */
import type { CandidateModel } from '../learned.ts';

export const CANDIDATE_MODEL: CandidateModel | null = ${JSON.stringify(model, null, 2)};
`;
  writeFileSync(file, source);
  console.log(`candidates: ${set.rows.length} values given by the hand-set choice (${positives} right) of ${set.groups.size} fields, ${((performance.now() - started) / 1000).toFixed(0)} s; threshold ${model.threshold}`);
  const ranked = FEATURE_NAMES.map((name, i) => [name, model.weights[i]!] as const).sort((a, b) => Math.abs(b[1]) - Math.abs(a[1]));
  for (const [name, w] of ranked.slice(0, 12)) console.log(`   ${w >= 0 ? '+' : ''}${w.toFixed(3)}  ${name}`);
  console.log(`wrote ${file}`);
}

/** Writes a learned likelihood's data file (functions/models/local/weights/) and prints its weights. */
function writeModel(name: string, constant: string, what: string, trainer: string, model: LogisticModel): void {
  const file = join(REPO_ROOT, `functions/models/local/weights/${name}.ts`);
  writeFileSync(
    file,
    `/**
 * ${what}: written by
 * \`npm run train\` (${trainer}) from the corpus truth, never by hand.
 */
import type { LogisticModel } from '../logistic-model.ts';

export const ${constant}: LogisticModel | null = ${JSON.stringify(model, null, 2)};
`,
  );
  model.features.forEach((feature, i) => console.log(`   ${model.weights[i]! >= 0 ? '+' : ''}${model.weights[i]!.toFixed(3)}  ${feature}`));
  if (model.calibration) console.log(`   calibrated for a new source: sigmoid(${model.calibration.shift.toFixed(3)} + ${model.calibration.scale.toFixed(3)} × score)`);
  console.log(`   ${model.bias >= 0 ? '+' : ''}${model.bias.toFixed(3)}  (bias)\nwrote ${file}`);
}

async function trainSplitPages(): Promise<void> {
  const started = performance.now();
  const rows = pageRows((await splitCases()).training);
  const right = rows.filter((r) => r.right).length;
  const model = fitSplitModel(rows, { bundles: TRAINING_BUNDLES, corpus_bundles: splitTruths().length, pages: rows.length, right_pages: right, lambda: SPLIT_LAMBDA });
  console.log(`split-pages: ${rows.length} pages (${right} right), ${((performance.now() - started) / 1000).toFixed(0)} s`);
  writeModel('split-pages', 'SPLIT_PAGE_MODEL', "The learned likelihood of a split's pages (../split.ts, SPLIT_PAGE_FEATURES)", 'test/train/split-pages.ts', model);
}

async function trainClassify(): Promise<void> {
  const started = performance.now();
  const rows = await classifyRows();
  const right = rows.filter((r) => r.right).length;
  const model = fitClassifyModel(rows, { documents: new Set(rows.map((r) => r.path)).size, category_sets: [CORPUS_CATEGORIES.length, ...SUBSET_SIZES], rows: rows.length, right_rows: right, lambda: CLASSIFY_LAMBDA });
  console.log(`classify: ${rows.length} classifications (${right} right), ${((performance.now() - started) / 1000).toFixed(0)} s`);
  writeModel('classify-likelihood', 'CLASSIFY_MODEL', 'The learned likelihood of a classification (../classify.ts, CLASSIFY_FEATURES)', 'test/train/classify.ts', model);
}
