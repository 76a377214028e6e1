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
    0.786547,
    0.449927,
    0.422864,
    -0.51066,
    -0.080328,
    0.209158,
    0.138611,
    -0.029005
  ],
  "bias": 0.340873,
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
    "scale": 0.971092,
    "shift": -0.16301
  }
};
