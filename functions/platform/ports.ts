/**
 * Ports: the only ways feature services talk to the world (DESIGN §1).
 * Adapters in this folder implement them with the AWS SDK v3; the same adapters run locally
 * against the emulators, only the endpoints differ. Two ports have their adapters in features (the
 * usage ledger, webhook events): functions/wiring.ts hands those in.
 */
import type { Platform } from './platform.ts';

/** The (organization, environment) every resource belongs to. */
export interface Scope {
  orgId: string;
  envId: string;
}

/** A stored resource: its wire-facing data plus a few attributes used for keys and filters. */
export interface StoredRecord<T = Record<string, unknown>> {
  type: string;
  id: string;
  createdAt: string;
  /** Run status or similar; used by list filters and conditional moves. */
  status?: string;
  /** File name; lists filter on a case-insensitive prefix of it. */
  filename?: string;
  /** Extra equality-filterable attributes (e.g. mime_type, project_id). */
  attrs?: Record<string, string>;
  data: T;
}

export interface ListQuery {
  limit: number;
  order: 'asc' | 'desc';
  after?: string;
  before?: string;
  /** Inclusive bounds on created_at, RFC 3339. */
  fromTime?: string;
  toTime?: string;
  filenamePrefix?: string;
  /** Case-insensitive substring of the file name (or of what a resource keeps there, e.g. a template's name). */
  filenameContains?: string;
  status?: string;
  attrs?: Record<string, string>;
  /**
   * A further test of each record that the table cannot express (a regular expression, a computed
   * duration, one of several statuses): applied after the table's filters, before the page is cut,
   * so pages and cursors stay exact. It reads more items per page: keep the other filters too.
   */
  where?: (record: StoredRecord<any>) => boolean;
}

export interface ListPage<T> {
  items: StoredRecord<T>[];
  /** Id of the last item when a next page exists. */
  after: string | null;
  /** Id of the first item when a previous page exists. */
  before: string | null;
}

/** A record found by a scan across every scope (Store.scanRecordsByStatus): where it lives and what it is. */
export interface RecordRef {
  scope: Scope;
  type: string;
  id: string;
  status: string;
  createdAt: string;
}

export interface Store {
  getRecord<T>(scope: Scope, type: string, id: string): Promise<StoredRecord<T> | undefined>;
  /** Creates a record; with `ifAbsent` fails with a Conflict when it exists. */
  putRecord<T>(scope: Scope, record: StoredRecord<T>, opts?: { ifAbsent?: boolean }): Promise<void>;
  /**
   * Conditional single-item update: applies `patch` to `data` (shallow merge) and sets `status`,
   * only when the current status is one of `fromStatuses`. Returns the updated record, or
   * undefined when the record is missing or the condition failed.
   */
  moveStatus<T>(
    scope: Scope,
    type: string,
    id: string,
    fromStatuses: readonly string[],
    toStatus: string,
    patch?: Partial<T>,
  ): Promise<StoredRecord<T> | undefined>;
  /** Shallow-merges `patch` into `data` (unconditional). Returns the new record or undefined. */
  updateRecord<T>(scope: Scope, type: string, id: string, patch: Partial<T>, attrs?: Partial<Pick<StoredRecord, 'filename' | 'status'>>): Promise<StoredRecord<T> | undefined>;
  deleteRecord(scope: Scope, type: string, id: string): Promise<boolean>;
  /** Throws Invalid (422) when `after`/`before` is not an item of this list. */
  listRecords<T>(scope: Scope, type: string, query: ListQuery): Promise<ListPage<T>>;
  /**
   * Records of every scope whose status is one of `statuses` and that were created before
   * `createdBefore` (RFC 3339). A full scan of the table: for the periodic sweeper only
   * (functions/runs/sweeper.ts), never on a request path.
   */
  scanRecordsByStatus(statuses: readonly string[], createdBefore: string): Promise<RecordRef[]>;

  /** Unscoped items addressed by an explicit key (API keys, lookups, organizations). */
  getItem<T>(key: string): Promise<T | undefined>;
  /** With `ifAbsent`, returns false (and writes nothing) when the key exists. */
  putItem<T>(key: string, value: T, opts?: { ifAbsent?: boolean }): Promise<boolean>;
  deleteItem(key: string): Promise<void>;
  /** Items whose key starts with `prefix` (small admin listings: keys of an organization). */
  listItems<T>(indexKey: string): Promise<T[]>;
  putIndexedItem<T>(key: string, indexKey: string, value: T): Promise<void>;
}

export interface BlobHead {
  sizeBytes: number;
  contentType?: string;
}

export interface Blobs {
  put(key: string, body: Uint8Array | string, contentType?: string): Promise<void>;
  get(key: string): Promise<Uint8Array | undefined>;
  /** Bytes [start, end] inclusive (clamped to the object); undefined when the object is missing. */
  getRange(key: string, start: number, end: number): Promise<Uint8Array | undefined>;
  head(key: string): Promise<BlobHead | undefined>;
  /** The object as a stream of chunks (bounded memory, one pass); undefined when the object is missing. */
  stream(key: string): Promise<AsyncIterable<Uint8Array> | undefined>;
  delete(key: string): Promise<void>;
  copy(fromKey: string, toKey: string): Promise<void>;
  /** Streams the object through SHA-256 without holding it in memory. */
  sha256(key: string): Promise<string | undefined>;
  presignGet(key: string, expiresInSeconds: number, downloadName?: string): Promise<string>;
  presignPut(key: string, expiresInSeconds: number, contentType: string): Promise<{ url: string; headers: Record<string, string> }>;
  /** The object key behind a URL this adapter issued (presigned GET), or undefined. */
  keyOfUrl(url: string): string | undefined;
}

/** Envelope encryption (KMS GenerateDataKey + AES-256-GCM). */
export interface Sealed {
  ciphertext: string;
  encryptedKey: string;
  iv: string;
  tag: string;
}
export interface KeyRing {
  seal(plaintext: string, context: Record<string, string>): Promise<Sealed>;
  open(sealed: Sealed, context: Record<string, string>): Promise<string>;
}

export interface RunExecution {
  /** Named after the run id, so a repeated start is idempotent. */
  name: string;
  input: Record<string, unknown>;
}
/** State machines the Runner starts: `run` (run.asl.json), `deliver` (deliver-webhook.asl.json), `workflowRun` (workflow-run.asl.json). */
export type MachineName = 'run' | 'deliver' | 'workflowRun';
/**
 * What Step Functions says of an execution (DescribeExecution), or MISSING when there is none by that
 * name: never started, or closed so long ago that it was forgotten (AWS keeps closed executions 90
 * days; the local endpoint keeps the last 1000 closed ones and forgets every one on restart).
 */
export type ExecutionStatus = 'RUNNING' | 'SUCCEEDED' | 'FAILED' | 'TIMED_OUT' | 'ABORTED' | 'PENDING_REDRIVE' | 'MISSING';
export interface Runner {
  start(machine: MachineName, execution: RunExecution): Promise<string>;
  stop(executionArn: string, cause: string): Promise<void>;
  /** The status of the execution of `machine` named `name` (executions are named after the record id). */
  executionStatus(machine: MachineName, name: string): Promise<ExecutionStatus>;
  /**
   * Completes the task state waiting on `token` (`.waitForTaskToken`) with `output`, or fails it;
   * false when no task waits on that token any more (it ended, timed out, or its execution stopped).
   */
  sendTaskSuccess(token: string, output: unknown): Promise<boolean>;
  sendTaskFailure(token: string, error: string, cause: string): Promise<boolean>;
}

/** A webhook event of one environment (API §12), before it gets its id and envelope. */
export interface WebhookEvent {
  type: string;
  data: unknown;
}
/** A usage entry (API §13): what one finished run used. */
export interface UsageNote {
  runId: string;
  /** The run kind's name: parse, split, extraction, edit, ... */
  operation: string;
  status: 'completed' | 'failed';
  usage: { credits: number; page_count?: number };
  /**
   * The store type of the run's record (its kind's `type`), when it has one: the ledger reads from it
   * what else the usage breakdowns show of the run (model, documents, metadata, who started it).
   */
  type?: string;
  /** A primitive run inside a workflow run (a document block): where it ran, and what it ran on. */
  origin?: UsageOrigin;
}

/** Where a workflow block's primitive ran (usage breakdowns by block and by workflow run). */
export interface UsageOrigin {
  workflow_id: string;
  workflow_run_id: string;
  block_id: string;
  block_type: string;
  model?: string | null;
  documents?: Array<{ file_id: string | null; filename: string | null }>;
  started_at?: string;
}

/**
 * The usage ledger: one entry per finished run, in its own environment, keyed by the run id (a
 * retried step writes the same entry once). Its adapter is the usage feature's
 * (functions/usage/ledger.ts), handed to the platform by functions/wiring.ts. Every method is given
 * the platform it runs on (a test's platform with a faulty store reaches the ledger through it too).
 */
export interface Ledger {
  record(p: Platform, scope: Scope, note: UsageNote): Promise<void>;
  /** Takes an entry back (a run whose finish did not happen after all). */
  forget(p: Platform, scope: Scope, runId: string): Promise<void>;
}

/**
 * Webhook events (API §12): `emit` records an event of one environment and, when that environment's
 * endpoint wants it, starts its delivery. The adapter is the webhooks feature's
 * (functions/webhooks/events.ts), handed to the platform by functions/wiring.ts.
 */
export interface Events {
  emit(p: Platform, scope: Scope, event: WebhookEvent): Promise<{ eventId: string; deliveryId: string | null }>;
}

/**
 * How a request waiting for a run (a synchronous create, API §0.5) learns that the run ended, sooner
 * than its next read of the record. It is only a wake-up call: the waiter still reads the record,
 * and still reads it every few tens of milliseconds, so a missed announcement costs that gap and no
 * more. On AWS no announcement reaches another Lambda (announce does nothing, wait only sleeps);
 * the local runtime, where every handler runs in one process, passes them between its threads.
 */
/**
 * What the end of a run may be announced with: its record as the end left it and, for a small
 * output, the JSON its task stored — so the waiting request need not read back either.
 */
export interface RunEndNews {
  record: Record<string, unknown>;
  stored?: string;
}

export interface RunEnds {
  /** Says that run `id` has just reached a terminal status (with what it ended as, when known). */
  announce(id: string, news?: RunEndNews): void;
  /**
   * Resolves once run `id` is announced (or was, a moment before), or after `ms`, whichever comes
   * first; with the announcement's news when it carried any.
   */
  wait(id: string, ms: number): Promise<RunEndNews | undefined>;
  /**
   * Whether every run end is announced to the waiting request (the local runtime: one process), so
   * a waiter can sleep until the announcement and read the record only then; false on AWS.
   */
  readonly heard: boolean;
}

export interface Clock {
  now(): Date;
}

export interface Ids {
  next(prefix: string): string;
}
