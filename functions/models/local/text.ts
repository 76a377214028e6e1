/**
 * Text plumbing of the local engine: reading a Doc's pages as lines, counting a vocabulary's words and
 * phrases in them (tokens and stems: ../shared/words.ts), and the BM25 pieces the scorers share.
 *
 * Everything here is computed once per request and shared by every consensus vote: votes differ only
 * in the weights they give to features (./random.ts), never in how the text is read.
 */
import { type Doc, type Page, readByOcr, tableRows } from '../../documents/doc.ts';
import { NEGATION_SCOPE, phraseKey, type Token, tokenize } from '../shared/words.ts';
import { BM25_SETTINGS } from './weights/evidence.ts';

// ---------------------------------------------------------------------------------------------
// Pages as lines

export interface PageLine {
  text: string;
  /** A heading block, or a short line at the top of the page: where documents say what they are. */
  title: boolean;
  /**
   * Read in a picture of a page with a text layer (../../documents/pictures.ts: a logo, a chart, a
   * banner, a photo's sign). Such lines are read only on a page that prints no text of its own, and
   * never as its title: a document says what it is in its own type (measured: the corpus's pictures
   * tipped a dev invoice to bank_statement by its banner's words, a dev paper to flat_form and a report
   * to receipt by their figures' words, and named no document better).
   */
  picture?: boolean;
}

/**
 * A page's text as lines in reading order. Blocks give the order; a block's own lines keep label and
 * value together ("Invoice No: 123"), table rows included. A block without lines gives its table's
 * rows or its text; a page without blocks its lines; a page without lines its words.
 */
export function pageLines(page: Page): PageLine[] {
  const texts: Array<{ text: string; heading: boolean; table?: boolean; picture?: boolean }> = [];
  const inPicture = (line: { words: number[] }) => !page.ocr && line.words.length > 0 && line.words.every((w) => page.words[w] !== undefined && readByOcr(page.words[w]));
  const used = new Set<number>();
  for (const block of page.blocks) {
    const heading = block.kind === 'heading';
    if (block.lines.length > 0) {
      for (const l of block.lines) {
        const line = page.lines[l];
        if (!line || used.has(l)) continue;
        used.add(l);
        texts.push({ text: line.text, heading, table: block.kind === 'table', ...(inPicture(line) ? { picture: true } : {}) });
      }
    } else if (block.table !== undefined && page.tables[block.table]) {
      // A table without lines: its rows, cells side by side.
      for (const row of tableRows(page.tables[block.table]!)) texts.push({ text: row.join(' '), heading: false, table: true });
    } else if (block.text) {
      for (const text of block.text.split('\n')) texts.push({ text: text.replace(/\t/g, ' '), heading, table: block.kind === 'table' });
    }
  }
  // A reader that builds only lines (no blocks) still has text.
  if (page.blocks.length === 0) for (const line of page.lines) texts.push({ text: line.text, heading: false });
  if (texts.length === 0 && page.words.length > 0) texts.push({ text: page.words.map((w) => w.text).join(' '), heading: false });

  const lines: PageLine[] = [];
  let printed = 0;
  for (const { text, heading, table, picture } of texts) {
    const trimmed = text.replace(/\s+/g, ' ').trim();
    if (trimmed === '') continue;
    if (picture) {
      lines.push({ text: trimmed, title: false, picture: true });
      continue;
    }
    // Table rows are data, never a title, even at the top of a page.
    const short = !table && trimmed.split(' ').length <= BM25_SETTINGS.titleMaxWords;
    lines.push({ text: trimmed, title: heading || (printed < BM25_SETTINGS.titleZoneLines && short) });
    printed++;
  }
  return printed > 0 ? lines.filter((line) => !line.picture) : lines;
}

/** The pages an operation reads: all, or the first `n`. */
export function docPages(doc: Doc, firstN?: number): Page[] {
  return firstN === undefined ? doc.pages : doc.pages.slice(0, Math.max(0, firstN));
}

// ---------------------------------------------------------------------------------------------
// Counting a text against a vocabulary

/** How often one feature occurs in a text, in its title zone, and how it was printed first. */
export interface FeatureCount {
  tf: number;
  titleTf: number;
  /** The words as printed (first occurrence, a title occurrence preferred): quoted in reasoning. */
  surface: string;
  surfaceInTitle: boolean;
}

export interface CountedText {
  /** By feature id; only features of the vocabulary are counted (nothing else can be evidence). */
  counts: Map<number, FeatureCount>;
  /** Number of content tokens: the text's length for BM25 normalization. */
  length: number;
}

/**
 * Counts the vocabulary's features (feature → id) in `lines`. One pass over the tokens; each token
 * costs a cached stem and at most two map probes, which is what keeps 2,000-page documents fast.
 */
/** A compound's head (compoundHead): at least this many letters, after at least `lead` letters. */
const COMPOUND = { head: 7, lead: 3 };

/**
 * A compound's last word when it is a word asked for ("Warenrechnung", "Schlussrechnung" end with
 * "Rechnung"): a German or Dutch compound names what its last word names.
 */
function compoundHead(stem: string, vocabulary: ReadonlyMap<string, number>): number | undefined {
  if (stem.length < COMPOUND.lead + COMPOUND.head || !/^\p{L}+$/u.test(stem)) return undefined;
  for (let at = COMPOUND.lead; at <= stem.length - COMPOUND.head; at++) {
    const id = vocabulary.get(stem.slice(at));
    if (id !== undefined) return id;
  }
  return undefined;
}

export function countFeatures(lines: readonly PageLine[], vocabulary: ReadonlyMap<string, number>): CountedText {
  const counts = new Map<number, FeatureCount>();
  let length = 0;
  const add = (id: number, line: PageLine, start: number, end: number) => {
    let count = counts.get(id);
    if (!count) {
      count = { tf: 0, titleTf: 0, surface: line.text.slice(start, end), surfaceInTitle: line.title };
      counts.set(id, count);
    } else if (line.title && !count.surfaceInTitle) {
      count.surface = line.text.slice(start, end);
      count.surfaceInTitle = true;
    }
    count.tf++;
    if (line.title) count.titleTf++;
  };
  for (const line of lines) {
    let previous: Token | undefined;
    let negated = 0;
    for (const token of tokenize(line.text)) {
      if (token.negator) {
        negated = NEGATION_SCOPE;
        previous = undefined;
        continue;
      }
      if (token.stop) continue;
      length++;
      // A denied word is no evidence ("This is not a VAT invoice" says nothing for "invoice").
      if (negated > 0) {
        negated--;
        previous = undefined;
        continue;
      }
      const id = vocabulary.get(token.stem) ?? compoundHead(token.stem, vocabulary);
      if (id !== undefined) add(id, line, token.start, token.end);
      if (previous) {
        const phraseId = vocabulary.get(phraseKey(previous.stem, token.stem));
        if (phraseId !== undefined) add(phraseId, line, previous.start, token.end);
      }
      previous = token;
    }
  }
  return { counts, length };
}

// ---------------------------------------------------------------------------------------------
// BM25

/** BM25 term-frequency saturation (BM25_SETTINGS): k1 caps what repetition adds, b how much length dilutes it. */
export function saturatedTf(tf: number, length: number, averageLength: number): number {
  if (tf <= 0) return 0;
  const norm = BM25_SETTINGS.k1 * (1 - BM25_SETTINGS.b + (BM25_SETTINGS.b * length) / Math.max(1, averageLength));
  return (tf * (BM25_SETTINGS.k1 + 1)) / (tf + norm);
}

/**
 * Inverse "category frequency": a feature that several categories ask for tells them apart less.
 * The BM25 idf over the categories, floored so a feature shared by all still counts a little.
 */
export function categoryIdf(categoriesWithFeature: number, categoryCount: number): number {
  const n = categoriesWithFeature;
  return Math.max(BM25_SETTINGS.idfFloor, Math.log(1 + (categoryCount - n + 0.5) / (n + 0.5)));
}

/** Scores → shares summing to 1. `prior` is evidence every option has (so little evidence means low
 * confidence), `power` sharpens (shares of squared evidence behave like a softmax without its
 * runaway on long documents). */
export function scoreShares(scores: readonly number[], prior: number, power: number): number[] {
  const raised = scores.map((s) => Math.pow(Math.max(0, s) + prior, power));
  const total = raised.reduce((a, b) => a + b, 0);
  return raised.map((r) => (total > 0 ? r / total : 1 / scores.length));
}
