/**
 * Tables (API §10): CSV snapshots of an environment with their inferred schema, validation and
 * profile.
 *
 * Where things live: the CSV bytes are a File (content-addressed, `files/`), the snapshot; one pass
 * over them at upload or replace time computes a compact summary (columns, sample rows, the per-column
 * profile) stored in S3 beside the table; the DynamoDB record holds the Table and the keys. A profile
 * request reads only the summary; validation streams the snapshot once (its rules are the caller's).
 * Every engine here (reader, profiler, validator) reads the CSV as a stream with bounded memory.
 */
import { decodeDataUrl, DocumentProblem, sniffDocument, type Sniffed } from '../documents/sniff.ts';
import { blobKeyOf, resolveDocument, storeBytes } from '../files/service.ts';
import type { File } from '../files/schema.ts';
import { Conflict, Invalid, NotFound, type ValidationIssue } from '../platform/errors.ts';
import { RawResponse } from '../platform/http.ts';
import { timestamp } from '../platform/ids.ts';
import type { Platform } from '../platform/platform.ts';
import type { Scope } from '../platform/ports.ts';
import type { PrimitiveError } from '../platform/schemas.ts';
import { createRun, deleteRun } from '../runs/service.ts';
import { forgetUsage } from '../usage/ledger.ts';
import { chunksOf, CsvProblem, readCsv } from './csv-reader.ts';
import { TableProfiler } from './profile.ts';
import { tableSummaryKind } from './kind.ts';
import { MAX_TABLE_BYTES, type Table, type TableStatus, type TableUpload } from './schema.ts';
import type { ColumnProfile, ColumnSchema, TableSummary } from './types.ts';
import { TableValidator, type ValidationRules } from './validate.ts';

export const TABLE_TYPE = 'table';
/** A Table whose columns and sample rows make the record bigger than this keeps them in S3 only. */
const INLINE_TABLE_BYTES = 100 * 1024;
/** Downloads up to this size are answered inline; bigger ones redirect to the stored object. */
const INLINE_DOWNLOAD_BYTES = 5 * 1024 * 1024;
const DOWNLOAD_TTL_SECONDS = 15 * 60;
const CSV_TYPES = new Set(['text/csv', 'text/plain']);
/**
 * A stored CSV (FileRef) bigger than this is read in the background (an internal run in the task
 * Lambda): about 1.8 s of CPU per 100 MB, so 1 GB would not fit API Gateway's 29 s. The create waits
 * for it up to the sync budget, then answers with the table `processing`.
 * QUIRE_TABLE_BACKGROUND_BYTES overrides it (tests force the background path with small CSVs).
 */
const BACKGROUND_READ_BYTES = 32 * 1024 * 1024;

function backgroundReadBytes(): number {
  const configured = Number(process.env.QUIRE_TABLE_BACKGROUND_BYTES);
  return Number.isFinite(configured) && configured > 0 ? configured : BACKGROUND_READ_BYTES;
}

export interface TableRecord {
  table: Table;
  /**
   * The snapshot version (a new one on every replace), also kept as the record's status: every change
   * is a write conditional on the version it read, so a rename racing a replace cannot mix them up.
   */
  version: string;
  /** False when `table.columns` / `table.sample_rows` were left out of the record (read the summary). */
  inline: boolean;
  summary_key: string;
  snapshot_key: string;
  snapshot_size: number;
  /**
   * A replace read in the background keeps the record it replaced here until the new CSV is read:
   * put back if the new CSV turns out invalid while the replace request still waits, and its summary
   * deleted once the new one is ready. Absent or null otherwise.
   */
  previous?: TableRecord | null;
}

/**
 * A record as read, with its store status: a revision that changes on every write (replace, patch,
 * background read), so every write is conditional on the revision it read.
 */
interface Loaded {
  data: TableRecord;
  revision: string;
}

/** Tables stored before `status` existed were always read in the request: ready. */
function statusOf(table: Table): TableStatus {
  return table.status ?? 'ready';
}

/** What the summary object in S3 holds. */
interface StoredSummary {
  row_count: number;
  /** The delimiter the reader found (absent in summaries stored before queries). */
  delimiter?: string;
  columns: Table['columns'];
  sample_rows: Table['sample_rows'];
  profile: ColumnProfile[];
}

function summaryKeyOf(scope: Scope, tableId: string, version: string): string {
  return `${scope.orgId}/${scope.envId}/tables/${tableId}/${version}.json`;
}

/** The query snapshot (Parquet, ./query-service.ts) of a record's CSV version, beside its summary. */
export function snapshotKeyOf(scope: Scope, record: Pick<TableRecord, 'table' | 'version'>): string {
  return `${scope.orgId}/${scope.envId}/tables/${record.table.id}/${record.version}.parquet`;
}

/** Deletes what a record version keeps of its own in S3: its summary and its query snapshot. */
async function deleteVersionObjects(p: Platform, scope: Scope, record: Pick<TableRecord, 'table' | 'version' | 'summary_key'>): Promise<void> {
  await p.blobs.delete(record.summary_key);
  await p.blobs.delete(snapshotKeyOf(scope, record));
}

// ---- reading a CSV once: the summary ----

interface Source {
  file: File;
  blobKey: string;
}

/** A CSV to read: bytes received inline (stored only once they read well) or a stored File. */
type Candidate =
  | { kind: 'inline'; bytes: Buffer; filename: string; declaredMime: string | undefined; loc: (string | number)[] }
  | { kind: 'stored'; source: Source; loc: (string | number)[] };

function problemAt(loc: (string | number)[], error: unknown): never {
  if (error instanceof DocumentProblem) throw Invalid.at(loc, error.message, error.code);
  throw error;
}

/** The uploaded CSV: a form's file part, a data URL, or a stored file (FileRef, issued URL). */
async function candidateOf(p: Platform, scope: Scope, upload: TableUpload): Promise<Candidate> {
  if ('file' in upload) {
    return { kind: 'inline', bytes: upload.file.bytes, filename: upload.file.filename || 'table.csv', declaredMime: upload.file.contentType ?? 'text/csv', loc: ['body', 'file'] };
  }
  const loc = ['body', 'document'];
  const document = upload.document;
  if ('url' in document && typeof document.url === 'string' && document.url.startsWith('data:')) {
    let decoded: { mime: string; bytes: Buffer };
    try {
      decoded = decodeDataUrl(document.url);
    } catch (error) {
      problemAt([...loc, 'url'], error);
    }
    return { kind: 'inline', bytes: decoded.bytes, filename: document.filename, declaredMime: decoded.mime, loc };
  }
  return { kind: 'stored', source: await resolveDocument(p, scope, document, loc), loc };
}

function checkCsvFile(filename: string, mimeType: string, sizeBytes: number, loc: (string | number)[]): void {
  if (!CSV_TYPES.has(mimeType)) throw Invalid.at(loc, `A table is read from a CSV file; ${filename} is ${mimeType}`, 'document_unsupported');
  if (sizeBytes > MAX_TABLE_BYTES) throw Invalid.at(loc, `The CSV is ${sizeBytes} bytes; a table holds at most 1 GB`, 'document_too_large');
}

/** Reads the CSV once: checks the header and the overrides, and summarises every column. */
async function summarise(chunks: AsyncIterable<Uint8Array>, overrides: Record<string, ColumnSchema> | undefined, loc: (string | number)[]): Promise<TableSummary> {
  const profiler = new TableProfiler();
  try {
    await readCsv(chunks, {
      header(names, delimiter) {
        const unknown = Object.keys(overrides ?? {}).filter((name) => !names.includes(name));
        if (unknown.length > 0) {
          throw new Invalid(
            unknown.map((name) => ({ loc: ['body', 'column_schema_overrides', name], msg: `Column "${name}" is not in the CSV header`, type: 'value_error' })),
          );
        }
        profiler.header(names, delimiter);
      },
      record: (record, rowNumber) => profiler.record(record, rowNumber),
    });
  } catch (error) {
    if (error instanceof CsvProblem) throw Invalid.at(loc, error.message, 'csv_invalid');
    throw error;
  }
  return profiler.finish({ overrides });
}

/**
 * Reads the uploaded CSV and summarises it. Bytes received inline are checked and read from memory
 * first and stored as a File only when they make a table, so a refused upload stores nothing.
 */
async function readCandidate(p: Platform, scope: Scope, candidate: Candidate, overrides: Record<string, ColumnSchema> | undefined): Promise<{ source: Source; summary: TableSummary }> {
  if (candidate.kind === 'inline') {
    const { bytes, filename, declaredMime, loc } = candidate;
    let sniffed: Sniffed;
    try {
      sniffed = sniffDocument({ head: bytes.subarray(0, 64 * 1024), tail: bytes.subarray(Math.max(0, bytes.length - 64 * 1024)), size: bytes.length, filename, declaredMime });
    } catch (error) {
      problemAt(loc, error);
    }
    checkCsvFile(filename, sniffed.mimeType, bytes.length, loc);
    const summary = await summarise(chunksOf(bytes), overrides, loc);
    const file = await storeBytes(p, scope, bytes, filename, declaredMime, loc);
    return { source: { file, blobKey: blobKeyOf(scope, file.sha256) }, summary };
  }
  const { source, loc } = candidate;
  checkCsvFile(source.file.filename, source.file.mime_type, source.file.size_bytes, loc);
  const stream = await p.blobs.stream(source.blobKey);
  if (!stream) throw new Error(`The stored CSV ${source.blobKey} is missing`);
  return { source, summary: await summarise(stream, overrides, loc) };
}

/** Whether this upload is read in the background: a stored CSV above the threshold. */
function readsInBackground(candidate: Candidate): candidate is Extract<Candidate, { kind: 'stored' }> {
  return candidate.kind === 'stored' && candidate.source.file.size_bytes > backgroundReadBytes();
}

function recordOf(table: Table, fields: Omit<TableRecord, 'table' | 'inline'>): TableRecord {
  const full: TableRecord = { ...fields, table, inline: true };
  if (JSON.stringify(full).length <= INLINE_TABLE_BYTES) return full;
  return { ...full, inline: false, table: { ...table, columns: [], sample_rows: [] } };
}

function snapshotOf(source: Source): Pick<TableRecord, 'snapshot_key' | 'snapshot_size'> {
  return { snapshot_key: source.blobKey, snapshot_size: source.file.size_bytes };
}

/** The Table fields a summary sets. */
function summaryFields(summary: TableSummary): Pick<Table, 'row_count' | 'columns' | 'sample_rows' | 'diagnostics' | 'status' | 'error'> {
  return { row_count: summary.row_count, columns: summary.columns, sample_rows: summary.sample_rows, diagnostics: summary.diagnostics, status: 'ready', error: null };
}

async function writeSummary(p: Platform, key: string, summary: TableSummary): Promise<void> {
  const stored: StoredSummary = { row_count: summary.row_count, delimiter: summary.delimiter, columns: summary.columns, sample_rows: summary.sample_rows, profile: summary.profile };
  await p.blobs.put(key, JSON.stringify(stored), 'application/json');
}

async function storeSummary(p: Platform, scope: Scope, tableId: string, summary: TableSummary): Promise<{ key: string; version: string }> {
  const version = p.ids.next('tblv');
  const key = summaryKeyOf(scope, tableId, version);
  await writeSummary(p, key, summary);
  return { key, version };
}

export async function readSummary(p: Platform, record: TableRecord): Promise<StoredSummary> {
  const bytes = await p.blobs.get(record.summary_key);
  if (!bytes) throw new Error(`The summary ${record.summary_key} of table ${record.table.id} is missing`);
  return JSON.parse(Buffer.from(bytes).toString('utf8')) as StoredSummary;
}

// ---- the resource ----

async function loadRecord(p: Platform, scope: Scope, tableId: string): Promise<Loaded> {
  const record = await p.store.getRecord<TableRecord>(scope, TABLE_TYPE, tableId);
  if (!record) throw NotFound.of('Table', tableId);
  return { data: record.data, revision: record.status ?? record.data.version };
}

/** The newest background read of this snapshot version (internal run), if its record is still there. */
async function summaryRunOf(p: Platform, scope: Scope, version: string): Promise<{ id: string; status: string; error: unknown } | undefined> {
  const page = await p.store.listRecords<{ id: string; status: string; error: unknown }>(scope, tableSummaryKind.type, { limit: 1, order: 'desc', attrs: { table_version: version } });
  return page.items[0]?.data;
}

/** How long a processing table may be without its run record (the moment between the two writes of a create). */
const RUN_START_GRACE_MS = 60_000;

/**
 * A processing table whose background read ended without settling it (the task crashed, timed out,
 * or was stopped) would stay processing forever: it is marked failed here, on read, with the run's
 * error. Every other record comes back as it is.
 */
async function settled(p: Platform, scope: Scope, tableId: string, loaded: Loaded): Promise<Loaded> {
  if (statusOf(loaded.data.table) !== 'processing') return loaded;
  const run = await summaryRunOf(p, scope, loaded.data.version);
  if (run && (run.status === 'queued' || run.status === 'pending' || run.status === 'in_progress')) return loaded;
  if (!run && p.clock.now().getTime() - Date.parse(loaded.data.table.updated_at) < RUN_START_GRACE_MS) return loaded;
  // The run ended (or is gone): it settles the table before it ends, so read again before judging.
  const again = await loadRecord(p, scope, tableId);
  if (statusOf(again.data.table) !== 'processing' || again.data.version !== loaded.data.version) return again;
  const runError = run?.status === 'failed' ? (run.error as PrimitiveError | null) : null;
  const error: PrimitiveError = {
    code: runError?.code === 'timeout' ? 'timeout' : 'internal',
    message: `Reading the CSV stopped before it finished (${runError?.message ?? 'the background read ended'}); replace the table's CSV to try again`,
    details: null,
  };
  const moved = await p.store.moveStatus<TableRecord>(scope, TABLE_TYPE, tableId, [again.revision], p.ids.next('tblv'), { table: { ...again.data.table, status: 'failed', error } });
  return moved ? { data: moved.data, revision: moved.status! } : loadRecord(p, scope, tableId);
}

async function loadSettled(p: Platform, scope: Scope, tableId: string): Promise<Loaded> {
  return settled(p, scope, tableId, await loadRecord(p, scope, tableId));
}

/** The wire Table: columns and sample rows from the summary when the record left them out; a status always. */
async function tableOf(p: Platform, record: TableRecord): Promise<Table> {
  const table: Table = { ...record.table, status: statusOf(record.table), error: record.table.error ?? null };
  if (record.inline) return table;
  const summary = await readSummary(p, record);
  return { ...table, columns: summary.columns, sample_rows: summary.sample_rows };
}

/** Profile, validate, download and schema need a table whose CSV has been read. */
export async function loadReady(p: Platform, scope: Scope, tableId: string): Promise<TableRecord> {
  const { data } = await loadSettled(p, scope, tableId);
  const status = statusOf(data.table);
  if (status === 'processing') {
    throw new Conflict(`Table ${tableId} is still reading its CSV (status "processing"); try again when GET /v1/tables/${tableId} shows status "ready"`);
  }
  if (status === 'failed') {
    throw new Conflict(`Table ${tableId} has no readable CSV (status "failed": ${data.table.error?.message ?? 'unknown error'}); give it a new CSV with PUT /v1/tables/${tableId}`);
  }
  return data;
}

// ---- big CSVs: read in the background ----

/** What the background read (./task.ts) finds in its run's `_input`. */
export interface TableSummaryInput {
  tableId: string;
  /** The snapshot version being read: the record must still be processing this one. */
  version: string;
  blobKey: string;
  overrides: Record<string, ColumnSchema> | undefined;
}

/** A CSV the background read refused: the same issues a request reading it would have answered 422 with. */
function failureOf(problem: Invalid): PrimitiveError {
  return { code: 'document_invalid', message: problem.issues.map((issue) => issue.msg).join('; '), details: { issues: problem.issues } };
}

/**
 * The background read (the task of ./kind.ts): one streaming pass over the stored CSV, then the
 * table record moves from processing to ready (summary written first), or to failed with the reason
 * (nothing written: the table never holds half a summary). A table deleted or replaced meanwhile
 * keeps nothing of this read.
 */
export async function summariseStoredTable(p: Platform, scope: Scope, input: TableSummaryInput): Promise<TableStatus | 'dropped'> {
  const stream = await p.blobs.stream(input.blobKey);
  if (!stream) throw new Error(`The stored CSV ${input.blobKey} is missing`);
  let summary: TableSummary | undefined;
  let problem: Invalid | undefined;
  try {
    summary = await summarise(stream, input.overrides, ['body', 'document']);
  } catch (error) {
    if (!(error instanceof Invalid)) throw error;
    problem = error;
  }
  const key = summaryKeyOf(scope, input.tableId, input.version);
  if (summary) await writeSummary(p, key, summary);
  // Conditional on the revision read; a rename landing in between makes us read again.
  for (let attempt = 0; attempt < 5; attempt++) {
    const record = await p.store.getRecord<TableRecord>(scope, TABLE_TYPE, input.tableId);
    const current = record?.data;
    if (!record || !current || current.version !== input.version || statusOf(current.table) !== 'processing') {
      if (summary) await p.blobs.delete(key);
      return 'dropped';
    }
    const now = timestamp(p.clock.now());
    const next: TableRecord = summary
      ? recordOf({ ...current.table, ...summaryFields(summary), updated_at: now }, { ...current, previous: null })
      : { ...current, table: { ...current.table, status: 'failed', error: failureOf(problem!), updated_at: now } };
    const moved = await p.store.moveStatus<TableRecord>(scope, TABLE_TYPE, input.tableId, [record.status ?? current.version], p.ids.next('tblv'), next);
    if (moved) {
      // The replaced snapshot's summary goes once the new one is in place (a failure keeps it, for the rollback).
      if (summary && current.previous) await deleteVersionObjects(p, scope, current.previous);
      return statusOf(next.table);
    }
  }
  if (summary) await p.blobs.delete(key);
  throw new Error(`Table ${input.tableId} kept changing while its CSV was read`);
}

/**
 * Starts the background read of a processing record and waits for it up to the sync budget. Its run
 * record is deleted once it has ended; one still going is left to end on its own.
 */
async function readInBackground(p: Platform, scope: Scope, input: TableSummaryInput): Promise<Loaded> {
  const run = await createRun(p, scope, tableSummaryKind, { fields: { table_id: input.tableId }, input, attrs: { table_version: input.version }, background: false });
  // Settled first: a run that crashed marks the table failed only while its record is there to say why.
  const loaded = await loadSettled(p, scope, input.tableId);
  if (run.status === 'completed' || run.status === 'failed' || run.status === 'cancelled') {
    // Internal work, free: neither its record nor its (zero) usage entry is kept.
    await deleteRun(p, scope, tableSummaryKind, run.id as string).catch(() => undefined);
    await forgetUsage(p, scope, run.id as string).catch(() => undefined);
  }
  return loaded;
}

/** The 422 a CSV refused by the background read gives when the request is still there to answer. */
function refusal(table: Table): Invalid | undefined {
  const issues = (table.error?.details as { issues?: ValidationIssue[] } | null | undefined)?.issues;
  return statusOf(table) === 'failed' && table.error?.code === 'document_invalid' && issues ? new Invalid(issues) : undefined;
}

/** A new Table of an upload: its identity and file fields, then the summary-dependent ones. */
function newTable(id: string, upload: TableUpload, source: Source, now: string, fields: Pick<Table, 'row_count' | 'columns' | 'sample_rows' | 'diagnostics' | 'status' | 'error'>): Table {
  return {
    id,
    name: upload.name,
    filename: source.file.filename,
    project_id: upload.project_id ?? null,
    source_file_id: source.file.id,
    snapshot_file_id: source.file.id,
    ...fields,
    metadata: {},
    created_at: now,
    updated_at: now,
  };
}

async function createInBackground(p: Platform, scope: Scope, upload: TableUpload, source: Source): Promise<Table> {
  const id = p.ids.next('tbl');
  const version = p.ids.next('tblv');
  const now = timestamp(p.clock.now());
  const table = newTable(id, upload, source, now, { row_count: null, columns: [], sample_rows: [], diagnostics: [], status: 'processing', error: null });
  const record: TableRecord = { table, version, inline: true, summary_key: summaryKeyOf(scope, id, version), ...snapshotOf(source), previous: null };
  await p.store.putRecord(scope, { type: TABLE_TYPE, id, createdAt: now, status: version, filename: table.filename, attrs: table.project_id ? { project_id: table.project_id } : undefined, data: record });
  let loaded: Loaded;
  try {
    loaded = await readInBackground(p, scope, { tableId: id, version, blobKey: source.blobKey, overrides: upload.column_schema_overrides });
  } catch (error) {
    await p.store.deleteRecord(scope, TABLE_TYPE, id);
    throw error;
  }
  const refused = refusal(loaded.data.table);
  if (refused) {
    // Answered within the request, as a CSV read in the request would be: 422, no table kept.
    await p.store.deleteRecord(scope, TABLE_TYPE, id);
    throw refused;
  }
  return tableOf(p, loaded.data);
}

async function replaceInBackground(p: Platform, scope: Scope, before: Loaded, upload: TableUpload, source: Source): Promise<Table> {
  const tableId = before.data.table.id;
  const version = p.ids.next('tblv');
  const previous: TableRecord = { ...before.data, previous: null };
  const table: Table = {
    ...before.data.table,
    name: upload.name,
    filename: source.file.filename,
    source_file_id: source.file.id,
    snapshot_file_id: source.file.id,
    row_count: null,
    columns: [],
    sample_rows: [],
    diagnostics: [],
    status: 'processing',
    error: null,
    updated_at: timestamp(p.clock.now()),
  };
  const record: TableRecord = { table, version, inline: true, summary_key: summaryKeyOf(scope, tableId, version), ...snapshotOf(source), previous };
  const moved = await p.store.moveStatus<TableRecord>(scope, TABLE_TYPE, tableId, [before.revision], version, record);
  if (!moved) {
    await loadRecord(p, scope, tableId);
    throw new Conflict(`Table ${tableId} changed while its new CSV was checked; send the request again`);
  }
  // A failed table's own previous record is superseded now.
  if (before.data.previous) await deleteVersionObjects(p, scope, before.data.previous);
  let loaded = await readInBackground(p, scope, { tableId, version, blobKey: source.blobKey, overrides: upload.column_schema_overrides });
  const refused = refusal(loaded.data.table);
  if (!refused) return tableOf(p, loaded.data);
  // Answered within the request, as a CSV read in the request would be: 422, the table as it was.
  for (let attempt = 0; attempt < 5; attempt++) {
    if (await p.store.moveStatus<TableRecord>(scope, TABLE_TYPE, tableId, [loaded.revision], p.ids.next('tblv'), previous)) throw refused;
    loaded = await loadRecord(p, scope, tableId);
    if (loaded.data.version !== version) throw refused;
  }
  throw refused;
}

// ---- the operations ----

export async function createTable(p: Platform, scope: Scope, upload: TableUpload): Promise<{ tables: Table[] }> {
  const candidate = await candidateOf(p, scope, upload);
  if (readsInBackground(candidate)) {
    const { source, loc } = candidate;
    checkCsvFile(source.file.filename, source.file.mime_type, source.file.size_bytes, loc);
    return { tables: [await createInBackground(p, scope, upload, source)] };
  }
  const { source, summary } = await readCandidate(p, scope, candidate, upload.column_schema_overrides);
  const id = p.ids.next('tbl');
  const now = timestamp(p.clock.now());
  const table = newTable(id, upload, source, now, summaryFields(summary));
  const stored = await storeSummary(p, scope, id, summary);
  await p.store.putRecord(scope, {
    type: TABLE_TYPE,
    id,
    createdAt: now,
    status: stored.version,
    filename: table.filename,
    attrs: table.project_id ? { project_id: table.project_id } : undefined,
    data: recordOf(table, { version: stored.version, summary_key: stored.key, ...snapshotOf(source), previous: null }),
  });
  return { tables: [table] };
}

export async function replaceTable(p: Platform, scope: Scope, tableId: string, upload: TableUpload): Promise<{ tables: Table[] }> {
  const before = await loadSettled(p, scope, tableId);
  if (statusOf(before.data.table) === 'processing') {
    throw new Conflict(`Table ${tableId} is still reading its CSV (status "processing"); replace it once GET /v1/tables/${tableId} shows status "ready" or "failed"`);
  }
  const candidate = await candidateOf(p, scope, upload);
  if (readsInBackground(candidate)) {
    const { source, loc } = candidate;
    checkCsvFile(source.file.filename, source.file.mime_type, source.file.size_bytes, loc);
    return { tables: [await replaceInBackground(p, scope, before, upload, source)] };
  }
  const { source, summary } = await readCandidate(p, scope, candidate, upload.column_schema_overrides);
  const table: Table = {
    ...before.data.table,
    name: upload.name,
    filename: source.file.filename,
    // The project is the table's; a replace changes its CSV (and name), not where it is listed.
    project_id: before.data.table.project_id,
    source_file_id: source.file.id,
    snapshot_file_id: source.file.id,
    ...summaryFields(summary),
    updated_at: timestamp(p.clock.now()),
  };
  const stored = await storeSummary(p, scope, tableId, summary);
  const record = recordOf(table, { version: stored.version, summary_key: stored.key, ...snapshotOf(source), previous: null });
  const updated = await p.store.moveStatus<TableRecord>(scope, TABLE_TYPE, tableId, [before.revision], stored.version, record);
  if (!updated) {
    // Deleted or changed while the CSV was read: the new summary belongs to nothing.
    await p.blobs.delete(stored.key);
    await loadRecord(p, scope, tableId);
    throw new Conflict(`Table ${tableId} changed while its new CSV was read; send the request again`);
  }
  await deleteVersionObjects(p, scope, before.data);
  if (before.data.previous) await deleteVersionObjects(p, scope, before.data.previous);
  return { tables: [table] };
}

export async function patchTable(p: Platform, scope: Scope, tableId: string, patch: { name?: string | undefined; metadata?: Record<string, unknown> | undefined }): Promise<{ tables: Table[] }> {
  // Conditional on the revision read, and a new revision written (a background read finishing at the
  // same time re-reads and keeps the new name); a replace landing in between makes us read again.
  for (let attempt = 0; attempt < 5; attempt++) {
    const record = await loadRecord(p, scope, tableId);
    const table: Table = {
      ...record.data.table,
      ...(patch.name !== undefined ? { name: patch.name } : {}),
      ...(patch.metadata !== undefined ? { metadata: patch.metadata } : {}),
      updated_at: timestamp(p.clock.now()),
    };
    const updated = await p.store.moveStatus<TableRecord>(scope, TABLE_TYPE, tableId, [record.revision], p.ids.next('tblv'), { table });
    if (updated) return { tables: [await tableOf(p, updated.data)] };
  }
  await loadRecord(p, scope, tableId);
  throw new Conflict(`Table ${tableId} keeps changing; send the request again`);
}

export async function deleteTable(p: Platform, scope: Scope, tableId: string): Promise<void> {
  const { data } = await loadRecord(p, scope, tableId);
  if (!(await p.store.deleteRecord(scope, TABLE_TYPE, tableId))) throw NotFound.of('Table', tableId);
  // The snapshot is a File (shared, content-addressed) and stays; the summaries are the table's own.
  await deleteVersionObjects(p, scope, data);
  if (data.previous) await deleteVersionObjects(p, scope, data.previous);
  if (statusOf(data.table) === 'processing') {
    // Stop the background read (it would find no table and keep nothing anyway).
    const run = await summaryRunOf(p, scope, data.version);
    if (run) await deleteRun(p, scope, tableSummaryKind, run.id).catch(() => undefined);
  }
}

export async function getTable(p: Platform, scope: Scope, tableId: string): Promise<{ table: Table }> {
  return { table: await tableOf(p, (await loadSettled(p, scope, tableId)).data) };
}

/** Every table of the environment (optionally of one project), newest first. */
export async function listTables(p: Platform, scope: Scope, projectId: string | undefined): Promise<{ tables: Table[] }> {
  const tables: Table[] = [];
  let after: string | undefined;
  do {
    const page = await p.store.listRecords<TableRecord>(scope, TABLE_TYPE, {
      limit: 100,
      order: 'desc',
      ...(after ? { after } : {}),
      ...(projectId !== undefined ? { attrs: { project_id: projectId } } : {}),
    });
    for (const item of page.items) {
      const loaded = await settled(p, scope, item.id, { data: item.data, revision: item.status ?? item.data.version });
      tables.push(await tableOf(p, loaded.data));
    }
    after = page.after ?? undefined;
  } while (after);
  return { tables };
}

export async function tableSchema(p: Platform, scope: Scope, tableId: string) {
  const table = await tableOf(p, await loadReady(p, scope, tableId));
  return { table_id: table.id, columns: table.columns };
}

/** The snapshot as `text/csv`: inline when small, else a redirect to the stored object (API §0.1). */
export async function downloadTable(p: Platform, scope: Scope, tableId: string): Promise<RawResponse> {
  const record = await loadReady(p, scope, tableId);
  const filename = record.table.filename.toLowerCase().endsWith('.csv') ? record.table.filename : `${record.table.name}.csv`;
  const disposition = `attachment; filename*=UTF-8''${encodeURIComponent(filename)}`;
  if (record.snapshot_size > INLINE_DOWNLOAD_BYTES) {
    const url = await p.blobs.presignGet(record.snapshot_key, DOWNLOAD_TTL_SECONDS, filename);
    return new RawResponse('', 'text/csv; charset=utf-8', 303, { location: url });
  }
  const bytes = await p.blobs.get(record.snapshot_key);
  if (!bytes) throw new Error(`The snapshot of table ${tableId} is missing`);
  return new RawResponse(Buffer.from(bytes), 'text/csv; charset=utf-8', 200, { 'content-disposition': disposition });
}

export async function validateTable(p: Platform, scope: Scope, tableId: string, rules: ValidationRules) {
  const record = await loadReady(p, scope, tableId);
  const stream = await p.blobs.stream(record.snapshot_key);
  if (!stream) throw new Error(`The snapshot of table ${tableId} is missing`);
  const validator = new TableValidator(rules);
  await readCsv(stream, { header: (names) => validator.header(names), row: (fields, rowNumber) => validator.row(fields, rowNumber) });
  return { table_id: tableId, ...validator.finish() };
}

/**
 * `select` values are column names; a value that is not one is read as a comma-joined list (so a
 * column whose name holds a comma can still be selected on its own).
 */
function selectedColumns(select: string[], names: string[]): string[] {
  const known = new Set(names);
  const wanted: string[] = [];
  const unknown: string[] = [];
  for (const value of select) {
    const parts = known.has(value) ? [value] : value.split(',').map((s) => s.trim()).filter((s) => s !== '');
    for (const part of parts) {
      if (!known.has(part)) unknown.push(part);
      else if (!wanted.includes(part)) wanted.push(part);
    }
  }
  if (unknown.length > 0) {
    throw Invalid.at(['query', 'select'], `Unknown column${unknown.length > 1 ? 's' : ''} ${unknown.map((u) => JSON.stringify(u)).join(', ')}; the table has ${names.map((n) => JSON.stringify(n)).join(', ')}`, 'value_error', unknown);
  }
  return wanted;
}

export async function profileTable(p: Platform, scope: Scope, tableId: string, select: string[] | undefined) {
  const record = await loadReady(p, scope, tableId);
  const summary = await readSummary(p, record);
  let columns = summary.profile;
  if (select !== undefined && select.length > 0) {
    const wanted = selectedColumns(select, columns.map((c) => c.name));
    const byName = new Map(columns.map((c) => [c.name, c]));
    columns = wanted.map((name) => byName.get(name)!);
  }
  return { table_id: tableId, row_count: summary.row_count, columns };
}
