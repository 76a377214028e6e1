/**
 * The task handler of statemachines/run.asl.json: one Lambda, four steps.
 *   start   — conditional queued → in_progress; `proceed: false` when the run was cancelled or deleted.
 *   execute — runs the kind's work, writes the output to storage, and completes the run itself:
 *             conditional in_progress → completed; when the condition fails (cancelled or deleted
 *             meanwhile) the late result is discarded. An expected failure is passed on instead.
 *   finish  — for a failure passed on: conditional in_progress → failed with the kind's
 *             PrimitiveError (and, for executions started by an older execute, the completion).
 *   fail    — any uncaught failure (crash, timeout) → failed with a PrimitiveError.
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
import type { RunKind, RunProgress, RunTask, RunUsage } from './kinds.ts';
import { apartKeyOf, outputKeyOf, rememberOutput, rememberResult, type RunData, type StoredResult } from './service.ts';
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
  | { skipped: true };

export type RunTaskInput =
  | { step: 'start'; run: RunRef }
  | { step: 'execute'; run: RunRef }
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
        const stillWanted = async () => (await p.store.getRecord<RunData>(scope, kind.type, id))?.data.status === 'in_progress';
        try {
          const remaining = context?.getRemainingTimeInMillis() ?? 15 * 60_000;
          const deadline = Date.now() + Math.max(1_000, remaining - DEADLINE_MARGIN_MS);
          // (A patch of one field: a cancel or a completion meanwhile is not undone by it.)
          const reportProgress = async (progress: RunProgress) => void (await p.store.updateRecord<RunData>(scope, kind.type, id, { progress }));
          const result = await task.execute({ platform: p, scope, runId: id, record: data, stillWanted, reportProgress, deadline });
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
          return { settled: true, finished } satisfies Executed;
        } catch (error) {
          if (error instanceof RunFailure) return { failure: { code: error.code, message: error.message, details: error.details } };
          if (error instanceof ModelFailure) return { failure: { code: error.code, message: error.message, details: null } };
          throw error;
        }
      }

      case 'finish': {
        const executed = input.executed;
        if ('settled' in executed) return { finished: executed.finished };
        if ('skipped' in executed) return { finished: false };
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
        return { failed: failed !== undefined };
      }
    }
  } finally {
    logger.removeKeys(['run_id', 'step', 'kind']);
  }
}
