/**
 * The settings of a field's phrases and of how a printed label matches them (../extract-words.ts).
 * A phrase's weight says how telling a perfect match with it is; its beta how much recall counts
 * against precision (the F-measure of shared stems). Change a number here and measure with
 * `npm run bench -- accuracy` (`ACCURACY_ONLY=extract`).
 */
export const PHRASE_WEIGHTS = {
  /** The field's own name or title. */
  name: 1,
  nameBeta: 1,
  /** A synonym of its name or title from the lexicon. */
  synonym: 0.9,
  synonymBeta: 1,
  /** The first clause of its description … */
  description: 0.75,
  /** … matched more by precision (a label says part of a description). */
  descriptionBeta: 0.5,
  /** Words of the description's first clause read, at most. */
  descriptionWords: 8,
  /** Synonym phrases of a name, at most. */
  maxSynonyms: 40,
  /** A printed stem of this many letters or more abbreviates a longer one ("stmt") … */
  abbreviationLetters: 3,
  /** … and counts this much of a shared stem. */
  abbreviation: 0.8,
};
