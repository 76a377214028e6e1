/**
 * The task handler of statemachines/run.asl.json: one Lambda, four steps.
 *   start   — conditional queued → in_progress; `proceed: false` when the run was cancelled or deleted.
 *   execute — runs the kind's work, writes the output to storage, and completes the run itself:
 *             conditional in_progress → completed; when the condition fails (cancelled or deleted
 *             meanwhile) the late result is discarded. An expected failure is passed on instead.
 *   finish  — for a failure passed on: conditional in_progress → failed with the kind's
 *             PrimitiveError (and, for executions started by an older execute, the completion).
 *   fail    — any uncaught failure (crash, timeout) → failed with a PrimitiveError.
 * A kind that reads page ranges apart (RunTask `ranges`: a long PDF's parse) may answer execute with
 * a fan-out instead: the machine's Ranges map then runs
 *   range   — one range's work, its part stored apart (partKeyOf) until the merge; an expected
 *             failure is passed on;
 *   merge   — the parts in range order into the run's result, completed as execute completes it;
 *             a range's failure passed on fails the run with that range's error.
 * The parts are deleted by the merge, by a cancel or delete (../runs/service.ts), or by the range
 * itself when it finds its run no longer wanted.
 * Completing in `execute` saves a read of the record and a state transition per run (the fixed cost
 * of a sync run, issue 23): the conditional move is the check that the run is still wanted.
 */
import { ModelFailure } from '../models/engine.ts';
import { RunFailure } from '../platform/errors.ts';
import { keepNewest } from '../platform/keep-newest.ts';
import { logger } from '../platform/logger.ts';
import { platform, type Platform } from '../platform/platform.ts';
import type { Scope } from '../platform/ports.ts';
import { ACTIVE_STATUSES, type PrimitiveError } from '../platform/schemas.ts';
import type { FanOut, PageRange, RunContext, RunKind, RunProgress, RunResult, RunTask, RunUsage } from './kinds.ts';
import { apartKeyOf, outputKeyOf, partKeyOf, partKeysOf, rangeDoneField, rememberOutput, rememberResult, type RunData, type StoredResult } from './service.ts';
import { settle } from './settle.ts';

interface RunRef {
  kind: string;
  orgId: string;
  envId: string;
  id: string;
}

type Executed =
  /** Completed (or dropped, `finished: false`) by execute itself. */
  | { settled: true; finished: boolean }
  /** From an execute of the code before completion moved into it (an execution in flight across a deploy). */
  | { outputKey: string; usage: RunUsage; fields?: Record<string, unknown> }
  | { failure: PrimitiveError }
  | { skipped: true }
  /** Split over page ranges: the Ranges map follows, then Merge. */
  | { fanOut: Omit<FanOut, 'pagesTotal'> };

/** What one range's step answers (the Ranges map's result, one per range, handed to merge). */
type Ranged = { done: true } | { failure: PrimitiveError } | { skipped: true };

export type RunTaskInput =
  | { step: 'start'; run: RunRef }
  | { step: 'execute'; run: RunRef }
  | { step: 'range'; run: RunRef; range: PageRange }
  | { step: 'merge'; run: RunRef; ranged: Ranged[] }
  | { step: 'finish'; run: RunRef; executed: Executed }
  | { step: 'fail'; run: RunRef; error: { Error?: string; Cause?: string } };

/** A state machine Catch gives {Error, Cause}; for Lambda errors Cause is JSON {errorType, errorMessage}. */
export function primitiveErrorOf(error: { Error?: string; Cause?: string }): PrimitiveError {
  // The state's TimeoutSeconds and the Lambda's own timeout are equal, so either may fire first.
  if (error.Error === 'States.Timeout' || error.Error === 'Sandbox.Timedout') {
    return { code: 'timeout', message: 'The run exceeded its time budget', details: null };
  }
  let errorType = error.Error ?? 'Error';
  try {
    const cause = JSON.parse(error.Cause ?? '{}') as { errorType?: string };
    errorType = cause.errorType ?? errorType;
  } catch {
    // Cause was not JSON: keep the error name only.
  }
  // Never copy an unexpected error's message into the record: it may hold internals.
  return { code: 'internal', message: `The run failed unexpectedly (${errorType})`, details: null };
}

/** What the task keeps in hand after its work, to write the output and finish in time. */
const DEADLINE_MARGIN_MS = 10_000;

/**
 * The record each run's start step moved to in_progress, kept by this container for its execute step
 * (which usually comes to the same warm container: locally the pool reuses the worker just freed).
 * Elsewhere execute reads the record. Taken once; a handful at most.
 */
const startedRecords = new Map<string, RunData>();
const STARTED_RECORDS_KEPT = 16;

function keepStarted(id: string, data: RunData): void {
  keepNewest(startedRecords, id, data, STARTED_RECORDS_KEPT);
}

function takeStarted(id: string): RunData | undefined {
  const data = startedRecords.get(id);
  startedRecords.delete(id);
  return data;
}

/** Outputs up to this size (JSON) are announced with the run's end (./settle.ts): the waiting request need not read them back. */
const ANNOUNCED_OUTPUT_BYTES = 16 * 1024;
/**
 * Outputs up to this size (JSON) are kept in the run's record too, so reading the run is one table
 * read and no object read (an object read costs tens of ms in AWS, several ms of CPU locally). Small
 * enough that a list page of such records stays a small read.
 */
const INLINE_OUTPUT_BYTES = 8 * 1024;

/**
 * Moves a run whose output is stored (or being stored: `storing`, the output's put with its JSON) to
 * completed; a run cancelled or deleted meanwhile leaves nothing behind.
 */
async function complete(
  p: Platform,
  scope: Scope,
  kind: RunKind,
  id: string,
  done: { outputKey: string; usage: RunUsage; fields?: Record<string, unknown> },
  storing?: {
    put: Promise<unknown>;
    /** The output's JSON as stored (what the result cache keeps too). */
    json: string;
    /** The same without the hidden results (what the waiting request is told). */
    announced: string;
    /** The results kept apart (RunKind `apart`), by name: their JSON, and where it is being put. */
    apart: Record<string, { json: string; key: string }>;
    cacheKey?: string | null;
  },
): Promise<boolean> {
  // The result cache's entry is written with the output, so it is there when the answer leaves.
  const apartJson = Object.fromEntries(Object.entries(storing?.apart ?? {}).map(([name, { json }]) => [name, json]));
  const caching = typeof storing?.cacheKey === 'string' ? rememberOutput(p, scope, kind, storing.cacheKey, storing.json, { usage: done.usage, fields: done.fields }, apartJson) : undefined;
  caching?.written.catch(() => undefined); // (awaited in settle; this only keeps a failure before then observed)
  const completed = await settle(
    p,
    scope,
    kind,
    id,
    ['in_progress'],
    'completed',
    {
      ...done.fields,
      _completion_fields: done.fields ?? null,
      _output_key: done.outputKey,
      _output_inline: storing && Buffer.byteLength(storing.json) <= INLINE_OUTPUT_BYTES ? storing.json : null,
      usage: done.usage,
      error: null,
    },
    done.usage,
    { also: storing ? Promise.all([storing.put, caching?.written]) : undefined, stored: storing && storing.announced.length <= ANNOUNCED_OUTPUT_BYTES ? storing.announced : undefined },
  );
  if (!completed) {
    const apartKeys = Object.values(storing?.apart ?? {}).map(({ key }) => key);
    await Promise.all([p.blobs.delete(done.outputKey), ...apartKeys.map((key) => p.blobs.delete(key)), caching?.forget()]);
    return false;
  }
  // (An execute from before this code handed over no output JSON: its result is remembered now.)
  if (!caching) await rememberResult(p, scope, kind, completed);
  return true;
}

/** The context a task's step works in: its run, its record, its time budget. */
function contextOf(p: Platform, scope: Scope, kind: RunKind, id: string, data: RunData, context?: { getRemainingTimeInMillis(): number }): RunContext {
  const remaining = context?.getRemainingTimeInMillis() ?? 15 * 60_000;
  const deadline = Date.now() + Math.max(1_000, remaining - DEADLINE_MARGIN_MS);
  const stillWanted = async () => (await p.store.getRecord<RunData>(scope, kind.type, id))?.data.status === 'in_progress';
  // (A patch of one field: a cancel or a completion meanwhile is not undone by it.)
  const reportProgress = async (progress: RunProgress) => void (await p.store.updateRecord<RunData>(scope, kind.type, id, { progress }));
  return { platform: p, scope, runId: id, record: data, stillWanted, reportProgress, deadline };
}

/** An expected failure of the work (RunFailure, ModelFailure) passed on as the run's error, for the next step to settle. */
async function expected<T>(work: () => Promise<T>): Promise<T | { failure: PrimitiveError }> {
  try {
    return await work();
  } catch (error) {
    if (error instanceof RunFailure) return { failure: { code: error.code, message: error.message, details: error.details } };
    if (error instanceof ModelFailure) return { failure: { code: error.code, message: error.message, details: null } };
    throw error;
  }
}

function rangesOf(task: RunTask): NonNullable<RunTask['ranges']> {
  if (!task.ranges) throw new Error(`The ${task.kind.name} task does not read page ranges`);
  return task.ranges;
}

/** Stores the work's result and completes the run with it (execute, or merge after a fan-out). */
async function storeAndComplete(p: Platform, scope: Scope, kind: RunKind, id: string, data: RunData, result: RunResult): Promise<Executed> {
  const outputKey = outputKeyOf(scope, kind, id);
  const stored = JSON.stringify({ output: result.output, extras: result.extras ?? {}, hidden: result.hidden ?? {} } satisfies StoredResult);
  const apart: Record<string, { json: string; key: string }> = {};
  for (const [name, value] of Object.entries(result.apart ?? {})) {
    // Only declared names: cancelling or deleting the run deletes exactly those.
    if (!kind.apart?.includes(name)) throw new Error(`The ${kind.name} task kept a result apart under an undeclared name: ${name}`);
    apart[name] = { json: JSON.stringify(value), key: apartKeyOf(scope, kind, id, name) };
  }
  // The output (and any result kept apart) is put while the usage entry is written; all before the move to completed.
  const put = Promise.all([p.blobs.put(outputKey, stored, 'application/json'), ...Object.values(apart).map(({ json, key }) => p.blobs.put(key, json, 'application/json'))]);
  put.catch(() => undefined); // (awaited in settle; this only keeps a failure before then observed)
  // Cancelled or deleted while it worked: the execution may already be stopped, so no Finish
  // would ever clean up. Whoever acts second (this completion or the canceller) deletes the output.
  const announced = result.hidden && Object.keys(result.hidden).length > 0 ? JSON.stringify({ output: result.output, extras: result.extras ?? {} }) : stored;
  const finished = await complete(p, scope, kind, id, { outputKey, usage: result.usage, ...(result.fields ? { fields: result.fields } : {}) }, { put, json: stored, announced, apart, cacheKey: data._cache_key });
  return { settled: true, finished };
}

/** Finds the task of a run kind by its name (the feature list's `loadRunTask`). */
export type RunTaskLoader = (kind: string) => Promise<RunTask>;

/** The task Lambda's handler, given where to find each kind's task (functions/features.ts `runTask`). */
export function runTaskHandler(loadTask: RunTaskLoader) {
  return (input: RunTaskInput, context?: { getRemainingTimeInMillis(): number }) => runStep(loadTask, input, context);
}

async function runStep(loadTask: RunTaskLoader, input: RunTaskInput, context?: { getRemainingTimeInMillis(): number }): Promise<unknown> {
  const p = platform();
  const scope: Scope = { orgId: input.run.orgId, envId: input.run.envId };
  const task = await loadTask(input.run.kind);
  const kind = task.kind;
  const id = input.run.id;
  logger.appendKeys({ run_id: id, step: input.step, kind: kind.name });
  try {
    switch (input.step) {
      case 'start': {
        const moved = await p.store.moveStatus<RunData>(scope, kind.type, id, ['pending', 'queued'], 'in_progress');
        if (moved) keepStarted(id, moved.data);
        return { proceed: moved !== undefined };
      }

      case 'execute': {
        // The record as start left it (a cancel since then is caught by the conditional completion).
        const data = takeStarted(id) ?? (await p.store.getRecord<RunData>(scope, kind.type, id))?.data;
        if (!data || data.status !== 'in_progress') return { skipped: true };
        const ctx = contextOf(p, scope, kind, id, data, context);
        return await expected(async () => {
          const fanOut = await task.ranges?.plan(ctx);
          if (fanOut) {
            // (A patch of two fields: a cancel meanwhile is not undone by it.)
            await p.store.updateRecord<RunData>(scope, kind.type, id, { progress: { pages_done: 0, pages_total: fanOut.pagesTotal }, _ranges: fanOut.ranges.length });
            logger.info('run fans out', { ranges: fanOut.ranges.length, pages: fanOut.pagesTotal, concurrency: fanOut.concurrency });
            return { fanOut: { ranges: fanOut.ranges, concurrency: fanOut.concurrency } } satisfies Executed;
          }
          return await storeAndComplete(p, scope, kind, id, data, await task.execute(ctx));
        });
      }

      case 'range': {
        const ranges = rangesOf(task);
        const range = input.range;
        const data = (await p.store.getRecord<RunData>(scope, kind.type, id))?.data;
        if (!data || data.status !== 'in_progress') return { skipped: true } satisfies Ranged;
        const done = rangeDoneField(range.index);
        // This range's pages read so far, in a field of its own (ranges run at once; the record shows their sum).
        const reportProgress = async (progress: RunProgress) => void (await p.store.updateRecord<RunData>(scope, kind.type, id, { [done]: progress.pages_done }));
        const ctx = { ...contextOf(p, scope, kind, id, data, context), reportProgress };
        return await expected<Ranged>(async () => {
          const part = await ranges.range(ctx, range);
          const key = partKeyOf(scope, kind, id, range.index);
          await p.blobs.put(key, JSON.stringify(part), 'application/json');
          const after = await p.store.updateRecord<RunData>(scope, kind.type, id, { [done]: range.last - range.first + 1 });
          // Cancelled or deleted meanwhile: whoever acts second (this range or the canceller) deletes the part.
          if (after?.data.status !== 'in_progress') {
            await p.blobs.delete(key);
            return { skipped: true };
          }
          return { done: true };
        });
      }

      case 'merge': {
        const ranges = rangesOf(task);
        const data = (await p.store.getRecord<RunData>(scope, kind.type, id))?.data;
        const count = input.ranged.length;
        try {
          if (!data || data.status !== 'in_progress' || input.ranged.some((r) => 'skipped' in r)) return { skipped: true } satisfies Executed;
          const failed = input.ranged.find((r): r is { failure: PrimitiveError } => 'failure' in r);
          if (failed) return { failure: failed.failure } satisfies Executed;
          const ctx = contextOf(p, scope, kind, id, data, context);
          return await expected(async () => {
            const parts = await Promise.all(
              partKeysOf(scope, kind, id, count).map(async (key) => {
                const bytes = await p.blobs.get(key);
                if (!bytes) throw new Error(`A part of the run is missing: ${key}`);
                return JSON.parse(Buffer.from(bytes).toString('utf8')) as unknown;
              }),
            );
            return await storeAndComplete(p, scope, kind, id, data, await ranges.merge(ctx, parts));
          });
        } finally {
          await Promise.all(partKeysOf(scope, kind, id, count).map((key) => p.blobs.delete(key)));
        }
      }

      case 'finish': {
        const executed = input.executed;
        if ('settled' in executed) return { finished: executed.finished };
        if ('skipped' in executed || 'fanOut' in executed) return { finished: false };
        if ('failure' in executed) {
          const record = await p.store.getRecord<RunData>(scope, kind.type, id);
          const failed = await settle(p, scope, kind, id, ['in_progress'], 'failed', { error: executed.failure }, record?.data.usage ?? { credits: 0 });
          return { finished: failed !== undefined };
        }
        return { finished: await complete(p, scope, kind, id, executed) };
      }

      case 'fail': {
        const error = primitiveErrorOf(input.error);
        logger.warn('run failed', { error_type: input.error.Error, code: error.code });
        const record = await p.store.getRecord<RunData>(scope, kind.type, id);
        const failed = await settle(p, scope, kind, id, ACTIVE_STATUSES, 'failed', { error }, record?.data.usage ?? { credits: 0 });
        // A run that fanned out and failed before its merge (a range crashed or timed out) leaves no part behind.
        await Promise.all(partKeysOf(scope, kind, id, record?.data._ranges).map((key) => p.blobs.delete(key)));
        return { failed: failed !== undefined };
      }
    }
  } finally {
    logger.removeKeys(['run_id', 'step', 'kind']);
  }
}
