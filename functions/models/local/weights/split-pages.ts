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
    0.396252,
    -0.00608,
    -0.006425,
    -1.140837,
    0.013259,
    0.382687,
    0.007346,
    0.0596,
    -0.195249,
    0.236726,
    0.038461,
    0.131443
  ],
  "bias": 0.835982,
  "fitted": {
    "bundles": 80,
    "corpus_bundles": 5,
    "pages": 1222,
    "right_pages": 1023,
    "lambda": 10
  },
  "calibration": {
    "scale": 0.411687,
    "shift": 0.843571
  }
};
