/**
 * Synthetic scans with known text, for OCR tests: a US Letter page of invoice/letter text rendered at
 * a chosen dpi, optionally degraded like a cheap scanner (tilt, blur, faded contrast, speckles), as a
 * GreyImage, a PNG, and a PDF holding that PNG as its only content (no text layer).
 */
import { createCanvas } from '@napi-rs/canvas';
import { PDFDocument } from 'pdf-lib';
import type { Box, GreyImage } from '../../functions/documents/doc.ts';

/** ~150 words in paragraphs, with the numbers, dates and punctuation real letters and invoices have. */
export const LETTER_PARAGRAPHS = [
  'Northwind Traders Ltd, 42 Harbour Street, Bristol BS1 4QA',
  'Invoice INV-2024-0117 dated 3 March 2024 for Contoso Engineering, attention of Ms. Priya Raman, Accounts Payable.',
  'Dear Ms. Raman, thank you for your order of 14 February. This letter confirms delivery of twelve hydraulic pumps, model HP-220, together with spare seals and the installation manual. The goods were inspected at our warehouse before dispatch on 27 February.',
  'The total due is $18,426.50 including VAT of $3,071.08. Payment is due within thirty days of the invoice date. Please quote the invoice number with your remittance and pay by bank transfer to account 40-12-76, number 31926819.',
  'If any item arrived damaged or does not match the packing list, contact our customer service team within seven days so that we can arrange a replacement. We appreciate your business and look forward to working with you again.',
  'Yours sincerely, Daniel Okafor, Finance Director',
];

export interface ScanOptions {
  dpi: number;
  /** Degrade like a cheap scan: rotation (degrees, ≤ 1), blur, faded contrast, salt-and-pepper. */
  noise?: { rotateDegrees?: number; blur?: boolean; contrast?: number; speckles?: number; seed?: number };
  paragraphs?: string[];
  /** Font size in points (11 by default). */
  pointSize?: number;
}

export interface Scan {
  image: GreyImage;
  /** The words as printed, in reading order (the ground truth). */
  words: string[];
  /** Each printed word's ink box in pixels, before any rotation. */
  boxes: Array<{ text: string; box: Box }>;
}

const PAGE_INCHES = { width: 8.5, height: 11 };

/** Renders the text at `dpi` on a Letter page with 1-inch margins, sans-serif, black on white. */
export function renderScan(options: ScanOptions): Scan {
  const { dpi, noise } = options;
  const paragraphs = options.paragraphs ?? LETTER_PARAGRAPHS;
  const width = Math.round(PAGE_INCHES.width * dpi);
  const height = Math.round(PAGE_INCHES.height * dpi);
  const fontPx = ((options.pointSize ?? 11) * dpi) / 72;
  const canvas = createCanvas(width, height);
  const context = canvas.getContext('2d');
  context.fillStyle = '#ffffff';
  context.fillRect(0, 0, width, height);
  if (noise?.rotateDegrees) {
    context.translate(width / 2, height / 2);
    context.rotate((noise.rotateDegrees * Math.PI) / 180);
    context.translate(-width / 2, -height / 2);
  }
  context.fillStyle = '#000000';
  context.font = `${fontPx}px sans-serif`;
  const margin = dpi;
  const lineHeight = fontPx * 1.45;
  const space = context.measureText(' ').width;
  const words: string[] = [];
  const boxes: Scan['boxes'] = [];
  let baseline = margin + fontPx;
  for (const paragraph of paragraphs) {
    let x = margin;
    for (const word of paragraph.split(/\s+/)) {
      const metrics = context.measureText(word);
      if (x > margin && x + metrics.width > width - margin) {
        x = margin;
        baseline += lineHeight;
      }
      context.fillText(word, x, baseline);
      words.push(word);
      boxes.push({
        text: word,
        box: {
          left: x - metrics.actualBoundingBoxLeft,
          top: baseline - metrics.actualBoundingBoxAscent,
          width: metrics.actualBoundingBoxLeft + metrics.actualBoundingBoxRight,
          height: metrics.actualBoundingBoxAscent + metrics.actualBoundingBoxDescent,
        },
      });
      x += metrics.width + space;
    }
    baseline += lineHeight * 1.8;
  }
  if (baseline > height - margin) throw new Error('The text does not fit on the page.');
  const rgba = context.getImageData(0, 0, width, height).data;
  let data: Uint8Array = new Uint8Array(width * height);
  for (let i = 0; i < data.length; i += 1) data[i] = rgba[i * 4];
  if (noise) data = degrade(data, width, height, noise);
  return { image: { width, height, data, dpi }, words, boxes };
}

function degrade(data: Uint8Array, width: number, height: number, noise: NonNullable<ScanOptions['noise']>): Uint8Array {
  let pixels = data;
  if (noise.blur ?? true) pixels = blur(pixels, width, height);
  // Faded contrast: black prints as dark grey, white paper as light grey.
  const contrast = noise.contrast ?? 0.7;
  const floor = (255 * (1 - contrast)) / 2;
  for (let i = 0; i < pixels.length; i += 1) pixels[i] = Math.round(floor + pixels[i] * contrast);
  // Salt and pepper: a fraction of pixels flipped to pure black or white.
  const random = seededRandom(noise.seed ?? 7);
  const speckles = Math.round(pixels.length * (noise.speckles ?? 0.003));
  for (let n = 0; n < speckles; n += 1) pixels[Math.floor(random() * pixels.length)] = random() < 0.5 ? 0 : 255;
  return pixels;
}

/** A 3×3 binomial blur ([1 2 1] in both directions), like a slightly out-of-focus scanner. */
function blur(data: Uint8Array, width: number, height: number): Uint8Array {
  const out = new Uint8Array(data.length);
  const at = (x: number, y: number) => data[Math.min(height - 1, Math.max(0, y)) * width + Math.min(width - 1, Math.max(0, x))];
  for (let y = 0; y < height; y += 1) {
    for (let x = 0; x < width; x += 1) {
      const sum =
        at(x - 1, y - 1) + 2 * at(x, y - 1) + at(x + 1, y - 1) +
        2 * at(x - 1, y) + 4 * at(x, y) + 2 * at(x + 1, y) +
        at(x - 1, y + 1) + 2 * at(x, y + 1) + at(x + 1, y + 1);
      out[y * width + x] = sum >> 4;
    }
  }
  return out;
}

/** mulberry32: the same noise on every run. */
function seededRandom(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** A grey raster as an 8-bit PNG (RGBA, as @napi-rs/canvas writes them). */
export function greyToPng(image: GreyImage): Buffer {
  const canvas = createCanvas(image.width, image.height);
  const context = canvas.getContext('2d');
  const pixels = context.createImageData(image.width, image.height);
  for (let i = 0; i < image.data.length; i += 1) {
    const v = image.data[i];
    pixels.data[i * 4] = v;
    pixels.data[i * 4 + 1] = v;
    pixels.data[i * 4 + 2] = v;
    pixels.data[i * 4 + 3] = 255;
  }
  context.putImageData(pixels, 0, 0);
  return canvas.toBuffer('image/png');
}

/** A one-page PDF whose only content is the image, scaled to its physical size: a scan without OCR text. */
export async function scanToPdf(image: GreyImage): Promise<Uint8Array> {
  const pdf = await PDFDocument.create();
  const png = await pdf.embedPng(greyToPng(image));
  const width = (image.width * 72) / image.dpi;
  const height = (image.height * 72) / image.dpi;
  pdf.addPage([width, height]).drawImage(png, { x: 0, y: 0, width, height });
  return pdf.save();
}

/** A word as compared for accuracy: punctuation and symbols stripped, case kept. */
export function normalizeWord(word: string): string {
  return word.replace(/[^\p{L}\p{N}]/gu, '');
}

/**
 * Word accuracy: 1 − (word-level edit distance) / (ground-truth words), over words with punctuation
 * stripped (words that were only punctuation are dropped), case-sensitive.
 */
export function wordAccuracy(recognized: string[], truth: string[]): number {
  const a = recognized.map(normalizeWord).filter((w) => w !== '');
  const b = truth.map(normalizeWord).filter((w) => w !== '');
  let previous = Array.from({ length: b.length + 1 }, (_, j) => j);
  for (let i = 1; i <= a.length; i += 1) {
    const current = [i];
    for (let j = 1; j <= b.length; j += 1) {
      current[j] = Math.min(previous[j] + 1, current[j - 1] + 1, previous[j - 1] + (a[i - 1] === b[j - 1] ? 0 : 1));
    }
    previous = current;
  }
  return 1 - previous[b.length] / b.length;
}
