/**
 * The settings of reading a value of a field's type from printed words (../extract-values.ts): how far
 * each reader looks, and the 0..1 fit it gives what it reads (1: the words are plainly a value of that
 * kind). Change a number here and measure with `npm run bench -- accuracy`.
 */
export const VALUE_WEIGHTS = {
  // Numbers
  /** A number is looked for among this many words of the region. */
  numberWords: 6,
  /** A number printed with spaces between its thousands ("1 250 000") spans at most this many words. */
  spacedNumberWords: 4,
  /** A number after words that are not currency marks or separators ("approx. 120") fits this much. */
  numberAfterWords: 0.75,
  /** On a form printing split dollars | cents, a whole number of this many digits or more lost its divider ("4140" is 41.40). */
  splitCentsDigits: 3,

  // Dates
  /** A date (and its time) is read from at most this many words ("March 5, 2024 10:30 AM"). */
  dateWords: 5,
  /** Dates are looked for among this many words of the region … */
  dateRegionWords: 12,
  /** … and at most this many (a range's end is the second). */
  datesPerRegion: 2,
  /** A date found further along than the region's second word fits this much. */
  dateFurtherAlong: 0.7,
  /** A two-digit year below this is of the 2000s, else of the 1900s. */
  twoDigitYearPivot: 70,
  /** A date-like field with no format whose text is no date keeps it (it has a digit) at this share of its fit. */
  unparsedDate: 0.5,

  // Booleans
  /** A yes/no or checkbox is looked for among this many words (a separator may come first). */
  booleanWords: 2,
  /** A yes/no after a separator fits this much. */
  booleanAfterSeparator: 0.7,

  // Enums
  /** A currency sign for its option's code ("$" for "USD"). */
  optionCurrencySign: 0.9,
  /** Printed words with the same stems as the option ("Cancelled" for "canceled") … */
  optionSameStems: 0.95,
  /** … a Dice overlap of stems at least this … */
  optionStemOverlap: 0.99,
  /** … stems shared at least this much (Dice) count as that share … */
  optionSomeStems: 0.5,
  /** … times this. */
  optionStemsFactor: 0.8,
  /** Letters in common or few edits ("delivrd"): from this similarity … */
  optionSpelling: 0.7,
  /** … times this. */
  optionSpellingFactor: 0.7,
  /** Edit similarity is tried on words of this many letters or more. */
  optionEditLetters: 4,
  /** Options are looked for among this many first words … */
  enumWords: 6,
  /** … in spans of up to this many words. */
  enumSpanWords: 3,
  /** A span after the first word fits this much (the value normally comes first). */
  enumLaterSpan: 0.85,
  /** An option must fit better than this. */
  enumMinFit: 0.45,

  // Strings
  /** A label without its value ("Invoice Number:") is a region of at most this many words ending with a colon. */
  labelOnlyWords: 4,
  /** A code of capitals alone ("ABC-DEF") fits this much. */
  codeWithoutDigit: 0.6,
  /** Words with no code in them are read as the code (this many at most) … */
  codeFallbackWords: 6,
  /** … fitting this much. */
  codeFallback: 0.3,
  /** A code printed in digit groups ("NLF 7733 9120 44") spans at most this many words. */
  codeWords: 6,
  /** A code with a prefix of letters ("INV 0042") fits this much. */
  codeWithPrefix: 0.9,
  /** A free-text field takes at most this many words … */
  freeTextWords: 120,
  /** … a name this many … */
  nameWords: 10,
  /** … any other string this many. */
  stringWords: 30,
  /** A region longer than what the field takes fits this much. */
  stringTooLong: 0.4,
  /** A string (not free text) of more words than this fits … */
  stringManyWords: 12,
  /** … this much. */
  stringLong: 0.7,
  /** A name without two letters in a row (a number) fits this much less. */
  nameWithoutLetters: 0.3,
  /** A string (not a date) that is only an amount fits this much less. */
  stringIsAmount: 0.6,

  // Any type
  /** A currency code or sign is looked for among this many words … */
  currencyWords: 3,
  /** … a currency named in words among this many … */
  currencyNameWords: 4,
  /** … fitting this much. */
  currencyNamed: 0.9,
  /** A pattern or length bound the whole text misses may be met by one of this many words … */
  patternWords: 8,
  /** … fitting this much. */
  patternWord: 0.7,
};
