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
    0.435395,
    0.023379,
    -0.039384,
    -1.081983,
    0.007866,
    0.038942,
    0.025471,
    -0.034444,
    -0.151685,
    0.224227,
    0.012152,
    0.124361
  ],
  "bias": 1.07321,
  "fitted": {
    "bundles": 80,
    "corpus_bundles": 5,
    "pages": 1222,
    "right_pages": 1024,
    "lambda": 10
  },
  "calibration": {
    "scale": 0.405229,
    "shift": 0.855934
  }
};
