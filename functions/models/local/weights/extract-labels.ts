/**
 * The settings of finding labels and the regions where their values are (../extract-labels.ts).
 * Change a number here and measure with `npm run bench -- accuracy` (`ACCURACY_ONLY=extract`).
 */

/**
 * How much each placement of a value is worth: after its label's colon or in the cell beside it is
 * as good as it gets; under a label slightly less (the line below may be something else); a
 * label-less guess (letterhead, an enum option anywhere) much less.
 */
export const PLACEMENT_WEIGHT = { colon: 1, inline: 0.85, prose: 0.45, right: 0.95, below: 0.85, cellRight: 1, cellBelow: 0.85, block: 0.85, letterhead: 0.6, unlabeled: 0.42 };

export const LABEL_SETTINGS = {
  /** A value to the right of a label with neither colon nor a segment of its own counts this much. */
  rightOfRunningLabel: 0.55,
  /** A value under a label that ends in a colon but shares its segment counts this much … */
  belowColonLabel: 0.8,
  /** … under a label with neither this much. */
  belowRunningLabel: 0.5,
  /** Longest label, in words. */
  maxLabelWords: 7,
  /** How many words before a run may qualify it. */
  maxQualifierWords: 2,
  /** Up to this many words of letters lengthen a label (or open one of their own, or end a value before the next label). */
  labelTailWords: 3,
  /** Labels kept per search, at most (the first in reading order) … */
  maxLabels: 400,
  /** … among at most this many times as many words carrying the phrases' stems. */
  wordsPerLabel: 4,
  /** An amount after a qualifier ("VAT 20%   166.72") is at most this many words after the label. */
  amountAfterQualifier: 2,
  /** A segment of at most this many marks is OCR debris, no value. */
  debrisWords: 2,
  /** A label's block (an address under a name) is at most this many lines. */
  blockLines: 5,
};
