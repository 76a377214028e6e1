/**
 * Right-to-left text (Arabic, Hebrew, Persian, Urdu, Syriac, Thaana, N'Ko) read from where it is
 * printed. A PDF places glyphs on the page, so a line of Arabic comes left to right in visual order:
 * its words last-first, and each word's letters last-first unless the reader (pdf.js) already turned
 * them. Text is stored in logical order — the order it is read and typed — so a line whose letters
 * are mostly right-to-left has its words turned around, while the runs of left-to-right words inside
 * it (numbers, Latin names: "Acme Corp", "12345") keep their own order, as the Unicode bidi algorithm
 * lays them out.
 */

/** Letters of the right-to-left scripts (strong R and AL in Unicode's bidi classes), presentation forms included. */
const RTL_LETTER = /[\u0590-\u05FF\u0600-\u06FF\u0700-\u08FF\uFB1D-\uFDFF\uFE70-\uFEFF]|\uD802[\uDC00-\uDFFF]|\uD803[\uDC00-\uDE7F]|\uD83A[\uDC00-\uDFFF]|\uD83B[\uDC00-\uDEFF]/;
const RTL_LETTERS = new RegExp(RTL_LETTER.source, 'g');
/** Letters of left-to-right scripts (a rough class: any letter that is not right-to-left). */
const LETTERS = /\p{L}/gu;
/** Arabic presentation forms: the shaped glyphs some producers map to; read as the letters they show. */
const PRESENTATION_FORMS = /[\uFB50-\uFDFF\uFE70-\uFEFF]+/g;

export function hasRtlLetter(text: string): boolean {
  return RTL_LETTER.test(text);
}

/** Arabic presentation forms as the plain letters they show ("ﻟﺎ" → "لا"), as poppler's pdftotext gives them. */
export function plainLetters(text: string): string {
  return text.replace(PRESENTATION_FORMS, (forms) => forms.normalize('NFKC'));
}

/** Whether a line's letters are mostly right-to-left (its base direction, from its strong letters). */
export function isRtlLine(texts: readonly string[]): boolean {
  let rtl = 0;
  let all = 0;
  for (const text of texts) {
    rtl += text.match(RTL_LETTERS)?.length ?? 0;
    all += text.match(LETTERS)?.length ?? 0;
  }
  return rtl > 0 && rtl * 2 >= all;
}

/**
 * Items of one line, given left to right as printed, in reading order: as they are for a
 * left-to-right line; for a right-to-left line, right to left, each run of left-to-right items
 * (no right-to-left letter in them) kept left to right.
 */
export function logicalOrder<T>(items: readonly T[], textOf: (item: T) => string): T[] {
  if (!isRtlLine(items.map(textOf))) return [...items];
  const out: T[] = [];
  let run: T[] = [];
  for (let i = items.length - 1; i >= 0; i--) {
    const item = items[i]!;
    if (hasRtlLetter(textOf(item))) {
      out.push(...run.reverse(), item);
      run = [];
    } else {
      run.push(item);
    }
  }
  out.push(...run.reverse());
  return out;
}
