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
    1.028789,
    0.544851,
    0.548416,
    0.091169,
    -0.108649,
    -0.104603,
    0.188564,
    0.070674
  ],
  "bias": -0.9467,
  "fitted": {
    "documents": 228,
    "category_sets": [
      54,
      3,
      6,
      12
    ],
    "rows": 912,
    "right_rows": 783,
    "lambda": 10
  }
};
