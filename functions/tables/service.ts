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
import { Conflict, Invalid, NotFound } from '../platform/errors.ts';
import { RawResponse } from '../platform/http.ts';
import { timestamp } from '../platform/ids.ts';
import type { Platform } from '../platform/platform.ts';
import type { Scope } from '../platform/ports.ts';
import { chunksOf, CsvProblem, readCsv } from './csv-reader.ts';
import { TableProfiler } from './profile.ts';
import { MAX_TABLE_BYTES, type Table, type TableUpload } from './schema.ts';
import type { ColumnProfile, ColumnSchema, TableSummary } from './types.ts';
import { TableValidator, type ValidationRules } from './validate.ts';

export const TABLE_TYPE = 'table';
/** A Table whose columns and sample rows make the record bigger than this keeps them in S3 only. */
const INLINE_TABLE_BYTES = 100 * 1024;
/** Downloads up to this size are answered inline; bigger ones redirect to the stored object. */
const INLINE_DOWNLOAD_BYTES = 5 * 1024 * 1024;
const DOWNLOAD_TTL_SECONDS = 15 * 60;
const CSV_TYPES = new Set(['text/csv', 'text/plain']);

interface TableRecord {
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
}

/** What the summary object in S3 holds. */
interface StoredSummary {
  row_count: number;
  columns: Table['columns'];
  sample_rows: Table['sample_rows'];
  profile: ColumnProfile[];
}

function summaryKeyOf(scope: Scope, tableId: string, version: string): string {
  return `${scope.orgId}/${scope.envId}/tables/${tableId}/${version}.json`;
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
      row: (fields, rowNumber) => profiler.row(fields, rowNumber),
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
async function readUpload(p: Platform, scope: Scope, upload: TableUpload): Promise<{ source: Source; summary: TableSummary }> {
  const candidate = await candidateOf(p, scope, upload);
  const overrides = upload.column_schema_overrides;
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

function recordOf(table: Table, stored: { key: string; version: string }, source: Source): TableRecord {
  const full: TableRecord = { table, version: stored.version, inline: true, summary_key: stored.key, snapshot_key: source.blobKey, snapshot_size: source.file.size_bytes };
  if (JSON.stringify(full).length <= INLINE_TABLE_BYTES) return full;
  return { ...full, inline: false, table: { ...table, columns: [], sample_rows: [] } };
}

async function storeSummary(p: Platform, scope: Scope, tableId: string, summary: TableSummary): Promise<{ key: string; version: string }> {
  const version = p.ids.next('tblv');
  const key = summaryKeyOf(scope, tableId, version);
  const stored: StoredSummary = { row_count: summary.row_count, columns: summary.columns, sample_rows: summary.sample_rows, profile: summary.profile };
  await p.blobs.put(key, JSON.stringify(stored), 'application/json');
  return { key, version };
}

async function readSummary(p: Platform, record: TableRecord): Promise<StoredSummary> {
  const bytes = await p.blobs.get(record.summary_key);
  if (!bytes) throw new Error(`The summary ${record.summary_key} of table ${record.table.id} is missing`);
  return JSON.parse(Buffer.from(bytes).toString('utf8')) as StoredSummary;
}

// ---- the resource ----

async function loadRecord(p: Platform, scope: Scope, tableId: string): Promise<TableRecord> {
  const record = await p.store.getRecord<TableRecord>(scope, TABLE_TYPE, tableId);
  if (!record) throw NotFound.of('Table', tableId);
  return record.data;
}

/** The full Table (columns and sample rows from the summary when the record left them out). */
async function tableOf(p: Platform, record: TableRecord): Promise<Table> {
  if (record.inline) return record.table;
  const summary = await readSummary(p, record);
  return { ...record.table, columns: summary.columns, sample_rows: summary.sample_rows };
}

export async function createTable(p: Platform, scope: Scope, upload: TableUpload): Promise<{ tables: Table[] }> {
  const { source, summary } = await readUpload(p, scope, upload);
  const id = p.ids.next('tbl');
  const now = timestamp(p.clock.now());
  const table: Table = {
    id,
    name: upload.name,
    filename: source.file.filename,
    project_id: upload.project_id ?? null,
    source_file_id: source.file.id,
    snapshot_file_id: source.file.id,
    row_count: summary.row_count,
    columns: summary.columns,
    sample_rows: summary.sample_rows,
    metadata: {},
    diagnostics: summary.diagnostics,
    created_at: now,
    updated_at: now,
  };
  const stored = await storeSummary(p, scope, id, summary);
  await p.store.putRecord(scope, {
    type: TABLE_TYPE,
    id,
    createdAt: now,
    status: stored.version,
    filename: table.filename,
    attrs: table.project_id ? { project_id: table.project_id } : undefined,
    data: recordOf(table, stored, source),
  });
  return { tables: [table] };
}

export async function replaceTable(p: Platform, scope: Scope, tableId: string, upload: TableUpload): Promise<{ tables: Table[] }> {
  const before = await loadRecord(p, scope, tableId);
  const { source, summary } = await readUpload(p, scope, upload);
  const table: Table = {
    ...before.table,
    name: upload.name,
    filename: source.file.filename,
    // The project is the table's; a replace changes its CSV (and name), not where it is listed.
    project_id: before.table.project_id,
    source_file_id: source.file.id,
    snapshot_file_id: source.file.id,
    row_count: summary.row_count,
    columns: summary.columns,
    sample_rows: summary.sample_rows,
    diagnostics: summary.diagnostics,
    updated_at: timestamp(p.clock.now()),
  };
  const stored = await storeSummary(p, scope, tableId, summary);
  const updated = await p.store.moveStatus<TableRecord>(scope, TABLE_TYPE, tableId, [before.version], stored.version, recordOf(table, stored, source));
  if (!updated) {
    // Deleted or changed while the CSV was read: the new summary belongs to nothing.
    await p.blobs.delete(stored.key);
    await loadRecord(p, scope, tableId);
    throw new Conflict(`Table ${tableId} changed while its new CSV was read; send the request again`);
  }
  await p.blobs.delete(before.summary_key);
  return { tables: [table] };
}

export async function patchTable(p: Platform, scope: Scope, tableId: string, patch: { name?: string | undefined; metadata?: Record<string, unknown> | undefined }): Promise<{ tables: Table[] }> {
  // Conditional on the version read; a replace landing in between makes us read again.
  for (let attempt = 0; attempt < 5; attempt++) {
    const record = await loadRecord(p, scope, tableId);
    const table: Table = {
      ...record.table,
      ...(patch.name !== undefined ? { name: patch.name } : {}),
      ...(patch.metadata !== undefined ? { metadata: patch.metadata } : {}),
      updated_at: timestamp(p.clock.now()),
    };
    const updated = await p.store.moveStatus<TableRecord>(scope, TABLE_TYPE, tableId, [record.version], record.version, { table });
    if (updated) return { tables: [await tableOf(p, updated.data)] };
  }
  await loadRecord(p, scope, tableId);
  throw new Conflict(`Table ${tableId} keeps changing; send the request again`);
}

export async function deleteTable(p: Platform, scope: Scope, tableId: string): Promise<void> {
  const record = await loadRecord(p, scope, tableId);
  if (!(await p.store.deleteRecord(scope, TABLE_TYPE, tableId))) throw NotFound.of('Table', tableId);
  // The snapshot is a File (shared, content-addressed) and stays; the summary is the table's own.
  await p.blobs.delete(record.summary_key);
}

export async function getTable(p: Platform, scope: Scope, tableId: string): Promise<{ table: Table }> {
  return { table: await tableOf(p, await loadRecord(p, scope, tableId)) };
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
    for (const item of page.items) tables.push(await tableOf(p, item.data));
    after = page.after ?? undefined;
  } while (after);
  return { tables };
}

export async function tableSchema(p: Platform, scope: Scope, tableId: string) {
  const table = await tableOf(p, await loadRecord(p, scope, tableId));
  return { table_id: table.id, columns: table.columns };
}

/** The snapshot as `text/csv`: inline when small, else a redirect to the stored object (API §0.1). */
export async function downloadTable(p: Platform, scope: Scope, tableId: string): Promise<RawResponse> {
  const record = await loadRecord(p, scope, tableId);
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
  const record = await loadRecord(p, scope, tableId);
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
  const record = await loadRecord(p, scope, tableId);
  const summary = await readSummary(p, record);
  let columns = summary.profile;
  if (select !== undefined && select.length > 0) {
    const wanted = selectedColumns(select, columns.map((c) => c.name));
    const byName = new Map(columns.map((c) => [c.name, c]));
    columns = wanted.map((name) => byName.get(name)!);
  }
  return { table_id: tableId, row_count: summary.row_count, columns };
}
