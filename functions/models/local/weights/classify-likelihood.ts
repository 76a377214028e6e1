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
    1.009941,
    0.477412,
    0.530598,
    0.031153,
    -0.189487,
    -0.022117,
    0.200352,
    0.059054
  ],
  "bias": -0.77502,
  "fitted": {
    "documents": 228,
    "category_sets": [
      54,
      3,
      6,
      12
    ],
    "rows": 912,
    "right_rows": 795,
    "lambda": 10
  }
};
