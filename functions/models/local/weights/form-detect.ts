/**
 * The settings of finding fields on a flat form (../form-detect.ts): sizes and tolerances in page
 * units (points), or as shares of a box or of the page's text height. Change a number here and measure
 * with `npm run bench -- forms` (and `npm run bench -- edits`).
 */
export const DETECT_SETTINGS = {
  // Rules and rectangles
  /** A tick box is at most this wide and tall … */
  tickMax: 22,
  /** … and a rule at least this long (shorter strokes are specks). */
  tickMin: 5,
  /** A drawn writing line is at least this long (a text underscore run at least half of it). */
  minUnderline: 30,
  /** Two rules within this of each other are at one height (collinear pieces, a box stacked on another, a comb's tick on its line). */
  sameRule: 1.5,
  /** Collinear pieces of a rule this far apart or less are one rule. */
  ruleGap: 2,
  /** The edges of a rectangle line up within this (and a rule this close to a shaded box's edge is its border). */
  edgeTolerance: 2.5,
  /** A rectangle is at most this tall. */
  maxBoxHeight: 300,
  /** A box under a stacked one is at most this many times its height (else it is a ruled column). */
  stackedStretch: 1.5,
  /** Vertical rules cover at least this share of a rectangle's sides. */
  sideCover: 0.7,
  /** Rules inside a rectangle start this far from its sides (nearer ones are its sides). */
  innerMargin: 3,
  /** A column rule inside a rectangle is within this of its x. */
  innerRuleTolerance: 0.5,
  /** A rule along a shaded box's edge runs along at least this share of the shorter of the two. */
  shadedEdgeShare: 0.8,

  // Text and bands
  /** The page's text height when it has no words. */
  defaultTextHeight: 10,
  /** The writing band above a line: this many text heights … */
  bandPerTextHeight: 1.4,
  /** … at least this … */
  bandMin: 10,
  /** … at most this. */
  bandMax: 22,

  // Boxes
  /** A word is inside a box when at least this share of it overlaps. */
  wordInside: 0.6,
  /** A box overlapping a known one by more than this share is the same box. */
  sameBox: 0.5,
  /** A tick box overlapping a known one by more than this share is the same tick box (and a rule this much in one is its side). */
  sameTick: 0.3,
  /** A box taller than this many bands may be a frame around printed paragraphs … */
  frameMinBands: 3,
  /** … with at least this many rows of text … */
  frameRows: 3,
  /** … this many of them … */
  frameWideRows: 2,
  /** … across this share of its width. */
  frameRowWidth: 0.5,
  /** A tick box is square: its sides differ by at most this … */
  tickSquarePoints: 3,
  /** … or this share of its width. */
  tickSquareShare: 0.3,
  /** A text box is at least this wide … */
  textBoxMinWidth: 20,
  /** … and this tall. */
  textBoxMinHeight: 8,
  /** A "[" and its "]" are at most this many text heights apart. */
  bracketGap: 2,

  // Lines and combs
  /** A comb's ticks stand at least this far apart … */
  combMinStep: 5,
  /** … at most this … */
  combMaxStep: 20,
  /** … or this many text heights … */
  combStepPerTextHeight: 2.5,
  /** … at even steps within this share of a step. */
  combEvenness: 0.25,
  /** A rule under text is that text's underline (or a table border) when words cover this share of it. */
  underlinedShare: 0.4,
  /** Words sit on a rule within this of its ends and of its height. */
  underlineSlack: 2,
  /** A rule crossed by this many rules is part of a table grid. */
  gridCrossings: 2,
  /** A line inside a text box is within this of its edges. */
  insideSlack: 2,
  /** A ruled row of at least this many narrow boxes … */
  combMinCells: 4,
  /** … of one width within this … */
  combWidthPoints: 1.5,
  /** … or this share of it, is a comb field. */
  combWidthShare: 0.2,

  // Table cells
  /** A table cell narrower than this is no field. */
  cellMinWidth: 20,
  /** A cell's caption ends in this top share of the cell … */
  captionTopShare: 0.6,
  /** … with at least this much room below it (or a text height). */
  cellRoom: 8,
  /** Rows of one table meet within this. */
  rowJoin: 2,

  // Labels
  /** A word is on a field's line when its middle is within this of the field's top and bottom. */
  sameLineSlack: 2,
  /** Boxes are on one line when their middles are closer than their height divided by this. */
  sameLineDivisor: 1.5,
  /** A label before a field may reach this far into it. */
  beforeSlack: 3,
  /** Words before a field are its label up to a gap of this … */
  labelGap: 25,
  /** … or this many text heights. */
  labelGapPerTextHeight: 2.5,
  /** A line field's label is looked for on a line this much taller than the field. */
  lineBaselineExtra: 3,
  /** A text box's label before it is looked for on a line this much taller than the band. */
  boxBaselineExtra: 4,
  /** Words after a field start within this of its right edge. */
  afterSlack: 2,
  /** Words after a field are on one printed row when their middles are within this share of the smaller height. */
  sameRowShare: 0.5,
  /** A field's hint after it ("(MM/DD/YYYY)") starts within this. */
  hintGap: 12,
  /** Captions below or above a field reach this far beyond its sides. */
  besideSlack: 5,
  /** A caption below a field is within this many text heights under it. */
  belowReach: 1.2,
  /** A caption above a field (or stacked over a line) is within this many text heights over it. */
  aboveReach: 1.5,
  /** A caption above a field starts in this left share of it. */
  aboveStartShare: 0.5,
  /** Words stacked over a line are of the printed row nearest it: within this many text heights. */
  nearestRowShare: 0.6,
  /** A caption under a line is a few words, at most this many (more, not ending in ":", is a footnote under a rule). */
  maxCaptionWords: 12,
  /** A bare line continues the line above it within this many bands … */
  continuedReach: 2.2,
  /** … their right ends within this … */
  continuedRightEnd: 10,
  /** … and below it by more than this. */
  continuedSlack: 2,
  /** Values are written between a label stacked over a line and the line when there is this much room. */
  roomUnderLabel: 6,
  /** A text box's caption is in its first this many text heights. */
  captionLines: 1.5,
  /** Below a caption, a text box's writing area is at least this tall. */
  roomUnderCaption: 8,
  /** A tick box's option after it is within this … */
  optionGap: 15,
  /** … or this many text heights. */
  optionGapPerTextHeight: 2,
};
