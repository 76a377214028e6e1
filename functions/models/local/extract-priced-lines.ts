/**
 * Items of a document that prints no item table, or one no header names (till receipts): lines whose
 * figures multiply out. A count, a unit price and an amount with count × price = amount ("2 x RM
 * 33.02 … =RM 66.04", "9556231110046  1  3.55  3.55 SR") make one item; the arithmetic is the
 * evidence, so nothing else is needed to tell an item line from the rest. Its description is the text
 * printed before the figures on the same line, else the line of text next to it: above (the name, then
 * "2 x 33.02" under it) or under (a barcode line, then the name), as the receipt does for all of them.
 */
import { type DocIndex, meanOcrConfidence, type XLine, type XWord } from './extract-index.ts';
import type { ItemLeaf, Items, ItemValue } from './extract-arrays.ts';
import { readValue } from './extract-values.ts';
import { PRICED_LINE_WEIGHTS } from './weights/extract-arrays.ts';

/** Lines that sum up, tax or pay: never an item, whatever their figures do. */
const NOT_AN_ITEM = /\b(sub\s*-?\s*total|total|gst|tax|vat|rounding|change|cash|tender(ed)?|balance|discount|deposit|summary|service charge|paid|payment|items?\s*(count|:)|no\.? of items)\b/i;

/** An amount as printed: "2.83", "33,02", "1,250.00", "RM2.83", "=RM", "$5.00" (a currency mark before it). */
const MONEY = /^[=:]?(?:RM|Rs\.?|\$|€|£|MYR|USD)?(\d{1,3}(?:,\d{3})+|\d+)[.,](\d{2})$/i;
/** A count: "2", "1.0", "3x"; OCR's "I" or "l" for a 1 before its "x". */
const COUNT = /^(\d{1,3}(?:\.\d{1,3})?)[xX]?$/;
/** A code that starts an item's line: a barcode or an article number ("9556231110046", "E8318", "CH50514"). */
const CODE = /^[([]?[A-Z]{0,3}\d{4,}[\]);:|]?$/i;

interface Figure {
  value: number;
  word: XWord;
  money: boolean;
}

function figuresOf(words: XWord[]): Figure[] {
  const out: Figure[] = [];
  words.forEach((word, i) => {
    // (Figures in brackets are a tax or a note: "( 0.17)".)
    if (/[()]/.test(word.text)) return;
    const money = MONEY.exec(word.text);
    if (money) {
      out.push({ value: Number(`${money[1]!.replace(/,/g, '')}.${money[2]}`), word, money: true });
      return;
    }
    const count = COUNT.exec(word.text);
    if (count) out.push({ value: Number(count[1]), word, money: false });
    else if (/^[Il|]$/.test(word.text) && /^[xX]$/.test(words[i + 1]?.text ?? '')) out.push({ value: 1, word, money: false });
  });
  return out;
}

interface Multiplied {
  count: Figure;
  price: Figure;
  amount: Figure;
}

/** The count, unit price and amount of a line whose figures multiply out (the amount the last of them). */
function multiplied(figures: Figure[]): Multiplied | undefined {
  for (let a = figures.length - 1; a >= 2; a--) {
    const amount = figures[a]!;
    if (!amount.money || amount.value <= 0) continue;
    for (let p = a - 1; p >= 1; p--) {
      const price = figures[p]!;
      if (!price.money) continue;
      for (let c = p - 1; c >= 0; c--) {
        const count = figures[c]!;
        if (count.value <= 0 || count.value > PRICED_LINE_WEIGHTS.maxCount || (count.money && count.value % 1 !== 0)) continue;
        // (A unit price printed to the cent is up to half a cent off: the amount, up to count × that.)
        if (Math.abs(count.value * price.value - amount.value) <= count.value * PRICED_LINE_WEIGHTS.centOff + PRICED_LINE_WEIGHTS.tolerance) return { count, price, amount };
      }
    }
  }
  return undefined;
}

const letterCount = (words: XWord[]) => words.reduce((n, w) => n + (w.text.match(/\p{L}/gu)?.length ?? 0), 0);

/**
 * A line that may be an item's name: mostly words with letters, read surely; not an item's figures,
 * nothing that sums up, not the header naming the columns (two words of the item's fields).
 */
function nameLine(line: XLine | undefined, page: number, items: Set<number>, columnWords: Set<string>): XWord[] | undefined {
  if (!line || line.page !== page || items.has(line.id) || NOT_AN_ITEM.test(line.text)) return undefined;
  const words = line.words.filter((w) => /\p{L}/u.test(w.text));
  if (letterCount(words) < PRICED_LINE_WEIGHTS.nameLetters || words.length < line.words.length / 2) return undefined;
  if (meanOcrConfidence(line.words) < PRICED_LINE_WEIGHTS.sureName) return undefined;
  if (line.words.filter((w) => w.stems.some((s) => columnWords.has(s))).length >= PRICED_LINE_WEIGHTS.headerWords) return undefined;
  // (Codes and tax codes only, "YT51874 SR", name nothing.)
  if (line.words.every((w) => CODE.test(w.text) || /^[A-Z]{1,3}[:.]?$/.test(w.text))) return undefined;
  return line.words;
}

/**
 * Where a receipt prints its items' names, for all of them alike: above their figures (-1) or under
 * them (+1). The side where more item lines have a line of text; if as many, the side printed closer.
 */
function nameSide(index: DocIndex, lines: XLine[], items: Set<number>, columnWords: Set<string>): 1 | -1 {
  const named = (side: 1 | -1) => lines.filter((l) => nameLine(index.lines[l.id + side], l.page, items, columnWords)).length;
  const above = named(-1);
  const below = named(1);
  if (above !== below) return above > below ? -1 : 1;
  const gap = (side: 1 | -1) => {
    let sum = 0;
    for (const line of lines) {
      const other = index.lines[line.id + side];
      if (!line.box || !other?.box) return Infinity;
      sum += side === -1 ? line.box.top - (other.box.top + other.box.height) : other.box.top - (line.box.top + line.box.height);
    }
    return sum;
  };
  return gap(1) < gap(-1) ? 1 : -1;
}

/**
 * The name printed beside an item's figures, on one line or on two ("1059 18W SQ WW BK SUR LED LIGHT"
 * over "1059 SQUARE BLACK FRAME"): the line beyond counts when it reads as a name, is no label
 * ("Cashier:") and no other item's figures, and is printed right against it.
 */
function nameBeside(index: DocIndex, line: XLine, side: 1 | -1, items: Set<number>, columnWords: Set<string>): XWord[] | undefined {
  const next = nameLine(index.lines[line.id + side], line.page, items, columnWords);
  if (!next) return undefined;
  const nextLine = index.lines[line.id + side]!;
  const beyondLine = index.lines[line.id + 2 * side];
  const beyond = nameLine(beyondLine, line.page, items, columnWords);
  if (!beyond || beyond.some((w) => w.text.endsWith(':'))) return next;
  // (Printed as the next line of the same name: no further from it than half a line's height.)
  const a = nextLine.box;
  const b = beyondLine!.box;
  if (a && b && Math.max(b.top - (a.top + a.height), a.top - (b.top + b.height)) > a.height / 2) return next;
  return side === -1 ? [...beyond, ...next] : [...next, ...beyond];
}

export function itemsFromPricedLines(index: DocIndex, leaves: readonly ItemLeaf[]): Items | undefined {
  const leafOf = (concept: string) => leaves.findIndex((l) => l.concept === concept);
  const fields = { description: leafOf('item_description'), count: leafOf('item_quantity'), price: leafOf('item_unit_price'), amount: leafOf('item_amount') };
  if (fields.amount < 0 && fields.price < 0) return undefined;
  const found: Array<{ line: XLine } & Multiplied> = [];
  // Lines with a count and two amounts (or a code, a count and an amount), whether OCR kept them
  // multiplying out or not: where the names are.
  const figureLines: XLine[] = [];
  for (const line of index.lines) {
    if (NOT_AN_ITEM.test(line.text)) continue;
    const figures = figuresOf(line.words);
    const money = figures.filter((f) => f.money).length;
    if (figures.some((f) => !f.money) && (money >= 2 || (money === 1 && CODE.test(line.words[0]?.text ?? '')))) figureLines.push(line);
    const item = multiplied(figures);
    if (item) found.push({ line, ...item });
  }
  if (found.length === 0) return undefined;
  const itemLines = new Set(figureLines.map((l) => l.id));
  const columnWords = new Set(leaves.flatMap((l) => l.phrases.flatMap((p) => p.stems)));
  const side = nameSide(index, figureLines, itemLines, columnWords);
  const items: Items = [];
  for (const { line, count, price, amount } of found) {
    const row = new Map<number, ItemValue>();
    const put = (leaf: number, words: XWord[], likelihood: number, figure?: Figure) => {
      if (leaf < 0) return;
      const { node, traits } = leaves[leaf]!;
      // (A figure as read here, "I" before its "x" a 1, where the leaf asks for a number.)
      const fits = figure && (node.type === 'number' || (node.type === 'integer' && Number.isInteger(figure.value)));
      const asNumber = fits ? { value: figure.value, words, fit: 1 } : undefined;
      const read = asNumber ?? readValue(words, node, traits, index.dateOrder);
      if (read) row.set(leaf, { read, likelihood: likelihood * read.fit });
    };
    put(fields.count, [count.word], PRICED_LINE_WEIGHTS.figure, count);
    put(fields.price, [price.word], PRICED_LINE_WEIGHTS.figure, price);
    put(fields.amount, [amount.word], PRICED_LINE_WEIGHTS.figure, amount);
    // The description: the words before the figures (less a leading code), else the line next to it.
    const before = line.words.slice(0, line.words.indexOf(count.word));
    const named = CODE.test(before[0]?.text ?? '') ? before.slice(1) : before;
    const description = letterCount(named) >= PRICED_LINE_WEIGHTS.nameLetters ? named : nameBeside(index, line, side, itemLines, columnWords);
    // (A name with a word OCR read at under 50 is mostly garbled: "HE INCKEN" for "HEINEKEN".)
    if (description && description.every((w) => !/\p{L}/u.test(w.text) || (w.confidence ?? 100) >= PRICED_LINE_WEIGHTS.sureWord)) put(fields.description, description, PRICED_LINE_WEIGHTS.description);
    items.push(row);
  }
  return items;
}
