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
    0.49611,
    0.103885,
    -0.047843,
    -1.014086,
    0.003925,
    0.152519,
    -0.042984,
    -0.07899,
    -0.348191,
    0.419638,
    -0.048457,
    0.079821
  ],
  "bias": 0.979685,
  "fitted": {
    "bundles": 80,
    "corpus_bundles": 5,
    "pages": 1222,
    "right_pages": 1007,
    "lambda": 10
  },
  "calibration": {
    "scale": 0.472078,
    "shift": 0.705634
  }
};
