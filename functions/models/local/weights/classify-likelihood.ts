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
    1.032925,
    0.545811,
    0.446704,
    -0.012654,
    -0.202239,
    -0.103353,
    0.313079,
    0.022557
  ],
  "bias": -0.598628,
  "fitted": {
    "documents": 228,
    "category_sets": [
      54,
      3,
      6,
      12
    ],
    "rows": 912,
    "right_rows": 818,
    "lambda": 10
  }
};
