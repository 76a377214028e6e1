/**
 * The settings of mapping a schema's field to a business field of the lexicon (../concepts.ts).
 * Change a number here and measure with `npm run bench -- accuracy` (`ACCURACY_ONLY=extract`, its
 * schema wordings) and the concepts tests.
 */
export const CONCEPT_WEIGHTS = {
  /** A concept's strong labels and its names weigh this … */
  label: 1,
  /** … its weak labels this. */
  weakLabel: 0.6,
  /** A field's name read through its key weighs this … */
  key: 1,
  /** … through its key with German umlauts spelled out ("faelligkeitsdatum") folded, this … */
  foldedKey: 0.95,
  /** … through its title this … */
  title: 0.95,
  /** … its parent's name then its key this … */
  parentAndKey: 0.97,
  /** … its parent's name then its title this … */
  parentAndTitle: 0.93,
  /** … the first clause of its description this. */
  description: 0.8,
  /** Words of the description read, at most. */
  descriptionWords: 8,
  /** Words run together in a name ("invoiceno") are matched up to this many. */
  joinedWords: 3,
  /** A match must explain at least this much of the name. */
  minScore: 0.6,
  /** A plural "s" is dropped from words longer than this. */
  pluralLetters: 3,
  /** A property of the document itself named only "no", "number" or "#" asks for the document's number this surely. */
  documentsOwnNumber: 0.8,
};
