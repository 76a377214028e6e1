/**
 * Table truth of real corpus pages (`test/corpus-truth/tables/*.json`, written by reading the rendered
 * pages) and how a reading of those pages is scored against it.
 *
 * A rendered table is rows of cell texts (a merged cell's text in its top-left slot) plus how many of
 * its first rows are header rows. Scoring, per page:
 *  - Cell texts are compared after `normalizeCell` (case, whitespace and `$` ignored, NFKC), and must be
 *    equal: a cell cut in two by a wrapped line, or two cells run together, matches nothing.
 *  - A true table is **found** when one rendered table holds at least half of its non-empty cells'
 *    texts (anywhere); that table is its match.
 *  - Within the match, each true row is paired with one rendered row and each true column with one
 *    rendered column, by votes: each true cell votes for the rows and columns where its text sits
 *    (split evenly when it sits in several places); pairs are taken greedily from the most votes down,
 *    one to one. So extra rendered columns (a `$` column) or rows (a caption line) cost nothing, but a
 *    header merged into the caption, or two rows merged into one, loses cells.
 *  - A true cell is **placed** when its text sits in the matched table at its row's and its column's
 *    paired position. The headline figure is placed / all non-empty true cells (tables not found count
 *    as placed 0).
 *  - **Header right** (per found table): with true header rows, the rendered table has header rows and
 *    the true header rows pair with rendered rows inside them, the body rows with rows below; with none,
 *    the rendered table has none.
 *  - A rendered table is **spurious** when fewer than half of its non-empty cells hold the text of a
 *    true cell of the page, unless one of its cells contains a text the truth lists as `ambiguous`
 *    (a region a person could read either way: neither found nor spurious).
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Doc } from '../../functions/documents/doc.ts';
import { readDocument } from '../../functions/documents/read.ts';
import { corpusBytes, type Fold, foldOf, manifest, TRUTH_DIR } from './corpus.ts';

export interface TrueTable {
  headerRows: number;
  rows: string[][];
}

export interface TablePageTruth {
  /** Name of the truth file (set when read). */
  file: string;
  /** Manifest path of the document. */
  path: string;
  /** 1-based page number. */
  page: number;
  notes?: string;
  tables: TrueTable[];
  /** Texts of regions that may or may not be read as tables. */
  ambiguous?: string[];
}

export interface RenderedTable {
  rows: string[][];
  headerRows: number;
}

export interface TableScore {
  trueTables: number;
  found: number;
  spurious: number;
  trueCells: number;
  placedCells: number;
  /** Found tables whose header rows are right (see above). */
  headersRight: number;
}

export function tableTruths(): TablePageTruth[] {
  const dir = join(TRUTH_DIR, 'tables');
  return readdirSync(dir)
    .filter((name) => name.endsWith('.json'))
    .sort()
    .map((name) => ({ ...(JSON.parse(readFileSync(join(dir, name), 'utf8')) as Omit<TablePageTruth, 'file'>), file: name }));
}

let sources: Map<string, string> | undefined;
/** The fold of a page: its document's source repository (MANIFEST.json) looked up in folds.json. */
export function pageFold(truth: TablePageTruth): Fold {
  sources ??= new Map(manifest().map((entry) => [entry.path, entry.source.repo]));
  const repo = sources.get(truth.path);
  if (!repo) throw new Error(`${truth.path} is not in the corpus manifest`);
  return foldOf(repo);
}

const readDocs = new Map<string, Promise<Doc>>();

/** A corpus PDF read as a parse reads it (no cache: the pages are few and born-digital), once per process. */
export function readCorpusPdf(path: string): Promise<Doc> {
  if (!readDocs.has(path)) readDocs.set(path, readDocument(corpusBytes(path), { kind: 'pdf', dpi: 192, deadline: Date.now() + 300_000 }));
  return readDocs.get(path)!;
}

export function normalizeCell(text: string): string {
  return text.normalize('NFKC').toLowerCase().replace(/[\s$]/g, '');
}

/** Where each text sits in a rendered table: normalized text → [row, column] slots. */
function slotsByText(table: RenderedTable): Map<string, [number, number][]> {
  const slots = new Map<string, [number, number][]>();
  table.rows.forEach((row, r) =>
    row.forEach((cell, c) => {
      const key = normalizeCell(cell);
      if (key === '') return;
      if (!slots.has(key)) slots.set(key, []);
      slots.get(key)!.push([r, c]);
    }),
  );
  return slots;
}

/** Greedy one-to-one pairing from votes (key "true,rendered" → weight), most votes first. */
function pairByVotes(votes: Map<string, number>): Map<number, number> {
  const entries = [...votes.entries()].sort((a, b) => b[1] - a[1]);
  const pairs = new Map<number, number>();
  const taken = new Set<number>();
  for (const [key, _weight] of entries) {
    const [from, to] = key.split(',').map(Number) as [number, number];
    if (pairs.has(from) || taken.has(to)) continue;
    pairs.set(from, to);
    taken.add(to);
  }
  return pairs;
}

interface Match {
  placed: number;
  headerRight: boolean;
}

function place(truth: TrueTable, table: RenderedTable): Match {
  const slots = slotsByText(table);
  const rowVotes = new Map<string, number>();
  const columnVotes = new Map<string, number>();
  const vote = (votes: Map<string, number>, key: string, weight: number) => votes.set(key, (votes.get(key) ?? 0) + weight);
  truth.rows.forEach((row, r) =>
    row.forEach((cell, c) => {
      const at = slots.get(normalizeCell(cell)) ?? [];
      for (const [rr, cc] of at) {
        vote(rowVotes, `${r},${rr}`, 1 / at.length);
        vote(columnVotes, `${c},${cc}`, 1 / at.length);
      }
    }),
  );
  const rowOf = pairByVotes(rowVotes);
  const columnOf = pairByVotes(columnVotes);
  let placed = 0;
  truth.rows.forEach((row, r) =>
    row.forEach((cell, c) => {
      const key = normalizeCell(cell);
      if (key === '') return;
      const at = slots.get(key) ?? [];
      if (at.some(([rr, cc]) => rr === rowOf.get(r) && cc === columnOf.get(c))) placed++;
    }),
  );
  let headerRight: boolean;
  if (truth.headerRows === 0) headerRight = table.headerRows === 0;
  else {
    const headerPairs = [...rowOf.entries()].filter(([r]) => r < truth.headerRows).map(([, rr]) => rr);
    const bodyPairs = [...rowOf.entries()].filter(([r]) => r >= truth.headerRows).map(([, rr]) => rr);
    headerRight =
      table.headerRows > 0 &&
      headerPairs.length > 0 &&
      headerPairs.every((rr) => rr < table.headerRows) &&
      bodyPairs.every((rr) => rr >= table.headerRows);
  }
  return { placed, headerRight };
}

const nonEmpty = (truth: TrueTable) => truth.rows.flat().filter((cell) => normalizeCell(cell) !== '');

/** One page's rendered tables against its truth. */
export function scoreTablePage(truth: TablePageTruth, rendered: RenderedTable[]): TableScore {
  const score: TableScore = { trueTables: truth.tables.length, found: 0, spurious: 0, trueCells: 0, placedCells: 0, headersRight: 0 };
  for (const trueTable of truth.tables) {
    const cells = nonEmpty(trueTable);
    score.trueCells += cells.length;
    // The match: the rendered table holding the most of this table's cell texts.
    let best: RenderedTable | undefined;
    let bestHits = 0;
    for (const table of rendered) {
      const texts = slotsByText(table);
      const hits = cells.filter((cell) => texts.has(normalizeCell(cell))).length;
      if (hits > bestHits) {
        best = table;
        bestHits = hits;
      }
    }
    if (!best || bestHits < 0.5 * cells.length) continue;
    score.found++;
    const match = place(trueTable, best);
    score.placedCells += match.placed;
    if (match.headerRight) score.headersRight++;
  }
  const trueTexts = new Set(truth.tables.flatMap((table) => nonEmpty(table).map(normalizeCell)));
  const ambiguous = (truth.ambiguous ?? []).map(normalizeCell);
  for (const table of rendered) {
    const cells = table.rows.flat().map(normalizeCell).filter((cell) => cell !== '');
    if (cells.some((cell) => ambiguous.some((text) => cell.includes(text)))) continue;
    if (cells.filter((cell) => trueTexts.has(cell)).length < 0.5 * cells.length) score.spurious++;
  }
  return score;
}

export function addScores(a: TableScore, b: TableScore): TableScore {
  return {
    trueTables: a.trueTables + b.trueTables,
    found: a.found + b.found,
    spurious: a.spurious + b.spurious,
    trueCells: a.trueCells + b.trueCells,
    placedCells: a.placedCells + b.placedCells,
    headersRight: a.headersRight + b.headersRight,
  };
}

export const EMPTY_SCORE: TableScore = { trueTables: 0, found: 0, spurious: 0, trueCells: 0, placedCells: 0, headersRight: 0 };

/**
 * Pipe tables in Markdown: runs of lines starting with `|`, the first line the header row, the second
 * the `| --- |` separator. A header row of column letters only (A, B, C …) is a placeholder: it is
 * reported as `invented` and read as no header (its letters are not cells of the document).
 */
export function markdownTables(markdown: string): (RenderedTable & { invented: boolean })[] {
  const tables: (RenderedTable & { invented: boolean })[] = [];
  const lines = markdown.split('\n');
  for (let i = 0; i < lines.length; i++) {
    if (!lines[i]!.startsWith('|') || !/^\|( *:?-+:? *\|)+\s*$/.test(lines[i + 1] ?? '')) continue;
    const block: string[] = [];
    let j = i;
    while (j < lines.length && lines[j]!.startsWith('|')) block.push(lines[j++]!);
    const rows = [block[0]!, ...block.slice(2)].map(splitPipeRow);
    const header = rows[0]!;
    const placeholder = header.every((cell, c) => cell === columnName(c));
    const blankHeader = header.every((cell) => cell.trim() === '');
    if (placeholder || blankHeader) tables.push({ rows: rows.slice(1), headerRows: 0, invented: placeholder });
    else tables.push({ rows, headerRows: 1, invented: false });
    i = j - 1;
  }
  return tables;
}

function splitPipeRow(line: string): string[] {
  const inner = line.trim().replace(/^\|/, '').replace(/\|$/, '');
  return inner.split(/(?<!\\)\|/).map((cell) => cell.replace(/\\\|/g, '|').replace(/<br>/g, ' ').trim());
}

/** Spreadsheet column names: A … Z, AA … */
function columnName(index: number): string {
  let name = '';
  for (let n = index + 1; n > 0; n = Math.floor((n - 1) / 26)) name = String.fromCharCode(65 + ((n - 1) % 26)) + name;
  return name;
}

/**
 * `pdftotext -layout` text of one page read as one table, as a user splitting its lines would: each
 * line a row, cells apart where two or more spaces separate them. Only cell placement means something
 * for it (it has no tables to find and no header).
 */
export function layoutTextAsTable(text: string): RenderedTable {
  const rows = text
    .split('\n')
    .filter((line) => line.trim() !== '')
    .map((line) => line.trim().split(/\s{2,}/));
  return { rows, headerRows: 0 };
}
