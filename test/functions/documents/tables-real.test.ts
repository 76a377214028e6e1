/**
 * Tables on real corpus pages against the hand-read truth of test/corpus-truth/tables (scoring:
 * test/support/table-score.ts; the whole set: `npm run bench -- tables-real`). A small fixed subset with
 * floors: a price list ruled between rows with wrapped plan names, a financial statement ruled between
 * sections, a bill's item table, and a table of contents with dot leaders that must stay text.
 */
import { describe, expect, it } from 'vitest';
import { tableRows } from '../../../functions/documents/doc.ts';
import { renderPage } from '../../../functions/documents/render.ts';
import { corpusAvailable } from '../../support/corpus.ts';
import { addScores, EMPTY_SCORE, markdownTables, readCorpusPdf, scoreTablePage, tableTruths } from '../../support/table-score.ts';

const SUBSET = ['warranty_booklet_sample1.pdf', 'NVIDIA-PR-Q1-2026.pdf', 'medical_bill_sample4.pdf', 'npdes_permit_sample2.pdf'];

describe.skipIf(!corpusAvailable())('tables on real corpus pages', () => {
  it('finds every true table, no spurious one, places ≥ 95% of true cells, prints no invented header', async () => {
    const truths = tableTruths().filter((truth) => SUBSET.some((name) => truth.path.endsWith(`/${name}`)));
    expect(truths.length).toBeGreaterThanOrEqual(5);
    let score = EMPTY_SCORE;
    let invented = 0;
    for (const truth of truths) {
      const page = (await readCorpusPdf(truth.path)).pages.find((p) => p.number === truth.page)!;
      score = addScores(score, scoreTablePage(truth, page.tables.map((table) => ({ rows: tableRows(table), headerRows: table.headerRows }))));
      invented += markdownTables(renderPage(page, 'markdown')).filter((table) => table.invented).length;
    }
    console.log(`tables on ${truths.length} corpus pages: ${JSON.stringify(score)}`);
    expect(score.found).toBe(score.trueTables);
    expect(score.spurious).toBe(0);
    expect(score.placedCells / score.trueCells).toBeGreaterThanOrEqual(0.95);
    expect(score.headersRight).toBeGreaterThanOrEqual(0.6 * score.trueTables);
    expect(invented).toBe(0);
  }, 120_000);
});
