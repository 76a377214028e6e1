/**
 * The settings of splitting a bundle into documents (../split.ts): how page evidence becomes a
 * label's log share, what changing label between pages costs, and what tells a first page. Costs
 * and bonuses are in log units. Change a number here and measure with `npm run bench -- accuracy`
 * (`ACCURACY_ONLY=split`).
 */
export const SPLIT_WEIGHTS = {
  /** How much a consensus vote may move the weight of a word or phrase of the evidence (relative; as classification's). */
  featureSpread: 0.25,

  // A page's labels
  /**
   * "Other" holds at least this much evidence (about two ordinary term matches), so a page needs some
   * before it is any subdocument.
   */
  otherScore: 2.5,
  /** Evidence every label has before reading (page scores to shares as in classification, sharper) … */
  prior: 1,
  /** … and how sharply (a page's own evidence must be clearly outweighed before its neighbours relabel it). */
  power: 3,
  /** A blank page's log share for each subdocument ("other": 0). */
  blankPage: -0.5,
  /** A page whose best evidence is under this share of the typical page's is weak … */
  weakPage: 0.5,
  /** … when it has at least this many words (fewer, with nothing found, it is silent) … */
  weakMinTokens: 40,
  /** … and its log share for any label is at least this: it cannot decide a change alone. */
  weakFloor: -1.5,

  /**
   * A segment (a document the chain found) read as a whole goes to its best subdocument when that has
   * at least this share of the evidence of the best kind nobody asked for (or of otherScore). Chosen
   * on the dev and tuned folds (0.4–1.1 tried; 0.7 best on both together).
   */
  segmentShare: 0.7,

  /**
   * Pages of a kind nobody asked for that end a document with nothing that starts another are its
   * own, unless the first has fewer lines than this: a title page opens a document of its own.
   */
  titlePageLines: 6,

  // Changing label between pages
  /** Changing label between pages costs this much; a page's cues adjust it. */
  switchPenalty: 2.5,
  /** A page whose cues add up to this starts a document … */
  startThreshold: 1.5,
  /** … and a change there costs this much less. */
  startBonus: 2,
  /** A page whose cues add up to this or less continues a document … */
  continuationThreshold: -3,
  /** … and a change there costs this much more. */
  continuationPenalty: 4,
  /** One of the subdocument's names as the page's title: a change of label to it costs this much less. */
  titleBonus: 1.5,
  /** Towards starting a new instance: a title naming the subdocument … */
  titleStart: 1,
  /** … and a header with a number or date. */
  headerStart: 0.75,
  /** A page like the one before with no first-page cue: changing label costs this much more. */
  samePaper: 3,

  // First-page cues (startCues)
  /** A page of another size or kind (scanned / born-digital) than the one before: towards a start. */
  pageChange: 2,
  /** Pages differ in size when their widths or heights differ by more than this share. */
  otherSizeShare: 0.03,
  /** "Page 1 of n". */
  firstPageMarker: 3,
  /** Penalty: "Page k of n" (k > 1) continuing the page before. */
  laterPageMarker: 5,
  /** Penalty: "continued". */
  continued: 3,
  /** Penalty: a table of contents running on from the page before. */
  contentsRunOn: 3,
  /** Penalty: the first or last line of the page before (with words) printed again, a running head or foot, on a page whose print starts nothing ("Page 1", a changed number or date) … */
  runningHead: 3,
  /** … of at least this many words of three letters or more. */
  runningHeadWords: 3,
  /** A labelled number or date of the header changed from the document's so far. */
  changedHeaderFact: 3,
  /** An e-mail address in a page's header where the page before printed none (a letterhead, a CV's contact line). */
  headerEmail: 3,
  /** Penalty: the same labelled number or date as the document's so far. */
  sameHeaderFact: 3,
  /** A header's labelled number has at least this many characters. */
  headerNumberLength: 3,
  /** Lines at the top of a page where document numbers and dates are looked for (the header), at most. */
  headerLines: 14,
  /** A line of running text: this many words ending in punctuation … */
  proseWords: 10,
  /** … or this many words whatever its end. */
  proseWordsAnyEnd: 14,

  // Titles
  /** A subdocument's name is the page's title in its first this many lines … */
  titleLines: 2,
  /** … on a line of at most this many words. */
  titleWords: 6,
};
