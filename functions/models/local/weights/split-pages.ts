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
    0.726672,
    0.097027,
    -0.160607,
    -0.990583,
    -0.057742,
    -0.340867,
    0.119459,
    0.262264,
    -0.117597,
    0.035669,
    -0.213887,
    -0.064039
  ],
  "bias": 0.851592,
  "fitted": {
    "bundles": 80,
    "corpus_bundles": 5,
    "pages": 1222,
    "right_pages": 924,
    "lambda": 10
  }
};
