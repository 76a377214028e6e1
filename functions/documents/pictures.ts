/**
 * Text in the pictures of born-digital pages (a chart's labels, a screenshot, a map's place names,
 * a logo), read only where a picture holds text the page's own text layer does not give.
 *
 * The PDF reader (./pdf.ts) hands over the pictures of a page that are big enough to hold a line of
 * print (PICTURE_SIZE there), as their pixels and where those land on the page. Each is first put to
 * PP-OCR's text detector (./ppocr.ts), read at most PICTURES.detectMaxPixels large: 5–60 ms for most
 * pictures of the corpus's pages, a photo or a drawing with no text coming back with no line. The
 * lines the text layer already covers are dropped (a scan with its own OCR layer, text drawn over a
 * background picture). What is left is cut out and read by the pool's page reader (Tesseract,
 * enlarged where the print is small; PP-OCR alone where `QUIRE_OCR=paddle`), and only the words
 * inside a detected line are kept: Tesseract reads the texture of a photo as letters.
 *
 * A picture drawn on many pages (a letterhead's logo, an invoice's printed form) is detected and read
 * once per document: its pixels are the key.
 */
import { createHash } from 'node:crypto';
import { type Box, type GreyImage, unionBox, type Word } from './doc.ts';
import { boxThrough, type Matrix } from './matrix.ts';
import { type OcrPool, recognizeAsIs } from './ocr.ts';
import { paddleDetect } from './ppocr.ts';

/** The settings of this stage, in one place. */
export const PICTURES = {
  /** The detector reads a picture at most this large (scaled down beyond): print stays ≥ 8 px in a picture of the corpus. */
  detectMaxPixels: 1_000_000,
  /** A detected line is the text layer's own when its words cover this share of its area. */
  coveredShare: 0.5,
  /** Around each detected line, this share of its height still belongs to it (OCR's boxes are looser than the detector's). */
  lineMargin: 0.5,
  /** The cut-out read by OCR extends this share of the median line height past the lines it holds. */
  cutMargin: 1,
  /**
   * A word read below this confidence is dropped: in a picture, OCR's unsure words are mostly a
   * stamp's or a drawing's strokes read as letters (a signature stamp's "CA$" at 0).
   */
  minConfidence: 50,
  /**
   * A detected line whose words hold fewer letters and digits than this is dropped: a lone letter or
   * two is a mark, an icon or a boxed letter beside a heading more often than text (an invoice's
   * type letter "A" in its box read onto the seller's name beside it).
   */
  minLineCharacters: 3,
  /** The cut-out is read in a white border this wide (pixels): Tesseract misplaces lines that touch the image's edge. */
  cutBorder: 16,
};

/** A picture placed on a page: its pixels and where they land. */
export interface PlacedPicture {
  image: GreyImage;
  /** Pixel (x, y) of `image`, top-left origin, to page point (x, y) (./matrix.ts). */
  toPage: Readonly<Matrix>;
}

export type PictureReader = (pictures: PlacedPicture[], textBoxes: Box[], pageNumber: number) => Promise<Word[]>;

/**
 * A reader of pictures' text for one document read with `pool`: words with boxes in page points on
 * page `pageNumber`, none where the text layer (`textBoxes`) already prints them.
 */
export function pictureReader(pool: () => Promise<OcrPool>): PictureReader {
  const detected = new Map<string, Promise<Box[]>>();
  const read = new Map<string, Promise<Word[]>>();
  const once = <T>(cache: Map<string, Promise<T>>, key: string, work: () => Promise<T>): Promise<T> => {
    let done = cache.get(key);
    if (!done) cache.set(key, (done = work()));
    return done;
  };
  // (Pictures are read at once; their words come back in the pictures' order.)
  return async (pictures, textBoxes, pageNumber) => {
    const words = await Promise.all(
      pictures.map(async (picture): Promise<Word[]> => {
        const key = keyOf(picture.image);
        const lines = await once(detected, key, () => paddleDetect(picture.image, PICTURES.detectMaxPixels));
        const open = lines.flatMap((line, i) => (coveredShare(pageBox(picture, line), textBoxes) < PICTURES.coveredShare ? [i] : []));
        if (open.length === 0) return [];
        const kept = open.map((i) => lines[i]!);
        const found = await once(read, `${key}|${open.join(',')}`, async () => inLines(await readCut(await pool(), picture.image, kept), kept));
        return found.map((word) => {
          const box = pageBox(picture, word.box!);
          return { ...word, box, origin: { kind: 'box', page: pageNumber, box: { ...box } } };
        });
      }),
    );
    return words.flat();
  };
}

/** The same for the same pixels. */
function keyOf(image: GreyImage): string {
  return `${image.width}x${image.height}:${createHash('sha1').update(image.data).digest('base64')}`;
}

/** Words of the part of `image` that holds `lines`, boxes in pixels of `image`. */
async function readCut(pool: OcrPool, image: GreyImage, lines: Box[]): Promise<Word[]> {
  const heights = lines.map((line) => line.height).sort((a, b) => a - b);
  const margin = heights[heights.length >> 1]! * PICTURES.cutMargin;
  const all = unionBox(lines)!;
  const left = Math.max(0, Math.floor(all.left - margin));
  const top = Math.max(0, Math.floor(all.top - margin));
  const right = Math.min(image.width, Math.ceil(all.left + all.width + margin));
  const bottom = Math.min(image.height, Math.ceil(all.top + all.height + margin));
  const pad = PICTURES.cutBorder;
  const cut = crop(image, left, top, right - left, bottom - top, pad);
  const words = pool.readPage ? await pool.readPage(cut) : await recognizeAsIs(pool, cut);
  return words.flatMap((word) => (word.box && word.text.trim() !== '' ? [{ ...word, box: { ...word.box, left: word.box.left + left - pad, top: word.box.top + top - pad } }] : []));
}

/**
 * The words read surely (PICTURES.minConfidence) whose centre is in one of the lines (grown by
 * PICTURES.lineMargin of its height), of the lines whose words hold PICTURES.minLineCharacters.
 */
function inLines(words: Word[], lines: Box[]): Word[] {
  const byLine = lines.map((): Word[] => []);
  for (const word of words) {
    if ((word.confidence ?? 100) < PICTURES.minConfidence) continue;
    const x = word.box!.left + word.box!.width / 2;
    const y = word.box!.top + word.box!.height / 2;
    const at = lines.findIndex((line) => {
      const grow = line.height * PICTURES.lineMargin;
      return x >= line.left - grow && x <= line.left + line.width + grow && y >= line.top - grow && y <= line.top + line.height + grow;
    });
    if (at >= 0) byLine[at]!.push(word);
  }
  const characters = (line: Word[]) => line.reduce((sum, word) => sum + word.text.replace(/[^\p{L}\p{N}]/gu, '').length, 0);
  return byLine.filter((line) => characters(line) >= PICTURES.minLineCharacters).flat();
}

/** The part of `image` at (left, top), `width` × `height`, in a white border `pad` pixels wide. */
function crop(image: GreyImage, left: number, top: number, width: number, height: number, pad: number): GreyImage {
  const stride = width + 2 * pad;
  const data = new Uint8Array(stride * (height + 2 * pad)).fill(255);
  for (let y = 0; y < height; y++) data.set(image.data.subarray((top + y) * image.width + left, (top + y) * image.width + left + width), (y + pad) * stride + pad);
  return { width: stride, height: height + 2 * pad, data, dpi: image.dpi };
}

/** A box in the picture's pixels as a box on the page (the bounds of its four corners), to a hundredth of a point. */
function pageBox(picture: PlacedPicture, box: Box): Box {
  const onPage = boxThrough(picture.toPage, box);
  const left = round(onPage.left);
  const top = round(onPage.top);
  return { left, top, width: round(onPage.left + onPage.width - left), height: round(onPage.top + onPage.height - top) };
}

/** The share of `box` that the text layer's word boxes cover (overlaps summed, at most 1). */
function coveredShare(box: Box, textBoxes: Box[]): number {
  const area = box.width * box.height;
  if (area <= 0) return 1;
  let covered = 0;
  for (const word of textBoxes) {
    const width = Math.min(box.left + box.width, word.left + word.width) - Math.max(box.left, word.left);
    const height = Math.min(box.top + box.height, word.top + word.height) - Math.max(box.top, word.top);
    if (width > 0 && height > 0) covered += width * height;
  }
  return Math.min(1, covered / area);
}

function round(value: number): number {
  return Math.round(value * 100) / 100;
}
