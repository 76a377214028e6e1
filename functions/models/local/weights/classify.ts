/**
 * The settings of classification (../classify.ts). Change a number here and measure with
 * `npm run bench -- accuracy` (`ACCURACY_ONLY=classify`).
 */
export const CLASSIFY_WEIGHTS = {
  /** Content tokens of an ordinary page: the BM25 length a page is measured against. */
  averagePageTokens: 180,
  /**
   * Evidence every category has before reading (so thin evidence gives a low confidence) and how
   * sharply evidence separates categories. With these, one title word against nothing gives about
   * 0.4 among 5 categories, a typical invoice against receipt-like distractors 0.8–0.95.
   */
  prior: 2,
  power: 2,
  /** How many phrases a reasoning quotes for the chosen category … */
  quotes: 5,
  /** … and for the runner-up. */
  runnerUpQuotes: 2,
  /** How much a consensus vote may move the weight of a word or phrase of the evidence (relative; 0.25 of 0.25, 0.5, 0.75 measured, the corpus classified by 5 votes: 196, 191, 188 of 229 right). */
  featureSpread: 0.25,
  /** How much a vote may move the weight of a layout cue, or of the first page's title (relative). */
  cueSpread: 0.5,
  /**
   * The first page's title weighs this power of the document's pages with text more (0.5: a 4-page
   * document's title twice a page's, a 100-page one's ten times): word evidence grows with every page
   * read, the title is printed once.
   */
  titleGrowth: 0.5,
  /** Pages read for layout cues (a long document says what it is in its first pages). */
  cuePages: 12,
  /** Below this likelihood the reasoning says the confidence is low. */
  lowConfidence: 0.7,
};
