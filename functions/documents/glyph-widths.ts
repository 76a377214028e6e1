/**
 * Glyph widths for placing words inside a PDF text item (./pdf.ts): pdf.js gives an item's text and
 * its total advance, not each glyph's, and a line drawn with one show-text ("Invoice number:
 * INV-3090") holds many words. Splitting the advance by character count shifts every word after
 * narrow letters (i, l, t, ':', spaces) to the right; splitting it in proportion to the widths of a
 * font of the same kind puts them where they were drawn, to within what the two fonts' proportions
 * differ.
 *
 * The tables are the Adobe Font Metrics of Helvetica and Times-Roman (two of the PDF standard 14
 * fonts; Arial and Times New Roman are metric-compatible with them), in 1/1000 em, for the Windows
 * ANSI characters (Latin-1 and the typographic quotes, dashes, bullet, euro...), as
 * @pdf-lib/standard-fonts ships them. pdf.js tells a font's kind in its text styles (`fontFamily`:
 * "serif", "sans-serif" or "monospace"); a monospace font, and an item with a character the table
 * does not know (another script), keep the uniform split.
 */

// Widths of U+0020..U+00FF (0: not in the font: control characters).
const HELVETICA_LATIN = [
  278, 278, 355, 556, 556, 889, 667, 191, 333, 333, 389, 584, 278, 333, 278, 278, // U+0020
  556, 556, 556, 556, 556, 556, 556, 556, 556, 556, 278, 278, 584, 584, 584, 556, // U+0030
  1015, 667, 667, 722, 722, 667, 611, 778, 722, 278, 500, 667, 556, 833, 722, 778, // U+0040
  667, 778, 722, 667, 611, 722, 667, 944, 667, 667, 611, 278, 278, 278, 469, 556, // U+0050
  333, 556, 556, 500, 556, 556, 278, 556, 556, 222, 222, 500, 222, 833, 556, 556, // U+0060
  556, 556, 333, 500, 278, 556, 500, 722, 500, 500, 500, 334, 260, 334, 584, 0, // U+0070
  0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, // U+0080
  0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, // U+0090
  278, 333, 556, 556, 556, 556, 260, 556, 333, 737, 370, 556, 584, 333, 737, 333, // U+00A0
  400, 584, 333, 333, 333, 556, 537, 278, 333, 333, 365, 556, 834, 834, 834, 611, // U+00B0
  667, 667, 667, 667, 667, 667, 1000, 722, 667, 667, 667, 667, 278, 278, 278, 278, // U+00C0
  722, 722, 778, 778, 778, 778, 778, 584, 778, 722, 722, 722, 722, 667, 667, 611, // U+00D0
  556, 556, 556, 556, 556, 556, 889, 500, 556, 556, 556, 556, 278, 278, 278, 278, // U+00E0
  556, 556, 556, 556, 556, 556, 556, 584, 611, 556, 556, 556, 556, 500, 556, 500, // U+00F0
];
const TIMES_LATIN = [
  250, 333, 408, 500, 500, 833, 778, 180, 333, 333, 500, 564, 250, 333, 250, 278, // U+0020
  500, 500, 500, 500, 500, 500, 500, 500, 500, 500, 278, 278, 564, 564, 564, 444, // U+0030
  921, 722, 667, 667, 722, 611, 556, 722, 722, 333, 389, 722, 611, 889, 722, 722, // U+0040
  556, 722, 667, 556, 611, 722, 722, 944, 722, 722, 611, 333, 278, 333, 469, 500, // U+0050
  333, 444, 500, 444, 500, 444, 333, 500, 500, 278, 278, 500, 278, 778, 500, 500, // U+0060
  500, 500, 333, 389, 278, 500, 500, 722, 500, 500, 444, 480, 200, 480, 541, 0, // U+0070
  0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, // U+0080
  0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, // U+0090
  250, 333, 500, 500, 500, 500, 200, 500, 333, 760, 276, 500, 564, 333, 760, 333, // U+00A0
  400, 564, 300, 300, 333, 500, 453, 250, 333, 300, 310, 500, 750, 750, 750, 444, // U+00B0
  722, 722, 722, 722, 722, 722, 889, 667, 611, 611, 611, 611, 333, 333, 333, 333, // U+00C0
  722, 722, 722, 722, 722, 722, 722, 564, 722, 722, 722, 722, 722, 722, 556, 500, // U+00D0
  444, 444, 444, 444, 444, 444, 667, 444, 444, 444, 444, 444, 278, 278, 278, 278, // U+00E0
  500, 500, 500, 500, 500, 500, 500, 564, 500, 500, 500, 500, 500, 500, 500, 500, // U+00F0
];
// The Windows ANSI characters above U+00FF: code point, Helvetica width, Times-Roman width.
const EXTRAS: ReadonlyArray<readonly [number, number, number]> = [
  [0x0152, 1000, 889],
  [0x0153, 944, 722],
  [0x0160, 667, 556],
  [0x0161, 500, 389],
  [0x0178, 500, 500],
  [0x017d, 611, 611],
  [0x017e, 500, 444],
  [0x0192, 556, 500],
  [0x02c6, 333, 333],
  [0x02dc, 333, 333],
  [0x2013, 556, 500],
  [0x2014, 1000, 1000],
  [0x2018, 222, 333],
  [0x2019, 222, 333],
  [0x201a, 222, 333],
  [0x201c, 333, 444],
  [0x201d, 333, 444],
  [0x201e, 333, 444],
  [0x2020, 556, 500],
  [0x2021, 556, 500],
  [0x2022, 350, 350],
  [0x2026, 1000, 1000],
  [0x2030, 1000, 1000],
  [0x2039, 333, 333],
  [0x203a, 333, 333],
  [0x20ac, 556, 500],
  [0x2122, 1000, 980],
];
// Characters printed like one in the tables: hyphen and non-breaking hyphen as '-', figure dash as '–'.
const ALIASES: ReadonlyArray<readonly [number, number]> = [
  [0x2010, 0x2d],
  [0x2011, 0x2d],
  [0x2012, 0x2013],
];

/** Widths by UTF-16 code unit (below TABLE_END); 0 where the font's width is not known. */
export type WidthTable = Uint16Array;

const TABLE_END = 0x2123; // past U+2122 (™), the highest character in the tables

function table(latin: readonly number[], column: 1 | 2): WidthTable {
  const widths = new Uint16Array(TABLE_END);
  latin.forEach((width, i) => (widths[0x20 + i] = width));
  for (const extra of EXTRAS) widths[extra[0]] = extra[column];
  for (const [alias, of] of ALIASES) widths[alias] = widths[of]!;
  return widths;
}

const SANS = table(HELVETICA_LATIN, 1);
const SERIF = table(TIMES_LATIN, 2);

/** The table for a pdf.js text style's font family, or null for a monospace (or unknown) font: there the uniform split is right. */
export function widthTableFor(fontFamily: string | undefined): WidthTable | null {
  if (fontFamily === 'sans-serif' || fontFamily === undefined) return SANS;
  if (fontFamily === 'serif') return SERIF;
  return null;
}

/**
 * Fills `advances[0..str.length]` with the advance before each character of `str` (advances[0] = 0,
 * advances[str.length] = the whole string), in the table's units; `false`, with `advances` left
 * unusable, when a character is not in the table.
 */
export function fillAdvances(str: string, widths: WidthTable, advances: Float64Array): boolean {
  let sum = 0;
  advances[0] = 0;
  for (let i = 0; i < str.length; i++) {
    const code = str.charCodeAt(i);
    const width = code < TABLE_END ? widths[code]! : 0;
    if (width === 0) return false;
    sum += width;
    advances[i + 1] = sum;
  }
  return true;
}
