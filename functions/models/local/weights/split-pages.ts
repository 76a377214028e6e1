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
    0.444861,
    0.052564,
    0.027008,
    -1.08217,
    0.000221,
    0.007251,
    0.036317,
    -0.076074,
    -0.147415,
    0.238989,
    0.012891,
    0.113514
  ],
  "bias": 0.947187,
  "fitted": {
    "bundles": 80,
    "corpus_bundles": 5,
    "pages": 1222,
    "right_pages": 1018,
    "lambda": 10
  },
  "calibration": {
    "scale": 0.447904,
    "shift": 0.760484
  }
};
