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
    0.817224,
    0.441968,
    0.397206,
    -0.47561,
    -0.068091,
    0.18777,
    0.15159,
    -0.029064
  ],
  "bias": 0.354616,
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
    "scale": 0.958273,
    "shift": -0.126549
  }
};
