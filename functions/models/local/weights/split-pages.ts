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
    0.437454,
    0.056674,
    -0.003881,
    -1.073633,
    0.010744,
    0.049219,
    0.004703,
    -0.081382,
    -0.210919,
    0.229283,
    0.010192,
    0.121531
  ],
  "bias": 1.013982,
  "fitted": {
    "bundles": 80,
    "corpus_bundles": 5,
    "pages": 1222,
    "right_pages": 1021,
    "lambda": 10
  },
  "calibration": {
    "scale": 0.423803,
    "shift": 0.823664
  }
};
