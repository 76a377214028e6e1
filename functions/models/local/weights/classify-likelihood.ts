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
    0.864703,
    0.509231,
    0.401302,
    -0.404188,
    -0.18107,
    0.113985,
    0.189584,
    -0.090575
  ],
  "bias": 0.116963,
  "fitted": {
    "documents": 229,
    "category_sets": [
      54,
      3,
      6,
      12
    ],
    "rows": 916,
    "right_rows": 838,
    "lambda": 10
  }
};
