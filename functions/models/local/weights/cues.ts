/**
 * The settings of the layout cues (../cues.ts): what a page must show for each cue, and how strong a
 * cue is. Change a number here and measure with `npm run bench -- accuracy` (`classify`, `split`).
 */
export const CUE_SETTINGS = {
  /** Every cue's strength (a form's fillable fields add to theirs). */
  strength: 1,
  /** A letter: a salutation of fewer characters than this … */
  salutationCharacters: 80,
  /** … and a closing of fewer than this … */
  closingCharacters: 60,
  /** … or a salutation alone among the first this many lines. */
  salutationAloneLines: 25,
  /** A paper: an abstract heading of at most this many words … */
  abstractWords: 12,
  /** … among the first this many lines, and a references heading of at most this many words after it. */
  abstractLines: 60,
  referencesWords: 3,
  /** Contract clauses: at least this many numbered clauses … */
  clauses: 6,
  /** … and this share of the lines. */
  clauseShare: 0.04,
  /** A CV's entries: at least this many lines with a period from a month to another (or to now). */
  periods: 3,
  /** A table of contents: its title of at most this many words, or this many lines of dot leaders. */
  contentsTitleWords: 5,
  contentsLeaders: 5,
  /** At a till: the change given within this many lines after the money tendered. */
  changeLines: 3,
  /** The file's own format (a workbook, a PPTX, an HTML page, an e-mail): this strength. */
  formatStrength: 3,
  /** A form with fillable fields: this strength, plus log2 of their count. */
  formFieldsStrength: 3,
  /** A form on paper: at least this many blanks to fill in. */
  formBlanks: 5,
  /** An ID card: a single picture this wide for its height, from … */
  cardMinRatio: 1.4,
  /** … to this (ID-1 cards are 85.6 × 54 mm: 1.59) … */
  cardMaxRatio: 1.75,
  /** … with at least this many words … */
  cardMinWords: 8,
  /** … and fewer than this. */
  cardMaxWords: 150,
  /** A till receipt's strip of print: this much taller than wide … */
  stripRatio: 1.3,
  /** … with fewer words than this. */
  stripMaxWords: 400,
  /** Slides: at least this many pages … */
  slidesPages: 3,
  /** … landscape (this much wider than tall) … */
  landscapeRatio: 1.2,
  /** … this share of them … */
  landscapeShare: 0.8,
  /** … and this share with fewer words than … */
  sparseShare: 0.6,
  /** … this. */
  sparseWords: 120,
  /** Pages of tables: at least this share of the pages has a table. */
  tabledShare: 0.5,
};
