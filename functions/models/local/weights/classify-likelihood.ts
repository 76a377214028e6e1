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
    0.855661,
    0.469737,
    0.430095,
    -0.408419,
    -0.194502,
    0.199683,
    0.196537,
    -0.082452
  ],
  "bias": 0.042501,
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
    "scale": 0.913626,
    "shift": 0.016634
  }
};
