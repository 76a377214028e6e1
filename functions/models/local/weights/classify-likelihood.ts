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
    0.839872,
    0.409556,
    0.47623,
    -0.50463,
    -0.119373,
    0.242218,
    0.136094,
    -0.085542
  ],
  "bias": 0.140918,
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
    "scale": 0.944009,
    "shift": -0.062004
  }
};
