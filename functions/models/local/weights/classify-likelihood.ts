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
    0.840557,
    0.409133,
    0.475932,
    -0.504897,
    -0.119589,
    0.242618,
    0.136426,
    -0.085494
  ],
  "bias": 0.141022,
  "fitted": {
    "documents": 229,
    "category_sets": [
      54,
      3,
      6,
      12
    ],
    "rows": 916,
    "right_rows": 847,
    "lambda": 10
  },
  "calibration": {
    "scale": 0.943968,
    "shift": -0.061728
  }
};
