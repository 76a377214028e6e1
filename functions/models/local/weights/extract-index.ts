/**
 * The settings of indexing a document for extraction (../extract-index.ts): how words make segments,
 * and how far below a segment the next one of its block may be. Distances are in text heights (on a
 * page) or characters and lines (in text). Change a number here and measure with `npm run bench --
 * accuracy` (`ACCURACY_ONLY=extract`).
 */
export const INDEX_SETTINGS = {
  /** Two words further apart than this many text heights are in different segments … */
  segmentGap: 1.0,
  /** … and so are words that overlap vertically by less than this share of a text height. */
  segmentOverlap: 0.3,
  /** In text without geometry, this many characters of space between words separate segments. */
  segmentGapCharacters: 2,
  /** How far below a label its value may start, in text heights of blank space. */
  belowGap: 1.6,
  /** A line below starts at most this share of a text height above the segment's bottom. */
  belowOverlap: 0.3,
  /** In text, the segment below is within this many source lines … */
  belowLines: 3,
  /** … at most this many lines further (one blank line allowed). */
  belowStep: 2,
  /**
   * Blank space between lines of one block, in text heights. Loose enough for OCR boxes (ink only, so
   * shorter than a PDF font's box and the space between lines looks taller), tight enough to stop at a
   * paragraph break.
   */
  blockGap: 1.3,
  /** A block's lines start within this many text heights of its first line's start. */
  blockAlignment: 1.5,
};
