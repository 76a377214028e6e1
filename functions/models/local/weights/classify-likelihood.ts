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
    0.864418,
    0.450265,
    0.428313,
    -0.412955,
    -0.19793,
    0.195698,
    0.194821,
    -0.085357
  ],
  "bias": 0.075726,
  "fitted": {
    "documents": 229,
    "category_sets": [
      54,
      3,
      6,
      12
    ],
    "rows": 916,
    "right_rows": 844,
    "lambda": 10
  },
  "calibration": {
    "scale": 0.914487,
    "shift": 0.013379
  }
};
