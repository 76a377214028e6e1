/**
 * What a parse keeps of the Doc for people to look at (the dashboard's run page boxes a parse's
 * words and tables on its pages): each page's words and tables with their boxes in fractions of the
 * page. Computed in the task, where the Doc is at hand, and stored as an object of its own beside the
 * output (the parse kind keeps `layout` apart, ../runs/kinds.ts): never on the wire, never read with
 * the output (up to ~14 KB a page), copied by the result cache and deleted with the parse. Only pages
 * with coordinates (PDFs, images, slides) have any, and only the first LAYOUT_PAGES: the dashboard
 * draws no more.
 */
import { type Box, dataTables, type Doc } from '../documents/doc.ts';
import type { Platform } from '../platform/platform.ts';
import type { Scope } from '../platform/ports.ts';
import { readApartResult, readCompletedRun } from '../runs/service.ts';
import { parseKind } from './kind.ts';

export const LAYOUT_PAGES = 50;

/** [left, top, width, height] in fractions of the page (4 decimals). */
export type FractionBox = [number, number, number, number];

export interface PageLayout {
  page: number;
  /** Each word's text and box, in reading order of the page's words. */
  words: Array<[text: string, box: FractionBox]>;
  /** Each table's box and its cells' boxes (row and column 0-based). */
  tables: Array<{ box: FractionBox | null; cells: Array<{ row: number; column: number; box: FractionBox }> }>;
}

const round = (n: number) => Math.round(n * 10_000) / 10_000;

export function layoutOf(doc: Doc): PageLayout[] {
  const layout: PageLayout[] = [];
  for (const page of doc.pages.slice(0, LAYOUT_PAGES)) {
    if (page.unit === 'none' || !(page.width > 0) || !(page.height > 0)) continue;
    const fraction = (box: Box): FractionBox => [round(box.left / page.width), round(box.top / page.height), round(box.width / page.width), round(box.height / page.height)];
    layout.push({
      page: page.number,
      words: page.words.flatMap((word) => (word.box ? [[word.text, fraction(word.box)] as [string, FractionBox]] : [])),
      tables: dataTables(page).map((table) => ({
        box: table.box ? fraction(table.box) : null,
        cells: table.cells.flatMap((cell) => (cell.box ? [{ row: cell.row, column: cell.column, box: fraction(cell.box) }] : [])),
      })),
    });
  }
  return layout;
}

/**
 * The layout kept for a completed parse; empty for a document without coordinates and for parses made
 * before any was kept. Parses stored before the layout had an object of its own kept it in their
 * output's hidden data: read from there.
 */
export async function parseLayout(p: Platform, scope: Scope, id: string): Promise<PageLayout[]> {
  const notCompleted = (status: string) => `Parse ${id} has no output (status: ${status})`;
  const { value } = await readApartResult(p, scope, parseKind, id, 'layout', notCompleted);
  if (value !== undefined) return value as PageLayout[];
  const { stored } = await readCompletedRun(p, scope, parseKind, id, notCompleted);
  return (stored.hidden?.layout as PageLayout[] | undefined) ?? [];
}
