/**
 * The learned likelihood of a split's pages (../split.ts, SPLIT_PAGE_FEATURES): written by
 * `npm run train` (test/train/split-pages.ts) from the corpus truth, never by hand.
 */
import type { LogisticModel } from '../logistic-model.ts';

export const SPLIT_PAGE_MODEL: LogisticModel | null = {
  "features": [
    "segment_share",
    "segment_margin",
    "segment_pages",
    "is_other",
    "chain_posterior",
    "chain_agrees",
    "page_agrees",
    "page_short",
    "segment_agreement",
    "segment_mixed_paper",
    "other_share",
    "other_margin"
  ],
  "weights": [
    0.502141,
    0.068551,
    0.011256,
    -1.111848,
    -0.008036,
    -0.035425,
    0.029114,
    -0.055878,
    -0.182102,
    0.272788,
    -0.00151,
    0.097992
  ],
  "bias": 0.93051,
  "fitted": {
    "bundles": 80,
    "corpus_bundles": 5,
    "pages": 1222,
    "right_pages": 1011,
    "lambda": 10
  },
  "calibration": {
    "scale": 0.493267,
    "shift": 0.667517
  }
};
