/**
 * A long PDF's parse fans out (issue 44 item 3): past FAN_OUT.minPages pages, the run machine reads
 * its pages in ranges of FAN_OUT.rangePages, each in a task of its own (on AWS a Lambda each, at
 * most FAN_OUT.concurrency at once: statemachines/run.asl.json's Ranges map), and merges them in page
 * order into the one run record (functions/runs/task.ts).
 *
 * The merged output is the one the whole read gives. What needs every page is decided in the merge:
 * running heads and feet (a line on 60% of the pages is dropped; documents/layout.ts) from each page's
 * running keys, pages out of reach of a damaged page tree, a document none of whose pages reads. So
 * a range does not send its pages back whole (~100 KB a page as JSON: parsing 561 of them again
 * took ~2 s), only what the merge needs of them: each block rendered on its own with its running key
 * (documents/render.ts joinBlocks puts a page together as renderPage does), and the pages the
 * dashboard's layout shows (the first LAYOUT_PAGES) whole.
 *
 * Only the built-in engine's parse fans out: a provider's parse reads the document whole.
 */
import { failedPages, type Block, type Page } from '../documents/doc.ts';
import { pdfPagesOutOfReach, unreadableDocument } from '../documents/pdf.ts';
import { probePdf } from '../documents/pdf-probe.ts';
import { dropRunningBlocks, repeatedRunningKeys } from '../documents/layout.ts';
import { readPdfRange } from '../documents/read.ts';
import { joinBlocks, renderBlocks, renderDocText, type TableFormat } from '../documents/render.ts';
import { recordPageCount } from '../files/service.ts';
import { runsBuiltIn } from '../models/engines.ts';
import { creditsFor } from '../models/registry.ts';
import { RunFailure } from '../platform/errors.ts';
import { readRunBytes, type DocumentInputRef } from '../runs/document.ts';
import type { FanOut, PageRange, RunContext, RunResult, RunTask } from '../runs/kinds.ts';
import { LAYOUT_PAGES, layoutOf } from './layout.ts';
import type { ParseOutput } from './schema.ts';

/**
 * The fan-out's settings, in one place. `minPages` and `rangePages` may be set by environment
 * (QUIRE_PARSE_FAN_OUT_PAGES, QUIRE_PARSE_RANGE_PAGES: tests lower them to fan short documents out);
 * `concurrency` by QUIRE_PARSE_CONCURRENCY, which the local cloud sets to its task containers.
 */
export function fanOutSettings(env: NodeJS.ProcessEnv = process.env): { minPages: number; rangePages: number; fixedRanges: boolean; concurrency: number } {
  const rangePages = positive(env.QUIRE_PARSE_RANGE_PAGES);
  return {
    /** A PDF of more pages than this fans out. */
    minPages: positive(env.QUIRE_PARSE_FAN_OUT_PAGES) ?? 200,
    /**
     * Pages per range: one task's share, at least; with fewer tasks at once than ranges, ranges are
     * longer, so that they make one wave (each range opens the file again, a cost more ranges than
     * tasks only add).
     */
    rangePages: rangePages ?? 100,
    /** Whether `rangePages` was set, and holds whatever the concurrency. */
    fixedRanges: rangePages !== undefined,
    /**
     * Ranges read at once (the Map's MaxConcurrency). On AWS each is a Lambda of its own: 2,000
     * pages (MAX_PAGES) are 20 ranges, all at once. Locally the task containers (one per core).
     */
    concurrency: positive(env.QUIRE_PARSE_CONCURRENCY) ?? 40,
  };
}

function positive(value: string | undefined): number | undefined {
  const n = Number(value);
  return value !== undefined && Number.isInteger(n) && n > 0 ? n : undefined;
}

/** One page as a range sends it to the merge. */
interface PartPage {
  number: number;
  /** Whether the page has any block before running heads are dropped (the 60% counts pages with text). */
  hasText: boolean;
  /** Each block rendered, with its running key when it may be a running head or foot. */
  blocks: Array<{ kind: Block['kind']; text: string; key?: string }>;
  failure?: string;
}

/** What one range stores for the merge. */
interface Part {
  pages: PartPage[];
  /** Its pages among the first LAYOUT_PAGES, whole, with their blocks' running keys (for the layout after the drop). */
  layoutPages: Array<{ page: Page; keys: Array<string | undefined> }>;
}

type ParseInput = DocumentInputRef;

/** The ranges of a parse that fans out, or undefined for one read whole. */
async function plan(ctx: RunContext): Promise<FanOut | undefined> {
  const input = ctx.record._input as ParseInput;
  if (input.kind !== 'pdf' || !runsBuiltIn(ctx.record.model as string)) return undefined;
  const settings = fanOutSettings();
  const pages = input.pageCount ?? (await countPages(ctx, input));
  if (pages === null || pages <= settings.minPages) return undefined;
  return { ranges: pageRanges(pages, settings), concurrency: settings.concurrency, pagesTotal: pages };
}

/** A document's pages cut into ranges (fanOutSettings): `rangePages` each, longer when more ranges than `concurrency` would be. */
export function pageRanges(pages: number, settings: ReturnType<typeof fanOutSettings>): PageRange[] {
  const size = settings.fixedRanges ? settings.rangePages : Math.max(settings.rangePages, Math.ceil(pages / settings.concurrency));
  const ranges: PageRange[] = [];
  for (let first = 1, index = 0; first <= pages; first += size, index++) {
    ranges.push({ index, first, last: Math.min(pages, first + size - 1) });
  }
  return ranges;
}

/** A PDF's page count from its page tree (documents/pdf-probe.ts), null when it cannot tell: the document is then read whole. */
async function countPages(ctx: RunContext, input: ParseInput): Promise<number | null> {
  const bytes = await ctx.platform.blobs.get(input.blobKey);
  if (!bytes) return null;
  try {
    return probePdf(bytes).pageCount;
  } catch {
    return null; // the whole read gives the document's own error
  }
}

async function range(ctx: RunContext, pages: PageRange): Promise<Part> {
  const input = ctx.record._input as ParseInput;
  const format = ctx.record.table_parsing_format as TableFormat;
  const read = await readRunBytes(ctx, input, (bytes, watch) => readPdfRange(bytes, { ...watch, dpi: ctx.record.image_resolution_dpi as number, pages: { first: pages.first, last: pages.last } }));
  return {
    pages: read.map(({ page, runningKeys }) => ({
      number: page.number,
      hasText: page.blocks.length > 0,
      blocks: renderBlocks(page, format).map((block, b) => (runningKeys[b] === undefined ? block : { ...block, key: runningKeys[b] })),
      ...(page.failure !== undefined ? { failure: page.failure } : {}),
    })),
    layoutPages: read.filter(({ page }) => page.number <= LAYOUT_PAGES).map(({ page, runningKeys }) => ({ page, keys: runningKeys })),
  };
}

async function merge(ctx: RunContext, stored: unknown[]): Promise<RunResult> {
  const input = ctx.record._input as ParseInput;
  const parts = stored as Part[];
  const pages = parts.flatMap((part) => part.pages);
  // Pages a damaged page tree hides from pdf.js (as the whole read lists them: only once a page failed).
  if (pages.some((page) => page.failure !== undefined)) {
    const bytes = await ctx.platform.blobs.get(input.blobKey);
    if (bytes) for (const page of pdfPagesOutOfReach(bytes, pages.length)) pages.push({ number: page.number, hasText: false, blocks: [], failure: page.failure! });
  }
  const unreadable = unreadableDocument(pages);
  if (unreadable) throw new RunFailure(unreadable.code, unreadable.message);
  const repeated = repeatedRunningKeys(pages.map((page) => ({ hasText: page.hasText, keys: page.blocks.map((block) => block.key) })));
  const texts = pages.map((page) => joinBlocks(page.blocks.filter((block) => block.key === undefined || !repeated.has(block.key))));
  const output: ParseOutput = { pages: texts, text: renderDocText(texts) };
  const layout = layoutOf({ kind: 'pdf', pages: parts.flatMap((part) => part.layoutPages).map(({ page, keys }) => dropRunningBlocks(page, keys, repeated)) });
  const failed = failedPages({ kind: 'pdf', pages: pages as unknown as Page[] });
  if (input.countPagesOf) await recordPageCount(ctx.platform, ctx.scope, input.countPagesOf, pages.length);
  return {
    output,
    usage: { credits: creditsFor(ctx.record.model as string, texts.length), page_count: texts.length },
    ...(layout.length > 0 ? { apart: { layout } } : {}),
    ...(failed.length > 0 ? { extras: { failed_pages: failed } } : {}),
  };
}

/** The parse task's ranges (RunTask `ranges`). */
export const parseRanges: NonNullable<RunTask['ranges']> = { plan, range, merge };
