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
    0.437275,
    0.05735,
    -0.003183,
    -1.075052,
    0.010827,
    0.04924,
    0.004508,
    -0.081301,
    -0.21128,
    0.22938,
    0.010134,
    0.122529
  ],
  "bias": 1.012607,
  "fitted": {
    "bundles": 80,
    "corpus_bundles": 5,
    "pages": 1222,
    "right_pages": 1021,
    "lambda": 10
  },
  "calibration": {
    "scale": 0.42432,
    "shift": 0.823019
  }
};
