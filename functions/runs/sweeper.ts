/**
 * The sweeper: no run stays active forever (issue 12).
 *
 * A record is settled by its own state machine execution (run.asl.json, workflow-run.asl.json,
 * deliver-webhook.asl.json). When that execution ends without settling it — it timed out (the
 * machine's top-level TimeoutSeconds), was stopped by hand, never started, or its Fail step itself
 * kept failing — the record would stay `queued`/`in_progress` (a workflow run `pending`/`running`, a
 * webhook delivery `pending`/`retrying`) forever. The sweeper finds such records and ends them as
 * their state machine's Fail step would have:
 *   - a run → `failed` with a PrimitiveError (`timeout` when the execution timed out, else
 *     `internal`), its usage recorded and its `<kind>.failed` event sent (task.ts `settle`), and the
 *     parts of a run that fanned out over page ranges deleted;
 *   - a workflow run → `error`, with `workflow.run.failed` (the workflow run task's `fail` step);
 *   - a webhook delivery → `failed` (the deliver task's `give_up` step).
 *
 * What counts as stuck: an active record older than the grace period whose execution is not
 * running (DescribeExecution: SUCCEEDED, FAILED, TIMED_OUT, ABORTED, or no such execution). The grace
 * period protects a record just created whose execution is about to start. Every move is a
 * conditional write from the active statuses, so a run that finishes meanwhile keeps its result.
 *
 * Finding them: one filtered Scan of the table per sweep (Store.scanRecordsByStatus). It reads
 * every item, which is simple and cheap while the table is small (a sweep every 10 minutes of a
 * 100 MB table is ~14 000 read units a day). A bigger deployment would keep a sparse index instead:
 * an attribute only active records carry (set by the Store when a status becomes active, removed
 * when it becomes terminal), queried by the sweeper — not done here, because every status write of
 * the Store would have to maintain it and existing tables would need a backfill.
 *
 * What it looks after comes from the feature list (functions/features.ts `sweptRecords`): every run
 * kind, and the other record types features declare (`SweptType`). Runs on AWS as a scheduled Lambda
 * (functions/features.ts `sweep`, lib/cloud/sweeper.ts), locally on a timer of the local runtime
 * (lib/local/sweeper.ts).
 */
import { timestamp } from '../platform/ids.ts';
import { logger } from '../platform/logger.ts';
import { platform, type Platform } from '../platform/platform.ts';
import type { ExecutionStatus, MachineName, RecordRef } from '../platform/ports.ts';
import { ACTIVE_STATUSES, type PrimitiveError } from '../platform/schemas.ts';
import { registeredRunKinds, type RunKind } from './kinds.ts';
import { partKeysOf, type RunData } from './service.ts';
import { settle } from './settle.ts';

/** A record younger than this is never touched: its execution may be starting. */
export const DEFAULT_GRACE_MS = 5 * 60_000;

/** A record type, other than a run, whose state machine settles it (a webhook delivery, a workflow run). */
export interface SweptType {
  type: string;
  machine: MachineName;
  /** The statuses in which it waits for its execution. */
  active: readonly string[];
  /** Ends it as its machine's Fail step would; false when it was no longer active. */
  end(p: Platform, ref: RecordRef, execution: ExecutionStatus): Promise<boolean>;
}

/** What the sweeper looks after, from the feature list (functions/features.ts): every run kind and the other swept types. */
export interface SweptRecords {
  runKinds: readonly RunKind[];
  others: readonly SweptType[];
}

/** Execution statuses that mean it may still settle its record. */
const STILL_RUNNING: readonly ExecutionStatus[] = ['RUNNING', 'PENDING_REDRIVE'];

export interface SweepOptions {
  /** Records younger than this are left alone (default DEFAULT_GRACE_MS). */
  graceMs?: number;
}

export interface SweptRecord {
  type: string;
  id: string;
  /** What its execution was found to be. */
  execution: ExecutionStatus;
}

export interface SweepReport {
  /** Active records old enough to be looked at. */
  checked: number;
  /** The ones this sweep ended. */
  ended: SweptRecord[];
  /** Records that could not be handled (logged; the next sweep tries again). */
  errors: number;
}

function runKindOfType(swept: SweptRecords, type: string): RunKind | undefined {
  return swept.runKinds.find((kind) => kind.type === type) ?? registeredRunKinds().find((kind) => kind.type === type);
}

function machineOf(swept: SweptRecords, type: string): MachineName | undefined {
  const other = swept.others.find((o) => o.type === type);
  if (other) return other.machine;
  if (runKindOfType(swept, type)) return 'run';
  return undefined; // some other resource with a status of the same name: not the sweeper's
}

/** The error of a run whose execution ended without settling it. */
export function lostRunError(execution: ExecutionStatus): PrimitiveError {
  if (execution === 'TIMED_OUT') return { code: 'timeout', message: 'The run exceeded its time budget', details: null };
  return {
    code: 'internal',
    message: 'The run was lost: its background execution ended before the run finished',
    details: { execution_status: execution.toLowerCase() },
  };
}

/** Ends one stuck record the way its state machine's Fail step would; false when it was no longer active. */
async function endStuck(p: Platform, swept: SweptRecords, ref: RecordRef, execution: ExecutionStatus): Promise<boolean> {
  const other = swept.others.find((o) => o.type === ref.type);
  if (other) return other.end(p, ref, execution);
  const { scope, type, id } = ref;
  const kind = runKindOfType(swept, type)!;
  const record = await p.store.getRecord<RunData>(scope, type, id);
  if (!record) return false;
  const failed = await settle(p, scope, kind, id, ACTIVE_STATUSES, 'failed', { error: lostRunError(execution) }, record.data.usage ?? { credits: 0 });
  // A run that fanned out and was lost before its merge leaves no part behind (a range still at work
  // deletes its own when it finds the run no longer in progress).
  if (failed) await Promise.all(partKeysOf(scope, kind, id, record.data._ranges).map((key) => p.blobs.delete(key)));
  return failed !== undefined;
}

/** One sweep over the whole table. Never throws for one record: it is logged and left to the next sweep. */
export async function sweepStuckRecords(p: Platform, swept: SweptRecords, options: SweepOptions = {}): Promise<SweepReport> {
  const graceMs = options.graceMs ?? DEFAULT_GRACE_MS;
  const createdBefore = timestamp(new Date(p.clock.now().getTime() - graceMs));
  // Every status that some swept record type treats as active.
  const activeAnywhere = [...new Set<string>([...ACTIVE_STATUSES, ...swept.others.flatMap((o) => o.active)])];
  const candidates = await p.store.scanRecordsByStatus(activeAnywhere, createdBefore);
  const report: SweepReport = { checked: 0, ended: [], errors: 0 };
  for (const ref of candidates) {
    const machine = machineOf(swept, ref.type);
    if (!machine) continue;
    report.checked++;
    try {
      // Executions are named after the record id (runs, workflow runs and deliveries alike).
      const execution = await p.runner.executionStatus(machine, ref.id);
      if (STILL_RUNNING.includes(execution)) continue;
      if (await endStuck(p, swept, ref, execution)) {
        report.ended.push({ type: ref.type, id: ref.id, execution });
        logger.warn('sweeper ended a record whose execution was no longer running', { type: ref.type, id: ref.id, status: ref.status, execution });
      }
    } catch (error) {
      report.errors++;
      logger.error('sweeper could not check a record', { type: ref.type, id: ref.id, error: error as Error });
    }
  }
  return report;
}

/** The scheduled Lambda's handler (EventBridge, lib/cloud/sweeper.ts), given what to sweep (functions/features.ts `sweep`). */
export function sweeperHandler(swept: SweptRecords) {
  return async (): Promise<SweepReport> => {
    const report = await sweepStuckRecords(platform(), swept);
    logger.info('sweep done', { checked: report.checked, ended: report.ended.length, errors: report.errors });
    return report;
  };
}
