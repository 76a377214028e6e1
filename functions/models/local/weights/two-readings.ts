/**
 * The settings of agreeing two OCR readings of a scan (../two-readings.ts), calibrated on the corpus
 * with QUIRE_OCR=both. Change a number here and measure with `npm run bench -- accuracy`.
 */
export const TWO_READINGS_SETTINGS = {
  /**
   * How much surer one reader must be of a word than the other (their confidences, 0–100) for its
   * reading of the word to be taken. Five points tell nothing: on the corpus Tesseract read "PETRO" at
   * 87 where PP-OCR misread "PEIRO" at 92, and misread "laste" at 94 where PP-OCR read "Taste" at 99;
   * Tesseract's "Sdn" at 94 over PP-OCR's "San" at 77 is settled.
   */
  wordMargin: 10,
  /**
   * A value only the second reader found stands at this likelihood or above: PP-OCR misreads
   * letters and digits with high confidence ("PEIRO" for "PETRO", "P0S01/000123/9"), which the first
   * reader's confidence would have left null; at 0.78, of the names, numbers and amounts only PP-OCR
   * found, 17 wrong and 24 right values fall below.
   */
  secondOnlyLikelihood: 0.78,
  /**
   * Below this confidence Tesseract read a word it could not make out ("IN1L00S" for "IN1008" at 13,
   * "InviRODD721134" at 35): where it read nothing surer at a value's place, the second reader's value
   * stands alone. Its misread "POS01/000123¢9" at 48 is read.
   */
  unreadConfidence: 40,
  /**
   * How much of a value's place (across) the first reader must have read surely for its reading there
   * to count: where Tesseract read 41–49% of a name surely it had read it otherwise ("Owner by Castle
   * Blue S/E" under PP-OCR's "Dwner by Castle Blue S/B"); a letterhead it read nothing of but a stray
   * "(C0" is one it did not see.
   */
  readShare: 0.25,
};
