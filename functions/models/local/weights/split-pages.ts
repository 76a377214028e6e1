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
    0.438979,
    0.019508,
    -0.0275,
    -1.111618,
    0.006971,
    0.039312,
    0.024944,
    -0.031545,
    -0.154707,
    0.228843,
    0.019758,
    0.123655
  ],
  "bias": 1.048391,
  "fitted": {
    "bundles": 80,
    "corpus_bundles": 5,
    "pages": 1222,
    "right_pages": 1022,
    "lambda": 10
  },
  "calibration": {
    "scale": 0.419093,
    "shift": 0.834352
  }
};
