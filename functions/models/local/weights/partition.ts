/**
 * The settings of partitioning by a key (../partition.ts): how a candidate key value is scored, and
 * how sure a page's record is. Change a number here and measure with the partition tests.
 */
export const PARTITION_WEIGHTS = {
  /** Candidate features and their weights; a candidate is accepted at `threshold`. */
  features: {
    /** The key's words as the label. */
    label: 1,
    numberWord: 0.6,
    separator: 0.3,
    /** Letters and digits ("INV-5101"). */
    mixedValue: 0.6,
    /** Digits only, four or more (digitDigits). */
    digitValue: 0.3,
    /** Beside the label or in the cell under it. */
    adjacent: 0.3,
    /** In the top of the page, where records print their header. */
    top: 0.2,
  },
  /** A candidate is accepted at this score. */
  threshold: 1.6,
  /** How much votes perturb feature weights … */
  featureSpread: 0.2,
  /** … and the threshold. */
  thresholdSpread: 0.1,
  /** An abbreviated label ("Inv." for "invoice") counts this share of `label`. */
  abbreviatedLabel: 0.7,
  /** A digits-only value counts from this many digits. */
  digitDigits: 4,
  /** A value on the next line under its label counts this share of `adjacent`. */
  nextLineBelow: 0.5,
  /** The top of the page: its first this many lines … */
  topLines: 12,
  /** … or this share of them. */
  topShare: 0.4,
  /** How steep the logistic curve from score to confidence is (1.0 above the threshold ≈ 0.95). */
  confidenceSlope: 3,
  /** The share of a page above a record's first value that makes it the previous record's tail in any case. */
  tailShare: 0.5,
  /** A page that carries a record forward without printing its key is a little less certain. */
  carriedConfidence: 0.85,
  /** A quoted label in the instructions is at most this many words. */
  quotedLabelWords: 4,
  /** A key value has at least this many characters. */
  valueLength: 2,
};
