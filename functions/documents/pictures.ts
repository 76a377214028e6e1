/**
 * Text in the pictures of born-digital pages (a chart's labels, a screenshot, a map's place names,
 * a logo), read only where a picture holds text the page's own text layer does not give.
 *
 * The PDF reader (./pdf.ts) hands over the pictures of a page that are big enough to hold a line of
 * print (PICTURE_SIZE there), as their pixels and where those land on the page. Each is first put to
 * PP-OCR's text detector (./ppocr.ts), read at a resolution of the page (PICTURES.detectDpi): 5–60 ms
 * for most pictures of the corpus's pages, a photo or a drawing with no text coming back with no
 * line. The lines the text layer already covers are dropped (a scan with its own OCR layer, text
 * drawn over a background picture). What is left is read once by the pool's page reader (Tesseract;
 * PP-OCR alone where `QUIRE_OCR=paddle`): the part of the picture that holds the lines, everything
 * but the lines whitened and the print scaled to the size Tesseract reads best (readLines). Only the
 * words inside a detected line are kept: Tesseract reads the texture of a photo as letters.
 *
 * A picture drawn on many pages (a letterhead's logo, an invoice's printed form) is detected and read
 * once per document: its pixels are the key.
 */
import { createHash } from 'node:crypto';
import { type Box, type GreyImage, unionBox, type Word } from './doc.ts';
import { resampleGrey } from './grey-resample.ts';
import { boxThrough, type Matrix } from './matrix.ts';
import type { OcrPool } from './ocr.ts';
import { paddleDetect } from './ppocr.ts';

/** The settings of this stage, in one place. */
export const PICTURES = {
  /**
   * The detector reads a picture at this resolution of the page it is drawn on (dots per inch), or its
   * own where that is less: print of 6 pt and up stays ≥ 12 px high (the detector finds lines of 8 px).
   * A scan of 18 MP drawn as a half-page figure is looked at in 0.6 MP. At 120 the corpus's smallest
   * screenshots lost lines of 5 pt print; at 150, a few of their words (CenterOfWhy.pdf p.13, p.17).
   */
  detectDpi: 150,
  /** ... and at most this large (scaled down beyond). */
  detectMaxPixels: 1_000_000,
  /** A detected line is the text layer's own when its words cover this share of its area. */
  coveredShare: 0.5,
  /** Around each detected line, this share of its height still belongs to it (OCR's boxes are looser than the detector's). */
  lineMargin: 0.5,
  /** The cut-out read by OCR extends this share of its print size (readLines) past the lines it holds. */
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
  /**
   * A detected line is read scaled to about this many pixels high: Tesseract reads capitals best at
   * about 30 px (./ocr.ts), and the detector's lines are 1.0–1.4 times the height of the words read in
   * them on the corpus's pictures.
   */
  lineHeight: 32,
  /** A block is scaled by at least, and at most, these factors (bilinear resampling aliases below a half). */
  scaleRange: [0.5, 3] as const,
  /** A block whose print is already this close to lineHeight (the factor it would need) is read as it is. */
  asIsRange: [0.8, 1.25] as const,
  /** A block is enlarged to this many pixels at most. */
  maxCutPixels: 4_000_000,
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
        const lines = await once(detected, key, () => paddleDetect(picture.image, detectPixels(picture.image)));
        const open = lines.flatMap((line, i) => (coveredShare(pageBox(picture, line), textBoxes) < PICTURES.coveredShare ? [i] : []));
        if (open.length === 0) return [];
        const kept = open.map((i) => lines[i]!);
        const found = await once(read, `${key}|${open.join(',')}`, async () => inLines(await readLines(await pool(), picture.image, kept), kept));
        return found.map((word) => {
          const box = pageBox(picture, word.box!);
          return { ...word, box, origin: { kind: 'box', page: pageNumber, box: { ...box } } };
        });
      }),
    );
    return words.flat();
  };
}

/** How many pixels of `image` the detector reads (PICTURES.detectDpi, PICTURES.detectMaxPixels). */
function detectPixels(image: GreyImage): number {
  const atPageDpi = image.width * image.height * Math.min(1, (PICTURES.detectDpi / image.dpi) ** 2);
  return Math.min(PICTURES.detectMaxPixels, atPageDpi);
}

/** The same for the same pixels. */
function keyOf(image: GreyImage): string {
  return `${image.width}x${image.height}:${createHash('sha1').update(image.data).digest('base64')}`;
}

/**
 * Words of the part of `image` that holds `lines`, boxes in pixels of `image`. The part is read with
 * everything but its lines whitened (a photo's or a chart's texture is not read as letters, nor the
 * background between scattered labels), and scaled so its print is about PICTURES.lineHeight high (a
 * chart's 10 px labels enlarged once rather than read twice, a poster's 90 px title shrunk).
 */
async function readLines(pool: OcrPool, image: GreyImage, lines: Box[]): Promise<Word[]> {
  // The print that sets the scale is the smaller print of the part (its lower quartile): a chart's
  // labels under a title four times their size are enlarged, not shrunk with the title.
  const size = quantile(lines.map(printSize), 0.25);
  const margin = size * PICTURES.cutMargin;
  const all = unionBox(lines)!;
  const left = Math.max(0, Math.floor(all.left - margin));
  const top = Math.max(0, Math.floor(all.top - margin));
  const cut = { left, top, width: Math.min(image.width, Math.ceil(all.left + all.width + margin)) - left, height: Math.min(image.height, Math.ceil(all.top + all.height + margin)) - top };
  const scale = scaleFor(size, cut);
  const pad = PICTURES.cutBorder;
  const sheet = linesOnWhite(image, cut, lines, scale, pad);
  // (Read once, as it is: its print is already the size Tesseract reads best, and an unsure word is dropped.)
  const words = pool.readPage ? await pool.readPage(sheet) : await pool.recognize(sheet);
  return words.flatMap((word) => {
    if (!word.box || word.text.trim() === '') return [];
    const box = { left: cut.left + (word.box.left - pad) / scale, top: cut.top + (word.box.top - pad) / scale, width: word.box.width / scale, height: word.box.height / scale };
    return [{ ...word, box }];
  });
}

/** How high a line's print is: the shorter side of its box (a line of rotated text is taller than wide). */
function printSize(line: Box): number {
  return Math.min(line.width, line.height);
}

/**
 * How much a part whose print is `size` pixels high is scaled: to PICTURES.lineHeight where its print
 * is clearly smaller or larger (outside PICTURES.asIsRange; within PICTURES.scaleRange), and no larger
 * than PICTURES.maxCutPixels.
 */
function scaleFor(size: number, cut: Box): number {
  const [least, most] = PICTURES.scaleRange;
  const wanted = PICTURES.lineHeight / Math.max(1, size);
  if (wanted > PICTURES.asIsRange[0] && wanted < PICTURES.asIsRange[1]) return 1;
  return Math.max(least, Math.min(most, wanted, Math.sqrt(PICTURES.maxCutPixels / (cut.width * cut.height))));
}

/**
 * `cut` of `image` scaled by `scale`, in a white border `pad` pixels wide, white but for `lines` (each
 * grown by PICTURES.lineMargin of its print size).
 */
function linesOnWhite(image: GreyImage, cut: Box, lines: Box[], scale: number, pad: number): GreyImage {
  const width = Math.round(cut.width * scale) + 2 * pad;
  const height = Math.round(cut.height * scale) + 2 * pad;
  const data = new Uint8Array(width * height).fill(255);
  for (const line of lines) {
    const grow = printSize(line) * PICTURES.lineMargin;
    // The line's place in the sheet, in whole pixels, and the part of the picture that lands there.
    const x0 = Math.max(0, Math.floor((line.left - grow - cut.left) * scale));
    const y0 = Math.max(0, Math.floor((line.top - grow - cut.top) * scale));
    const x1 = Math.min(width - 2 * pad, Math.ceil((line.left + line.width + grow - cut.left) * scale));
    const y1 = Math.min(height - 2 * pad, Math.ceil((line.top + line.height + grow - cut.top) * scale));
    if (x1 <= x0 || y1 <= y0) continue;
    const source = { left: cut.left + x0 / scale, top: cut.top + y0 / scale, width: (x1 - x0) / scale, height: (y1 - y0) / scale };
    const pixels = resampleGrey(image, source, x1 - x0, y1 - y0, scale, scale);
    for (let y = 0; y < y1 - y0; y++) data.set(pixels.subarray(y * (x1 - x0), (y + 1) * (x1 - x0)), (y0 + y + pad) * width + x0 + pad);
  }
  return { width, height, data, dpi: image.dpi * scale };
}

function quantile(values: number[], share: number): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor((sorted.length - 1) * share)]!;
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
