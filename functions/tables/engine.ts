/**
 * The query engine of tables: DuckDB (`@duckdb/node-api`, a native addon shipped as prebuilt binaries
 * inside its npm packages; nothing is downloaded at run time, extension autoloading and installing
 * are switched off). This is the only module that imports it, and it does so lazily, so a bundle that
 * never queries a table (the dashboard's) never loads it.
 *
 * Its jobs:
 * - `buildSnapshot`: a table's CSV → its query snapshot, a Parquet file with one row per CSV data row
 *   (`pos`, the row's 0-based position; `c<i>`, the cell's text, null for a null cell; `t<i>`, the typed
 *   value of a typed column). DuckDB reads the CSV single-threaded in the shape the table reader
 *   gives it (short rows padded with nulls, extra fields dropped, `""` an empty string, nothing between
 *   delimiters a null); the null tokens (`NA`, `N/A`, `null`, `NULL`) become nulls here.
 * - `buildSnapshotFromRows`: the same snapshot from the rows the table reader gives, for a CSV DuckDB
 *   would read otherwise (./query-service.ts decides);
 * - `runQuery`: runs SQL over a snapshot with bound parameters.
 *
 * The SQL is written by ./query.ts from generated identifiers only (`c<i>`, `t<i>`, `x…`/`y…` result
 * aliases, `pos`):
 * no name or value of a caller ever enters SQL text. The only paths written into SQL are the
 * engine's own temporary files, quoted.
 */
import { mkdirSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { QueryType } from './query.ts';

/** What the engine needs of a column to build its snapshot. */
export interface SnapshotColumn {
  type: QueryType;
}

/** The part of @duckdb/node-api used here (kept narrow so the rest of the feature never sees it). */
interface Connection {
  run(sql: string, values?: unknown[]): Promise<unknown>;
  runAndReadAll(sql: string, values?: unknown[]): Promise<{ getRows(): unknown[][]; columnNames(): string[] }>;
  createAppender(table: string): Promise<{ appendDataChunk(chunk: unknown): void; closeSync(): void }>;
  closeSync(): void;
}
interface Instance {
  connect(): Promise<Connection>;
}

let instance: Promise<Instance> | undefined;

/** Threads of the engine: 1 by default (a Lambda has ~1 vCPU per 1.8 GB; the local stack shares two cores). */
function threads(): string {
  const configured = Number(process.env.QUIRE_TABLES_ENGINE_THREADS);
  return String(Number.isInteger(configured) && configured > 0 ? configured : 1);
}

/** Where DuckDB may spill while it builds or sorts (a Lambda's /tmp). */
export function engineTempDir(): string {
  const dir = join(process.env.QUIRE_TABLES_CACHE_DIR ?? join(tmpdir(), 'quire-tables'), 'spill');
  mkdirSync(dir, { recursive: true });
  return dir;
}

async function engine(): Promise<Instance> {
  instance ??= (async () => {
    // A variable module name: bundlers leave it to the runtime (the tables Lambda ships the package).
    const name = '@duckdb/node-api';
    const duckdb = (await import(name)) as { DuckDBInstance: { create(path: string, options: Record<string, string>): Promise<Instance> } };
    return duckdb.DuckDBInstance.create(':memory:', {
      threads: threads(),
      memory_limit: process.env.QUIRE_TABLES_ENGINE_MEMORY ?? '512MB',
      temp_directory: engineTempDir(),
      autoinstall_known_extensions: 'false',
      autoload_known_extensions: 'false',
      allow_community_extensions: 'false',
    });
  })();
  try {
    return await instance;
  } catch (error) {
    instance = undefined;
    throw error;
  }
}

/** Idle connections, reused (each was set up once); a connection serves one statement at a time. */
const idle: Connection[] = [];

async function withConnection<T>(work: (c: Connection) => Promise<T>): Promise<T> {
  let connection = idle.pop();
  if (!connection) {
    connection = await (await engine()).connect();
    // Date-times without an offset are read as UTC (API §10), whatever the machine's zone.
    await connection.run("SET TimeZone = 'UTC'");
  }
  let healthy = false;
  try {
    const result = await work(connection);
    healthy = true;
    return result;
  } finally {
    if (healthy && idle.length < 4) idle.push(connection);
    else connection.closeSync();
  }
}

/** A path as an SQL string literal (our own temporary files only). */
export function pathLiteral(path: string): string {
  return `'${path.replace(/'/g, "''")}'`;
}

const NULL_TOKENS = `('NA', 'N/A', 'null', 'NULL')`;

/** The SQL type of a typed column's `t<i>`, or undefined for text. */
function shadowType(type: QueryType): string | undefined {
  switch (type) {
    case 'integer':
    case 'number':
      return 'DOUBLE';
    case 'boolean':
      return 'BOOLEAN';
    case 'date':
      return 'DATE';
    case 'date-time':
      return 'TIMESTAMPTZ';
    default:
      return undefined;
  }
}

/** The delimiters the table reader sniffs, as SQL literals (never the caller's text). */
const DELIMITER_LITERALS: Record<string, string> = { ',': "','", ';': "';'", '\t': "'\t'", '|': "'|'" };

/** The select list that turns text cells `x<i>` into the snapshot's columns. */
function snapshotSelect(columns: readonly SnapshotColumn[], source: (i: number) => string): string {
  const text = columns.map((_, i) => `CASE WHEN ${source(i)} IN ${NULL_TOKENS} THEN NULL ELSE ${source(i)} END AS c${i}`);
  const typed = columns.flatMap((column, i) => {
    const type = shadowType(column.type);
    // A null token casts to no value of any of these types: no need to test it again.
    return type ? [`TRY_CAST(${source(i)} AS ${type}) AS t${i}`] : [];
  });
  return [...text, ...typed].join(', ');
}

/**
 * Reads the CSV at `csvPath` (a header row, then data rows) into a Parquet snapshot at `outPath`.
 * Returns the number of data rows read, which the caller checks against the table's row count.
 */
export async function buildSnapshot(csvPath: string, delimiter: string, columns: readonly SnapshotColumn[], outPath: string): Promise<number> {
  const delim = DELIMITER_LITERALS[delimiter];
  if (!delim) throw new Error(`Unsupported delimiter ${JSON.stringify(delimiter)}`);
  const spec = columns.map((_, i) => `'x${i}': 'VARCHAR'`).join(', ');
  const csv =
    `read_csv(${pathLiteral(csvPath)}, header = true, auto_detect = false, columns = {${spec}}, delim = ${delim}, quote = '"', escape = '"', ` +
    `allow_quoted_nulls = false, null_padding = true, strict_mode = false, parallel = false, max_line_size = 20000000)`;
  return withConnection(async (c) => {
    await c.run(
      `COPY (SELECT (row_number() OVER ()) - 1 AS pos, ${snapshotSelect(columns, (i) => `x${i}`)} FROM ${csv}) TO ${pathLiteral(outPath)} (FORMAT parquet, ROW_GROUP_SIZE 122880)`,
    );
    const rows = await c.runAndReadAll(`SELECT count(*) FROM read_parquet(${pathLiteral(outPath)})`);
    return Number(rows.getRows()[0]![0]);
  });
}

/**
 * The same snapshot from rows the table reader gives (used when DuckDB's reading of the CSV does not
 * agree with the table's, e.g. a quote inside an unquoted field): `feed` calls `append` with every
 * data row, which goes in chunks through an appender into a temporary table.
 */
export async function buildSnapshotFromRows(
  columns: readonly SnapshotColumn[],
  outPath: string,
  feed: (append: (row: ReadonlyArray<string | null>) => void) => Promise<void>,
): Promise<number> {
  const name = '@duckdb/node-api';
  const duckdb = (await import(name)) as {
    DuckDBDataChunk: { create(types: unknown[], rowCount?: number): { setColumns(columns: unknown[][]): void } };
    VARCHAR: unknown;
    BIGINT: unknown;
  };
  return withConnection(async (c) => {
    const table = `staging_${process.pid}_${Date.now().toString(36)}_${Math.floor(Math.random() * 1e9).toString(36)}`;
    await c.run(`CREATE TEMP TABLE ${table} (${columns.map((_, i) => `x${i} VARCHAR`).join(', ')}, pos BIGINT)`);
    try {
      const appender = await c.createAppender(table);
      const types = [...columns.map(() => duckdb.VARCHAR), duckdb.BIGINT];
      const empty = () => [...columns.map(() => [] as unknown[]), [] as unknown[]];
      let buffer = empty();
      let count = 0;
      let position = 0;
      const flush = () => {
        if (count === 0) return;
        const chunk = duckdb.DuckDBDataChunk.create(types, count);
        chunk.setColumns(buffer);
        appender.appendDataChunk(chunk);
        buffer = empty();
        count = 0;
      };
      await feed((row) => {
        for (let i = 0; i < columns.length; i++) buffer[i]!.push(i < row.length ? row[i] : null);
        buffer[columns.length]!.push(BigInt(position++));
        if (++count === 2048) flush();
      });
      flush();
      appender.closeSync();
      await c.run(`COPY (SELECT pos, ${snapshotSelect(columns, (i) => `x${i}`)} FROM ${table} ORDER BY pos) TO ${pathLiteral(outPath)} (FORMAT parquet, ROW_GROUP_SIZE 122880)`);
      return position;
    } finally {
      await c.run(`DROP TABLE IF EXISTS ${table}`);
    }
  });
}

/** Runs `sql` (which reads the snapshot through `{snapshot}`) with positional parameters `$1…`. */
export async function runQuery(snapshotPath: string, sql: string, params: readonly unknown[]): Promise<{ columns: string[]; rows: unknown[][] }> {
  const text = sql.replaceAll('{snapshot}', `read_parquet(${pathLiteral(snapshotPath)})`);
  return withConnection(async (c) => {
    const result = await c.runAndReadAll(text, [...params]);
    return { columns: result.columnNames(), rows: result.getRows() };
  });
}
