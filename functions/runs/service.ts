/**
 * The run lifecycle (API §0.5, DESIGN §4), the same for every kind:
 * - create stores the run `queued` and starts its state machine execution (named after the run id);
 *   a synchronous create then waits for a terminal status up to the sync budget and answers with the
 *   run as it stands — one code path for both;
 * - status moves are single-item conditional writes, so a cancel always wins over a late finish;
 * - outputs live in storage; `include_output=false` never reads them.
 */
import { Conflict, Invalid, NotFound } from '../platform/errors.ts';
import { timestamp } from '../platform/ids.ts';
import type { ListParams } from '../platform/pagination.ts';
import { listEnvelopeOf, toListQuery } from '../platform/pagination.ts';
import type { Platform } from '../platform/platform.ts';
import type { Scope } from '../platform/ports.ts';
import { ACTIVE_STATUSES, TERMINAL_STATUSES, type RunStatus } from '../platform/schemas.ts';
import { executionArnOf } from '../platform/sfn-runner.ts';
import type { RunKind } from './kinds.ts';

/** Run records keep private fields under `_` names; they never reach the wire. */
export interface RunData {
  id: string;
  status: RunStatus;
  error: unknown;
  usage: { credits: number; page_count?: number };
  created_at: string;
  _output_key?: string | null;
  /**
   * The stored result's JSON itself when it is small (functions/runs/task.ts INLINE_OUTPUT_BYTES): a
   * read of the run then needs no object-store read. The object at `_output_key` is written all the same.
   */
  _output_inline?: string | null;
  _input?: unknown;
  _cache_key?: string | null;
  /** Created with `background: true`: its end is announced by a `<kind>.completed|failed` event. */
  _background?: boolean;
  /** The wire fields its task set on completion, kept for the result cache. */
  _completion_fields?: Record<string, unknown> | null;
  /** Who started it: the API key of the request (usage breakdowns, functions/usage). */
  _triggered_by?: { auth_method: 'api_key'; api_key_id: string; key_name: string | null; key_prefix: string | null } | null;
  [field: string]: unknown;
}

export interface CreateRunInput {
  /** Wire fields of the record besides id/status/error/usage/created_at/output (file, model, options...). */
  fields: Record<string, unknown>;
  /** What the task needs that the wire does not show (blob keys, ...). */
  input?: unknown;
  /** Used by list filters. */
  filename?: string;
  attrs?: Record<string, string>;
  background: boolean;
  /** Initial usage (e.g. a page count known up front). */
  usage?: RunData['usage'];
  /**
   * Identifies the work (input bytes, options, model) for the result cache (API §0.5). Omit it to
   * skip the cache (bust_cache).
   */
  cacheKey?: string;
}

/** A cached result: a copy of a completed run's output, kept apart so deleting that run keeps it. */
interface CacheEntry {
  blobKey: string;
  usage: RunData['usage'];
  /** Wire fields the task set on completion (RunTask `fields`). */
  fields?: Record<string, unknown>;
  /** The results kept apart (RunKind `apart`) that this entry has a copy of; none for entries from before they were. */
  apart?: string[];
}

function cacheItemKey(scope: Scope, kind: RunKind, cacheKey: string): string {
  return `${scope.orgId}#${scope.envId}#cache#${kind.type}#${cacheKey}`;
}
function cacheBlobKey(scope: Scope, kind: RunKind, cacheKey: string): string {
  return `${scope.orgId}/${scope.envId}/cache/${kind.type}/${cacheKey}.json`;
}
function cacheApartKey(scope: Scope, kind: RunKind, cacheKey: string, name: string): string {
  return `${scope.orgId}/${scope.envId}/cache/${kind.type}/${cacheKey}.${name}.json`;
}

/** Called when a run completes: later identical requests may be answered from this output. */
export async function rememberResult(p: Platform, scope: Scope, kind: RunKind, data: RunData): Promise<void> {
  const cacheKey = data._cache_key;
  if (typeof cacheKey !== 'string' || !data._output_key) return;
  const blobKey = cacheBlobKey(scope, kind, cacheKey);
  await p.blobs.copy(data._output_key, blobKey);
  await p.store.putItem<CacheEntry>(cacheItemKey(scope, kind, cacheKey), { blobKey, usage: data.usage, fields: data._completion_fields ?? undefined });
}

/**
 * Remembers a result for later identical requests before its run completes, from the output's JSON
 * (written alongside the output itself): the answer to a sync create leaves as soon as its run
 * completes, and a client repeating the request at once finds the entry. `forget` takes it back
 * when the run does not complete after all (cancelled or deleted meanwhile: its result is dropped).
 */
export function rememberOutput(
  p: Platform,
  scope: Scope,
  kind: RunKind,
  cacheKey: string,
  stored: string,
  result: Omit<CacheEntry, 'blobKey' | 'apart'>,
  /** The results kept apart, by name, as the JSON stored for the run. */
  apart: Record<string, string> = {},
): { written: Promise<unknown>; forget(): Promise<void> } {
  const blobKey = cacheBlobKey(scope, kind, cacheKey);
  const itemKey = cacheItemKey(scope, kind, cacheKey);
  const names = Object.keys(apart);
  // The item may land before the blobs: a reader finds one missing (answerFromCache heads them) and runs the work.
  const written = Promise.all([
    p.blobs.put(blobKey, stored, 'application/json'),
    ...names.map((name) => p.blobs.put(cacheApartKey(scope, kind, cacheKey, name), apart[name]!, 'application/json')),
    p.store.putItem<CacheEntry>(itemKey, { blobKey, ...result, ...(names.length > 0 ? { apart: names } : {}) }),
  ]);
  return {
    written,
    async forget() {
      await written.catch(() => undefined);
      await p.store.deleteItem(itemKey);
    },
  };
}

/** A new, already completed run whose output is a copy of the cached one; undefined on a miss. */
async function answerFromCache(p: Platform, scope: Scope, kind: RunKind, data: RunData, cacheKey: string): Promise<RunData | undefined> {
  const entry = await p.store.getItem<CacheEntry>(cacheItemKey(scope, kind, cacheKey));
  if (!entry) return undefined;
  // The new run gets copies of its own (deleting it deletes them; the entry keeps its copies).
  const copies: Array<[from: string, to: string]> = [
    [entry.blobKey, outputKeyOf(scope, kind, data.id)],
    ...(entry.apart ?? []).map((name): [string, string] => [cacheApartKey(scope, kind, cacheKey, name), apartKeyOf(scope, kind, data.id, name)]),
  ];
  const heads = await Promise.all(copies.map(([from]) => p.blobs.head(from)));
  if (heads.some((head) => !head)) return undefined;
  await Promise.all(copies.map(([from, to]) => p.blobs.copy(from, to)));
  return { ...data, ...entry.fields, status: 'completed', usage: entry.usage, _output_key: copies[0]![1] };
}

export function outputKeyOf(scope: Scope, kind: RunKind, id: string): string {
  return `${scope.orgId}/${scope.envId}/outputs/${kind.type}/${id}.json`;
}

/** Where a run's result `name` kept apart (RunKind `apart`) is stored: beside its output. */
export function apartKeyOf(scope: Scope, kind: RunKind, id: string, name: string): string {
  return `${scope.orgId}/${scope.envId}/outputs/${kind.type}/${id}.${name}.json`;
}

/**
 * Where the part of range `index` of a run that fanned out (RunTask `ranges`) is kept until the
 * merge: beside the run's output, deleted by the merge (or a cancel, a delete, a failure).
 */
export function partKeyOf(scope: Scope, kind: RunKind, id: string, index: number): string {
  return `${scope.orgId}/${scope.envId}/outputs/${kind.type}/${id}.parts/${index}.json`;
}

/** The parts of a run that fanned out over `ranges` ranges (none when it did not: `ranges` undefined). */
export function partKeysOf(scope: Scope, kind: RunKind, id: string, ranges: unknown): string[] {
  return typeof ranges === 'number' ? Array.from({ length: ranges }, (_, index) => partKeyOf(scope, kind, id, index)) : [];
}

/** The record field where range `index` of a run that fanned out counts its pages read (the record's progress sums them). */
export function rangeDoneField(index: number): string {
  return `_range_done_${index}`;
}

/** How far a run's work is (RunProgress): for a run that fanned out, the pages its ranges have read, summed. */
function progressOf(data: RunData): unknown {
  const progress = data.progress as { pages_done: number; pages_total: number } | undefined;
  if (!progress || typeof data._ranges !== 'number') return progress;
  let done = 0;
  for (let index = 0; index < data._ranges; index++) done += Number(data[rangeDoneField(index)] ?? 0);
  return { pages_done: Math.min(done, progress.pages_total), pages_total: progress.pages_total };
}

/** Every object a run's task may have stored: its output and the results its kind keeps apart. */
export function resultKeysOf(scope: Scope, kind: RunKind, id: string): string[] {
  return [outputKeyOf(scope, kind, id), ...(kind.apart ?? []).map((name) => apartKeyOf(scope, kind, id, name))];
}

const isTerminal = (status: string | undefined) => TERMINAL_STATUSES.includes(status as RunStatus);

/** What a completed run's task stored: the output, the other result fields, and what only a dedicated route shows. */
export interface StoredResult {
  output: unknown;
  extras: Record<string, unknown>;
  /** Not part of the record (e.g. an extraction's sources, served by GET .../sources). */
  hidden?: Record<string, unknown>;
}

/** The wire form of a run: private fields dropped, `output` and the other result fields set. */
export function renderRun(data: RunData, result: StoredResult, kind: RunKind): Record<string, unknown> {
  const wire: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(data)) if (!key.startsWith('_')) wire[key] = value;
  // How far the work is (RunProgress) means something only while it goes on.
  if (data.status !== 'in_progress') delete wire.progress;
  else if (wire.progress !== undefined) wire.progress = progressOf(data);
  wire.output = result.output;
  Object.assign(wire, result.extras);
  return kind.present ? kind.present(wire) : wire;
}

/** The run as webhook events carry it (API §12: the run without output). */
export function runWithoutOutput(data: RunData, kind: RunKind): Record<string, unknown> {
  const { output: _output, ...run } = renderRun(data, emptyResult(kind), kind);
  return run;
}

function emptyResult(kind: RunKind): StoredResult {
  return { output: kind.emptyOutput, extras: kind.emptyExtras ?? {} };
}

/** A completed run's stored result as JSON: kept in its record when small, else read from its object; undefined when there is none. */
export async function storedJsonOf(p: Platform, data: RunData): Promise<string | undefined> {
  if (data.status !== 'completed' || !data._output_key) return undefined;
  if (typeof data._output_inline === 'string') return data._output_inline;
  const bytes = await p.blobs.get(data._output_key);
  return bytes ? Buffer.from(bytes).toString('utf8') : undefined;
}

async function resultOf(p: Platform, kind: RunKind, data: RunData, includeOutput: boolean): Promise<StoredResult> {
  const json = includeOutput ? await storedJsonOf(p, data) : undefined;
  return json === undefined ? emptyResult(kind) : storedResultOf(kind, json);
}

/** The result a task stored, from its JSON, as the wire shows it. */
function storedResultOf(kind: RunKind, json: string): StoredResult {
  const stored = JSON.parse(json) as StoredResult;
  return { output: stored.output, extras: { ...(kind.emptyExtras ?? {}), ...stored.extras } };
}

/** A completed run's record and everything its task stored; 404 when unknown, 409 when not completed. */
export async function readCompletedRun(
  p: Platform,
  scope: Scope,
  kind: RunKind,
  id: string,
  notCompleted: (status: string) => string,
): Promise<{ data: RunData; stored: StoredResult }> {
  const { data, stored } = await readRunWithResult(p, scope, kind, id);
  if (!stored) throw new Conflict(notCompleted(data.status));
  return { data, stored };
}

/** A run's record and, once it completed, its stored result (undefined before); 404 when the run is unknown. */
export async function readRunWithResult(p: Platform, scope: Scope, kind: RunKind, id: string): Promise<{ data: RunData; stored: StoredResult | undefined }> {
  const data = await readRun(p, scope, kind, id);
  const json = await storedJsonOf(p, data);
  return { data, stored: json === undefined ? undefined : (JSON.parse(json) as StoredResult) };
}

/**
 * A completed run's result kept apart under `name` (RunKind `apart`), read without its output; 404
 * when the run is unknown, 409 when not completed. `value` is undefined when its task stored none
 * under that name (nothing to keep, or a run stored before results were kept apart).
 */
export async function readApartResult(
  p: Platform,
  scope: Scope,
  kind: RunKind,
  id: string,
  name: string,
  notCompleted: (status: string) => string,
): Promise<{ data: RunData; value: unknown }> {
  const data = await readRun(p, scope, kind, id);
  if (data.status !== 'completed' || !data._output_key) throw new Conflict(notCompleted(data.status));
  const bytes = await p.blobs.get(apartKeyOf(scope, kind, id, name));
  return { data, value: bytes ? JSON.parse(Buffer.from(bytes).toString('utf8')) : undefined };
}

async function readRun(p: Platform, scope: Scope, kind: RunKind, id: string): Promise<RunData> {
  const record = await p.store.getRecord<RunData>(scope, kind.type, id);
  if (!record) throw NotFound.of(kind.resource, id);
  return record.data;
}

function executionArn(p: Platform, id: string): string {
  return executionArnOf(p.config.runStateMachineArn, id);
}

/**
 * Polls the run until it is terminal or the deadline passes; never sleeps a fixed long time. It
 * waits before its first read (a run just started cannot have ended). A consistent GetItem is cheap:
 * for the first seconds, when most sync runs end, the gap stays at most 25 ms, so the answer leaves
 * close to the moment the run ends (with 100 ms, a 200-page parse's answer waited ~50 ms longer on
 * average); after that, 100 ms keeps the reads few. Where every run end is announced (the local
 * runtime), the waiter sleeps until the announcement and reads once: its reads, 2–8 ms each on the
 * emulators, were a fixed cost of every sync run; a read every second stays as a safety net.
 */
async function waitForTerminal(p: Platform, scope: Scope, kind: RunKind, id: string, deadline: number): Promise<{ data: RunData; result?: StoredResult }> {
  const started = Date.now();
  let delay = p.runEnds.heard ? HEARD_SAFETY_READ_MS : 10;
  for (;;) {
    const news = await p.runEnds.wait(id, Math.min(delay, Math.max(0, deadline - Date.now())));
    // Announced with its record (and a small output): nothing to read back.
    const heard = news?.record as RunData | undefined;
    if (heard?.id === id && isTerminal(heard.status)) return { data: heard, result: heard.status === 'completed' && news!.stored !== undefined ? storedResultOf(kind, news!.stored) : undefined };
    const data = await readRun(p, scope, kind, id);
    if (isTerminal(data.status) || Date.now() >= deadline) return { data };
    if (!p.runEnds.heard) delay = Math.min(delay * 1.5, Date.now() - started < 5_000 ? 25 : 100);
  }
}

/** Where run ends are announced, the waiter still reads the record this often (a missed announcement costs at most this). */
const HEARD_SAFETY_READ_MS = 1_000;

export async function createRun(p: Platform, scope: Scope, kind: RunKind, input: CreateRunInput): Promise<Record<string, unknown>> {
  const started = Date.now();
  const run = await startRun(p, scope, kind, input);
  if (run.status !== 'queued' || input.background) return run.wire;
  const { id } = run;
  const { data: settled, result } = await waitForTerminal(p, scope, kind, id, started + p.config.syncWaitMs);
  const error = settled.error as { code?: string; message?: string } | null;
  if (settled.status === 'failed' && (error?.code === 'document_invalid' || error?.code === 'document_unsupported')) {
    // A document that cannot be opened is a bad request (API §0.2), answered 422 and not kept as a
    // run. A background create learns it later, as a failed run.
    await p.store.deleteRecord(scope, kind.type, id);
    await p.ledger.forget(p, scope, id);
    throw Invalid.at(['body', 'document'], error.message ?? 'The document cannot be read', error.code);
  }
  return renderRun(settled, result ?? (await resultOf(p, kind, settled, true)), kind);
}

/**
 * Stores a run and starts its execution without waiting for it: `queued`, or `completed` at once
 * when the result cache answers. (A create that waits is `createRun`; a caller that reports on the
 * run as it goes, e.g. a streamed extraction, follows it with `followRun`.)
 */
export async function startRun(p: Platform, scope: Scope, kind: RunKind, input: CreateRunInput): Promise<{ id: string; status: RunStatus; wire: Record<string, unknown> }> {
  const id = p.ids.next(kind.idPrefix);
  const data: RunData = {
    id,
    ...input.fields,
    status: 'queued',
    error: null,
    usage: input.usage ?? { credits: 0 },
    created_at: timestamp(p.clock.now()),
    _output_key: null,
    _input: input.input ?? null,
    _cache_key: input.cacheKey ?? null,
    _background: input.background,
    _triggered_by: triggeredBy(scope),
  };
  const cached = input.cacheKey ? await answerFromCache(p, scope, kind, data, input.cacheKey) : undefined;
  if (cached) {
    await p.store.putRecord(scope, { type: kind.type, id, createdAt: cached.created_at, status: cached.status, filename: input.filename, attrs: input.attrs, data: cached });
    await p.ledger.record(p, scope, { runId: id, operation: kind.name, status: 'completed', usage: cached.usage, type: kind.type });
    if (input.background) await p.events.emit(p, scope, { type: `${kind.name}.completed`, data: runWithoutOutput(cached, kind) });
    return { id, status: cached.status, wire: renderRun(cached, await resultOf(p, kind, cached, true), kind) };
  }
  await p.store.putRecord(scope, { type: kind.type, id, createdAt: data.created_at, status: data.status, filename: input.filename, attrs: input.attrs, data });
  try {
    await p.runner.start('run', { name: id, input: { run: { kind: kind.name, orgId: scope.orgId, envId: scope.envId, id } } });
  } catch (error) {
    // Nothing will ever run it: record why instead of leaving it queued forever.
    await p.store.moveStatus<RunData>(scope, kind.type, id, ACTIVE_STATUSES, 'failed', {
      error: { code: 'internal', message: 'The run could not be started', details: null },
    });
    throw error;
  }
  return { id, status: data.status, wire: renderRun(data, emptyResult(kind), kind) };
}

/** Who started a run (the usage breakdowns show it): the API key of a request's caller; null for other scopes (the dashboard, a workflow). */
function triggeredBy(scope: Scope): RunData['_triggered_by'] {
  const key = (scope as { key?: { id?: unknown; name?: unknown; prefix?: unknown } }).key;
  if (!key || typeof key.id !== 'string') return null;
  return { auth_method: 'api_key', api_key_id: key.id, key_name: typeof key.name === 'string' ? key.name : null, key_prefix: typeof key.prefix === 'string' ? key.prefix : null };
}

/** How often `followRun` reads a run that has not ended, to see its status move (queued → in_progress). */
const FOLLOW_READ_MS = 250;

/**
 * Follows a started run until it ends, `until` passes or `signal` aborts (whichever first), telling
 * `onStatus` each status it sees; answers the run as it then stands, its result read when it
 * completed. Where run ends are announced (the local runtime) the end is heard at once.
 */
export async function followRun(
  p: Platform,
  scope: Scope,
  kind: RunKind,
  id: string,
  options: { until: number; signal?: AbortSignal; onStatus?(data: RunData): void },
): Promise<{ data: RunData; wire: Record<string, unknown>; result: StoredResult }> {
  let data = await readRun(p, scope, kind, id);
  let seen: string | undefined;
  for (;;) {
    if (data.status !== seen) {
      seen = data.status;
      options.onStatus?.(data);
    }
    if (isTerminal(data.status) || Date.now() >= options.until || options.signal?.aborted) break;
    const news = await p.runEnds.wait(id, Math.min(FOLLOW_READ_MS, Math.max(0, options.until - Date.now())));
    const heard = news?.record as RunData | undefined;
    if (heard?.id === id && isTerminal(heard.status)) {
      data = heard;
      if (heard.status === 'completed' && news!.stored !== undefined) {
        const result = storedResultOf(kind, news!.stored);
        options.onStatus?.(data);
        return { data, wire: renderRun(data, result, kind), result };
      }
      continue;
    }
    data = await readRun(p, scope, kind, id);
  }
  const result = await resultOf(p, kind, data, true);
  return { data, wire: renderRun(data, result, kind), result };
}

export async function getRun(p: Platform, scope: Scope, kind: RunKind, id: string, includeOutput: boolean) {
  const data = await readRun(p, scope, kind, id);
  return renderRun(data, await resultOf(p, kind, data, includeOutput), kind);
}

export async function listRuns(p: Platform, scope: Scope, kind: RunKind, params: ListParams & { include_output: boolean }, attrs?: Record<string, string | undefined>) {
  const page = await p.store.listRecords<RunData>(scope, kind.type, toListQuery(params, attrs));
  const outputs = await Promise.all(page.items.map((item) => resultOf(p, kind, item.data, params.include_output)));
  const byId = new Map(page.items.map((item, i) => [item.id, outputs[i]]));
  return listEnvelopeOf(page, (data) => renderRun(data, byId.get(data.id)!, kind));
}

/** Cancel (API §0.5): active → cancelled and the execution stopped; a terminal run comes back unchanged. */
export async function cancelRun(p: Platform, scope: Scope, kind: RunKind, id: string) {
  const current = await readRun(p, scope, kind, id);
  if (isTerminal(current.status)) return renderRun(current, await resultOf(p, kind, current, true), kind);
  const cancelled = await p.store.moveStatus<RunData>(scope, kind.type, id, ACTIVE_STATUSES, 'cancelled', { error: null });
  if (!cancelled) {
    // It reached a terminal status between the read and the write: answer with that.
    const settled = await readRun(p, scope, kind, id);
    return renderRun(settled, await resultOf(p, kind, settled, true), kind);
  }
  p.runEnds.announce(id);
  await p.runner.stop(executionArn(p, id), 'Cancelled by the API');
  // A task that already wrote its output (or a range its part) before noticing the cancel leaves nothing behind.
  await Promise.all([...resultKeysOf(scope, kind, id), ...partKeysOf(scope, kind, id, cancelled.data._ranges)].map((key) => p.blobs.delete(key)));
  return renderRun(cancelled.data, emptyResult(kind), kind);
}

export async function deleteRun(p: Platform, scope: Scope, kind: RunKind, id: string): Promise<void> {
  let current = await readRun(p, scope, kind, id);
  if (!isTerminal(current.status)) {
    // Stop it first so no late finish writes an output for a record that is gone.
    current = (await p.store.moveStatus<RunData>(scope, kind.type, id, ACTIVE_STATUSES, 'cancelled', { error: null }))?.data ?? current;
    await p.runner.stop(executionArn(p, id), 'Deleted by the API');
  }
  await p.store.deleteRecord(scope, kind.type, id);
  await Promise.all([...resultKeysOf(scope, kind, id), ...partKeysOf(scope, kind, id, current._ranges)].map((key) => p.blobs.delete(key)));
}
