/**
 * Pages sent between threads (the PDF helper thread, ./pdf-helper.ts) in a compact form.
 *
 * Structured cloning copies every object one by one, and the words are most of a page: a word, its
 * box and its origin are three objects, ~300 words a page. Copying 100 text pages that way took ~90 ms
 * on the receiving thread, which waits for them. Here the words of a page travel as one list of
 * texts and one Float64Array of their boxes (transferred, not copied), and are rebuilt on arrival.
 * A page whose words do not have that plain shape (an OCR confidence, an origin other than their own
 * box on their page) travels as it is.
 */
import type { Page, Word } from './doc.ts';

export interface PackedPage {
  page: Omit<Page, 'words'>;
  texts: string[];
  /** left, top, width, height of each word, in order. */
  boxes: Float64Array;
}

export type TransferablePage = { packed: PackedPage } | { plain: Page } | null;

function plainBoxWord(word: Word, pageNumber: number): boolean {
  const { box, origin } = word;
  return (
    box !== undefined &&
    word.confidence === undefined &&
    origin.kind === 'box' &&
    origin.page === pageNumber &&
    origin.box.left === box.left &&
    origin.box.top === box.top &&
    origin.box.width === box.width &&
    origin.box.height === box.height
  );
}

export function packPage(page: Page | null): TransferablePage {
  if (page === null) return null;
  if (!page.words.every((word) => plainBoxWord(word, page.number))) return { plain: page };
  const { words, ...rest } = page;
  const boxes = new Float64Array(words.length * 4);
  words.forEach((word, i) => boxes.set([word.box!.left, word.box!.top, word.box!.width, word.box!.height], i * 4));
  return { packed: { page: rest, texts: words.map((word) => word.text), boxes } };
}

/** The buffers to transfer with a packed page (postMessage's transfer list). */
export function transferList(page: TransferablePage): ArrayBuffer[] {
  return page && 'packed' in page ? [page.packed.boxes.buffer as ArrayBuffer] : [];
}

export function unpackPage(page: TransferablePage): Page | null {
  if (page === null) return null;
  if ('plain' in page) return page.plain;
  const { page: rest, texts, boxes } = page.packed;
  const words: Word[] = texts.map((text, i) => {
    const box = { left: boxes[i * 4]!, top: boxes[i * 4 + 1]!, width: boxes[i * 4 + 2]!, height: boxes[i * 4 + 3]! };
    return { text, box, origin: { kind: 'box', page: rest.number, box } };
  });
  return { ...rest, words };
}
