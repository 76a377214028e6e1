/**
 * The settings of filling a form from instructions (../form-values.ts): how instructions are read
 * into facts, how well a fact matches a field (scores add up; the best candidates are placed first),
 * and what the form's own options and positions are worth. Change a number here and measure with
 * `npm run bench -- forms`.
 */
export const FILL_WEIGHTS = {
  // Reading the instructions
  /** Facts read from one text, at most. */
  maxFacts: 5_000,
  /** A number in a name up to this is an ordinal ("owner 2"), larger ones are not. */
  maxOrdinal: 20,
  /** A `key: value` line's key is at most this many words. */
  keyWords: 8,
  /** A clause's name ("my first name") is at most this many words. */
  clauseNameWords: 10,
  /** A clause linking a name to a value ("… in line 2") has a name of at most this many words. */
  linkNameWords: 9,
  /** A clause without a verb is a bare name of at most this many characters. */
  bareNameCharacters: 40,
  /** A lead that numbers the clauses after it ("For the second owner") is at most this many words. */
  leadWords: 5,
  /** A run of the form's own words naming a value ("numéro d'ordre 2024-0387") is at most this many words. */
  labelRunWords: 4,
  /** A word this long or longer made only of numbers written out is one ("einhundertfunfzig", "centocinquanta"). */
  compoundNumberLetters: 6,
  /** …and its parts are numbers of at least this many letters ("cento" + "cinquanta", never "e" or "un"). */
  compoundPartLetters: 3,
  /** A list value's items are at most this many words each ("German, English and French"). */
  listItemWords: 4,

  // A fact against a field's label
  /** A fact matches a field from this overlap. */
  matchThreshold: 0.5,
  /** An overlap is this share recall (the fact's words the label says) … */
  recallShare: 0.6,
  /** … and this share precision (the label's words the fact accounts for). */
  precisionShare: 0.4,
  /** Another name of the fact (a word of some language) ranks this much below its own name. */
  altNamePenalty: 0.01,
  /** A field in a section the fact does not name ranks this much below one the fact fits as well without it. */
  sectionPenalty: 0.25,
  /** A fact that names the field's section ranks this much higher. */
  sectionNamed: 0.05,
  /** A fact that names the title of the field's block ("Donateur") ranks this much higher; naming no block costs nothing. */
  blockNamed: 0.1,
  /** A fact matching only with the field's section's words counts this much less. */
  sectionOnlyPenalty: 0.15,
  /** What the writer says of themself ranks this much higher on the field the form says is theirs. */
  selfBonus: 0.05,
  /** The abbreviation a fact gives in brackets, printed as a word in the label ("(FD)" → "5) FD"). */
  acronym: 0.8,
  /** A key word abbreviates a fact's word that is at least this many letters longer ("nat" of "nature"). */
  abbreviationExtraLetters: 2,
  /** A fact's name of at most this many words may match through the key's abbreviations. */
  abbreviatedNameWords: 2,
  /** Fact and field with the same ordinal. */
  sameOrdinal: 0.1,
  /** Penalty: the fact numbered 1 and the field not numbered. */
  factNumberedOne: 0.05,
  /** Penalty: the field numbered 1 and the fact not numbered. */
  fieldNumberedOne: 0.05,
  /** Penalty: the field numbered 2 or more and the fact not (a line number, "FD (ligne 11)", not a row). */
  fieldNumbered: 0.15,
  /** Penalty: a yes or a no given for a text field (it is a box's answer first). */
  yesNoAsText: 0.3,
  /** A number fitting a field of a known length adds up to this (13 digits: the 13-box field, not a 16-box one). */
  lengthFit: 0.05,
  /** A field printed again on a later page (the form's second copy) ranks this much lower. */
  copyPenalty: 0.1,
  /** Fields at the same place (in page shares) within this are printed alike on two pages. */
  samePlace: 0.02,

  // Options and boxes
  /** A statement's target field with no score of its own scores this. */
  statementTarget: 0.9,
  /** A value names a box's option from this similarity. */
  optionNamed: 0.9,
  /** A value naming a box's option, where the box has no group, fits the fact this much when the fact's name is not in the label. */
  ungroupedOption: 0.5,
  /** A list's option is the value's from this similarity. */
  optionMinSimilarity: 0.6,
  /** Two stems are one word when they share their first this many letters … */
  sameStemLetters: 6,
  /** … and their lengths differ by at most this. */
  sameStemLengthDifference: 3,
  /** A question's words (or a box's statement's) are said when this share of them is. */
  mostShare: 2 / 3,
  /** A question has at least this many words. */
  questionWords: 2,
  /** A question answered by a yes or a no. */
  questionAnswered: 0.95,
  /** An option named by at most this many words. */
  optionWords: 3,
  /** An option named without its group's words. */
  optionWithoutLabel: 0.9,
  /** A box alone stating a fact of at least this many words … */
  statementWords: 3,
  /** … whose words a sentence says. */
  statementBox: 0.9,
  /** A list's option written in the text as the form prints it, below what a label says. */
  namedOption: 0.7,
  /** … a proper name of at least this many letters. */
  properNameLetters: 4,
  /** Buttons in a row are printed alike: their texts this similar. */
  alikeOptions: 0.5,
  /** A button's printed text is looked for in a sentence from this many characters. */
  positionTextCharacters: 3,
  /** A button named by its position in a row ("the left-hand button"). */
  positionChosen: 0.95,

  // Placing
  /** Times the fill is redone when a value and its part were both placed. */
  refillRounds: 3,
  /** A place box before ", le" and a date is at most this far (in page shares) from the date's box … */
  placeBeforeDate: 0.15,
  /** … and the date's box starts at the place box's end within this. */
  placeEdge: 0.01,
};
