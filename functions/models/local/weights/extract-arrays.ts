/**
 * The settings of reading arrays of items (../extract-arrays.ts from tables and aligned lines,
 * ../extract-priced-lines.ts from lines whose figures multiply out). Change a number here and measure
 * with `npm run bench -- accuracy` (`ACCURACY_ONLY=extract`: the line-item figures).
 */
export const ARRAY_WEIGHTS = {
  // Headers
  /** An item list maps at least this many of the item's properties to columns (fewer when it has fewer). */
  minColumns: 2,
  /** A table's header is one of its first this many rows … */
  headerRows: 3,
  /** … or one of the this many lines above it. */
  headerLinesAbove: 2,
  /** The reader's own header row is a little more believable than another row. */
  ownHeaderRow: 0.1,
  /** A description column clearly named from this similarity may have other column names before its own. */
  namedDescription: 0.6,
  /** Two column names in one header cell are this many text heights apart or more. */
  headerGapHeights: 2,
  /** A word's centre falls under another header within this (in points). */
  headerSlack: 2,

  // Rows
  /** Money columns print cents when this many items do (and at least half). */
  centsItems: 3,
  /** Section headings in capitals are told from items when this many items are named in lower case … */
  lowerCaseItems: 3,
  /** … this many times as many as in capitals. */
  lowerCaseRatio: 2,
  /** At most this many lines (a page's foot and the next page's running head) are skipped at a page break. */
  resumeWithin: 8,
  /** A segment across a column no property maps counts this share of its overlap there. */
  unmappedColumn: 0.8,
  /** A segment goes to the nearest column within this many text heights (on a page) … */
  reachHeights: 2,
  /** … or this many characters (in text). */
  reachCharacters: 4,
  /** A gap of more than this many text heights ends the list. */
  itemGapHeights: 2.5,
  /** Text alone starting this many reaches right of the items' names is no wrapped name. */
  wrappedReach: 3,
  /** Lines skipped in a row, at most (headings, notes, cells nobody asked for). */
  maxSkipped: 2,

  // Arrays of scalars
  /** A column of scalars is headed in one of the first this many rows of a table … */
  scalarHeaderRows: 2,
  /** … at least this similar to the array's name. */
  scalarColumnSimilarity: 0.6,
  /** Labels of a listed array looked at, at most. */
  listLabels: 50,
};

/** Items read from lines whose figures multiply out (a till receipt's "2 x 95.00  190.00"). */
export const PRICED_LINE_WEIGHTS = {
  /** How sure a count, price or amount of such an item is. */
  figure: 0.8,
  /** How sure its description is (a little less). */
  description: 0.6,
  /** A count is at most this. */
  maxCount: 999,
  /** A unit price printed to the cent is up to half a cent off: the amount, up to count × this … */
  centOff: 0.005,
  /** … plus this (floating point). */
  tolerance: 0.0001,
  /** OCR's words read with less confidence than this on average are no name (a smudge, a garbled header). */
  sureName: 60,
  /** Nor is a name one of whose words OCR read at under this ("HE INCKEN" for "HEINEKEN"). */
  sureWord: 50,
  /** A name has at least this many letters. */
  nameLetters: 3,
  /** A line with this many words of the item's fields is the header naming the columns. */
  headerWords: 2,
};
