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
    0.481061,
    0.157007,
    -0.243366,
    -1.044338,
    0.001399,
    -0.069159,
    0.048039,
    -0.068098,
    -0.181636,
    -0.177666,
    -0.040831,
    0.082452
  ],
  "bias": 1.265762,
  "fitted": {
    "bundles": 80,
    "corpus_bundles": 5,
    "pages": 1222,
    "right_pages": 999,
    "lambda": 10
  },
  "calibration": {
    "scale": 0.629748,
    "shift": 0.413538
  }
};
