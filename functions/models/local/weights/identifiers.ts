/**
 * The settings of reading page markers and labelled identifiers (../identifiers.ts), which splitting
 * and partitioning use to tell where documents start. Change a number here and measure with
 * `npm run bench -- accuracy` (`ACCURACY_ONLY=split`) and the partition tests.
 */
export const IDENTIFIER_SETTINGS = {
  /** A bare page number is a page's footer on a page of at least this many lines. */
  footerMinLines: 10,
  /** A word of a label abbreviates another ("inv" of "invoice") from this many letters. */
  abbreviationLetters: 3,
  /** Numbers printed in a title without a number word are in the page's first this many lines … */
  titleNumberLines: 3,
  /** … a value of this many characters at least … */
  titleValueLength: 3,
  /** … with this many digits at least ("INV-2369", not a postcode: "BS1", "EC2A"). */
  titleValueDigits: 3,
  /** A line of labels (a table header, a form row) has at most this many words. */
  headerWords: 8,
  /** Without geometry, a value under its label starts within this share of the line's length of where the label does. */
  belowDistance: 0.2,
};
