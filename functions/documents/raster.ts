/**
 * Scanned PDF pages to pixels and OCR words back to PDF points.
 *
 * Pixel (x, y) of the raster is point (x, y) × 72/dpi of the page's viewport at scale 1: origin at
 * the top-left of the crop box, y down, /Rotate applied: the space pdf.js gives text positions in.
 */
import { createCanvas } from '@napi-rs/canvas';
import type { PDFPageProxy } from './pdfjs.ts';
import type { GreyImage, Word } from './doc.ts';
import { rgbaToGrey } from './image.ts';

/** Raster budget per page: 50 MP is a 36×54-inch poster at 200 dpi; the canvas and grey copy take ~250 MB. */
export const MAX_RASTER_PIXELS = 50_000_000;
/** Rows read back from the canvas at a time. */
const BAND_ROWS = 512;

/**
 * The dpi a page is actually rasterized at: `dpi`, lowered for huge pages so the raster stays within
 * MAX_RASTER_PIXELS. Exported so callers can tell (and say) when it was lowered.
 */
export function rasterDpi(widthPt: number, heightPt: number, dpi: number): number {
  const pixels = ((widthPt * dpi) / 72) * ((heightPt * dpi) / 72);
  const shrink = Math.min(1, Math.sqrt(MAX_RASTER_PIXELS / pixels));
  // Floored to a hundredth of a dpi, so the raster lands at (not over) the budget.
  return shrink < 1 ? Math.floor(dpi * shrink * 100) / 100 : dpi;
}

/** Renders a page onto a white canvas at `dpi` (or lower: see rasterDpi); `dpi` is the one used. */
export async function renderPdfPageCanvas(page: PDFPageProxy, dpi: number) {
  const size = page.getViewport({ scale: 1 });
  const used = rasterDpi(size.width, size.height, dpi);
  const viewport = page.getViewport({ scale: used / 72 });
  const width = Math.max(1, Math.round(viewport.width));
  const height = Math.max(1, Math.round(viewport.height));
  const canvas = createCanvas(width, height);
  const context = canvas.getContext('2d');
  // White first: scans with transparency or pages with no background would otherwise read as black.
  context.fillStyle = '#ffffff';
  context.fillRect(0, 0, width, height);
  // pdf.js types the canvas as a DOM canvas; @napi-rs/canvas is the Node implementation it uses itself.
  type RenderParameters = Parameters<PDFPageProxy['render']>[0];
  await page.render({
    canvas: canvas as unknown as RenderParameters['canvas'],
    canvasContext: context as unknown as RenderParameters['canvasContext'],
    viewport,
  }).promise;
  return { canvas, context, width, height, dpi: used };
}

/**
 * Renders a page (see renderPdfPageCanvas) and returns it in grey.
 * The returned `dpi` is the one used: pass it, not the requested one, to greyToPdfWords.
 */
export async function rasterizePdfPage(page: PDFPageProxy, dpi: number): Promise<GreyImage> {
  const { context, width, height, dpi: used } = await renderPdfPageCanvas(page, dpi);
  // Read back in bands: a full-page getImageData would be a second RGBA copy of the page.
  const data = new Uint8Array(width * height);
  for (let top = 0; top < height; top += BAND_ROWS) {
    const rows = Math.min(BAND_ROWS, height - top);
    data.set(rgbaToGrey(context.getImageData(0, top, width, rows).data, width, rows), top * width);
  }
  return { width, height, data, dpi: used };
}

/** OCR words with pixel boxes (from a raster at `dpi`) to PDF points on page `pageNumber` (1-based). */
export function greyToPdfWords(words: Word[], dpi: number, pageNumber: number): Word[] {
  const scale = 72 / dpi;
  const toPoints = (box: { left: number; top: number; width: number; height: number }) => ({
    left: round(box.left * scale),
    top: round(box.top * scale),
    width: round(box.width * scale),
    height: round(box.height * scale),
  });
  return words.map((word) => {
    const pixels = word.box ?? (word.origin.kind === 'box' ? word.origin.box : undefined);
    if (!pixels) return word;
    const box = toPoints(pixels);
    return { ...word, box, origin: { kind: 'box', page: pageNumber, box: { ...box } } };
  });
}

/** Hundredths of a point: finer than any raster we make, and readable in JSON. */
function round(value: number): number {
  return Math.round(value * 100) / 100;
}
