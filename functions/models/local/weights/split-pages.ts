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
    0.724353,
    0.098369,
    -0.15482,
    -0.998956,
    -0.061367,
    -0.35427,
    0.128049,
    0.263045,
    -0.101345,
    0.036667,
    -0.208269,
    -0.064528
  ],
  "bias": 0.84759,
  "fitted": {
    "bundles": 80,
    "corpus_bundles": 5,
    "pages": 1222,
    "right_pages": 924,
    "lambda": 10
  }
};
