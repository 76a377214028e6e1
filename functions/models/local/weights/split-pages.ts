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
    0.500962,
    0.065207,
    -0.006769,
    -1.104588,
    -0.010299,
    -0.038976,
    0.028494,
    -0.059699,
    -0.187928,
    0.269233,
    0.002604,
    0.095538
  ],
  "bias": 0.983085,
  "fitted": {
    "bundles": 80,
    "corpus_bundles": 5,
    "pages": 1222,
    "right_pages": 1012,
    "lambda": 10
  },
  "calibration": {
    "scale": 0.496393,
    "shift": 0.664183
  }
};
