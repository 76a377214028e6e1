/**
 * `npm run train`: fits the learned parts of the built-in engine on the corpus truth and writes their
 * weights as data files of functions/models/local/weights/. Deterministic: the same truth and code
 * give the same file. Review its diff like code; `npm run bench -- accuracy` measures it on sources
 * held out of fitting.
 *
 *   candidates    the scoring of extraction candidates (functions/models/local/learned.ts)
 *   split-pages   the likelihood of a split's pages (functions/models/local/split.ts)
 *
 * `npm run train` fits both; `npm run train -- split-pages` one.
 */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { FEATURE_NAMES } from '../../functions/models/local/learned.ts';
import { REPO_ROOT } from '../../lib/local/invoker.ts';
import { corpusAvailable, extractionTruths, splitTruths } from '../support/corpus.ts';
import { SCHEMA_VARIANTS } from '../support/corpus-score.ts';
import { BUNDLE_SEED, bundleSources } from '../bench/accuracy.ts';
import { evaluateBundles, evaluateCorpusBundles } from '../support/corpus-eval.ts';
import { makeBundles } from '../support/corpus-score.ts';
import { fitModel, LAMBDA, WRONG_COST, trainingSet } from './candidates.ts';
import { fitSplitModel, pageRows, SPLIT_LAMBDA, TRAINING_BUNDLES } from './split-pages.ts';

if (!corpusAvailable()) throw new Error('npm run train needs ../shared/corpus');
const TARGETS = ['candidates', 'split-pages'];
const asked = process.argv.slice(2);
for (const target of asked) if (!TARGETS.includes(target)) throw new Error(`npm run train: no target ${target} (targets: ${TARGETS.join(', ')})`);
const wanted = (target: string) => asked.length === 0 || asked.includes(target);

if (wanted('candidates')) await trainCandidates();
if (wanted('split-pages')) await trainSplitPages();

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

async function trainSplitPages(): Promise<void> {
  const started = performance.now();
  const cases = [...(await evaluateBundles(makeBundles(bundleSources(), TRAINING_BUNDLES, BUNDLE_SEED))), ...(await evaluateCorpusBundles(splitTruths()))];
  const rows = pageRows(cases);
  const model = fitSplitModel(rows, { bundles: TRAINING_BUNDLES, corpus_bundles: splitTruths().length, pages: rows.length, right_pages: rows.filter((r) => r.right).length, lambda: SPLIT_LAMBDA });
  const file = join(REPO_ROOT, 'functions/models/local/weights/split-pages.ts');
  writeFileSync(
    file,
    `/**
 * The learned likelihood of a split's pages (../split.ts, SPLIT_PAGE_FEATURES): written by
 * \`npm run train\` (test/train/split-pages.ts) from the corpus truth, never by hand.
 */
import type { SplitPageModel } from '../split.ts';

export const SPLIT_PAGE_MODEL: SplitPageModel | null = ${JSON.stringify(model, null, 2)};
`,
  );
  console.log(`split-pages: ${rows.length} pages (${model.fitted.right_pages} right), ${((performance.now() - started) / 1000).toFixed(0)} s`);
  model.features.forEach((name, i) => console.log(`   ${model.weights[i]! >= 0 ? '+' : ''}${model.weights[i]!.toFixed(3)}  ${name}`));
  console.log(`   ${model.bias >= 0 ? '+' : ''}${model.bias.toFixed(3)}  (bias)\nwrote ${file}`);
}
