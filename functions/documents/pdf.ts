/**
 * PDF reader: pdf.js text layer → words with boxes, vector drawing → ruling lines, then the shared
 * page layout (./layout.ts). Pages without a usable text layer are scanned pages: the caller's
 * `ocr` hooks rasterize them and recognize their words.
 *
 * Boxes are in PDF points at scale 1, top-left origin, in the page as displayed (after /Rotate and
 * the crop box offset): everything goes through the viewport transform.
 */
import * as pdfjs from './pdfjs.ts';
import type { PDFDocumentProxy, PDFPageProxy } from './pdfjs.ts';
import { scanLines } from './raster-rules.ts';
import { type Box, type GreyImage, MAX_PAGES, type Page, ReadFailure, readByOcr, type Rule, type Word } from './doc.ts';
import { plainLetters } from './bidi.ts';
import { fillAdvances, widthTableFor } from './glyph-widths.ts';
import { rgbaToGrey, rgbToGrey } from './image.ts';
import { layoutPage } from './layout.ts';
import { apply, boundingBox, boxThrough, type Matrix, multiply, UNIT_SQUARE } from './matrix.ts';
import { type HelperJob, pdfHelperRunning, readPagesInHelper } from './pdf-helper.ts';
import { mayHoldPictures, mayPaintPaths } from './pdf-paths.ts';
import type { PictureReader, PlacedPicture } from './pictures.ts';
import { pageContentDamage, probePdf } from './pdf-probe.ts';
import { judgeToken, looksGarbled } from './text-sense.ts';

export interface ReadPdfOptions {
  /** Epoch ms; reading stops with ReadFailure(…, 'timeout') once past it (checked between pages). */
  deadline: number;
  /** Reading stops with the signal's reason once it is aborted (checked between pages): its run is no longer wanted. */
  signal?: AbortSignal;
  /** Told each time a page is read (by either thread, OCR included): how many of the document's pages are read. */
  progress?: (pagesDone: number, pagesTotal: number) => void;
  /**
   * Told once per page read: how long it took (ms, from when a thread took it to when it was read,
   * OCR included) and how: from its text layer alone, with the text of its pictures, or by OCR whole.
   */
  pageRead?: (pageNumber: number, ms: number, how: PageReading) => void;
  /**
   * Only these pages (1-based, inclusive; `last` past the end means the last page): the document's
   * pages `first`..`last` as readPdf reads them, numbered as in the whole document, without the
   * checks that need every page (pages out of reach, a document none of whose pages reads: see
   * pdfPagesOutOfReach and unreadableDocument). Progress counts the range's pages. A long document's
   * ranges are read apart (functions/parses/ranges.ts).
   */
  pages?: { first: number; last: number };
  /**
   * OCR of scanned pages (no usable text layer). `rasterize` needs the live page, so pages are
   * rasterized one by one; `recognize` does not, so up to `concurrency` pages are recognized while
   * the next ones are read. Words come back with boxes in PDF points, top-left origin.
   */
  ocr?: {
    rasterize(page: PDFPageProxy, pageNumber: number): Promise<GreyImage>;
    recognize(image: GreyImage, pageNumber: number): Promise<Word[]>;
    concurrency: number;
    /**
     * Read scanned pages as forms: their drawn lines become `page.rules` and are erased before OCR
     * (labels beside underlines read better; ruled tables read worse, so only form filling asks).
     */
    forms?: boolean;
    /**
     * The text in the pictures of pages that have a text layer, read where a picture holds text
     * the text layer does not print (./pictures.ts): words in page points. Without it, pictures
     * are not read.
     */
    readPictures?: PictureReader;
  };
}

/** How a page was read: its text layer alone, with the text in its pictures (./pictures.ts), or by OCR whole (a scan). */
export type PageReading = 'text' | 'pictures' | 'ocr';

/** The parts of a pdf.js text content item we use (TextItem; marked-content entries have no `str`). */
interface TextItem {
  str: string;
  transform: number[];
  width: number;
  fontName: string;
  hasEOL: boolean;
  /** "rtl" when pdf.js turned the item's glyphs (printed right to left) into reading order. */
  dir?: string;
}

interface TextStyle {
  ascent?: number;
  descent?: number;
  /** The font's kind as pdf.js guessed it: "sans-serif", "serif" or "monospace". */
  fontFamily?: string;
}

export async function readPdf(bytes: Uint8Array, options: ReadPdfOptions): Promise<Page[]> {
  checkDeadline(options.deadline, 'before it started');
  const read = new Map<number, Page | null>();
  let done = 0;
  let total = 0; // (known once this thread has opened the document)
  // Pages the helper left to this thread (scans, pages with pictures), read here as soon as they come.
  const left: number[] = [];
  const onPage = (n: number, page: Page | null, ms: number) => {
    read.set(n, page);
    if (!page) left.push(n);
    if (page) done++;
    if (page && total > 0) options.progress?.(done, total);
    if (page) options.pageRead?.(n, ms, page.ocr ? 'ocr' : page.words.some(readByOcr) ? 'pictures' : 'text');
  };
  // A long document is read on two cores: a helper thread (./pdf-helper.ts) and this one take the
  // pages one at a time. A running helper opens its own copy of the document while this thread opens
  // this one, so neither knows the page count yet: whichever opens first sets it (settleLastPage).
  // The helper is started, and a big file (scans, mostly) copied to it, only once this thread knows
  // the document is long. The helper does no OCR: the scanned pages and pages with pictures it finds
  // are left for this thread, which has the OCR hooks, and taken here before its next page: their OCR
  // then runs beside the reading of the text pages, not after it (a 561-page document with 50 pages
  // of pictures read ~10% faster, its pages the same).
  const range = options.pages;
  const first = range?.first ?? 1;
  const unread = unreadPages(first, LAST_PAGE_UNKNOWN);
  const startHelper = () => {
    const started = readPagesInHelper({ bytes, unread, deadline: options.deadline }, onPage);
    // A failure of the helper has already left no page to take (readPdfPages); it is handled below.
    started?.catch(() => undefined);
    return started;
  };
  // (A range's helper starts once its last page is known: it must not take pages past the range.)
  const together = !range && pdfHelperRunning() && bytes.byteLength <= MAX_BYTES_TO_OPEN_TOGETHER;
  let helped = together ? startHelper() : undefined;
  let opened: ReadingPdf;
  try {
    opened = await openForReading(bytes);
  } catch (error) {
    takeNoMore(unread);
    throw error;
  }
  const { pdf, withImages, pictures } = opened;
  const count = pdf.numPages;
  const last = Math.min(range?.last ?? count, count);
  total = Math.max(0, last - first + 1);
  const long = total >= MIN_PAGES_FOR_HELPER;
  try {
    if (count > MAX_PAGES) {
      throw new ReadFailure(`The PDF has ${count} pages; at most ${MAX_PAGES} pages are supported`, 'document_unsupported');
    }
    if (range) Atomics.store(unread, 0, pagesWord(first, long ? last : 0));
    else settleLastPage(unread, count);
    if (!together && long) helped = startHelper();
    const reading = { ...options, paintsPaths: mayPaintPaths(bytes), pictures, imagesDoc: withImages };
    await readPages(pdf, () => left.shift() ?? takePage(unread, 'front'), reading, onPage);
    // (A short document leaves the helper no page: it is not waited for.)
    if (helped && long) {
      try {
        await helped;
      } catch (error) {
        if (error instanceof ReadFailure) throw error;
        // The helper thread failed (not the document): the pages it took and did not send are read below.
      }
    }
    // The pages of a short document, the pages the helper left once this thread had taken its last, and any it took and never sent.
    const unreadYet = numbers(first, last).filter((n) => !read.get(n));
    await readPages(pdf, () => unreadYet.shift(), reading, onPage);
    const pages = numbers(first, last).map((n) => read.get(n)!);
    if (!range && pages.some((page) => page.failure !== undefined)) pages.push(...pdfPagesOutOfReach(bytes, count));
    // A page that reads blank because its content is lost or cannot be decompressed is no blank page.
    const blank = pages.filter((page) => page.failure === undefined && page.words.length === 0);
    for (const [n, damage] of pageContentDamage(bytes, blank.map((page) => page.number))) pages[n - first]!.failure = `The page cannot be read (${damage})`;
    // Damaged pages are listed, not fatal (Page.failure); a document none of whose pages reads is.
    const unreadable = range ? undefined : unreadableDocument(pages);
    if (unreadable) throw unreadable;
    return pages;
  } catch (error) {
    // The helper stops taking pages of a read that failed.
    takeNoMore(unread);
    throw error;
  } finally {
    await opened.close();
  }
}

/**
 * The pages of a PDF as the helper thread reads them: it takes pages from `job.unread` until none
 * are left, and hands each to `onPage` as soon as it is read. Without OCR, a scanned page comes back
 * as null for the caller to rasterize and recognize. The thread looks for drawn paths on its own
 * (7–15 ms for a 500 KiB file, while the caller does the same) rather than wait for the caller's answer.
 */
export async function readPdfPages(job: HelperJob, onPage: (pageNumber: number, page: Page | null, ms: number) => void): Promise<void> {
  let opened: ReadingPdf | undefined;
  try {
    opened = await openForReading(job.bytes);
    settleLastPage(job.unread, opened.pdf.numPages);
    const reading = { deadline: job.deadline, paintsPaths: mayPaintPaths(job.bytes), pictures: opened.pictures, deferScanned: true, imagesDoc: opened.withImages };
    await readPages(opened.pdf, () => takePage(job.unread, 'back'), reading, onPage);
  } catch (error) {
    // Whatever failed here, the caller takes no more pages either: the deadline fails the read, and
    // any other failure leaves the pages not yet read to the caller's last pass. (A damaged page
    // fails nothing: it comes back as null, for the caller to read another way.)
    takeNoMore(job.unread);
    throw error;
  } finally {
    await opened?.close();
  }
}

/**
 * The next unread page, from the front (this thread) or the back (the helper), or undefined when all
 * are taken. `pages` holds the first and the last unread page in one 32-bit word (page numbers fit in
 * 16 bits), so one compare-and-swap takes a page from either end.
 */
function takePage(pages: Int32Array, end: 'front' | 'back'): number | undefined {
  for (;;) {
    const both = Atomics.load(pages, 0);
    const first = both & 0xffff;
    const last = both >>> 16;
    if (first > last) return undefined;
    const taken = end === 'front' ? pagesWord(first + 1, last) : pagesWord(first, last - 1);
    if (Atomics.compareExchange(pages, 0, both, taken) === both) return end === 'front' ? first : last;
  }
}

function pagesWord(first: number, last: number): number {
  return first | (last << 16);
}

/** The last page while no thread has opened the document (page numbers stop at MAX_PAGES, below it). */
export const LAST_PAGE_UNKNOWN = 0xffff;

/**
 * Once a thread has opened the document, sets the last unread page if no thread has yet: the
 * document's last page, or none for a short document (read by the calling thread alone) or one over
 * MAX_PAGES (refused). Both threads open the document and settle the same count.
 */
function settleLastPage(pages: Int32Array, count: number): void {
  const last = count < MIN_PAGES_FOR_HELPER || count > MAX_PAGES ? 0 : count;
  for (;;) {
    const both = Atomics.load(pages, 0);
    if (both >>> 16 !== LAST_PAGE_UNKNOWN) return;
    if (Atomics.compareExchange(pages, 0, both, pagesWord(both & 0xffff, last)) === both) return;
  }
}

/** Leaves no page to take: both threads stop after the pages they are reading. */
function takeNoMore(unread: Int32Array): void {
  Atomics.store(unread, 0, pagesWord(1, 0));
}

/** Pages `first`..`last` as unread, in memory both threads can share (see takePage). */
export function unreadPages(first: number, last: number): Int32Array {
  const pages = new Int32Array(new SharedArrayBuffer(4));
  pages[0] = pagesWord(first, last);
  return pages;
}

/**
 * Shorter documents are read on one thread: the copy of the helper's pages back is a fixed cost (the
 * bound is a judgement, not a measured break-even). A running helper opens them all the same, since
 * the count is only known once open, and then takes no page; none is started for them.
 */
const MIN_PAGES_FOR_HELPER = 16;
/** A page loop lets the event loop turn at least this often (ms): its thread's timers and I/O run. */
const EVENT_LOOP_TURN_MS = 100;

/** Files up to this size are opened by both threads at once (the helper running), before the page count is known. */
export const MAX_BYTES_TO_OPEN_TOGETHER = 16 * 1024 * 1024;

function numbers(from: number, to: number): number[] {
  return Array.from({ length: Math.max(0, to - from + 1) }, (_, i) => from + i);
}

/** An open document; `close` releases it and its pdf.js worker. */
interface OpenPdf {
  pdf: PDFDocumentProxy;
  close(): Promise<void>;
}

/**
 * Opens a document. Without `images`, pdf.js leaves every image out (maxImageSize 1 pixel): reading
 * text and ruling lines never needs their pixels, and decoding them was most of the drawing pass on
 * pages with photos (a 14-slide deck: 2.4 s of 2.6 s). Rasterizing a scan and measuring how much of a
 * page its images cover need them: a copy that decodes images is opened for those pages.
 */
async function openPdf(bytes: Uint8Array, { images }: { images: boolean }): Promise<OpenPdf> {
  // The copy without images is never rendered (scans are rasterized from the copy with them).
  const worker = pdfjs.sameThreadWorker({ rendered: images });
  // A copy: pdf.js takes ownership of (and may detach) the buffer it is given.
  const task = pdfjs.getDocument({
    data: new Uint8Array(bytes),
    worker,
    useSystemFonts: false,
    disableFontFace: true,
    isEvalSupported: false,
    verbosity: 0,
    ...(images ? {} : { maxImageSize: 1 }),
  });
  try {
    const pdf = await task.promise;
    return {
      pdf,
      async close() {
        await pdf.destroy().catch(() => undefined);
        worker.destroy();
      },
    };
  } catch (error) {
    await task.destroy().catch(() => undefined);
    worker.destroy();
    throw openFailure(error, bytes);
  }
}

/** A document opened for reading its pages (openForReading). */
interface ReadingPdf {
  pdf: PDFDocumentProxy;
  /** The document with its images decoded: `pdf` itself, or a copy opened on first use. */
  withImages: () => Promise<PDFDocumentProxy>;
  /** Whether it may hold pictures big enough to hold text (./pdf-paths.ts mayHoldPictures). */
  pictures: boolean;
  close(): Promise<void>;
}

/**
 * Opens a document for reading. One that cannot hold a picture big enough to hold text is opened
 * without its images, and a copy that decodes them is opened only for a page with next to no text
 * (is it a scan?). One that may hold such pictures is opened with them: every page's drawing is read
 * from it for its pictures, and one copy parses the document's fonts once, not once for the text and
 * once more for the drawing (a second copy doubled the time of a 4-page letter with a 20 × 18 icon).
 */
async function openForReading(bytes: Uint8Array): Promise<ReadingPdf> {
  const pictures = mayHoldPictures(bytes, PICTURE_SIZE.minSidePixels);
  const opened = await openPdf(bytes, { images: pictures });
  if (pictures) return { pdf: opened.pdf, withImages: async () => opened.pdf, pictures, close: opened.close };
  let copy: Promise<OpenPdf> | undefined;
  return {
    pdf: opened.pdf,
    withImages: async () => (await (copy ??= openPdf(bytes, { images: true }))).pdf,
    pictures,
    async close() {
      await opened.close();
      if (copy) await (await copy.catch(() => undefined))?.close();
    },
  };
}

interface ReadPagesOptions extends ReadPdfOptions {
  /** Whether the document may paint vector paths (./pdf-paths.ts); when not, pages with text skip the drawing pass. */
  paintsPaths: boolean;
  /** Whether the document may hold pictures big enough to hold text (./pdf-paths.ts mayHoldPictures); when not, none is looked for. */
  pictures?: boolean;
  /** Scanned pages, and pages with pictures that may hold text, come back as null, not recognized (the helper thread has no OCR). */
  deferScanned?: boolean;
  /**
   * The document opened with its images, for a page with next to no text (its images decide whether
   * it is a scan, and a scan is rasterized from it). Without it, such a page comes back as null.
   */
  imagesDoc?: () => Promise<PDFDocumentProxy>;
}

/**
 * Reads pages a few at once, taking the next one with `take` while there is room, and hands each to
 * `onPage` once read (a scanned page once recognized, or null when deferScanned), with the time it
 * took since it was taken (ms).
 */
async function readPages(
  pdf: PDFDocumentProxy,
  take: () => number | undefined,
  options: ReadPagesOptions,
  onPage: (pageNumber: number, page: Page | null, ms: number) => void,
): Promise<void> {
  const pages: Array<Promise<void>> = [];
  const reading = new Set<Promise<unknown>>();
  const recognizing = new Set<Promise<unknown>>();
  // Once the signal aborts, the wait for a page in flight ends at once (an OCRed page can take
  // seconds; the pages in flight finish on their own, unread).
  const { signal } = options;
  const aborted = signal && new Promise<void>((resolve) => signal.addEventListener('abort', () => resolve(), { once: true }));
  const settled = async (work: Iterable<Promise<unknown>>) => {
    await Promise.race(aborted ? [...work, aborted] : work);
    signal?.throwIfAborted();
  };
  let turned = performance.now();
  for (;;) {
    // pdf.js answers a text layer through promises alone: without a turn of the event loop now and
    // then, no timer of this thread would fire until the whole document is read (its run's look at
    // whether it is still wanted, the progress it shows).
    if (performance.now() - turned >= EVENT_LOOP_TURN_MS) {
      await new Promise((resolve) => setImmediate(resolve));
      turned = performance.now();
    }
    // A few pages are read at once: pdf.js answers through message passing even in-process, and
    // laying out one page while the next is parsed fills that idle time. Scanned pages being
    // recognized are bounded too (each holds a raster), so a long document stays within memory.
    while (reading.size >= PAGES_READ_AT_ONCE) await settled(reading);
    while (recognizing.size >= (options.ocr?.concurrency ?? 1)) await settled(recognizing);
    const n = take();
    if (n === undefined) break;
    checkDeadline(options.deadline, `at page ${n} of ${pdf.numPages}`);
    signal?.throwIfAborted();
    const taken = performance.now();
    const read = readPageNumber(pdf, n, options);
    track(reading, read);
    const page = read.then(async (result) => {
      if (result === null || !('recognized' in result)) return onPage(n, result, performance.now() - taken);
      track(recognizing, result.recognized);
      const recognized = await result.recognized;
      onPage(n, recognized, performance.now() - taken);
    });
    // Failures surface through Promise.all below; this only keeps an early exit from leaving them unobserved.
    page.catch(() => undefined);
    pages.push(page);
  }
  await settled([Promise.all(pages)]);
}

/** Pages parsed concurrently by pdf.js. */
const PAGES_READ_AT_ONCE = 3;

/** Adds a promise to a set of work in flight; it leaves the set when it settles, either way. */
function track(inFlight: Set<Promise<unknown>>, work: Promise<unknown>): void {
  inFlight.add(work);
  work.then(
    () => inFlight.delete(work),
    () => inFlight.delete(work),
  );
}

/**
 * Loads page `n`, reads it, and releases pdf.js's resources for it. A page pdf.js cannot read (a
 * broken page object, a text layer or drawing it throws on) does not fail the document: it is read
 * another way (readUnreadablePage); the helper thread leaves it (null) to the caller, which has OCR.
 */
async function readPageNumber(pdf: PDFDocumentProxy, n: number, options: ReadPagesOptions): Promise<Page | Recognizing | null> {
  try {
    let page: PDFPageProxy;
    try {
      page = await pdf.getPage(n);
    } catch (error) {
      throw damaged(error, n);
    }
    try {
      return await readPage(page, n, options);
    } finally {
      page.cleanup();
    }
  } catch (error) {
    if (!(error instanceof ReadFailure) || error.code !== 'document_invalid') throw error;
    if (options.deferScanned) return null;
    return readUnreadablePage(n, error, options);
  }
}

/**
 * When a page object is broken, pdf.js walks the page tree again and counts only the pages up to
 * the break: the pages after it are silently gone from `numPages`. The page tree's own /Count (read
 * by ./pdf-probe.ts, only once some page has failed) tells how many there are: those pdf.js cannot
 * reach are listed as failed pages rather than lost.
 */
export function pdfPagesOutOfReach(bytes: Uint8Array, reached: number): Page[] {
  let declared: number | null = null;
  try {
    declared = probePdf(bytes).pageCount;
  } catch {
    // The probe refuses what pdf.js already opened: nothing more to learn from it.
  }
  if (declared === null || declared <= reached || declared > MAX_PAGES) return [];
  return numbers(reached + 1, declared).map((n) => emptyPage(n, DEFAULT_PAGE, `The page cannot be read (the page tree is damaged before it: pdf.js reaches only ${reached} of the ${declared} pages it declares)`));
}

/** The failure of a document none of whose pages can be read (damaged pages are listed, not fatal: Page.failure); undefined when some page reads. */
export function unreadableDocument(pages: ReadonlyArray<Pick<Page, 'failure'>>): ReadFailure | undefined {
  if (pages.length === 0 || pages.some((page) => page.failure === undefined)) return undefined;
  const reason = pages[0]!.failure!.replace(/^The page cannot be read/, 'cannot be read');
  return new ReadFailure(pages.length === 1 ? `The PDF is damaged: page 1 ${reason}` : `The PDF is damaged: none of its ${pages.length} pages can be read (page 1 ${reason})`, 'document_invalid');
}

function emptyPage(n: number, size: { width: number; height: number }, failure: string): Page {
  return { number: n, ...size, unit: 'pt', ocr: false, words: [], lines: [], blocks: [], tables: [], failure };
}

/** Size given to a page whose page object cannot be read at all (PDF's default page, US Letter, in points). */
const DEFAULT_PAGE = { width: 612, height: 792 };

/**
 * A page pdf.js threw on, read another way: rendered from the copy that decodes images and OCRed
 * (rendering draws what it can of a damaged page). When that fails too, or there is no OCR, or the
 * picture shows no text, the page comes back empty with `failure` saying why.
 */
async function readUnreadablePage(n: number, failure: ReadFailure, options: ReadPagesOptions): Promise<Page | Recognizing> {
  const cause = failure.message.match(/cannot be read \((.*)\)$/)?.[1] ?? failure.message;
  const failed = (reason: string, size = DEFAULT_PAGE): Page => emptyPage(n, size, `The page cannot be read (${cause})${reason}`);
  const ocr = options.ocr;
  if (!ocr || !options.imagesDoc) return failed('');
  let size = DEFAULT_PAGE;
  let raster: GreyImage;
  try {
    const page = await (await options.imagesDoc()).getPage(n);
    try {
      const { width, height } = page.getViewport({ scale: 1 });
      size = { width, height };
      raster = await ocr.rasterize(page, n);
    } finally {
      page.cleanup();
    }
  } catch (error) {
    const again = messageOf(error).replace(/\.$/, '');
    return failed(again === cause ? '; rendering it for OCR failed the same way' : `; rendering it for OCR failed too (${again})`, size);
  }
  const recognized = ocr.recognize(raster, n).then(
    (words): Page => {
      const placed: Word[] = words.flatMap((w) => (w.box ? [{ ...w, origin: { kind: 'box' as const, page: n, box: w.box } }] : []));
      if (placed.length === 0) return failed('; rendered and OCRed instead, it shows no text', size);
      return layoutPage({ number: n, ...size, unit: 'pt', ocr: true, words: placed, rules: [] });
    },
    (error: unknown): Page => failed(`; OCR of its picture failed too (${messageOf(error).replace(/\.$/, '')})`, size),
  );
  return { recognized };
}

function checkDeadline(deadline: number, where: string): void {
  if (Date.now() > deadline) throw new ReadFailure(`Reading the PDF took longer than its time budget (stopped ${where})`, 'timeout');
}

function messageOf(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}

function openFailure(error: unknown, bytes: Uint8Array): ReadFailure {
  if (error instanceof ReadFailure) return error;
  // pdf.js does not export PasswordException; its name is the stable part.
  if (error instanceof Error && error.name === 'PasswordException') {
    return new ReadFailure('The PDF is encrypted with a password', 'document_invalid');
  }
  const tail = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength).subarray(-1024);
  const cut = bytes.byteLength > 0 && !tail.includes('%%EOF', 0, 'latin1') ? ' (the file looks cut short: it has no %%EOF end marker)' : '';
  return new ReadFailure(`The PDF is damaged: ${messageOf(error).replace(/\.$/, '')}${cut}`, 'document_invalid');
}

function damaged(error: unknown, pageNumber: number): ReadFailure {
  if (error instanceof ReadFailure) return error;
  return new ReadFailure(`The PDF is damaged: page ${pageNumber} cannot be read (${messageOf(error).replace(/\.$/, '')})`, 'document_invalid');
}

/** A scanned page once rasterized: its layout arrives when OCR is done. (Wrapped, as an async function would flatten a returned promise.) */
interface Recognizing {
  recognized: Promise<Page>;
}

async function readPage(page: PDFPageProxy, pageNumber: number, options: ReadPagesOptions): Promise<Page | Recognizing | null> {
  const viewport = page.getViewport({ scale: 1 });
  const toViewport = viewport.transform as Matrix;
  let words: Word[];
  let fields: FieldWord[];
  let widgets: number;
  try {
    const content = await page.getTextContent();
    words = textWords(content.items as TextItem[], content.styles as Record<string, TextStyle>, toViewport, pageNumber);
    const annotations = (await page.getAnnotations()) as AnnotationData[];
    fields = annotationWords(annotations, toViewport, pageNumber);
    widgets = annotations.filter((a) => a.subtype === 'Widget' && a.fieldType).length;
  } catch (error) {
    throw damaged(error, pageNumber);
  }
  // Fillable fields say "form" even on a page with no other text (classification reads it).
  const dimensions = { number: pageNumber, width: viewport.width, height: viewport.height, unit: 'pt' as const, ...(widgets > 0 ? { formFields: widgets } : {}) };
  // Text placed outside the visible page (clipped leftovers of imposition, hidden tricks) is not read.
  const onPage = (w: Word) => w.box!.left < viewport.width && w.box!.left + w.box!.width > 0 && w.box!.top < viewport.height && w.box!.top + w.box!.height > 0;

  const usable = usableWords(words).filter(onPage);
  const pageArea = viewport.width * viewport.height;
  const printable = usable.reduce((sum, w) => sum + w.text.length, 0);
  // The drawing (a second pass of pdf.js over the page) is read for its ruling lines, when the
  // document paints paths at all, and for its image coverage, which only decides nearly empty pages:
  // those are read from the copy of the document that decodes images.
  const nearlyEmpty = printable < 40;
  // A text layer of garbage (fonts that map glyphs to the wrong letters, "9ffbiffdjn`k_cfZXcj" for
  // "Book rooms with locals": ./text-sense.ts) is read by OCR like a scan, from the copy with images.
  const garbled = !nearlyEmpty && looksGarbled(usable.map((w) => w.text));
  if ((nearlyEmpty || garbled) && !options.imagesDoc) return null;
  // A page with a text layer is drawn from the copy with images too where the document may hold
  // pictures and someone reads them: their text, where they print any, is the page's too.
  const seekPictures = !garbled && (options.pictures ?? false) && options.imagesDoc !== undefined && (options.deferScanned || options.ocr?.readPictures !== undefined);
  let drawn = page;
  let graphics: Graphics = { rules: [], shaded: [], rings: [], imageArea: 0, pictures: [], paints: true };
  try {
    if (nearlyEmpty || garbled || seekPictures) drawn = await (await options.imagesDoc!()).getPage(pageNumber);
    if (options.paintsPaths || nearlyEmpty || seekPictures) {
      // Annotations are read separately (getAnnotations); their appearance ops are not needed here.
      graphics = readGraphics(await drawn.getOperatorList({ annotationMode: pdfjs.AnnotationMode.DISABLE }), toViewport, options.ocr?.forms ?? false);
    }
  } catch (error) {
    throw damaged(error, pageNumber);
  }
  // No usable text, or a page-sized image with a few stray words (a stamped page number on a scan).
  // A page that paints nothing at all is blank, not scanned: there is nothing to recognize.
  const scanned = garbled || (printable === 0 && graphics.paints) || (printable < 40 && graphics.imageArea >= 0.6 * pageArea);
  // (The copy's page, when one was loaded, is released once rasterized: its resources go with it.)
  const release = () => drawn !== page && drawn.cleanup();
  if (scanned && options.deferScanned) {
    release();
    return null;
  }
  if (scanned && options.ocr) {
    const ocr = options.ocr;
    const raster = await ocr.rasterize(drawn, pageNumber).finally(release);
    // Forms: the scan's own lines (underlines, boxes) are kept for field detection and erased from
    // what OCR reads (labels beside underlines read better). Tables keep the vector rules.
    const form = ocr.forms ? scanLines(raster, { erase: true }) : { rules: [], cleaned: raster };
    const recognized = ocr.recognize(form.cleaned, pageNumber).then((ocrWords) => {
      const placed: Word[] = ocrWords.flatMap((w) => (w.box ? [{ ...w, origin: { kind: 'box' as const, page: pageNumber, box: w.box } }] : []));
      // A garbled text layer is often garbled only in part: its words that read as words (a slide's
      // title in a pale colour OCR misses, a footer) are kept where OCR found nothing.
      if (garbled) placed.push(...usable.filter((w) => judgeToken(w.text) === 'plausible' && !placed.some((o) => overlapRatio(o.box!, w.box!) > 0.3)));
      const laidOut = layoutPage({ ...dimensions, ocr: true, words: placed, rules: graphics.rules });
      return { ...laidOut, rules: [...graphics.rules, ...form.rules] };
    });
    return { recognized };
  }
  const printed = [...usable, ...notPrinted(fields, usable).filter(onPage)];
  const laidOut = (pictureWords: Word[]): Page => {
    const read = layoutPage({ ...dimensions, ocr: false, words: [...printed, ...pictureWords], rules: graphics.rules });
    return { ...read, ...(graphics.shaded.length > 0 ? { shaded: graphics.shaded } : {}), ...(graphics.rings.length > 0 ? { rings: graphics.rings } : {}) };
  };
  // (A page that is a scan was read whole above: its pictures are not looked at again.)
  const pictures = seekPictures && !scanned ? graphics.pictures.filter((picture) => mayHoldText(picture, pageArea)) : [];
  if (pictures.length > 0 && options.deferScanned) {
    release();
    return null;
  }
  const readPictures = options.ocr?.readPictures;
  if (pictures.length === 0 || !readPictures) {
    release();
    return laidOut([]);
  }
  let placed: PlacedPicture[];
  try {
    placed = (await Promise.all(pictures.map((picture) => placedPicture(drawn, picture)))).filter((picture) => picture !== undefined);
  } finally {
    release();
  }
  if (placed.length === 0) return laidOut([]);
  // A picture that cannot be read (OCR that fails to start on this platform) leaves the page its text layer.
  const recognized = readPictures(placed, printed.map((w) => w.box!), pageNumber).then(laidOut, () => laidOut([]));
  return { recognized };
}

// ---------------------------------------------------------------------------------------------------
// Text layer

/**
 * The bounding box of the parallelogram spanning s0..s1 along the baseline and t0..t1 up the glyphs,
 * from origin (ox, oy), in viewport space (the four corners, without building them as arrays: this
 * runs for every word).
 */
function spanBox(ox: number, oy: number, along: readonly [number, number], up: readonly [number, number], s0: number, s1: number, t0: number, t1: number): Box {
  const xs0 = along[0] * s0;
  const xs1 = along[0] * s1;
  const ys0 = along[1] * s0;
  const ys1 = along[1] * s1;
  const xt0 = up[0] * t0;
  const xt1 = up[0] * t1;
  const yt0 = up[1] * t0;
  const yt1 = up[1] * t1;
  const left = ox + Math.min(xs0, xs1) + Math.min(xt0, xt1);
  const right = ox + Math.max(xs0, xs1) + Math.max(xt0, xt1);
  const top = oy + Math.min(ys0, ys1) + Math.min(yt0, yt1);
  const bottom = oy + Math.max(ys0, ys1) + Math.max(yt0, yt1);
  return { left, top, width: right - left, height: bottom - top };
}

/** A word cut from a text item, before pieces split across items are glued back together. */
interface Piece {
  text: string;
  box: Box;
  /** Whether whitespace (or a line end) is printed on its left / right. */
  spaceBefore: boolean;
  spaceAfter: boolean;
  /** Right-to-left letters (from an "rtl" item): a piece glued on its left comes after it in reading order. */
  rtl: boolean;
}

/** The advance before each character of the item being split (reused: it is filled for every item). */
let advances = new Float64Array(256);

/**
 * Words from the text items. An item is a run of text with one transform; it is split at whitespace,
 * each word's extent along the baseline taken in proportion to the widths of the letters before and
 * in it, as a font of the item's kind draws them (./glyph-widths.ts: pdf.js does not expose glyph
 * widths), or to its character offsets for a monospace font or letters the tables do not know. The
 * box spans the font's descent to ascent.
 */
function textWords(items: TextItem[], styles: Record<string, TextStyle>, toViewport: Matrix, pageNumber: number): Word[] {
  const pieces: Piece[] = [];
  let pendingSpace = true;
  for (const item of items) {
    if (typeof item.str !== 'string') continue;
    const str = item.str;
    const [a, b, c, d, e, f] = item.transform as Matrix;
    const advanceScale = Math.hypot(a, b);
    const fontHeight = Math.hypot(c, d);
    if (str.trim() === '' || fontHeight === 0 || advanceScale === 0 || !(item.width >= 0)) {
      if (str.length > 0 || item.hasEOL) pendingSpace = true;
      continue;
    }
    // Diagonal text is a watermark or a stamp ("DRAFT", "PAID"): its huge box would cover the columns.
    const angle = (Math.atan2(toViewport[1] * a + toViewport[3] * b, toViewport[0] * a + toViewport[2] * b) * 180) / Math.PI;
    const offAxis = Math.abs(angle) % 90;
    if (offAxis > 10 && offAxis < 80) {
      pendingSpace = true;
      continue;
    }
    const style = styles[item.fontName] ?? {};
    const ascent = style.ascent && style.ascent > 0 && style.ascent < 1.5 ? style.ascent : 0.8;
    const descent = style.descent && style.descent < 0 && style.descent > -1 ? style.descent : -0.2;
    // Unit vectors along the baseline and up the glyphs, in user space.
    const ux = a / advanceScale;
    const uy = b / advanceScale;
    const vx = c / fontHeight;
    const vy = d / fontHeight;
    // The item's own frame in viewport space: origin, then the steps along the baseline and up the glyphs.
    const [ox, oy] = apply(toViewport, e, f);
    const along = [toViewport[0] * ux + toViewport[2] * uy, toViewport[1] * ux + toViewport[3] * uy] as const;
    const up = [toViewport[0] * vx + toViewport[2] * vy, toViewport[1] * vx + toViewport[3] * vy] as const;
    // Where character i starts along the baseline: perUnit * at[i].
    if (advances.length <= str.length) advances = new Float64Array(2 * str.length + 2);
    const widths = widthTableFor(style.fontFamily);
    const proportional = widths !== null && fillAdvances(str, widths, advances);
    const perUnit = item.width / (proportional ? advances[str.length]! : str.length);
    const at = proportional ? advances : null;
    const t0 = descent * fontHeight;
    const t1 = ascent * fontHeight;
    const leadingSpace = isSpace(str.charCodeAt(0));
    // An "rtl" item's text is in reading order but printed right to left (./bidi.ts): its words are
    // placed from the item's right end, and pieces go left to right as printed, as for other items.
    const rtl = item.dir === 'rtl';
    const itemPieces: Piece[] = [];
    // The runs of non-whitespace (what /\S+/g matches), scanned by hand: this runs for every word.
    for (let start = 0, end = 0; ; start = end) {
      while (start < str.length && isSpace(str.charCodeAt(start))) start++;
      if (start === str.length) break;
      end = start + 1;
      while (end < str.length && !isSpace(str.charCodeAt(end))) end++;
      itemPieces.push(
        rtl
          ? {
              text: str.slice(start, end),
              box: spanBox(ox, oy, along, up, item.width - (at ? at[end]! : end) * perUnit, item.width - (at ? at[start]! : start) * perUnit, t0, t1),
              spaceBefore: end < str.length || pendingSpace,
              spaceAfter: start > 0,
              rtl,
            }
          : {
              text: str.slice(start, end),
              box: spanBox(ox, oy, along, up, (at ? at[start]! : start) * perUnit, (at ? at[end]! : end) * perUnit, t0, t1),
              spaceBefore: start > 0 || pendingSpace || leadingSpace,
              spaceAfter: end < str.length,
              rtl,
            },
      );
      if (!rtl) pendingSpace = false;
    }
    pieces.push(...(rtl ? itemPieces.reverse() : itemPieces));
    pendingSpace = (rtl ? leadingSpace : isSpace(str.charCodeAt(str.length - 1))) || item.hasEOL;
  }

  // pdf.js may cut one word across items (a font change mid-word, kerned glyph runs): glue pieces that
  // touch on one baseline with no space between them.
  const glued: Piece[] = [];
  for (const piece of pieces) {
    const previous = glued[glued.length - 1];
    if (previous && !previous.spaceAfter && !piece.spaceBefore) {
      const height = Math.min(previous.box.height, piece.box.height);
      const gap = piece.box.left - (previous.box.left + previous.box.width);
      const overlap = Math.min(previous.box.top + previous.box.height, piece.box.top + piece.box.height) - Math.max(previous.box.top, piece.box.top);
      if (overlap >= 0.6 * height && gap > -0.25 * height && gap < 0.12 * height) {
        const left = Math.min(previous.box.left, piece.box.left);
        const top = Math.min(previous.box.top, piece.box.top);
        previous.box = {
          left,
          top,
          width: Math.max(previous.box.left + previous.box.width, piece.box.left + piece.box.width) - left,
          height: Math.max(previous.box.top + previous.box.height, piece.box.top + piece.box.height) - top,
        };
        // Letters printed right to left: the piece on the right comes first in reading order.
        previous.text = previous.rtl && piece.rtl ? piece.text + previous.text : previous.text + piece.text;
        previous.spaceAfter = piece.spaceAfter;
        continue;
      }
    }
    glued.push(piece);
  }

  // Some producers fake bold by drawing the same text twice, slightly offset: keep one copy.
  const seen = new Map<string, Box[]>();
  const words: Word[] = [];
  for (const piece of glued) {
    const earlier = seen.get(piece.text);
    if (earlier === undefined) seen.set(piece.text, [piece.box]);
    else if (earlier.some((box) => overlapRatio(box, piece.box) > 0.7)) continue;
    else earlier.push(piece.box);
    words.push({ text: plainLetters(piece.text), box: piece.box, origin: { kind: 'box', page: pageNumber, box: piece.box } });
  }
  return words;
}

/** Whether a UTF-16 code unit is whitespace as a regular expression's \s means it (ECMAScript WhiteSpace and LineTerminator). */
export function isSpace(code: number): boolean {
  return (
    code === 32 ||
    (code >= 9 && code <= 13) ||
    code === 0xa0 ||
    code === 0x1680 ||
    (code >= 0x2000 && code <= 0x200a) ||
    code === 0x2028 ||
    code === 0x2029 ||
    code === 0x202f ||
    code === 0x205f ||
    code === 0x3000 ||
    code === 0xfeff
  );
}

function overlapRatio(a: Box, b: Box): number {
  const width = Math.min(a.left + a.width, b.left + b.width) - Math.max(a.left, b.left);
  const height = Math.min(a.top + a.height, b.top + b.height) - Math.max(a.top, b.top);
  if (width <= 0 || height <= 0) return 0;
  const smaller = Math.min(a.width * a.height, b.width * b.height);
  return smaller > 0 ? (width * height) / smaller : 0;
}

/** The parts of pdf.js annotation data we use (form field widgets and free-text annotations). */
interface AnnotationData {
  subtype?: string;
  fieldType?: string;
  fieldValue?: unknown;
  rect?: number[];
  hidden?: boolean;
  password?: boolean;
  multiLine?: boolean;
  /** 0 left, 1 centered, 2 right. */
  textAlignment?: number | null;
  defaultAppearanceData?: { fontSize?: number };
  contentsObj?: { str?: string };
}

function annotationText(annotation: AnnotationData): string | undefined {
  if (annotation.hidden) return undefined;
  const value = annotation.fieldValue;
  if (annotation.subtype === 'Widget') {
    if (annotation.password) return undefined;
    if (annotation.fieldType === 'Tx' && typeof value === 'string') return value;
    if (annotation.fieldType === 'Ch') return Array.isArray(value) ? value.join(', ') : typeof value === 'string' ? value : undefined;
    return undefined;
  }
  if (annotation.subtype === 'FreeText') return annotation.contentsObj?.str;
  return undefined;
}

const squashed = (text: string) => text.toLowerCase().replace(/\s+/g, '');

/**
 * A field's value once: the words of a field whose value the page already prints inside the field's
 * box (a form filled and drawn by Quire, or "flattened" by another tool) are left out.
 */
function notPrinted(fields: FieldWord[], printed: Word[]): Word[] {
  const byField = new Map<Box, FieldWord[]>();
  for (const w of fields) byField.set(w.field, [...(byField.get(w.field) ?? []), w]);
  const out: Word[] = [];
  for (const [field, words] of byField) {
    const inside = printed.filter((p) => {
      const x = p.box!.left + p.box!.width / 2;
      const y = p.box!.top + p.box!.height / 2;
      return x >= field.left - 2 && x <= field.left + field.width + 2 && y >= field.top - 2 && y <= field.top + field.height + 2;
    });
    const value = squashed(words.map((w) => w.text).join(''));
    if (squashed(inside.map((p) => p.text).join('')).includes(value)) continue;
    for (const { field: _field, ...word } of words) out.push(word);
  }
  return out;
}

/** A word of a field's value, with the field's box (to compare with what the page prints there). */
interface FieldWord extends Word {
  field: Box;
}

/**
 * Words of filled form fields and free-text annotations ("add text" in PDF viewers): pdf.js keeps them
 * out of the text content, yet they are what a filled form says. Their glyphs are not known, so words
 * are spread over the field's box at an estimated half an em per character.
 */
function annotationWords(annotations: AnnotationData[], toViewport: Matrix, pageNumber: number): FieldWord[] {
  const words: FieldWord[] = [];
  for (const annotation of annotations) {
    const text = annotationText(annotation);
    const rect = annotation.rect;
    if (!text?.trim() || !rect || rect.length !== 4) continue;
    const field = boundingBox([apply(toViewport, rect[0]!, rect[1]!), apply(toViewport, rect[2]!, rect[3]!)]);
    const lines = text.split(/\r\n?|\n/).filter((l) => l.trim() !== '');
    if (field.width <= 0 || field.height <= 0 || lines.length === 0) continue;
    const fitted = field.height / lines.length;
    const declared = annotation.defaultAppearanceData?.fontSize ?? 0;
    // Font size 0 means "auto": the viewer fits the text to the field.
    const size = Math.min(declared > 0 ? declared : 0.75 * fitted, fitted);
    const pad = Math.min(2, field.width / 10);
    lines.forEach((line, k) => {
      const charWidth = Math.min(0.5 * size, (field.width - 2 * pad) / line.length);
      const lineWidth = charWidth * line.length;
      const left =
        annotation.textAlignment === 1 ? field.left + (field.width - lineWidth) / 2 : annotation.textAlignment === 2 ? field.left + field.width - pad - lineWidth : field.left + pad;
      const top = lines.length === 1 ? field.top + (field.height - size) / 2 : field.top + k * fitted;
      for (const match of line.matchAll(/\S+/g)) {
        const box = { left: left + match.index * charWidth, top, width: match[0].length * charWidth, height: size };
        words.push({ text: match[0], box, origin: { kind: 'box', page: pageNumber, box }, field });
      }
    });
  }
  return words;
}

/** Characters that mean the text layer is not real text: replacement, control, private-use. */
const GARBAGE = /[\uFFFD\p{Cc}\p{Co}]/gu;

/**
 * The words of a usable text layer: words made only of garbage characters are dropped, and a layer
 * that is mostly garbage (fonts without a Unicode mapping) counts as no text at all.
 */
export function usableWords(words: Word[]): Word[] {
  let good = 0;
  let bad = 0;
  const kept: Word[] = [];
  for (const word of words) {
    const garbage = word.text.match(GARBAGE)?.length ?? 0;
    bad += garbage;
    good += word.text.length - garbage;
    if (garbage < word.text.length) kept.push(word);
  }
  return bad > good ? [] : kept;
}

// ---------------------------------------------------------------------------------------------------
// Vector graphics: ruling lines and image coverage

interface Graphics {
  rules: Rule[];
  /** Form filling only: light-shaded input boxes (./doc.ts Page.shaded). */
  shaded: Box[];
  /** Form filling only: small round outlines, radio buttons (./doc.ts Page.rings). */
  rings: Box[];
  /** Area of the page covered by images (summed, capped at the page's area). */
  imageArea: number;
  /** The images drawn from image objects (not stencil masks), where they land. */
  pictures: DrawnPicture[];
  /** Whether anything is painted at all (a path stroked or filled in a colour not white, an image, a shading, text): a page that paints nothing is blank. */
  paints: boolean;
}

/**
 * The path encoding of pdf.js 5.x (DrawOPS in pdf.worker.mjs, not exported): since 5.x every path
 * reaches the operator list as one `constructPath` op, args `[paintOp, [Float32Array | null], minMax]`,
 * the buffer holding opcodes each followed by its coordinates. `re` becomes moveTo + 3 lineTo +
 * closePath (or moveTo + lineTo + closePath for a zero-width or zero-height rectangle).
 */
const DRAW = { moveTo: 0, lineTo: 1, curveTo: 2, quadraticCurveTo: 3, closePath: 4 } as const;

const OPS = pdfjs.OPS;
const STROKES = new Set([OPS.stroke, OPS.closeStroke, OPS.fillStroke, OPS.eoFillStroke, OPS.closeFillStroke, OPS.closeEOFillStroke]);
const FILLS = new Set([OPS.fill, OPS.eoFill, OPS.fillStroke, OPS.eoFillStroke, OPS.closeFillStroke, OPS.closeEOFillStroke]);
const TEXT_OR_SHADING = new Set([OPS.showText, OPS.showSpacedText, OPS.nextLineShowText, OPS.nextLineSetSpacingShowText, OPS.shadingFill]);
const IMAGES = new Set(
  Object.entries(OPS)
    .filter(([name]) => /^paint.*Image/.test(name))
    .map(([, op]) => op),
);
/** A filled rectangle at most this thick (points) is a drawn line. */
const THIN = 2.5;
/** Shorter strokes are glyph-like marks, not rules. */
const MIN_RULE = 3;
const WHITE = '#ffffff';

interface GraphicsState {
  ctm: Matrix;
  stroke: string;
  fill: string;
}

function readGraphics(operatorList: { fnArray: number[]; argsArray: unknown[] }, toViewport: Matrix, forms = false): Graphics {
  const rules: Rule[] = [];
  const shaded: Box[] = [];
  const rings: Box[] = [];
  let imageArea = 0;
  const pictures: DrawnPicture[] = [];
  let paints = false;
  let state: GraphicsState = { ctm: [1, 0, 0, 1, 0, 0], stroke: '#000000', fill: '#000000' };
  const stack: GraphicsState[] = [];
  const { fnArray, argsArray } = operatorList;
  for (let i = 0; i < fnArray.length; i++) {
    const op = fnArray[i]!;
    const args = argsArray[i] as unknown[] | null;
    switch (op) {
      case OPS.save:
        stack.push(state);
        break;
      case OPS.restore:
        state = stack.pop() ?? state;
        break;
      case OPS.transform:
        state = { ...state, ctm: multiply(state.ctm, args as number[]) };
        break;
      case OPS.paintFormXObjectBegin: {
        stack.push(state);
        const matrix = args?.[0] as ArrayLike<number> | null | undefined;
        if (matrix && matrix.length === 6) state = { ...state, ctm: multiply(state.ctm, Array.from(matrix)) };
        break;
      }
      case OPS.paintFormXObjectEnd:
        state = stack.pop() ?? state;
        break;
      case OPS.setStrokeRGBColor:
        if (typeof args?.[0] === 'string') state = { ...state, stroke: args[0].toLowerCase() };
        break;
      case OPS.setFillRGBColor:
        if (typeof args?.[0] === 'string') state = { ...state, fill: args[0].toLowerCase() };
        break;
      case OPS.constructPath: {
        const paint = args?.[0] as number;
        const buffer = (args?.[1] as (ArrayLike<number> | null)[] | undefined)?.[0];
        if (!buffer) break;
        // What the path paints (white on the white page paints nothing).
        const stroked = STROKES.has(paint) && state.stroke !== WHITE;
        const filled = FILLS.has(paint) && state.fill !== WHITE;
        if (stroked || filled) paints = true;
        const toPage = multiply(toViewport, state.ctm);
        if (stroked) rules.push(...strokedRules(buffer, toPage));
        if (filled) rules.push(...filledRules(buffer, toPage));
        if (forms && filled) rules.push(...thinOutlineRules(buffer, toPage));
        if (forms && filled && !STROKES.has(paint) && isLight(state.fill)) shaded.push(...shadedBoxes(buffer, toPage));
        if (forms && stroked) rings.push(...ringBoxes(buffer, toPage));
        break;
      }
      default:
        if (TEXT_OR_SHADING.has(op)) paints = true;
        if (IMAGES.has(op)) {
          paints = true;
          // Images paint the unit square under the current transform.
          const box = boxThrough(state.ctm, UNIT_SQUARE);
          imageArea += box.width * box.height;
          const image = args?.[0];
          if ((op === OPS.paintImageXObject && typeof image === 'string') || (op === OPS.paintInlineImageXObject && isImageData(image))) {
            const unitToPage = multiply(toViewport, state.ctm);
            pictures.push({ image, unitToPage, box: boxThrough(unitToPage, UNIT_SQUARE) });
          }
        }
    }
  }
  return { rules, shaded, rings, imageArea, pictures, paints };
}

// ---------------------------------------------------------------------------------------------------
// Pictures that may hold text (read by the caller's readPictures: ./pictures.ts)

/** Which pictures are worth a look for text: big enough to hold a line of print, on the page and in pixels. */
export const PICTURE_SIZE = {
  /** Points each way on the page (a line of 9-point print). */
  minSidePoints: 12,
  /** Share of the page's area (a small logo: 0.5% is 1.2 × 0.6 inches on a Letter page). */
  minPageShare: 0.005,
  /** Pixels each way in the image. */
  minSidePixels: 16,
  /** A picture whose pixels are this share one grey level (±FLAT_LEVELS) is flat: it holds nothing. */
  flatShare: 0.995,
  /** How long an image's pixels are waited for once its page is drawn (ms). */
  waitMs: 10_000,
};
const FLAT_LEVELS = 8;

/** An image as pdf.js decodes it (ImageKind 1: 1 bit a pixel, rows padded to bytes, 1 white; 2: RGB; 3: RGBA). */
interface ImageData {
  width: number;
  height: number;
  kind: number;
  data: Uint8Array | Uint8ClampedArray;
}

/** An image drawn on a page: its object's id (or the inline image itself) and the unit square's place on the page. */
interface DrawnPicture {
  image: string | ImageData;
  unitToPage: Matrix;
  /** Where it lands, in points on the page. */
  box: Box;
}

function isImageData(value: unknown): value is ImageData {
  const image = value as Partial<ImageData> | null | undefined;
  return typeof image?.width === 'number' && typeof image.height === 'number' && typeof image.kind === 'number' && ArrayBuffer.isView(image.data);
}

function mayHoldText(picture: DrawnPicture, pageArea: number): boolean {
  const { width, height } = picture.box;
  return width >= PICTURE_SIZE.minSidePoints && height >= PICTURE_SIZE.minSidePoints && width * height >= PICTURE_SIZE.minPageShare * pageArea;
}

/** A drawn picture's pixels in grey and where they land, or undefined when too small, flat or not to be had. */
async function placedPicture(page: PDFPageProxy, picture: DrawnPicture): Promise<PlacedPicture | undefined> {
  const { image } = picture;
  const global = typeof image === 'string' && image.startsWith('g_');
  const data = typeof image === 'string' ? await imageObject(global ? page.commonObjs : page.objs, image) : image;
  if (!data || data.width < PICTURE_SIZE.minSidePixels || data.height < PICTURE_SIZE.minSidePixels) return undefined;
  const grey = greyOf(data);
  if (!grey || isFlat(grey)) return undefined;
  // Pixel (x, y), top row first, is (x / width, 1 − y / height) of the unit square the image fills.
  const toPage = multiply(picture.unitToPage, [1 / data.width, 0, 0, -1 / data.height, 0, 1]);
  const dpi = 72 / Math.max(1e-6, Math.hypot(toPage[0], toPage[1]));
  return { image: { width: data.width, height: data.height, data: grey, dpi }, toPage };
}

/** An image object's pixels once pdf.js has decoded them; undefined if they do not come (a broken image). */
function imageObject(objects: PDFPageProxy['objs'], id: string): Promise<ImageData | undefined> {
  return new Promise((resolve) => {
    const timer = setTimeout(() => resolve(undefined), PICTURE_SIZE.waitMs);
    objects.get(id, (value: unknown) => {
      clearTimeout(timer);
      resolve(isImageData(value) ? value : undefined);
    });
  });
}

function greyOf({ width, height, kind, data }: ImageData): Uint8Array | undefined {
  const pixels = width * height;
  if (kind === 3 && data.length >= pixels * 4) return rgbaToGrey(data, width, height);
  if (kind === 2 && data.length >= pixels * 3) return rgbToGrey(data, width, height);
  const rowBytes = (width + 7) >> 3;
  if (kind === 1 && data.length >= rowBytes * height) {
    const grey = new Uint8Array(pixels);
    for (let y = 0; y < height; y++) for (let x = 0; x < width; x++) grey[y * width + x] = (data[y * rowBytes + (x >> 3)]! >> (7 - (x & 7))) & 1 ? 255 : 0;
    return grey;
  }
  return undefined;
}

function isFlat(grey: Uint8Array): boolean {
  const counts = new Uint32Array(256);
  for (const level of grey) counts[level]!++;
  let mode = 0;
  for (let level = 1; level < 256; level++) if (counts[level]! > counts[mode]!) mode = level;
  let near = 0;
  for (let level = Math.max(0, mode - FLAT_LEVELS); level <= Math.min(255, mode + FLAT_LEVELS); level++) near += counts[level]!;
  return near >= PICTURE_SIZE.flatShare * grey.length;
}

/** Subpaths of a path buffer as point lists (curves end a straight run: their points are dropped). */
function subpaths(buffer: ArrayLike<number>, toPage: Matrix): { points: [number, number][]; closed: boolean; curved: boolean }[] {
  const paths: { points: [number, number][]; closed: boolean; curved: boolean }[] = [];
  let current: { points: [number, number][]; closed: boolean; curved: boolean } | undefined;
  for (let k = 0; k < buffer.length; ) {
    switch (buffer[k++]) {
      case DRAW.moveTo:
        current = { points: [apply(toPage, buffer[k]!, buffer[k + 1]!)], closed: false, curved: false };
        paths.push(current);
        k += 2;
        break;
      case DRAW.lineTo:
        current?.points.push(apply(toPage, buffer[k]!, buffer[k + 1]!));
        k += 2;
        break;
      case DRAW.curveTo:
        if (current) current.curved = true;
        k += 6;
        break;
      case DRAW.quadraticCurveTo:
        if (current) current.curved = true;
        k += 4;
        break;
      case DRAW.closePath:
        if (current) current.closed = true;
        break;
      default:
        // An unknown opcode: the encoding changed; stop rather than misread coordinates.
        return paths;
    }
  }
  return paths;
}

/** Axis-aligned straight segments of a stroked path, as rules. */
function strokedRules(buffer: ArrayLike<number>, toPage: Matrix): Rule[] {
  const rules: Rule[] = [];
  for (const path of subpaths(buffer, toPage)) {
    if (path.curved) continue;
    const points = path.closed ? [...path.points, path.points[0]!] : path.points;
    for (let k = 1; k < points.length; k++) {
      const rule = axisAligned(points[k - 1]!, points[k]!);
      if (rule) rules.push(rule);
    }
  }
  return rules;
}

function axisAligned([x1, y1]: [number, number], [x2, y2]: [number, number]): Rule | undefined {
  const dx = Math.abs(x2 - x1);
  const dy = Math.abs(y2 - y1);
  if (dx >= MIN_RULE && dy <= Math.max(0.5, 0.02 * dx)) return { x1: Math.min(x1, x2), y1: (y1 + y2) / 2, x2: Math.max(x1, x2), y2: (y1 + y2) / 2 };
  if (dy >= MIN_RULE && dx <= Math.max(0.5, 0.02 * dy)) return { x1: (x1 + x2) / 2, y1: Math.min(y1, y2), x2: (x1 + x2) / 2, y2: Math.max(y1, y2) };
  return undefined;
}

/** A subpath that is an axis-aligned rectangle (every corner on its bounding box's edges), as that box. */
function rectangleOf(path: { points: [number, number][]; curved: boolean }): Box | undefined {
  if (path.curved || path.points.length < 4 || path.points.length > 5) return undefined;
  const box = boundingBox(path.points);
  const onEdges = path.points.every(
    ([x, y]) => (Math.abs(x - box.left) < 0.01 || Math.abs(x - box.left - box.width) < 0.01) && (Math.abs(y - box.top) < 0.01 || Math.abs(y - box.top - box.height) < 0.01),
  );
  return onEdges ? box : undefined;
}

/** Thin filled rectangles (how many producers draw table borders), as rules along their middle. */
function filledRules(buffer: ArrayLike<number>, toPage: Matrix): Rule[] {
  const rules: Rule[] = [];
  for (const path of subpaths(buffer, toPage)) {
    const box = rectangleOf(path);
    if (!box) continue;
    if (box.height <= THIN && box.width >= Math.max(MIN_RULE, 3 * box.height)) {
      const y = box.top + box.height / 2;
      rules.push({ x1: box.left, y1: y, x2: box.left + box.width, y2: y });
    } else if (box.width <= THIN && box.height >= Math.max(MIN_RULE, 3 * box.width)) {
      const x = box.left + box.width / 2;
      rules.push({ x1: x, y1: box.top, x2: x, y2: box.top + box.height });
    }
  }
  return rules;
}

/**
 * Form filling only: the edges of a thin filled outline that is not a rectangle — an L-shaped border
 * half, as form designers draw a field's bevelled frame — as rules. Thin: its area is small for its
 * perimeter (under THIN / 2 on average across it).
 */
function thinOutlineRules(buffer: ArrayLike<number>, toPage: Matrix): Rule[] {
  const rules: Rule[] = [];
  for (const path of subpaths(buffer, toPage)) {
    const points = path.points;
    if (path.curved || points.length < 6) continue;
    let area = 0;
    let perimeter = 0;
    const edges: Rule[] = [];
    for (let i = 0; i < points.length; i++) {
      const [x1, y1] = points[i]!;
      const [x2, y2] = points[(i + 1) % points.length]!;
      area += x1 * y2 - x2 * y1;
      perimeter += Math.hypot(x2 - x1, y2 - y1);
      if (Math.abs(y1 - y2) < 0.01 && Math.abs(x2 - x1) >= MIN_RULE) edges.push({ x1: Math.min(x1, x2), y1, x2: Math.max(x1, x2), y2: y1 });
      else if (Math.abs(x1 - x2) < 0.01 && Math.abs(y2 - y1) >= MIN_RULE) edges.push({ x1, y1: Math.min(y1, y2), x2: x1, y2: Math.max(y1, y2) });
    }
    if (perimeter > 0 && Math.abs(area) / 2 <= (THIN / 2) * (perimeter / 2)) rules.push(...edges);
  }
  return rules;
}

/** A ring is at most this wide (points): a radio button, not a drawn circle or a rounded frame. */
const RING_MAX = 22;
const RING_MIN = 5;

/**
 * Form filling only: stroked closed curves the size of a tick box and about as wide as tall — the
 * round outline a form prints for a radio button ("○"), which has no straight edge to be a rule.
 * Bounded by every point of the curve, control points included (a circle's lie on its bounding square).
 */
function ringBoxes(buffer: ArrayLike<number>, toPage: Matrix): Box[] {
  const boxes: Box[] = [];
  let points: [number, number][] = [];
  let curved = false;
  const close = () => {
    if (curved && points.length >= 4) {
      const box = boundingBox(points);
      const [x0, y0] = points[0]!;
      const [x1, y1] = points.at(-1)!;
      const shut = Math.hypot(x1 - x0, y1 - y0) <= 0.15 * Math.max(box.width, box.height);
      const size = Math.max(box.width, box.height);
      if (shut && size >= RING_MIN && size <= RING_MAX && Math.abs(box.width - box.height) <= 0.2 * size) boxes.push(box);
    }
    points = [];
    curved = false;
  };
  for (let k = 0; k < buffer.length; ) {
    const op = buffer[k++];
    if (op === DRAW.moveTo) {
      close();
      points.push(apply(toPage, buffer[k]!, buffer[k + 1]!));
      k += 2;
    } else if (op === DRAW.lineTo) {
      points.push(apply(toPage, buffer[k]!, buffer[k + 1]!));
      k += 2;
    } else if (op === DRAW.curveTo) {
      for (let j = 0; j < 6; j += 2) points.push(apply(toPage, buffer[k + j]!, buffer[k + j + 1]!));
      curved = true;
      k += 6;
    } else if (op === DRAW.quadraticCurveTo) {
      for (let j = 0; j < 4; j += 2) points.push(apply(toPage, buffer[k + j]!, buffer[k + j + 1]!));
      curved = true;
      k += 4;
    } else if (op === DRAW.closePath) {
      if (points.length > 0) points.push(points[0]!);
    } else {
      return boxes;
    }
  }
  close();
  return boxes;
}

/** Light-shaded rectangles the size of an input box or a tick box: where many forms mark a field. */
function shadedBoxes(buffer: ArrayLike<number>, toPage: Matrix): Box[] {
  const boxes: Box[] = [];
  for (const path of subpaths(buffer, toPage)) {
    const box = rectangleOf(path);
    if (box && box.width >= 6 && box.height >= 6 && box.height <= 60) boxes.push(box);
  }
  return boxes;
}

/** A light fill ("#dde6f2", a pale yellow): the shading of an input box, not ink. */
function isLight(hex: string): boolean {
  const n = Number.parseInt(hex.slice(1), 16);
  if (!/^#[0-9a-f]{6}$/.test(hex) || Number.isNaN(n)) return false;
  const [r, g, b] = [(n >> 16) & 255, (n >> 8) & 255, n & 255];
  return 0.299 * r + 0.587 * g + 0.114 * b >= 170;
}
