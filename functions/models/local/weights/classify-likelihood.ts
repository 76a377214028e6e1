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
    0.787245,
    0.451237,
    0.421726,
    -0.5091,
    -0.079608,
    0.207538,
    0.140785,
    -0.028818
  ],
  "bias": 0.335913,
  "fitted": {
    "documents": 229,
    "category_sets": [
      54,
      3,
      6,
      12
    ],
    "rows": 916,
    "right_rows": 855,
    "lambda": 10
  },
  "calibration": {
    "scale": 0.970862,
    "shift": -0.162439
  }
};
