/**
 * The settings of inferring a JSON Schema from examples (../infer-schema.ts, ../infer-fields.ts,
 * ../infer-kind.ts, ../infer-values.ts). Change a number here and check with the schema tests.
 */
export const INFER_SETTINGS = {
  // Labelled values (infer-fields.ts)
  /** A label is at most this many words. */
  maxLabelWords: 5,
  /** A field's name is at most this many characters. */
  nameCharacters: 60,
  /** Words of a line are in separate segments across a gap this many times the usual word spacing … */
  segmentGapSpacings: 2.2,
  /** … and this share of their height. */
  segmentGapHeights: 0.5,
  /** In text, this many characters of space separate segments. */
  segmentGapCharacters: 2,
  /** The usual word spacing of a page with no gaps to measure. */
  defaultSpacing: 3,
  /** A labelled value is at most this many words … */
  maxValueWords: 20,
  /** … a value after a label with no colon at most this many. */
  bareValueWords: 6,
  /** A title naming a table is at most this many words. */
  tableTitleWords: 3,
  /** A word most headers share names the table when longer than this many letters … */
  sharedWordLetters: 2,
  /** … and in this many headers at least. */
  sharedHeaders: 2,
  /** An item table names at least this many columns. */
  itemColumns: 2,

  // The kind of document (infer-kind.ts)
  /** Its title is in the first page's first this many lines. */
  titleLines: 4,
  /** It is classified from its first this many pages … */
  classifyPages: 2,
  /** … when the best kind's share is at least this … */
  minShare: 0.5,
  /** … and this many times the next best's. */
  leadOverNext: 1.5,

  // Values (infer-values.ts)
  /** A phone number under a phone's label has at least this many digits … */
  labelledPhoneDigits: 6,
  /** … one starting with "+" this many. */
  phoneDigits: 8,
};
