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
    1.005565,
    0.351702,
    0.612209,
    0.099681,
    0.03411,
    0.006221,
    0.097084,
    0.14505
  ],
  "bias": -1.088606,
  "fitted": {
    "documents": 228,
    "category_sets": [
      54,
      3,
      6,
      12
    ],
    "rows": 912,
    "right_rows": 767,
    "lambda": 10
  }
};
