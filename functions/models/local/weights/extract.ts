/**
 * The settings of the extractor (../extract.ts): how each leaf's candidates are found and scored, and
 * how much a consensus vote may move the weights. A candidate's score is label similarity × phrase
 * weight × placement weight (../extract-labels.ts PLACEMENT_WEIGHT) × its factors × how well the value
 * reads. Change a number here and measure with `npm run bench -- accuracy`.
 */
export const EXTRACT_WEIGHTS = {
  /** What a label found through each kind of phrase weighs (the leaf's key, title, description, a synonym, its parent's name). */
  phrase: { key: 1, title: 1, description: 1, synonym: 1, parent: 1 },
  /** A scalar candidate is taken at this score. */
  threshold: 0.3,
  /** A table column is matched to a property at this header similarity. */
  column: 0.45,
  /** How much a vote may move each weight (relative). Small: votes differ only on borderline calls. */
  spread: { placement: 0.15, phrase: 0.1, threshold: 0.25, column: 0.15 },
  /** A leaf nothing backs gets this likelihood when its null is a real answer ("not in the document"). */
  nullLikelihood: 0.1,
  /** Labels weaker than this are not read at all (they would never reach the threshold). */
  minLabel: 0.25,
  /** Candidates kept per leaf (the best by default weights): bounds the work of every vote. */
  maxCandidates: 24,
  /** Labels read per phrase set (the strongest): bounds the work on long documents. */
  maxLabels: 200,
  /** Labels looked at per phrase set before the strongest are kept: this many times maxLabels. */
  labelsLookedAt: 4,

  // A leaf's phrases
  /** Phrases of a parent's name joined with the leaf's, at most this many. */
  combinedPhrases: 16,
  /** Inside an object, a bare "Name:" could be anyone's: the leaf's own words weigh this much. */
  ownWordsInObject: 0.85,
  /** The parent object's name alone, labelling its main value ("Customer: Acme Inc"), weighs this much. */
  parentAlone: 0.9,
  /** The array's own name heading an item's main text (the "Item" column of `items`) weighs this much. */
  arrayNameOnItem: 0.8,
  /** Item objects nested this deep or deeper are not looked for. */
  itemDepth: 2,

  // Label-less candidates
  /** The issuer's letterhead is among the first page's first this many lines … */
  letterheadLines: 8,
  /** … a line of at most this many words … */
  letterheadWords: 8,
  /** … and the block under it this many lines. */
  letterheadBlockLines: 5,
  /** A boolean's label negated ("not paid") or after a colon fits this much. */
  booleanByLabel: 0.9,
  /** A boolean's name negated after a label ("Status: Unpaid"): a word of the name of this many letters … */
  negatedNameLetters: 3,
  /** … found at most this many times … */
  negatedNameHits: 5,
  /** … fits this much … */
  negatedName: 0.9,
  /** … with this label similarity. */
  negatedNameSimilarity: 0.8,
  /** Enum options are looked for unlabelled in a schema of at most this many options … */
  enumOptions: 200,
  /** … an option's first word of at least this many characters … */
  enumTokenLength: 2,
  /** … at most this many times. */
  enumHits: 5,
  /** Currency marks looked at unlabelled, at most this many … */
  currencyMarks: 20,
  /** … each fitting this much. */
  currencyMark: 0.9,
  /** E-mail addresses looked at unlabelled, at most this many … */
  emails: 20,
  /** … each counting this much. */
  email: 0.9,
  /** Text made only of the schema's label words is the next label ("Invoice #"), not a value: it fits this much less. */
  labelTextValue: 0.3,
  /** A value read in a region the label only qualifies ("Total (incl. tax)") counts this much. */
  qualified: 0.8,
  /** Words without a digit after a label with no colon are its value only weakly. */
  inlineWithoutDigit: 0.35,

  // Arrays
  /** Under one header, aligned lines are taken over a table when they hold this many times its items. */
  linesOverTable: 1.5,
};
