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
    0.420204,
    -0.032286,
    -0.006428,
    -1.127051,
    0.012973,
    0.376513,
    0.003754,
    0.056099,
    -0.205302,
    0.238748,
    0.02321,
    0.141888
  ],
  "bias": 0.834313,
  "fitted": {
    "bundles": 80,
    "corpus_bundles": 5,
    "pages": 1222,
    "right_pages": 1023,
    "lambda": 10
  },
  "calibration": {
    "scale": 0.418212,
    "shift": 0.833052
  }
};
