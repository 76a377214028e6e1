/**
 * Word boxes inside one PDF text item: a line drawn with one show-text (pdf-lib, report writers,
 * Word runs) holds many words, and each must be boxed where it was drawn, not where a split by
 * character count puts it (after narrow letters that is up to a character or more to the right).
 * The truth is pdf-lib's own layout: font.widthOfTextAtSize of the text before the word.
 */
import { PDFDocument, type PDFFont, StandardFonts } from 'pdf-lib';
import { describe, expect, it } from 'vitest';
import type { Word } from '../../../functions/documents/doc.ts';
import { fillAdvances, widthTableFor } from '../../../functions/documents/glyph-widths.ts';
import { readPdf } from '../../../functions/documents/pdf.ts';

const budget = () => ({ deadline: Date.now() + 60_000 });
const X = 72;
const SIZE = 12;

interface Line {
  text: string;
  font: StandardFonts;
  y: number;
}

/** One page; each line drawn with one drawText (one Tj), so pdf.js gives it as one text item. */
async function linesPdf(lines: Line[]): Promise<{ bytes: Uint8Array; fonts: Map<StandardFonts, PDFFont> }> {
  const pdf = await PDFDocument.create();
  const page = pdf.addPage([612, 792]);
  const fonts = new Map<StandardFonts, PDFFont>();
  for (const line of lines) {
    if (!fonts.has(line.font)) fonts.set(line.font, await pdf.embedFont(line.font));
    page.drawText(line.text, { x: X, y: 792 - line.y, size: SIZE, font: fonts.get(line.font)! });
  }
  return { bytes: await pdf.save(), fonts };
}

/**
 * Where pdf-lib drew each word of a line: [left, right] in points from the page's left edge. Its
 * Tj advances by each glyph's width, without kerning (widthOfTextAtSize of a longer string adds the
 * font's kerning pairs, which drawText does not apply), so the offsets are sums over single letters.
 */
function drawnAt(text: string, font: PDFFont): Array<{ text: string; left: number; right: number }> {
  const advance = (s: string) => [...s].reduce((sum, letter) => sum + font.widthOfTextAtSize(letter, SIZE), 0);
  return [...text.matchAll(/\S+/g)].map((m) => {
    const left = X + advance(text.slice(0, m.index));
    return { text: m[0], left, right: left + advance(m[0]) };
  });
}

function wordsOnLine(words: Word[], y: number): Word[] {
  return words.filter((w) => w.box!.top < y && w.box!.top + w.box!.height > y).sort((a, b) => a.box!.left - b.box!.left);
}

const CASES: Array<{ name: string; font: StandardFonts; text: string; word: string }> = [
  { name: 'Helvetica', font: StandardFonts.Helvetica, text: 'Invoice number: INV-3090', word: 'INV-3090' },
  { name: 'Times', font: StandardFonts.TimesRoman, text: 'Invoice number: INV-3090', word: 'INV-3090' },
  // Narrow letters (i, l, t, f, 1, ':', spaces) before a wide word: a split by count drifts most here.
  { name: 'Helvetica, narrow letters first', font: StandardFonts.Helvetica, text: 'if it fill1 tilt: WMW MOMENTUM', word: 'MOMENTUM' },
  { name: 'Times, narrow letters first', font: StandardFonts.TimesRoman, text: 'Filed still; til 11 l. Jan: WOMAN', word: 'WOMAN' },
];

describe('word boxes inside a text item', () => {
  for (const c of CASES) {
    it(`${c.name}: "${c.word}" in "${c.text}" is boxed where pdf-lib drew it, and so is every word of the line`, async () => {
      const { bytes, fonts } = await linesPdf([{ text: c.text, font: c.font, y: 100 }]);
      const [page] = await readPdf(bytes, budget());
      const read = wordsOnLine(page!.words, 100 - SIZE / 3);
      const truth = drawnAt(c.text, fonts.get(c.font)!);
      expect(read.map((w) => w.text)).toEqual(truth.map((t) => t.text));
      for (const [i, t] of truth.entries()) {
        const box = read[i]!.box!;
        expect(box.left, `${t.text} left`).toBeCloseTo(t.left, 1);
        expect(box.left + box.width, `${t.text} right`).toBeCloseTo(t.right, 1);
      }
      // The word a source points at: its box holds it and not the letters before it.
      const word = read.find((w) => w.text === c.word)!;
      const at = truth.find((t) => t.text === c.word)!;
      expect(Math.abs(word.box!.left - at.left)).toBeLessThan(0.05 * (at.right - at.left));
      expect(word.origin).toEqual({ kind: 'box', page: 1, box: word.box });
    });
  }

  it('a monospace font keeps the split by character count, which is exact there', async () => {
    const text = 'Invoice number: INV-3090';
    const { bytes, fonts } = await linesPdf([{ text, font: StandardFonts.Courier, y: 100 }]);
    const [page] = await readPdf(bytes, budget());
    const read = wordsOnLine(page!.words, 100 - SIZE / 3);
    const truth = drawnAt(text, fonts.get(StandardFonts.Courier)!);
    expect(read.map((w) => w.text)).toEqual(truth.map((t) => t.text));
    for (const [i, t] of truth.entries()) {
      expect(read[i]!.box!.left).toBeCloseTo(t.left, 1);
      expect(read[i]!.box!.left + read[i]!.box!.width).toBeCloseTo(t.right, 1);
    }
  });

  it('lines of different fonts on one page are each placed by their own kind of font', async () => {
    const lines: Line[] = [
      { text: 'Total due: 1,111.11 USD', font: StandardFonts.Helvetica, y: 100 },
      { text: 'Total due: 1,111.11 USD', font: StandardFonts.TimesRoman, y: 140 },
      { text: 'Total due: 1,111.11 USD', font: StandardFonts.Courier, y: 180 },
    ];
    const { bytes, fonts } = await linesPdf(lines);
    const [page] = await readPdf(bytes, budget());
    for (const line of lines) {
      const read = wordsOnLine(page!.words, line.y - SIZE / 3);
      const usd = read.find((w) => w.text === 'USD')!;
      const at = drawnAt(line.text, fonts.get(line.font)!).find((t) => t.text === 'USD')!;
      expect(usd.box!.left, line.font).toBeCloseTo(at.left, 1);
    }
  });
});

describe('glyph width tables', () => {
  it('give advances by the widths of a font of the kind (Helvetica for sans-serif, Times for serif), none for monospace', () => {
    const advances = new Float64Array(8);
    expect(fillAdvances('il: W', widthTableFor('sans-serif')!, advances)).toBe(true);
    // Helvetica: i 222, l 222, ':' 278, space 278, W 944.
    expect([...advances.subarray(0, 6)]).toEqual([0, 222, 444, 722, 1000, 1944]);
    expect(fillAdvances('il: W', widthTableFor('serif')!, advances)).toBe(true);
    // Times-Roman: i 278, l 278, ':' 278, space 250, W 944.
    expect([...advances.subarray(0, 6)]).toEqual([0, 278, 556, 834, 1084, 2028]);
    expect(widthTableFor('monospace')).toBeNull();
  });

  it('know Latin-1 and the typographic punctuation, and refuse letters of other scripts (the item keeps the uniform split)', () => {
    const advances = new Float64Array(32);
    const sans = widthTableFor('sans-serif')!;
    expect(fillAdvances('Café – “Straße” €12 …', sans, advances)).toBe(true);
    expect(fillAdvances('Ωmega', sans, advances)).toBe(false);
    expect(fillAdvances('Счёт 12', sans, advances)).toBe(false);
    expect(fillAdvances('請求書', sans, advances)).toBe(false);
  });
});
