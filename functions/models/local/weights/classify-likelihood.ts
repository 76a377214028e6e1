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
    0.881845,
    0.368923,
    0.477996,
    -0.356936,
    -0.155926,
    -0.013559,
    0.158221,
    -0.055509
  ],
  "bias": -0.028708,
  "fitted": {
    "documents": 229,
    "category_sets": [
      54,
      3,
      6,
      12
    ],
    "rows": 916,
    "right_rows": 833,
    "lambda": 10
  }
};
