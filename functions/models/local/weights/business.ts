/**
 * The settings of the business-field reader (../business.ts), one table per stage: every weight,
 * threshold and score it uses, named, with what each rewards or penalises. Scores are 0..1 (how sure a
 * reading is); a factor multiplies a score; a bonus or penalty is added to one. Change a number here
 * and measure with `npm run bench -- accuracy`.
 */

/** Reading a field's values through its printed labels (labelsOf, labelledValues, plausible). */
export const LABEL_WEIGHTS = {
  /** A weak label of the lexicon ("Ref", "No.") weighs this against a strong one's 1; under it a label counts as weak. */
  weakLabel: 0.6,
  /** A field's labels used as synonyms by the extractor's label proximity weigh this (a little below the field's own words). */
  proximityPhrase: 0.9,
  /** Another field names a label better when its similarity beats this field's by more than this. */
  clearlyBetter: 0.05,
  /** Lexicon words just after a label with no colon read with it ("Total Items"), at most this many. */
  labelWordsAfter: 2,
  /** A printed label must match one of the field's labels at least this well ("Invoice #" for "invoice no": 1). */
  minLabel: 0.7,
  /** How far below a label standing alone its value may be, in text heights (a shaded header band). */
  farBelow: 4,
  /** A value read in a region the label only qualifies ("Total (incl. tax)") counts this much. */
  qualified: 0.8,
  /** An amount under its label counts this much: amounts of a document are beside their label, under it is mostly an item column. */
  amountBelow: 0.6,
  /** A date under an item table's column header ("Date  Description  Amount") is an item's date: it counts this much as the document's. */
  itemColumnDate: 0.3,
  /** One word of a name's label with no colon ("SUPPLIERS" in a logo) is a label only weakly. */
  nameOneWordLabel: 0.7,
  /** … unless it heads its block: the name on the next line, its left edge within this many text heights of the label's. */
  headingIndent: 0.5,
  /** … and it stands in this upper share of the first page (where the parties are printed, not an item list). */
  headingTopShare: 0.4,
  /** Words without a digit after a label with no colon are its value only weakly. */
  inlineWithoutDigit: 0.35,
  /** A name has at most this share of digits. */
  nameMaxDigitShare: 0.3,
  /** An identifier is at most this many characters. */
  identifierMaxLength: 40,
  /** An amount is below this (larger numbers are codes or misreadings). */
  amountLimit: 1e10,
  /** Words with this many digits at the end of a name are a phone number printed after it. */
  phoneDigits: 6,
  /** A document that prints no cents groups thousands with dots when this many amounts read "14.950". */
  dotThousandsAmounts: 2,
  /** A document whose amounts read both ways ("$2.000", "$12.700" besides "$900.00") prints at least this many. */
  dotBeforeThreeDigitsAmounts: 3,
  /** A document prints its amounts with cents when at least this many do (and more than print whole numbers). */
  centsAmounts: 3,
};

/** Total, subtotal and tax chosen together (resolveAmounts, taxSummary, taxAfterBase). */
export const AMOUNT_WEIGHTS = {
  /** A column of figures is read this many text heights down from its first row for the sum of its rows (columnTotal). */
  columnRows: 12,
  /** Two amounts closer than this are the same. */
  sameAmount: 0.011,
  /** Rounding to 5 cents (Malaysia, Australia …) or to the unit: amounts this close agree once rounded. */
  rounding: 0.051,
  /** A rounded total is a whole number of this many cents. */
  roundedToCents: 5,
  /** A tax at a rate of its base agrees within this. */
  taxAtRate: 0.006,
  /** … or within this share of the tax (a tax summed from rounded line taxes: 103,201.45 for 21% of 491,435.54). */
  taxAtRateShare: 0.000002,
  /** A printed rate is a tax rate up to this many percent. */
  maxRate: 30,
  /** A tax is at most this share of its base. */
  maxTaxShare: 0.3,
  /** A tax after its base on a summary row is within this many words of it. */
  taxWordsAfterBase: 5,
  /** How sure a tax summary row's base and tax are, before the total agrees with them. */
  summaryScore: 0.75,
  /** Lines under a summary's title where its first row may be. */
  summaryRows: 3,
  /** Lines apart that still make one block of amounts. */
  blockLines: 4,
  /** A block printing this many different taxes (one per rate), its amounts not adding up, tells no tax. */
  severalTaxes: 3,
  /** A subtotal or tax on another page than the total counts this much less. */
  otherPage: 0.3,
  /** An amount printed without cents where the document prints cents (a lost decimal point?) counts this much. */
  withoutCents: 0.5,
  /** The total read from what is due (or what is due from the total) where nothing was paid counts this much. */
  dueAsTotal: 0.85,
  /** Readings of each amount tried together: the best this many. */
  candidates: 6,
  /** What a subtotal's score adds to a combination's (the total's adds all of it). */
  subtotalShare: 0.8,
  /** What a tax's score adds to a combination's. */
  taxShare: 0.8,
  /** A subtotal or a tax in the total's block (nearer wins between readings otherwise alike). */
  inTotalsBlock: 0.05,
  /** Subtotal + tax = total: three printed numbers seldom add up by chance. */
  addsUp: 1.2,
  /** Subtotal + tax = total once rounded. */
  addsUpRounded: 0.9,
  /** Subtotal + tax ± a charge or discount = total ("Service charge 10%  15.00", "Shipping 4.95"). */
  addsUpWithCharge: 1.0,
  /** Penalty: subtotal, tax and total read but not adding up. */
  doesNotAddUp: 0.6,
  /** What a tax at a rate of its base adds to a reading (less than adding up). */
  rateAgrees: 0.3,
  /** Penalty: a part more than the whole, or a tax more than half the total (the two read the wrong way round). */
  partOverWhole: 1,
  /** An amount the others imply, found printed, is at most this sure. */
  impliedMax: 0.75,
  /** An implied subtotal or tax is this much as sure as the surer of the two it comes from. */
  impliedPart: 0.85,
  /** An implied total is this much as sure as the less sure of subtotal and tax. */
  impliedTotal: 0.9,
  /** How sure a total is that only what was paid less the change says (an amount printed that equals it). */
  paidLessChange: 0.7,
  /** How sure, at least, each of a total, subtotal and tax is when they add up (it clears every amount's floor). */
  consistentScore: 0.8,
  /** A chosen amount confirmed by the others gains this factor. */
  consistentBoost: 1.15,
  /** Readings not chosen count this much. */
  notChosen: 0.5,
  /** Readings not chosen are kept only from this score (where none was chosen). */
  notChosenMin: 0.3,
};

/** The issuer's name: labelled, or the letterhead (letterheadCandidates, nameRuns, vendorCandidates). */
export const ISSUER_WEIGHTS = {
  /** A domain name (from an e-mail or a web site) is a name's spelling from this many letters. */
  domainMinLetters: 4,
  /** A name and a domain may be one the start of the other from this many letters. */
  domainPrefixLetters: 6,
  /** A labelled name that spells the document's domain gains this factor. */
  labelledSpellsDomain: 1.3,
  /** Lines under a customer's label taken as its block. */
  customerBlockLines: 5,
  /** How far below, in text heights, the next line of a customer's block may be. */
  customerBlockGap: 1.3,
  /** The top of the first page, as a share of its height, where the letterhead is. */
  topShare: 0.4,
  /** Lines of the top of the first page looked at. */
  topLines: 14,
  /** A segment of at most this many words may be the document's title. */
  titleWords: 4,
  /** A name has at most this many words. */
  maxWords: 10,
  /** A name is at most a quarter digits: this divides its length. */
  digitsDivisor: 4,
  /** A name of fewer letters than this ("URI", "Co") is one only printed large. */
  shortNameLetters: 4,
  /** How large (against the page's median text height) a short name must be printed. */
  shortNameSize: 1.3,
  /** The second line of a name on two lines reads as words at least this much. */
  secondLineWordlike: 0.75,
  /** Two lines of one name are printed at sizes within this share of each other. */
  sameSize: 0.35,
  /** Words OCR read with less confidence than this on average are noise (a logo read as letters). */
  noiseConfidence: 50,
  /** The score of the first name at the top of the page. */
  firstName: 0.45,
  /** What each name printed above it takes from a name's score. */
  perRank: 0.05,
  /** A name ending with a legal form ("Sdn Bhd", "GmbH"). */
  legalForm: 0.35,
  /** A name with a company word ("Trading", "Group"). */
  companyWord: 0.2,
  /** A name printed larger than this (against the median) gains for its size … */
  largerThan: 1.15,
  /** … this much per unit of size above 1 … */
  perSize: 0.25,
  /** … up to this. */
  sizeMax: 0.25,
  /** Penalty: all lower case (a note written above, not a letterhead). */
  lowerCase: 0.3,
  /** Penalty per share of words that do not read as words (OCR noise). */
  notWordlike: 0.6,
  /** Penalty: a bracket left open (part of the name was lost). */
  brokenBracket: 0.3,
  /** A name that spells the document's e-mail or web domain. */
  spellsDomain: 0.4,
  /** A name printed whole on its line(s) directly over an address or a phone line (a letterhead's block). */
  letterheadBlock: 0.15,
  /** A name that opens a sender's line, its address after it on the same line ("Acme GmbH · Main St 1 · 12345 Town"). */
  senderLine: 0.15,
  /** … a name of at most this many words. */
  senderNameWords: 6,
  /** A party's name under the first page's first company-name label ("Razón Social:"), printed above the customer's labels. */
  companyNameLabel: 0.8,
  /** A name scoring this or less is no candidate. */
  minScore: 0.2,
  /** A letterhead name is at most this sure. */
  maxScore: 0.95,
  /** A name under the document's title counts this much, when a name is printed above the title. */
  belowTitle: 0.75,
  /** A name on two lines of a logo that spells the web domain ("AMNOSH" over "SUPPLIERS"). */
  logoSpellsDomain: 0.97,
};

/** The customer, the document's number and its date (customerCandidates, documentNumberCandidates, issueDateCandidates). */
export const PARTY_NUMBER_DATE_WEIGHTS = {
  /** A customer's name that is the whole first line under "Bill To:" gains this factor. */
  customerWholeLine: 1.05,
  /** What a weak label that names a number ("Claim #", "Workfile ID") gains when no strong label is printed. */
  soleNumberLabel: 1.1,
  /** A number printed after the document's title ("Invoice FA-2017-0008"), as a heading does. */
  titleNumber: 0.8,
  /** … of at least this many characters, unless a number word is printed before it ("Rechnung Nr. 42"). */
  titleNumberChars: 3,
  /** A party's name under a generic name label ("Name:") in the block its heading opens ("Seller"). */
  headedName: 0.85,
  /** … looked for this many lines under the heading. */
  headedNameLines: 6,
  /** Without a name label, the block's first line past its "label: value" lines, where it reads as a name. */
  headedFirstLine: 0.8,
  /** The name on the first line under a billing address's label ("Billing address" over "Globex Corporation"). */
  addressOpensWithName: 0.8,
  /** A line of more words than this reads as a sentence, not a party's name. */
  nameMaxWords: 6,
  /** A party's heading is a line of at most this many words, no digits … */
  headingWords: 5,
  /** … whose label has at least this many letters ("Seller", not "de:"). */
  headingLetters: 4,
  /** The due date a payment term's sentence gives after an "until" word ("Zahlbar … bis 04.04.2018"). */
  termsDue: 0.8,
  /** The recipient printed under the sender's line (a letter's address window) … */
  recipientUnderSender: 0.8,
  /** … looked for on this many lines flush under it (lines of other columns read in between do not count) … */
  recipientLines: 3,
  /** … each starting at most this many of its text heights below the sender's line. */
  recipientGap: 8,
  /** The first line of an address block printed with no label, in the upper part of the first page … */
  unlabelledBlock: 0.72,
  /** … above this share of the page's height … */
  blockTopShare: 0.5,
  /** … its lines at most this many text heights apart … */
  blockLineGap: 0.8,
  /** … and at most this many of them read. */
  blockMaxLines: 7,
  /** A name of one word needs more letters than this ("LOT" and "ltem" are a street's and a table's words). */
  blockNameLetters: 4,
  /** A sender's line without separating marks is printed smaller than this share of the line under it. */
  senderSmaller: 0.85,
  /** … starting at most this many text heights left or right of where the sender's line starts. */
  recipientIndent: 2,
  /** A letter's dateline ("München, den 01.11.2024"): as sure as a labelled date. */
  dateline: 1,
  /** The date on the document's title line ("Rechnung Nr. 4711 vom 01.12.2025"): as sure as a labelled one. */
  titleDate: 1,
  /** How sure the first date printed is the document's date, when no label says so. */
  firstDate: 0.6,
  /** Words read together as one date. */
  dateWords: 4,
  /** A line of this many words or more, half of them in small letters, is running text. */
  runningTextWords: 10,
};

/** The document's currency (currencyCandidates, settleDateOrder). */
export const CURRENCY_WEIGHTS = {
  /**
   * A mark stating a column's, a total's or the document's currency: in brackets ("Amount (RM)"), over a
   * money column ("RM(TOTAL)", "Einzel/€"), after a word naming money ("Netto EUR", "Total € incl.
   * VAT") or after "in" after one ("Beträge in EUR").
   */
  bracketed: 1.5,
  /** A code or mark beside a number ("RM 12.00", "USD 5"), or printed against it ("$1,250.00"). */
  besideNumber: 2,
  /** A code or strong mark printed apart from numbers. */
  apart: 1,
  /** A currency's name ("US Dollars", "euros"). */
  named: 1.5,
  /** Marks misread by one letter ("RH 86.00" for a faint "RM") count from this many. */
  misreadMarks: 2,
  /** Each such misread mark. */
  misread: 1,
  /** Symbols on scanned pages count from this many (one alone proves nothing). */
  scannedSymbols: 2,
  /** The country the document is from agreeing with a printed mark counts as this many marks. */
  homeCountry: 1,
  /** A currency sign OCR read with less confidence than this is as often a misread digit or letter. */
  sureSymbolConfidence: 65,
  /** The score of a currency: this … */
  base: 0.35,
  /** … plus this per mark … */
  perMark: 0.12,
  /** … up to this, times its share of all marks. */
  maxScore: 0.95,
  /** Numeric dates are read day-first unless the currency read at least this surely is the US dollar. */
  sureForDateOrder: 0.3,
  /** … and day-first whatever the currency in a document with at least this many words of a day-first language (more than English ones). */
  dayFirstLanguageWords: 3,
};

/** Label words OCR misread by one letter (readMisspelledLabels, misreadShortLabel). */
export const MISREAD_LABEL_WEIGHTS = {
  /** A word of this many letters or more one edit from a label word counts as that word. */
  minLetters: 5,
  /** The short words of number labels ("doc", "bill") that a word with a letter lost may be: from … */
  shortMinLetters: 3,
  /** … to this many letters. */
  shortMaxLetters: 4,
};

/**
 * Below these scores a reading is left null: a wrong value costs more than a missing one. Calibrated
 * on the corpus (`npm run bench -- accuracy`): each is the score above which a field's readings are
 * right at least three times as often as wrong (issuer names and subtotals are the least sure).
 */
export const FIELD_FLOORS: Readonly<Record<string, number>> = {
  vendor_name: 0.65,
  document_number: 0.6,
  issue_date: 0.45,
  total: 0.6,
  subtotal: 0.8,
  tax: 0.65,
  currency: 0.5,
  customer_name: 0.7,
};

/** How far a reading is trusted (readBusiness, ocrTrust). */
export const TRUST_WEIGHTS = {
  /** The floor of a field FIELD_FLOORS does not name. */
  defaultFloor: 0.5,
  /** OCR confidence at or below which a word is not trusted at all (above the floor below) … */
  unsureConfidence: 20,
  /** … and the span above it over which trust grows to full (20 + 55 = 75). */
  sureSpan: 55,
  /** A value read from unsure words keeps at least this much of its score. */
  minTrust: 0.3,
  /** How sure a value read in its box of a standard form (form-layouts.ts) is. */
  formBox: 0.9,
};
