/**
 * Tables on real corpus pages (issue: parsing real documents, item 5), against the hand-written truth
 * of `test/corpus-truth/tables/` (scoring: test/support/table-score.ts). Three readings of each page:
 *  - reader: `readDocument` and the Doc page's tables (cells at their grid positions, header rows);
 *  - markdown: the page rendered as a parse renders it (`renderPage`, `table_parsing_format: markdown`),
 *    its pipe tables read back; `TABLES_REAL_API=1` sends the documents through the API on a local
 *    stack instead (POST /v1/parses), which renders with the same function;
 *  - pdftotext: `pdftotext -layout` of the page, lines split at runs of two spaces, as one table: only
 *    cell placement is measured for it (it finds no tables and marks no header).
 *
 * `npm run bench -- tables-real`
 */
import { execFileSync } from 'node:child_process';
import { join } from 'node:path';
import type { Page } from '../../functions/documents/doc.ts';
import { dataTables, tableRows } from '../../functions/documents/doc.ts';
import { renderPage } from '../../functions/documents/render.ts';
import { CORPUS_DIR, corpusBytes, FOLDS, type Fold } from '../support/corpus.ts';
import { readCorpusPdf } from '../support/table-score.ts';
import {
  addScores,
  EMPTY_SCORE,
  layoutTextAsTable,
  markdownTables,
  pageFold,
  type RenderedTable,
  scoreTablePage,
  type TablePageTruth,
  type TableScore,
  tableTruths,
} from '../support/table-score.ts';

export interface TablesRealResult {
  reader: TableScore;
  /** The reader's score by the fold of each page's source (test/corpus-truth/folds.json via the manifest). */
  readerByFold: Record<Fold, TableScore>;
  /** The reader's score on the first 9 pages (written 2026-11-26, all tuned on): the figure reported before. */
  readerFirstNine: TableScore;
  pagesByFold: Record<Fold, number>;
  markdown: TableScore;
  pdftotext: TableScore;
  /** Markdown tables printed with a placeholder header (A, B, C …). */
  invented: number;
}

function readerTables(page: Page): RenderedTable[] {
  return dataTables(page).map((table) => ({ rows: tableRows(table), headerRows: table.headerRows }));
}

function layoutText(truth: TablePageTruth): string {
  return execFileSync('pdftotext', ['-layout', '-f', String(truth.page), '-l', String(truth.page), join(CORPUS_DIR, truth.path), '-'], {
    encoding: 'utf8',
    stdio: ['ignore', 'pipe', 'ignore'],
  });
}

/** Each document's pages as the API renders them (markdown tables), through a local stack. */
async function apiPages(paths: string[]): Promise<Map<string, string[]>> {
  const { withLocalStack } = await import('./stack.ts');
  return withLocalStack(async (stack) => {
    const pages = new Map<string, string[]>();
    for (const path of paths) {
      const url = `data:application/pdf;base64,${Buffer.from(corpusBytes(path)).toString('base64')}`;
      const body = { document: { filename: path.split('/').pop(), url }, table_parsing_format: 'markdown' };
      const response = await fetch(`${stack.base}/v1/parses`, { method: 'POST', headers: stack.headers, body: JSON.stringify(body) });
      const parse = (await response.json()) as { status: string; output?: { pages: string[] } };
      if (parse.status !== 'completed' || !parse.output) throw new Error(`parse of ${path}: ${parse.status}`);
      pages.set(path, parse.output.pages);
    }
    return pages;
  });
}

export async function tablesReal(options: { api?: boolean; print?: boolean } = {}): Promise<TablesRealResult> {
  const truths = tableTruths();
  const api = options.api ? await apiPages([...new Set(truths.map((t) => t.path))]) : undefined;
  const result: TablesRealResult = {
    reader: EMPTY_SCORE,
    readerByFold: { tuned: EMPTY_SCORE, dev: EMPTY_SCORE, holdout: EMPTY_SCORE },
    readerFirstNine: EMPTY_SCORE,
    pagesByFold: { tuned: 0, dev: 0, holdout: 0 },
    markdown: EMPTY_SCORE,
    pdftotext: EMPTY_SCORE,
    invented: 0,
  };
  const show = (score: TableScore, layout = false) =>
    layout
      ? `cells ${score.placedCells}/${score.trueCells}`
      : `found ${score.found}/${score.trueTables} spurious ${score.spurious} cells ${score.placedCells}/${score.trueCells} headers ${score.headersRight}/${score.found}`;
  for (const truth of truths) {
    const doc = await readCorpusPdf(truth.path);
    const page = doc.pages.find((p) => p.number === truth.page);
    if (!page) throw new Error(`${truth.path}: no page ${truth.page}`);
    const reader = scoreTablePage(truth, readerTables(page));
    const markdownText = api ? api.get(truth.path)![truth.page - 1]! : renderPage(page, 'markdown');
    const printed = markdownTables(markdownText);
    const markdown = scoreTablePage(truth, printed);
    const layout = scoreTablePage(truth, [layoutTextAsTable(layoutText(truth))]);
    result.reader = addScores(result.reader, reader);
    const fold = pageFold(truth);
    result.readerByFold[fold] = addScores(result.readerByFold[fold], reader);
    result.pagesByFold[fold]++;
    if (FIRST_NINE.has(truth.file)) result.readerFirstNine = addScores(result.readerFirstNine, reader);
    result.markdown = addScores(result.markdown, markdown);
    result.pdftotext = addScores(result.pdftotext, layout);
    result.invented += printed.filter((table) => table.invented).length;
    if (options.print) {
      console.log(`${truth.path} p${truth.page} [${fold}]`);
      console.log(`  reader    ${show(reader)}`);
      console.log(`  markdown  ${show(markdown)}${printed.some((t) => t.invented) ? ` (${printed.filter((t) => t.invented).length} placeholder headers)` : ''}`);
      console.log(`  pdftotext ${show(layout, true)}`);
    }
  }
  return result;
}

/** The truth files of the first measurement (9 pages, all tuned on): kept apart so that figure stays reproducible. */
const FIRST_NINE = new Set([
  'americas-ai-action-plan-p3.json',
  'etf-facts-p3.json',
  'medical-bill-sample4-p1.json',
  'npdes-permit-sample2-p2.json',
  'npdes-permit-sample2-p4.json',
  'nvidia-pr-q1-2026-p4.json',
  'nvidia-pr-q1-2026-p5.json',
  'warranty-booklet-sample1-p1.json',
  'warranty-booklet-sample3-p6.json',
]);

const percent = (part: number, whole: number) => (whole === 0 ? '-' : `${((100 * part) / whole).toFixed(1)}%`);
/** Spurious tables per 10 tables output (found ones plus spurious ones; a found table's extra pieces are not counted). */
export const perTen = (score: TableScore) => (score.found + score.spurious === 0 ? '-' : ((10 * score.spurious) / (score.found + score.spurious)).toFixed(1));

export async function benchTablesReal(): Promise<void> {
  const api = process.env.TABLES_REAL_API === '1';
  const result = await tablesReal({ api, print: true });
  console.log(`\ntables on ${tableTruths().length} real pages (markdown ${api ? 'through the API' : 'via renderPage'}):`);
  for (const [name, score] of [
    ['reader', result.reader],
    ['markdown', result.markdown],
  ] as const) {
    console.log(
      `  ${name.padEnd(9)} tables found ${score.found}/${score.trueTables}, spurious ${score.spurious}, cells placed ${percent(score.placedCells, score.trueCells)} (${score.placedCells}/${score.trueCells}), headers right ${score.headersRight}/${score.found}`,
    );
  }
  console.log(`  markdown placeholder headers (| A | B | …): ${result.invented}`);
  console.log('\nreader by fold of the source (spurious per 10 = spurious tables per 10 tables the reader output):');
  const row = (name: string, pages: number, score: TableScore) =>
    console.log(
      `  ${name.padEnd(16)} pages ${String(pages).padStart(2)}  cells placed ${percent(score.placedCells, score.trueCells).padStart(6)} (${score.placedCells}/${score.trueCells})  tables found ${score.found}/${score.trueTables}  spurious ${score.spurious}/${score.found + score.spurious} (${perTen(score)} per 10)  headers right ${score.headersRight}/${score.found}`,
    );
  for (const fold of FOLDS) row(fold, result.pagesByFold[fold], result.readerByFold[fold]);
  row('first 9 (tuned)', FIRST_NINE.size, result.readerFirstNine);
  console.log(`  pdftotext -layout (lines split at 2+ spaces): cells placed ${percent(result.pdftotext.placedCells, result.pdftotext.trueCells)}`);
}
