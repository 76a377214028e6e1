/**
 * The task handler of statemachines/run.asl.json: one Lambda, four steps.
 *   start   — conditional queued → in_progress; `proceed: false` when the run was cancelled or deleted.
 *   execute — runs the kind's work, writes the output to storage, passes on its key (never the output).
 *   finish  — conditional in_progress → completed (or → failed with the kind's PrimitiveError);
 *             when the condition fails (cancelled meanwhile) the late result is discarded.
 *   fail    — any uncaught failure (crash, timeout) → failed with a PrimitiveError.
 */
import { ModelFailure } from '../models/engine.ts';
import { RunFailure } from '../platform/errors.ts';
import { logger } from '../platform/logger.ts';
import { platform } from '../platform/platform.ts';
import type { Scope } from '../platform/ports.ts';
import { ACTIVE_STATUSES, type PrimitiveError } from '../platform/schemas.ts';
import type { RunUsage } from './kinds.ts';
import { outputKeyOf, rememberResult, type RunData, type StoredResult } from './service.ts';
import { settle } from './settle.ts';
import { loadRunTask } from './tasks.ts';

interface RunRef {
  kind: string;
  orgId: string;
  envId: string;
  id: string;
}

type Executed = { outputKey: string; usage: RunUsage; fields?: Record<string, unknown> } | { failure: PrimitiveError } | { skipped: true };

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

export async function handler(input: RunTaskInput, context?: { getRemainingTimeInMillis(): number }): Promise<unknown> {
  const p = platform();
  const scope: Scope = { orgId: input.run.orgId, envId: input.run.envId };
  const task = await loadRunTask(input.run.kind);
  const kind = task.kind;
  const id = input.run.id;
  logger.appendKeys({ run_id: id, step: input.step, kind: kind.name });
  try {
    switch (input.step) {
      case 'start': {
        const moved = await p.store.moveStatus<RunData>(scope, kind.type, id, ['pending', 'queued'], 'in_progress');
        return { proceed: moved !== undefined };
      }

      case 'execute': {
        const record = await p.store.getRecord<RunData>(scope, kind.type, id);
        if (!record || record.data.status !== 'in_progress') return { skipped: true };
        const stillWanted = async () => (await p.store.getRecord<RunData>(scope, kind.type, id))?.data.status === 'in_progress';
        try {
          const remaining = context?.getRemainingTimeInMillis() ?? 15 * 60_000;
          const deadline = Date.now() + Math.max(1_000, remaining - DEADLINE_MARGIN_MS);
          const result = await task.execute({ platform: p, scope, runId: id, record: record.data, stillWanted, deadline });
          const outputKey = outputKeyOf(scope, kind, id);
          await p.blobs.put(outputKey, JSON.stringify({ output: result.output, extras: result.extras ?? {}, hidden: result.hidden ?? {} } satisfies StoredResult), 'application/json');
          // Cancelled or deleted while it worked: the execution may already be stopped, so no Finish
          // would ever clean up. Whoever acts second (this check or the canceller) deletes the output.
          if (!(await stillWanted())) {
            await p.blobs.delete(outputKey);
            return { skipped: true };
          }
          return { outputKey, usage: result.usage, ...(result.fields ? { fields: result.fields } : {}) };
        } catch (error) {
          if (error instanceof RunFailure) return { failure: { code: error.code, message: error.message, details: error.details } };
          if (error instanceof ModelFailure) return { failure: { code: error.code, message: error.message, details: null } };
          throw error;
        }
      }

      case 'finish': {
        const executed = input.executed;
        if ('skipped' in executed) return { finished: false };
        if ('failure' in executed) {
          const record = await p.store.getRecord<RunData>(scope, kind.type, id);
          const failed = await settle(p, scope, kind, id, ['in_progress'], 'failed', { error: executed.failure }, record?.data.usage ?? { credits: 0 });
          return { finished: failed !== undefined };
        }
        const completed = await settle(
          p,
          scope,
          kind,
          id,
          ['in_progress'],
          'completed',
          { ...executed.fields, _completion_fields: executed.fields ?? null, _output_key: executed.outputKey, usage: executed.usage, error: null },
          executed.usage,
        );
        // Cancelled (or deleted) while it worked: the late result is dropped, nothing is left behind.
        if (!completed) {
          await p.blobs.delete(executed.outputKey);
          return { finished: false };
        }
        await rememberResult(p, scope, kind, completed);
        return { finished: true };
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
