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
    0.478585,
    0.075421,
    -0.000843,
    -1.07784,
    0.000398,
    0.000234,
    0.032253,
    -0.045856,
    -0.158094,
    0.274634,
    -0.029399,
    0.108404
  ],
  "bias": 0.914942,
  "fitted": {
    "bundles": 80,
    "corpus_bundles": 5,
    "pages": 1222,
    "right_pages": 1011,
    "lambda": 10
  },
  "calibration": {
    "scale": 0.452187,
    "shift": 0.730977
  }
};
