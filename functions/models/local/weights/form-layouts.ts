/**
 * The settings of reading a standard form by the place of its boxes (../form-layouts.ts). Places are
 * in thousandths of the form. Change a number here and measure with `npm run bench -- accuracy`.
 */
export const FORM_LAYOUT_SETTINGS = {
  /** How far a caption may lie from where the fit puts it. */
  fitTolerance: 15,
  /** Captions found and fitting, at the least, to take the page for the form. */
  minCaptions: 4,
  /** How far apart the fitting captions must be, across or down. */
  minSpread: 300,
  /** A caption is read with one letter wrong for every this many letters. */
  lettersPerError: 5,
  /** Dollars read without a divider have at least this many digits (the last two the cents). */
  splitCentsDigits: 3,
};
