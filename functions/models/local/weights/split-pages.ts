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
    0.515096,
    0.132094,
    -0.082751,
    -1.048698,
    -0.004311,
    0.143865,
    -0.044937,
    -0.119936,
    -0.365209,
    -0.094221,
    -0.050548,
    0.083349
  ],
  "bias": 1.040156,
  "fitted": {
    "bundles": 80,
    "corpus_bundles": 5,
    "pages": 1222,
    "right_pages": 1001,
    "lambda": 10
  },
  "calibration": {
    "scale": 0.540176,
    "shift": 0.577837
  }
};
