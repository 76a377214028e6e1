/**
 * Reads any supported document into the Doc model: the one entry point every operation uses.
 * Scanned PDF pages and images go through OCR (a small worker pool shared by the process, like a warm
 * Lambda container keeps it); everything else is read from its own structure.
 */
import { availableParallelism } from 'node:os';
import type { PDFPageProxy } from './pdfjs.ts';
import { cleanPagesText } from './clean-text.ts';
import { readCsv } from './csv.ts';
import { type Doc, type GreyImage, type Page, ReadFailure, type Word } from './doc.ts';
import { readDocx } from './docx.ts';
import { readEmail, readOutlookMessage } from './email.ts';
import { readEpub } from './epub.ts';
import { readHtml } from './html.ts';
import { decodeImage } from './image.ts';
import { dropRepeatedHeadersFooters, layoutPage, runningKeys } from './layout.ts';
import { createOcrPool, type OcrPool, recognizeReadable } from './ocr.ts';
import { readPdf, type ReadPdfOptions } from './pdf.ts';
import { pictureReader } from './pictures.ts';
import { greyToPdfWords, rasterizePdfPage } from './raster.ts';
import type { DocumentKind } from './sniff.ts';
import { readText } from './text.ts';
import { readXlsx } from './xlsx.ts';
import { readPptx } from './pptx.ts';

export interface ReadOptions {
  kind: DocumentKind;
  /** Resolution for rasterizing scanned PDF pages before OCR. */
  dpi: number;
  /** Epoch ms by which reading must end; readers throw ReadFailure('…', 'timeout') past it. */
  deadline: number;
  /** Once aborted, a PDF's reading stops between pages with the signal's reason (its run was cancelled or deleted). */
  signal?: AbortSignal;
  /** Told as a PDF's pages are read: how many of its pages are read (../documents/pdf.ts ReadPdfOptions). */
  progress?: (pagesDone: number, pagesTotal: number) => void;
  /** Told as each page of a PDF is read: how long it took and how it was read (./pdf.ts ReadPdfOptions). */
  pageRead?: ReadPdfOptions['pageRead'];
  /** Scanned PDF pages are read as forms: their lines kept as rules and erased before OCR (form filling). */
  forms?: boolean;
  /**
   * OCRed pages are read a second time where the OCR pool has a second reader (Page.secondWords):
   * extraction by the built-in engine keeps what two readings agree on. Parsing, classifying and
   * splitting read a page once.
   */
  secondReading?: boolean;
  /** The OCR pool to use (default: the process-wide one). */
  ocr?: () => Promise<OcrPool>;
}

/** Scanned pages recognized at once; a little above the pool size so a worker never waits for a raster. */
const OCR_PAGES_IN_FLIGHT = Math.min(4, availableParallelism()) + 1;

let processPool: Promise<OcrPool> | undefined;

/** The process-wide OCR pool, created on first use and kept warm between invocations. */
export function sharedOcrPool(): Promise<OcrPool> {
  processPool ??= createOcrPool();
  return processPool;
}

async function ocrImages(bytes: Uint8Array, kind: 'png' | 'jpeg' | 'tiff' | 'webp', pool: () => Promise<OcrPool>, second: boolean): Promise<Page[]> {
  const frames = await decodeImage(bytes, kind);
  const ocr = await pool();
  // Frames are recognized concurrently; the pool bounds how many at once.
  return Promise.all(
    frames.map(async (frame, i) => {
      const reading = await recognizeReadable(ocr, frame, { second });
      const placed = (words: Word[]) => words.map((w) => ({ ...w, origin: { kind: 'box' as const, page: i + 1, box: w.box! } }));
      const page = layoutPage({ number: i + 1, width: frame.width, height: frame.height, unit: 'px', ocr: true, words: placed(reading.words), rules: [] });
      return reading.second ? { ...page, secondWords: placed(reading.second) } : page;
    }),
  );
}

/** A PDF's pages as readPdf reads them (OCR of scans included), a second reader's words beside the page's own; `pages`: only those. */
async function readPdfPages(bytes: Uint8Array, options: Omit<ReadOptions, 'kind'>, pages?: { first: number; last: number }): Promise<Page[]> {
  const pool = options.ocr ?? sharedOcrPool;
  // A second reader's words (OcrPool.readSecond) go beside the page's own, by page number.
  const second = new Map<number, Word[]>();
  const ocr = {
    rasterize: (page: PDFPageProxy) => rasterizePdfPage(page, options.dpi),
    recognize: async (image: GreyImage, pageNumber: number) => {
      const reading = await recognizeReadable(await pool(), image, { second: options.secondReading });
      if (reading.second) second.set(pageNumber, greyToPdfWords(reading.second, image.dpi, pageNumber));
      return greyToPdfWords(reading.words, image.dpi, pageNumber);
    },
    concurrency: OCR_PAGES_IN_FLIGHT,
    forms: options.forms ?? false,
    readPictures: pictureReader(pool),
  };
  const read = await readPdf(bytes, { deadline: options.deadline, signal: options.signal, progress: options.progress, pageRead: options.pageRead, ocr, ...(pages ? { pages } : {}) });
  return read.map((page) => (second.has(page.number) ? { ...page, secondWords: second.get(page.number)! } : page));
}

/**
 * Pages `first`..`last` of a PDF (a range of a long document, read apart from the others:
 * functions/parses/ranges.ts), each as readDocument gives it except for what needs every page: its
 * running heads and feet are not dropped; instead each page comes with its blocks' running keys,
 * taken before the text is cleaned as readDocument takes them, for the document-wide decision
 * (./layout.ts repeatedRunningKeys, dropRunningBlocks). Pages out of reach of a damaged page tree and
 * a document none of whose pages reads are left to the caller too (./pdf.ts pdfPagesOutOfReach,
 * unreadableDocument).
 */
export async function readPdfRange(bytes: Uint8Array, options: Omit<ReadOptions, 'kind'> & { pages: { first: number; last: number } }): Promise<Array<{ page: Page; runningKeys: Array<string | undefined> }>> {
  const pages = await readPdfPages(bytes, options, options.pages);
  if (Date.now() > options.deadline) throw new ReadFailure('Reading the document took longer than its time budget', 'timeout');
  const keyed = pages.map((page) => ({ page, runningKeys: runningKeys(page) }));
  cleanPagesText(pages);
  return keyed;
}

export async function readDocument(bytes: Uint8Array, options: ReadOptions): Promise<Doc> {
  const pool = options.ocr ?? sharedOcrPool;
  const { kind, deadline } = options;
  let pages: Page[];
  switch (kind) {
    case 'pdf':
      pages = dropRepeatedHeadersFooters(await readPdfPages(bytes, options));
      break;
    case 'png':
    case 'jpeg':
    case 'tiff':
    case 'webp':
      pages = await ocrImages(bytes, kind, pool, options.secondReading ?? false);
      break;
    case 'docx':
      pages = await readDocx(bytes, { deadline });
      break;
    case 'xlsx':
      pages = await readXlsx(bytes, { deadline });
      break;
    case 'pptx':
      pages = await readPptx(bytes, { deadline });
      break;
    case 'csv':
      pages = readCsv(bytes);
      break;
    case 'eml':
    case 'msg': {
      // Attachments are documents of their own, read by this same function (email.ts numbers their pages).
      const mail = { deadline, readAttachment: async (attachment: Uint8Array, attachmentKind: DocumentKind) => (await readDocument(attachment, { ...options, kind: attachmentKind })).pages };
      pages = kind === 'eml' ? await readEmail(bytes, mail) : await readOutlookMessage(bytes, mail);
      break;
    }
    case 'html':
      pages = readHtml(bytes, { deadline });
      break;
    case 'epub':
      pages = readEpub(bytes, { deadline });
      break;
    case 'txt':
    case 'md':
      pages = readText(bytes, kind);
      break;
    default:
      throw new ReadFailure(`Documents of type ${String(kind)} cannot be read`, 'document_unsupported');
  }
  if (Date.now() > deadline) throw new ReadFailure('Reading the document took longer than its time budget', 'timeout');
  // One place for every reader: no control characters or lone surrogates reach any output.
  cleanPagesText(pages);
  return { kind, pages };
}
