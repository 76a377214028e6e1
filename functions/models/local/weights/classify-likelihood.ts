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
    0.834344,
    0.410534,
    0.482234,
    -0.516188,
    -0.117818,
    0.219673,
    0.131222,
    -0.088055
  ],
  "bias": 0.156806,
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
    "scale": 0.938259,
    "shift": -0.046024
  }
};
