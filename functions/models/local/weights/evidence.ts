/**
 * The settings of weighted term evidence, shared by classification, splitting and partitioning:
 * what each source of a category's words weighs (../evidence.ts), and how occurrences in a text are
 * counted (BM25, ../text.ts). Change a number here and measure with `npm run bench -- accuracy`
 * (`ACCURACY_ONLY=classify`, `split`).
 */

/** Query weights by source; the largest source of a feature wins (sources do not add up). */
export const EVIDENCE_WEIGHTS = {
  /** A word of the category's name. */
  nameStem: 2,
  /** One word of a longer name says less than the name ("power" of "power purchase agreement"): this share of a name word. */
  wordOfLongerName: 0.5,
  /** A phrase of the category's name. */
  namePhrase: 3,
  /** A word of its description. */
  descriptionStem: 1,
  /** A phrase of its description. */
  descriptionPhrase: 1.5,
  /** A word the lexicon knows for the kind of document the category names. */
  lexiconStem: 0.7,
  /** A phrase the lexicon knows for it. */
  lexiconPhrase: 1.1,
  /** Lexicon entries triggered only by the description count this much of the above. */
  lexiconFromDescription: 0.5,
  /** … and entries named only inside a longer name of another entry ("bill" of "medical bill") this much. */
  lexiconSubsumed: 0.4,
  /** A word of the instructions about the category. */
  instructionStem: 1.5,
  /** A phrase of the instructions about it. */
  instructionPhrase: 2,
  /** Words the instructions quote for it. */
  instructionQuote: 3,
  /** A layout cue is worth this much evidence for a kind that has it (scaled down when many labels share it). */
  cue: 3,
  /** A layout cue a category's description denies ("no fillable fields") counts against it with this share of a cue. */
  deniedCue: 1,
  /** The weight of a layout cue a label's own name names ("slides", "spreadsheet"): a little over a kind's full cue (1), so that of two labels with the same cue and nothing else between them the one named for it wins. */
  namedCue: 1.05,
  /** A document names itself in the first lines of its first page: those count this many times more again. */
  title: 1.5,
  /** Its title lines are among its first this many lines … */
  titleLines: 6,
  /** … lines of at most this many words. */
  titleLineWords: 12,
  /** Lines further down the top of a page where a line naming a kind of document is still its title. */
  namingLines: 16,
  /** A name of a kind longer than this many characters names it (not two letters, "ID"). */
  kindNameCharacters: 2,
};

/** Counting a text's words (../text.ts). */
export const BM25_SETTINGS = {
  /** BM25 term-frequency saturation: k1 caps what repetition adds … */
  k1: 1.2,
  /** … b how much length dilutes it. */
  b: 0.35,
  /** A title occurrence counts this many times (BM25F field weighting: titles say what a page is). */
  titleBoost: 3,
  /** The idf of a feature every category asks for still counts this little. */
  idfFloor: 0.05,
  /** Lines of the top of a page that count as its title zone when short … */
  titleZoneLines: 4,
  /** … at most this many words. */
  titleMaxWords: 7,
};
