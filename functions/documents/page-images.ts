/**
 * Pages as images for vision models: PDF pages rendered at the requested dpi (lowered for huge pages,
 * see raster.ts), PNG/JPEG/WEBP files as they are, TIFF frames as PNG. Documents without pages to see
 * (DOCX, XLSX, CSV, text) have none: models read their text.
 */
import { createCanvas } from '@napi-rs/canvas';
import * as pdfjs from './pdfjs.ts';
import type { PDFDocumentProxy, PDFPageProxy } from './pdfjs.ts';
import { ReadFailure } from './doc.ts';
import { decodeImage } from './image.ts';
import { renderPdfPageCanvas } from './raster.ts';
import type { DocumentKind } from './sniff.ts';

export interface RenderedPage {
  /** 1-based. */
  page: number;
  mediaType: 'image/png' | 'image/jpeg' | 'image/webp';
  data: Uint8Array;
}

/** Whether documents of this kind have page images. */
export function hasPageImages(kind: DocumentKind): boolean {
  return kind === 'pdf' || kind === 'png' || kind === 'jpeg' || kind === 'webp' || kind === 'tiff';
}

/**
 * Renders the given 1-based pages of a document as images: those that exist and render. A page that
 * cannot be rendered (a damaged page object or content) is left out rather than failing the others:
 * the caller gives the model that page's text, or lists it as failed (issue 23: no silent loss).
 */
export async function renderPageImages(bytes: Uint8Array, kind: DocumentKind, pages: number[], dpi: number): Promise<RenderedPage[]> {
  switch (kind) {
    case 'pdf':
      return renderPdfPages(bytes, pages, dpi);
    case 'png':
    case 'jpeg':
    case 'webp':
      return pages.includes(1) ? [{ page: 1, mediaType: `image/${kind}`, data: bytes }] : [];
    case 'tiff': {
      const frames = await decodeImage(bytes, 'tiff');
      return pages
        .filter((n) => n >= 1 && n <= frames.length)
        .map((n) => {
          const frame = frames[n - 1]!;
          const canvas = createCanvas(frame.width, frame.height);
          const context = canvas.getContext('2d');
          const rgba = context.createImageData(frame.width, frame.height);
          for (let i = 0; i < frame.data.length; i++) rgba.data.set([frame.data[i]!, frame.data[i]!, frame.data[i]!, 255], i * 4);
          context.putImageData(rgba, 0, 0);
          return { page: n, mediaType: 'image/png' as const, data: canvas.toBuffer('image/png') };
        });
    }
    default:
      return [];
  }
}

async function renderPdfPages(bytes: Uint8Array, pages: number[], dpi: number): Promise<RenderedPage[]> {
  const task = pdfjs.getDocument({ data: new Uint8Array(bytes), useSystemFonts: false, disableFontFace: true, isEvalSupported: false, verbosity: 0 });
  let pdf;
  try {
    pdf = await task.promise;
  } catch (error) {
    await task.destroy().catch(() => undefined);
    throw new ReadFailure(`The PDF cannot be rendered: ${error instanceof Error ? error.message : String(error)}`);
  }
  try {
    const out: RenderedPage[] = [];
    for (const n of pages) {
      if (n < 1 || n > pdf.numPages) continue;
      const rendered = await renderPdfPageOf(pdf, n, dpi);
      if (rendered) out.push({ page: n, mediaType: 'image/png', data: rendered });
    }
    return out;
  } finally {
    await pdf.destroy().catch(() => undefined);
  }
}

/** Page `n` as a PNG, or undefined when pdf.js cannot open or draw it (a damaged page). */
async function renderPdfPageOf(pdf: PDFDocumentProxy, n: number, dpi: number): Promise<Uint8Array | undefined> {
  let page: PDFPageProxy;
  try {
    page = await pdf.getPage(n);
  } catch {
    return undefined;
  }
  try {
    const { canvas } = await renderPdfPageCanvas(page, dpi);
    return canvas.toBuffer('image/png');
  } catch {
    return undefined;
  } finally {
    page.cleanup();
  }
}
