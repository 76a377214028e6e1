/**
 * The document of a run, read in its task: the stored bytes (passed between states as a key, never
 * as bytes) into the Doc model. A reader's failure becomes the run's PrimitiveError.
 */
import { ReadFailure, type Doc } from '../documents/doc.ts';
import { hasPageImages, renderPageImages } from '../documents/page-images.ts';
import type { PageReading } from '../documents/pdf.ts';
import { readDocument } from '../documents/read.ts';
import { logger } from '../platform/logger.ts';
import type { DocumentKind } from '../documents/sniff.ts';
import { recordPageCount } from '../files/service.ts';
import type { PageImages } from '../models/engine.ts';
import { RunFailure } from '../platform/errors.ts';
import type { RunContext, RunProgress } from './kinds.ts';

/** What a run that reads one document keeps in its `_input`. */
export interface DocumentInputRef {
  blobKey: string;
  kind: DocumentKind;
  /**
   * The File this document was given as, when it lacks the page count an upload would have (a PDF,
   * XLSX or PPTX the request sent inline; files/service.ts pagesToCount): the run records the pages
   * it reads on it.
   */
  countPagesOf?: string;
  /** The document's page count when its File knows it (a PDF, XLSX or PPTX counted on upload); absent or null otherwise. */
  pageCount?: number | null;
}

/** The resolution pages are rendered at when a run does not say (API §3 image_resolution_dpi's default). */
export const DEFAULT_DPI = 192;

/** How often a run's read asks whether the run is still wanted (a store read each time). */
const STILL_WANTED_EVERY_MS = 1_000;

/**
 * `secondReading`: OCRed pages read twice, for the built-in engine's extraction (ReadOptions).
 * A run cancelled or deleted while its document is read stops reading at the next page (a long
 * scan would otherwise hold its task container for minutes): the run's end is then not written.
 */
export async function readRunDocument(ctx: RunContext, input: DocumentInputRef, dpi = DEFAULT_DPI, options: { secondReading?: boolean } = {}): Promise<Doc> {
  const doc = await readRunBytes(ctx, input, (bytes, watch) => readDocument(bytes, { ...watch, kind: input.kind, dpi, secondReading: options.secondReading }));
  // Pages as a parse counts them: what POST /v1/files records for the same document.
  if (input.countPagesOf) await recordPageCount(ctx.platform, ctx.scope, input.countPagesOf, doc.pages.length);
  return doc;
}

/** What a read of a run's document is told: its time budget, when to stop, and where to report the pages read. */
export interface RunReadWatch {
  deadline: number;
  signal: AbortSignal;
  progress(pagesDone: number, pagesTotal: number): void;
  /** Each page's read time, summed by how it was read and logged once the read ends (the slowest pages named). */
  pageRead(pageNumber: number, ms: number, how: PageReading): void;
}

/** The slowest pages a read's log line names. */
const SLOWEST_PAGES_LOGGED = 5;

/** One log line for a read: pages and time by how they were read (text layer, pictures' text, OCR of a scan), the slowest pages. */
function logPageTimes(ctx: RunContext, times: Array<{ page: number; ms: number; how: PageReading }>): void {
  if (times.length === 0) return;
  const byReading: Record<string, { pages: number; ms: number }> = {};
  for (const { ms, how } of times) {
    const sum = (byReading[how] ??= { pages: 0, ms: 0 });
    sum.pages++;
    sum.ms += Math.round(ms);
  }
  const slowest = [...times].sort((a, b) => b.ms - a.ms).slice(0, SLOWEST_PAGES_LOGGED).map((t) => ({ ...t, ms: Math.round(t.ms) }));
  logger.info('Document read', { run: ctx.runId, pages: times.length, by_reading: byReading, slowest_pages: slowest });
}

/**
 * Reads the run's stored document with `read` (readRunDocument; a range of a long PDF's pages,
 * functions/parses/ranges.ts), watched as readRunDocument says: stopped once the run is no longer
 * wanted, its progress shown in the run's record; a reader's failure becomes the run's error.
 */
export async function readRunBytes<T>(ctx: RunContext, input: DocumentInputRef, read: (bytes: Uint8Array, watch: RunReadWatch) => Promise<T>): Promise<T> {
  const bytes = await ctx.platform.blobs.get(input.blobKey);
  if (!bytes) throw new RunFailure('document_invalid', 'The stored document is missing');
  const unwanted = new AbortController();
  // Pages read so far, shown in the run's record at each look (a long read shows how far it is; a
  // short one, over before the first look, writes nothing).
  let progress: RunProgress | undefined;
  const times: Array<{ page: number; ms: number; how: PageReading }> = [];
  let shown = 0;
  const watch = setInterval(() => {
    ctx.stillWanted().then(
      (wanted) => wanted || unwanted.abort(new RunFailure('internal', 'The run was cancelled or deleted while its document was read')),
      () => undefined, // a failed look is no answer: the next one asks again
    );
    const now = progress;
    if (now && now.pages_done !== shown && ctx.reportProgress) {
      ctx.reportProgress(now).then(
        () => (shown = Math.max(shown, now.pages_done)),
        () => undefined, // the next look shows it again
      );
    }
  }, STILL_WANTED_EVERY_MS);
  try {
    const result = await read(bytes, {
      deadline: ctx.deadline,
      signal: unwanted.signal,
      progress: (pagesDone, pagesTotal) => (progress = { pages_done: pagesDone, pages_total: pagesTotal }),
      pageRead: (page, ms, how) => times.push({ page, ms, how }),
    });
    logPageTimes(ctx, times);
    return result;
  } catch (error) {
    if (error instanceof ReadFailure) throw new RunFailure(error.code, error.message);
    throw error;
  } finally {
    clearInterval(watch);
  }
}

/**
 * The run document's pages as images, rendered on demand at `dpi` (for vision models; API §3
 * image_resolution_dpi), or undefined when documents of its kind have none.
 */
export function runPageImages(ctx: RunContext, input: DocumentInputRef, dpi = DEFAULT_DPI): PageImages | undefined {
  if (!hasPageImages(input.kind)) return undefined;
  return {
    async render(pages) {
      const bytes = await ctx.platform.blobs.get(input.blobKey);
      if (!bytes) throw new RunFailure('document_invalid', 'The stored document is missing');
      try {
        return await renderPageImages(bytes, input.kind, pages, dpi);
      } catch (error) {
        if (error instanceof ReadFailure) throw new RunFailure(error.code, error.message);
        throw error;
      }
    },
  };
}
