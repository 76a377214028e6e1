/**
 * The learned likelihood of a classification (../classify.ts, CLASSIFY_FEATURES): written by
 * `npm run train` (test/train/classify.ts) from the corpus truth, never by hand.
 */
import type { LogisticModel } from '../logistic-model.ts';

export const CLASSIFY_MODEL: LogisticModel | null = {
  "features": [
    "share",
    "margin",
    "evidence",
    "titled",
    "runner_up_titled",
    "layout",
    "categories",
    "no_evidence"
  ],
  "weights": [
    0.989049,
    0.49964,
    0.55891,
    0.110899,
    -0.11713,
    -0.075807,
    0.136422,
    0.038532
  ],
  "bias": -0.833007,
  "fitted": {
    "documents": 228,
    "category_sets": [
      54,
      3,
      6,
      12
    ],
    "rows": 912,
    "right_rows": 786,
    "lambda": 10
  }
};
