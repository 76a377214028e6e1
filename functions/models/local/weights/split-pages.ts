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
    0.44094,
    0.020797,
    -0.034167,
    -1.10628,
    0.007656,
    0.056703,
    0.00989,
    -0.034744,
    -0.194114,
    0.22744,
    0.019272,
    0.124205
  ],
  "bias": 1.076974,
  "fitted": {
    "bundles": 80,
    "corpus_bundles": 5,
    "pages": 1222,
    "right_pages": 1022,
    "lambda": 10
  },
  "calibration": {
    "scale": 0.421281,
    "shift": 0.831416
  }
};
