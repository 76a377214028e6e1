/**
 * `npm run train`: fits the learned parts of the built-in engine on the corpus truth and writes their
 * weights as data files of functions/models/local/weights/. Deterministic: the same truth and code
 * give the same file. Review its diff like code; `npm run bench -- accuracy` measures it on sources
 * held out of fitting.
 *
 *   candidates   the scoring of extraction candidates (functions/models/local/learned.ts)
 */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { FEATURE_NAMES } from '../../functions/models/local/learned.ts';
import { REPO_ROOT } from '../../lib/local/invoker.ts';
import { corpusAvailable, extractionTruths } from '../support/corpus.ts';
import { SCHEMA_VARIANTS } from '../support/corpus-score.ts';
import { fitModel, LAMBDA, WRONG_COST, trainingSet } from './candidates.ts';

if (!corpusAvailable()) throw new Error('npm run train needs ../shared/corpus');

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
