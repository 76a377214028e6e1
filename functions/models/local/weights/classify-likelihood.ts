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
    0.85653,
    0.468784,
    0.431832,
    -0.410611,
    -0.196462,
    0.192511,
    0.197015,
    -0.082462
  ],
  "bias": 0.042989,
  "fitted": {
    "documents": 229,
    "category_sets": [
      54,
      3,
      6,
      12
    ],
    "rows": 916,
    "right_rows": 843,
    "lambda": 10
  },
  "calibration": {
    "scale": 0.914093,
    "shift": 0.016417
  }
};
