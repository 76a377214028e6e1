/**
 * Querying a table (API §10, `POST /v1/tables/{table_id}/query`): the body is checked and compiled
 * by ./query.ts, and run by DuckDB (./engine.ts) over the table's **query snapshot**, a Parquet file
 * of its CSV made once per CSV version:
 *
 * - in S3 beside the table's summary (`<org>/<env>/tables/<id>/<version>.parquet`), made on the first
 *   query of that version (one DuckDB pass over the CSV; 2.3-3.9 s of CPU per million rows, README) and deleted
 *   with the summary when the table is replaced or deleted;
 * - cached on the local disk of the process (a Lambda's /tmp, the local stack's temp dir) by key,
 *   bounded (QUIRE_TABLES_CACHE_BYTES, default 1 GB; least recently used files go first), so the
 *   queries that follow read it from disk.
 *
 * Pages: `offset`/`limit`, or the opaque `next_cursor`/`previous_cursor` of an answer sent back as
 * `cursor`. A cursor names the CSV version and the query it pages: sent with another query it is a
 * 422, after the table's CSV was replaced a 409.
 */
import { createHash } from 'node:crypto';
import { createReadStream, createWriteStream, existsSync, mkdirSync, readdirSync, readFileSync, renameSync, rmSync, statSync, utimesSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pipeline } from 'node:stream/promises';
import { Readable } from 'node:stream';
import { Conflict, Invalid } from '../platform/errors.ts';
import { keepNewest } from '../platform/keep-newest.ts';
import type { Platform } from '../platform/platform.ts';
import type { Scope } from '../platform/ports.ts';
import { readCsv, sniffDelimiter } from './csv-reader.ts';
import { buildSnapshot, buildSnapshotFromRows, runQuery } from './engine.ts';
import { compileQuery, queryColumnsOf, resultValue, type CompiledQuery, type QueryColumn, type QueryRequest } from './query.ts';
import { loadReady, readSummary, snapshotKeyOf, type TableRecord } from './service.ts';

function cacheDirPath(): string {
  return process.env.QUIRE_TABLES_CACHE_DIR ?? join(tmpdir(), 'quire-tables');
}

/** The cache directory, made if it is not there: before anything is written into it. */
function cacheDir(): string {
  const dir = cacheDirPath();
  mkdirSync(dir, { recursive: true });
  return dir;
}

function cacheBytes(): number {
  const configured = Number(process.env.QUIRE_TABLES_CACHE_BYTES);
  return Number.isFinite(configured) && configured > 0 ? configured : 1024 * 1024 * 1024;
}

/** Builds or downloads in flight, by snapshot key: concurrent first queries share one. */
const inFlight = new Map<string, Promise<string>>();

/** Where a snapshot is cached (a query that finds it there only reads: the directory is made when one is written). */
function localPathOf(key: string): string {
  return join(cacheDirPath(), `${createHash('sha256').update(key).digest('hex').slice(0, 40)}.parquet`);
}

function unique(): string {
  return `${process.pid}-${Date.now().toString(36)}-${Math.floor(Math.random() * 1e9).toString(36)}`;
}

/** Drops the least recently used snapshots until the cache fits its budget (never `keep`). */
function evict(keep: string): void {
  const dir = cacheDir();
  const files = readdirSync(dir)
    .filter((f) => f.endsWith('.parquet'))
    .map((f) => {
      const path = join(dir, f);
      try {
        const s = statSync(path);
        return { path, size: s.size, used: s.mtimeMs };
      } catch {
        return undefined;
      }
    })
    .filter((f): f is { path: string; size: number; used: number } => f !== undefined)
    .sort((a, b) => a.used - b.used);
  let total = files.reduce((n, f) => n + f.size, 0);
  for (const f of files) {
    if (total <= cacheBytes()) break;
    if (f.path === keep) continue;
    rmSync(f.path, { force: true });
    total -= f.size;
  }
}

/** The delimiter the table reader found: kept in the summary, or sniffed again as the reader does (tables stored before it was kept). */
async function delimiterOf(p: Platform, record: TableRecord, stored: string | undefined): Promise<string> {
  if (stored) return stored;
  const head = await p.blobs.getRange(record.snapshot_key, 0, (1 << 20) - 1);
  let bytes = Buffer.from(head ?? new Uint8Array(0));
  if (bytes[0] === 0xef && bytes[1] === 0xbb && bytes[2] === 0xbf) bytes = bytes.subarray(3);
  const text = bytes.toString('utf8');
  const cut = record.snapshot_size > (1 << 20) ? text.lastIndexOf('\n') : text.length;
  return sniffDelimiter(text.slice(0, Math.min(cut < 0 ? text.length : cut, 4 * 64 * 1024)));
}

/**
 * Watches the bytes of a CSV for a quote DuckDB's reader reads otherwise than the table reader: a
 * quote that neither opens a field (after a delimiter or a line end) nor is doubled nor closes one
 * (before a delimiter or a line end), e.g. `"abc"def` or `"x"  `. A CSV with one is read by the table
 * reader instead (slower, same cells). Quotes inside unquoted text (`say "hi"`) are flagged too,
 * which costs time only.
 */
class QuoteWatch {
  odd = false;
  private previous = 10;
  private pendingQuote = false;
  constructor(private readonly delimiter: number) {}

  private isEdge(b: number): boolean {
    return b === this.delimiter || b === 10 || b === 13;
  }

  feed(chunk: Uint8Array): void {
    if (this.odd) return;
    let from = 0;
    if (this.pendingQuote && chunk.length > 0) {
      // A quote was the last byte of the previous chunk.
      this.pendingQuote = false;
      if (chunk[0] === 34) from = 1;
      else if (!this.isEdge(chunk[0]!) && !this.isEdge(this.previous)) {
        this.odd = true;
        return;
      }
    }
    for (let i = chunk.indexOf(34, from); i >= 0; i = chunk.indexOf(34, i + 1)) {
      const before = i > 0 ? chunk[i - 1]! : this.previous;
      if (i + 1 >= chunk.length) {
        this.pendingQuote = true;
        this.previous = before;
        return;
      }
      const after = chunk[i + 1]!;
      if (after === 34) {
        i++;
        continue;
      }
      if (!this.isEdge(before) && !this.isEdge(after)) {
        this.odd = true;
        return;
      }
    }
    if (chunk.length > 0) this.previous = chunk[chunk.length - 1]!;
  }
}

/** Makes the snapshot of `record`'s CSV: DuckDB reads it, checked against the table's row count. */
async function makeSnapshot(p: Platform, record: TableRecord, columns: QueryColumn[], expected: { rowCount: number; sampleRows: Array<Record<string, string | null>> }, delimiter: string | undefined, out: string): Promise<void> {
  const csvPath = join(cacheDir(), `csv-${unique()}.csv`);
  try {
    const stream = await p.blobs.stream(record.snapshot_key);
    if (!stream) throw new Error(`The snapshot of table ${record.table.id} is missing`);
    const sep = await delimiterOf(p, record, delimiter);
    const quotes = new QuoteWatch(sep.charCodeAt(0));
    await pipeline(
      Readable.from(stream),
      async function* (chunks: AsyncIterable<Uint8Array>) {
        for await (const chunk of chunks) {
          quotes.feed(chunk);
          yield chunk;
        }
      },
      createWriteStream(csvPath),
    );
    const types = columns.map((c) => ({ type: c.type }));
    const read = quotes.odd ? -1 : await buildSnapshot(csvPath, sep, types, out);
    if (read !== expected.rowCount || !(await sameRows(out, columns, expected.sampleRows))) {
      // DuckDB read the CSV otherwise than the table reader did: the table reader's rows it is.
      rmSync(out, { force: true });
      await buildSnapshotFromRows(types, out, async (append) => {
        await readCsv(createReadStream(csvPath, { highWaterMark: 1 << 20 }), { header() {}, row: (fields) => append(fields) });
      });
    }
  } finally {
    rmSync(csvPath, { force: true });
  }
}

/** Whether the snapshot's first rows hold the texts the table reader read (its sample rows). */
async function sameRows(file: string, columns: QueryColumn[], sampleRows: Array<Record<string, string | null>>): Promise<boolean> {
  if (columns.length === 0) return true;
  const { rows } = await runQuery(file, `SELECT ${columns.map((c) => `c${c.index}`).join(', ')} FROM {snapshot} ORDER BY pos LIMIT ${sampleRows.length}`, []);
  return rows.length === sampleRows.length && rows.every((cells, r) => columns.every((c, i) => (cells[i] ?? null) === (sampleRows[r]![c.name] ?? null)));
}

/** The local path of the table's query snapshot: cached, else downloaded, else made and stored. */
async function snapshotFile(p: Platform, scope: Scope, record: TableRecord, columns: QueryColumn[], summary: { row_count: number; sample_rows: Array<Record<string, string | null>>; delimiter?: string }): Promise<string> {
  const key = snapshotKeyOf(scope, record);
  const local = localPathOf(key);
  if (existsSync(local)) {
    const now = new Date();
    utimesSync(local, now, now);
    return local;
  }
  let pending = inFlight.get(key);
  if (!pending) {
    pending = (async () => {
      const partial = `${local}.${unique()}.part`;
      try {
        cacheDir();
        const stored = await p.blobs.stream(key);
        if (stored) {
          await pipeline(Readable.from(stored), createWriteStream(partial));
        } else {
          await makeSnapshot(p, record, columns, { rowCount: summary.row_count, sampleRows: summary.sample_rows }, summary.delimiter, partial);
          await p.blobs.put(key, readFileSync(partial), 'application/vnd.apache.parquet');
        }
        renameSync(partial, local);
        evict(local);
        return local;
      } finally {
        rmSync(partial, { force: true });
        inFlight.delete(key);
      }
    })();
    inFlight.set(key, pending);
  }
  return pending;
}

// ---- cursors ----

interface CursorState {
  /** The CSV version it pages. */
  v: string;
  /** The query it pages (a hash of the body without its paging fields). */
  q: string;
  o: number;
  l: number;
}

function fingerprint(body: QueryRequest): string {
  const { offset: _o, limit: _l, cursor: _c, include_explain: _e, count_only: _n, viewer_mode: _v, ...query } = body;
  const canonical = JSON.stringify(query, (_k, v: unknown) => (v && typeof v === 'object' && !Array.isArray(v) ? Object.fromEntries(Object.entries(v).filter(([, x]) => x !== undefined && x !== null).sort(([a], [b]) => (a < b ? -1 : 1))) : v));
  return createHash('sha256').update(canonical).digest('base64url').slice(0, 16);
}

function encodeCursor(state: CursorState): string {
  return Buffer.from(JSON.stringify(state)).toString('base64url');
}

function decodeCursor(cursor: string): CursorState {
  try {
    const state = JSON.parse(Buffer.from(cursor, 'base64url').toString('utf8')) as CursorState;
    if (typeof state.v === 'string' && typeof state.q === 'string' && Number.isInteger(state.o) && state.o >= 0 && Number.isInteger(state.l) && state.l >= 1) return state;
  } catch {
    // reported below
  }
  throw Invalid.at(['body', 'cursor'], 'Not a cursor of this API: send back next_cursor or previous_cursor as answered', 'value_error', cursor);
}

// ---- the operation ----

function toNumber(value: unknown): number {
  return typeof value === 'bigint' ? Number(value) : Number(value ?? 0);
}

/** Summaries read lately, by key (a summary object never changes: a new CSV gets a new key). */
const summaries = new Map<string, Awaited<ReturnType<typeof readSummary>>>();

async function summaryOf(p: Platform, record: TableRecord): Promise<Awaited<ReturnType<typeof readSummary>>> {
  const cached = summaries.get(record.summary_key);
  if (cached) return cached;
  const summary = await readSummary(p, record);
  keepNewest(summaries, record.summary_key, summary, 32);
  return summary;
}

export async function queryTable(p: Platform, scope: Scope, tableId: string, body: QueryRequest) {
  const record = await loadReady(p, scope, tableId);
  const summary = await summaryOf(p, record);
  const columns = queryColumnsOf(summary.columns);
  const compiled: CompiledQuery = compileQuery(columns, body);
  const query = fingerprint(body);

  let offset = compiled.offset;
  let limit = compiled.limit;
  if (body.cursor) {
    const cursor = decodeCursor(body.cursor);
    if (cursor.q !== query) throw Invalid.at(['body', 'cursor'], 'This cursor pages another query: send it with the filters, search, sort, selection and grouping it was answered for', 'value_error');
    if (cursor.v !== record.version) throw new Conflict(`Table ${tableId} was given a new CSV since this cursor was answered; query again from the start`);
    offset = cursor.o;
    if (body.limit === undefined || body.limit === null) limit = cursor.l;
  }

  let file = await snapshotFile(p, scope, record, columns, summary);
  /** Runs a statement; a snapshot another process evicted from the shared cache meanwhile is fetched again, once. */
  const run = async (sql: string): Promise<{ columns: string[]; rows: unknown[][] }> => {
    try {
      return await runQuery(file, sql, compiled.params);
    } catch (error) {
      if (existsSync(file)) throw error;
      file = await snapshotFile(p, scope, record, columns, summary);
      return runQuery(file, sql, compiled.params);
    }
  };
  const count = async (sql: string) => toNumber((await run(sql)).rows[0]?.[0]);
  const filtered = await count(compiled.countSql);

  let rows: Array<Record<string, unknown>> = [];
  let hasMore = false;
  if (!compiled.countOnly) {
    let pageSql: string;
    if (compiled.sample !== null) {
      offset = 0;
      limit = compiled.sample;
      pageSql = compiled.pageSql(0, limit);
    } else {
      if (compiled.tail !== null) {
        const total = compiled.mode === 'rows' ? filtered : compiled.resultCountSql ? await count(compiled.resultCountSql) : 1;
        limit = compiled.tail;
        offset = Math.max(0, total - limit);
      }
      pageSql = compiled.pageSql(offset, limit + 1);
    }
    const page = await run(pageSql);
    hasMore = compiled.sample === null && compiled.tail === null && page.rows.length > limit;
    rows = page.rows.slice(0, limit).map((cells) => Object.fromEntries(page.columns.map((name, i) => [name, cells[i]])));
  }

  const wireRows = rows.map((row, i) => {
    const data = Object.fromEntries(compiled.result.map((r) => [r.name, resultValue(r, row)]));
    if (compiled.mode === 'rows') {
      const position = toNumber(row.pos);
      return { id: `row_${position}`, data, position };
    }
    const position = offset + i;
    return { id: `${compiled.mode === 'distinct' ? 'value' : 'group'}_${position}`, data, position };
  });
  const paged = compiled.sample === null && compiled.tail === null && !compiled.countOnly;
  const cursorAt = (o: number) => encodeCursor({ v: record.version, q: query, o, l: limit });
  return {
    table_id: tableId,
    columns: compiled.result.map((r) => r.column),
    rows: wireRows,
    row_count: summary.row_count,
    filtered_row_count: filtered,
    offset,
    limit: compiled.countOnly ? null : limit,
    has_more: hasMore,
    next_cursor: paged && hasMore ? cursorAt(offset + limit) : null,
    previous_cursor: paged && offset > 0 ? cursorAt(Math.max(0, offset - limit)) : null,
    explain: body.include_explain
      ? { table_id: tableId, snapshot_file_id: record.table.snapshot_file_id, ...compiled.explain, offset, limit: compiled.countOnly ? null : limit }
      : null,
  };
}
