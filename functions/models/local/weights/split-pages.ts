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
    0.793563,
    -0.069711,
    -0.271607,
    -0.092235,
    -0.034642,
    -0.461905,
    0.015283,
    0.366808,
    -0.366903,
    0.044884,
    -0.415388,
    -0.184523
  ],
  "bias": 1.241998,
  "fitted": {
    "bundles": 80,
    "corpus_bundles": 5,
    "pages": 1222,
    "right_pages": 910,
    "lambda": 10
  }
};
