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
    0.83365,
    0.505046,
    0.418715,
    -0.425442,
    -0.213519,
    0.146507,
    0.178396,
    -0.095954
  ],
  "bias": 0.124257,
  "fitted": {
    "documents": 229,
    "category_sets": [
      54,
      3,
      6,
      12
    ],
    "rows": 916,
    "right_rows": 840,
    "lambda": 10
  },
  "calibration": {
    "scale": 0.923553,
    "shift": 0.022726
  }
};
