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
    0.815949,
    0.441869,
    0.395979,
    -0.475181,
    -0.06768,
    0.188611,
    0.151588,
    -0.029475
  ],
  "bias": 0.359488,
  "fitted": {
    "documents": 229,
    "category_sets": [
      54,
      3,
      6,
      12
    ],
    "rows": 916,
    "right_rows": 854,
    "lambda": 10
  },
  "calibration": {
    "scale": 0.957319,
    "shift": -0.124561
  }
};
