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
    0.437444,
    0.05644,
    -0.003883,
    -1.073714,
    0.010763,
    0.04934,
    0.004685,
    -0.081375,
    -0.210931,
    0.229259,
    0.010241,
    0.121562
  ],
  "bias": 1.014009,
  "fitted": {
    "bundles": 80,
    "corpus_bundles": 5,
    "pages": 1222,
    "right_pages": 1021,
    "lambda": 10
  },
  "calibration": {
    "scale": 0.423821,
    "shift": 0.823639
  }
};
