/**
 * Table queries (issue 43), on the tables benchmark's generated 1M-row CSV, each figure next to its
 * reference measured in the same run:
 * - the first query of the CSV version, which makes the Parquet query snapshot (download from S3,
 *   one DuckDB pass, upload), next to DuckDB alone making the same Parquet from the file on disk;
 * - four queries through the API (`POST /v1/tables/{id}/query`, 11 after one warm-up: HTTP,
 *   key, table record, the two SQL statements, JSON), next to
 *   (a) DuckDB alone running the same two SQL statements (filtered count, page) on the same Parquet
 *       snapshot in this process: what the API adds to the engine;
 *   (b) DuckDB alone answering the same question from the CSV file (`read_csv`, types sniffed), as
 *       one would without Quire.
 * DuckDB runs one thread everywhere (the API's engine by default, QUIRE_TABLES_ENGINE_THREADS).
 * Wall times on a shared machine mostly measure its scheduler, so each figure comes with CPU time
 * too: the whole local stack process's (HTTP, key, records, engine, JSON) against this process's
 * running DuckDB alone. /proc counts a process's CPU in ticks of 10 ms, as long as a small query:
 * CPU figures are the mean over the runs (all the runs' CPU over their number), not a median of
 * whole ticks. Wall times are medians.
 * `npm run bench -- tables` (with the rest of the tables benchmark) or `-- tables-query` (alone).
 */
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { buildSnapshot, runQuery } from '../../functions/tables/engine.ts';
import { compileQuery, queryColumnsOf, type QueryRequest } from '../../functions/tables/query.ts';
import type { Column } from '../../functions/tables/types.ts';
import { processCpuMs, type BenchStack } from './stack.ts';

/** Runs of each query, after one warm-up; every figure is the median. */
const RUNS = 11;
const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;
/** CPU figures: the mean (the ticks of 10 ms /proc counts in make a median of short requests 0, 10 or 20 ms). */
const mean = (xs: number[]) => xs.reduce((a, b) => a + b, 0) / xs.length;

/** CPU time of this process, in ms. */
function ownCpuMs(): number {
  const used = process.cpuUsage();
  return (used.user + used.system) / 1000;
}

async function timed<T>(fn: () => Promise<T>): Promise<{ ms: number; value: T }> {
  const started = performance.now();
  const value = await fn();
  return { ms: performance.now() - started, value };
}

interface BenchQuery {
  label: string;
  body: QueryRequest;
  /** The same question asked of the CSV file by DuckDB alone (`{csv}` is the file). */
  csvSql: string[];
}

const QUERIES: BenchQuery[] = [
  {
    label: 'filter (2 rules) + sort + first page of 100',
    body: {
      filters: [
        { column: 'category', operator: 'eq', value: 'beta' },
        { column: 'amount', operator: 'between', value: [100, 2000] },
      ],
      sort: [{ column: 'amount', direction: 'desc' }],
      limit: 100,
    },
    csvSql: [
      "SELECT count(*) FROM {csv} WHERE category = 'beta' AND amount BETWEEN 100 AND 2000",
      "SELECT * FROM {csv} WHERE category = 'beta' AND amount BETWEEN 100 AND 2000 ORDER BY amount DESC LIMIT 101",
    ],
  },
  {
    label: 'group_by category: count, sum, avg',
    body: { group_by: ['category'], aggregations: [{ function: 'count' }, { function: 'sum', column: 'amount' }, { function: 'avg', column: 'quantity' }] },
    csvSql: ['SELECT count(*) FROM {csv}', 'SELECT category, count(*), sum(amount), avg(quantity) FROM {csv} GROUP BY category ORDER BY category LIMIT 101'],
  },
  {
    label: 'search one column for text, any case',
    body: { search: { query: 'CUSTOMER_1234', columns: ['customer'] }, limit: 100 },
    csvSql: ["SELECT count(*) FROM {csv} WHERE contains(lower(customer), 'customer_1234')", "SELECT * FROM {csv} WHERE contains(lower(customer), 'customer_1234') LIMIT 101"],
  },
  {
    label: 'count_only, a date range',
    body: { filters: [{ column: 'order_date', operator: 'between', value: ['2021-01-01', '2021-06-30'] }], count_only: true },
    csvSql: ["SELECT count(*) FROM {csv} WHERE order_date BETWEEN DATE '2021-01-01' AND DATE '2021-06-30'"],
  },
];

/** DuckDB alone on the CSV, one thread, a fresh connection per question. */
async function csvReference(file: string, sql: string[]): Promise<number> {
  const name = '@duckdb/node-api';
  const { DuckDBInstance } = (await import(name)) as { DuckDBInstance: { create(p: string, o: Record<string, string>): Promise<{ connect(): Promise<{ runAndReadAll(s: string): Promise<unknown>; closeSync(): void }> }> } };
  const db = await (await DuckDBInstance.create(':memory:', { threads: '1' })).connect();
  try {
    const started = performance.now();
    for (const s of sql) await db.runAndReadAll(s.replaceAll('{csv}', `read_csv('${file}')`));
    return performance.now() - started;
  } finally {
    db.closeSync();
  }
}

/** Runs the query part against a table made from `file` on the running stack; returns the printer. */
export async function benchTableQueries(stack: BenchStack, tableId: string, file: string): Promise<() => void> {
  const { base, headers, pid } = stack;
  const ask = async (body: unknown) => {
    const r = await fetch(`${base}/v1/tables/${tableId}/query`, { method: 'POST', headers, body: JSON.stringify(body) });
    const text = await r.text();
    if (!r.ok) throw new Error(`query ${r.status}: ${text}`);
    return JSON.parse(text) as { rows: unknown[]; filtered_row_count: number };
  };
  const loadAtStart = loadavg()[0]!;
  const firstCpu0 = processCpuMs(pid);
  const first = await timed(() => ask({ limit: 1 }));
  const firstCpuMs = processCpuMs(pid) - firstCpu0;

  // The same snapshot made by DuckDB alone from the file on disk.
  const columns = ((await (await fetch(`${base}/v1/tables/${tableId}/schema`, { headers })).json()) as { columns: Column[] }).columns;
  const queryColumns = queryColumnsOf(columns);
  const dir = mkdtempSync(join(tmpdir(), 'quire-tables-query-'));
  const snapshot = join(dir, 'snapshot.parquet');
  const madeCpu0 = ownCpuMs();
  const made = await timed(() => buildSnapshot(file, ',', queryColumns.map((c) => ({ type: c.type })), snapshot));
  const madeCpuMs = ownCpuMs() - madeCpu0;

  const results: Array<{ label: string; apiMs: number; parquetMs: number; csvMs: number; apiCpuMs: number; parquetCpuMs: number; agree: boolean }> = [];
  try {
    for (const q of QUERIES) {
      const compiled = compileQuery(queryColumns, q.body);
      const direct = async () => {
        const count = await runQuery(snapshot, compiled.countSql, compiled.params);
        const page = compiled.countOnly ? { rows: [] } : await runQuery(snapshot, compiled.pageSql(compiled.offset, compiled.limit + 1), compiled.params);
        return { filtered: Number(count.rows[0]![0]), rows: page.rows.length };
      };
      const answer = await ask(q.body);
      const reference = await direct();
      const agree = answer.filtered_row_count === reference.filtered && answer.rows.length === Math.min(reference.rows, compiled.countOnly ? 0 : compiled.limit);
      const apiMs: number[] = [];
      const parquetMs: number[] = [];
      const apiCpuMs: number[] = [];
      const parquetCpuMs: number[] = [];
      for (let i = 0; i < RUNS; i++) {
        const server0 = processCpuMs(pid);
        apiMs.push((await timed(() => ask(q.body))).ms);
        apiCpuMs.push(processCpuMs(pid) - server0);
        const own0 = ownCpuMs();
        parquetMs.push((await timed(direct)).ms);
        parquetCpuMs.push(ownCpuMs() - own0);
      }
      const csvMs: number[] = [];
      for (let i = 0; i < 3; i++) csvMs.push(await csvReference(file, q.csvSql));
      results.push({ label: q.label, apiMs: median(apiMs), parquetMs: median(parquetMs), csvMs: median(csvMs), apiCpuMs: mean(apiCpuMs), parquetCpuMs: mean(parquetCpuMs), agree });
    }
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
  // What any request of a table costs the stack (HTTP, key, record) without a query: GET the table.
  const getCpuMs: number[] = [];
  const getMs: number[] = [];
  for (let i = 0; i < RUNS; i++) {
    const server0 = processCpuMs(pid);
    getMs.push((await timed(async () => (await fetch(`${base}/v1/tables/${tableId}`, { headers })).text())).ms);
    getCpuMs.push(processCpuMs(pid) - server0);
  }
  const loadAtEnd = loadavg()[0]!;
  return () => {
    const ms = (x: number) => `${x >= 1000 ? (x / 1000).toFixed(2) + ' s' : x.toFixed(0) + ' ms'}`.padStart(9);
    console.log(`\n  Queries (POST /v1/tables/{id}/query, DuckDB 1 thread; load average ${loadAtStart.toFixed(1)} → ${loadAtEnd.toFixed(1)})`);
    console.log(
      `  ${'first query of the CSV version (makes the Parquet snapshot)'.padEnd(60)} ${ms(first.ms)} (CPU ${ms(firstCpuMs).trim()})   DuckDB alone, CSV → Parquet from disk: ${ms(made.ms).trim()} (CPU ${ms(madeCpuMs).trim()}): ${(firstCpuMs / madeCpuMs).toFixed(2)}x in CPU`,
    );
    console.log(`  ${`query (${RUNS} runs: wall median, CPU mean)`.padEnd(44)} ${'API wall'.padStart(9)} ${'API CPU'.padStart(9)}   ${'DuckDB alone, same SQL, same Parquet: wall, CPU'.padEnd(48)} ${'DuckDB on the CSV, wall'.padStart(24)}`);
    console.log(`  ${'(GET /v1/tables/{id}: a request without a query)'.padEnd(44)} ${ms(median(getMs))} ${ms(mean(getCpuMs))}`);
    for (const r of results) {
      console.log(
        `  ${r.label.padEnd(44)} ${ms(r.apiMs)} ${ms(r.apiCpuMs)}   ${`${ms(r.parquetMs).trim()} (${(r.apiMs / r.parquetMs).toFixed(2)}x), ${ms(r.parquetCpuMs).trim()} (${(r.apiCpuMs / r.parquetCpuMs).toFixed(2)}x in CPU)`.padEnd(48)} ${`${ms(r.csvMs).trim()} (${(r.apiMs / r.csvMs).toFixed(2)}x)`.padStart(24)}${r.agree ? '' : '   ANSWERS DIFFER'}`,
      );
    }
  };
}
