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
 *     `internal`), its usage recorded and its `<kind>.failed` event sent (task.ts `settle`);
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
 * Runs on AWS as a scheduled Lambda (`handler`, lib/cloud/sweeper.ts), locally on a timer of the
 * local runtime (lib/local/sweeper.ts).
 */
import { classificationKind } from '../classifications/kind.ts';
import { editKind, fieldDetectionKind } from '../edits/kind.ts';
import { extractionKind } from '../extractions/kind.ts';
import { timestamp } from '../platform/ids.ts';
import { logger } from '../platform/logger.ts';
import { platform, type Platform } from '../platform/platform.ts';
import type { ExecutionStatus, MachineName, RecordRef } from '../platform/ports.ts';
import { ACTIVE_STATUSES, type PrimitiveError } from '../platform/schemas.ts';
import { parseKind } from '../parses/kind.ts';
import { partitionKind } from '../partitions/kind.ts';
import { schemaGenerationKind } from '../schemas/kind.ts';
import { splitKind } from '../splits/kind.ts';
import { tableSummaryKind } from '../tables/kind.ts';
import { DELIVERY_TYPE, type DeliveryData } from '../webhooks/service.ts';
import { ACTIVE as WORKFLOW_RUN_ACTIVE, endWorkflowRun, WORKFLOW_RUN_TYPE } from '../workflows/runs.ts';
import { registeredRunKinds, type RunKind } from './kinds.ts';
import type { RunData } from './service.ts';
import { settle } from './settle.ts';

/** A record younger than this is never touched: its execution may be starting. */
export const DEFAULT_GRACE_MS = 5 * 60_000;

/** Every built-in run kind (pure data: the sweeper never loads a kind's task). A test checks it against kinds.ts. */
export const BUILT_IN_RUN_KINDS: readonly RunKind[] = [
  parseKind,
  classificationKind,
  splitKind,
  partitionKind,
  extractionKind,
  schemaGenerationKind,
  editKind,
  fieldDetectionKind,
  tableSummaryKind,
];

const DELIVERY_ACTIVE = ['pending', 'retrying'];
/** Every status that some record type treats as active. */
const ACTIVE_ANYWHERE = [...new Set<string>([...ACTIVE_STATUSES, ...WORKFLOW_RUN_ACTIVE, ...DELIVERY_ACTIVE])];

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

function runKindOfType(type: string): RunKind | undefined {
  return BUILT_IN_RUN_KINDS.find((kind) => kind.type === type) ?? registeredRunKinds().find((kind) => kind.type === type);
}

function machineOf(type: string): MachineName | undefined {
  if (type === DELIVERY_TYPE) return 'deliver';
  if (type === WORKFLOW_RUN_TYPE) return 'workflowRun';
  if (runKindOfType(type)) return 'run';
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
async function endStuck(p: Platform, ref: RecordRef, execution: ExecutionStatus): Promise<boolean> {
  const { scope, type, id } = ref;
  if (type === DELIVERY_TYPE) {
    const moved = await p.store.moveStatus<DeliveryData>(scope, DELIVERY_TYPE, id, DELIVERY_ACTIVE, 'failed', {
      status: 'failed',
      last_error: 'Internal error while delivering',
      next_attempt_at: null,
    });
    return moved !== undefined;
  }
  if (type === WORKFLOW_RUN_TYPE) {
    const timedOut = execution === 'TIMED_OUT';
    return endWorkflowRun(p, scope, id, {
      status: 'error',
      message: timedOut ? 'The run exceeded its time budget' : 'The run was lost: its background execution ended before the run finished',
      stage: 'block_execution',
      category: timedOut ? 'transient' : 'permanent',
      details: { error_code: timedOut ? 'timeout' : 'internal', execution_status: execution.toLowerCase() },
    });
  }
  const kind = runKindOfType(type)!;
  const record = await p.store.getRecord<RunData>(scope, type, id);
  if (!record) return false;
  const failed = await settle(p, scope, kind, id, ACTIVE_STATUSES, 'failed', { error: lostRunError(execution) }, record.data.usage ?? { credits: 0 });
  return failed !== undefined;
}

/** One sweep over the whole table. Never throws for one record: it is logged and left to the next sweep. */
export async function sweepStuckRecords(p: Platform, options: SweepOptions = {}): Promise<SweepReport> {
  const graceMs = options.graceMs ?? DEFAULT_GRACE_MS;
  const createdBefore = timestamp(new Date(p.clock.now().getTime() - graceMs));
  const candidates = await p.store.scanRecordsByStatus(ACTIVE_ANYWHERE, createdBefore);
  const report: SweepReport = { checked: 0, ended: [], errors: 0 };
  for (const ref of candidates) {
    const machine = machineOf(ref.type);
    if (!machine) continue;
    report.checked++;
    try {
      // Executions are named after the record id (runs, workflow runs and deliveries alike).
      const execution = await p.runner.executionStatus(machine, ref.id);
      if (STILL_RUNNING.includes(execution)) continue;
      if (await endStuck(p, ref, execution)) {
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

/** The scheduled Lambda (EventBridge, lib/cloud/sweeper.ts). */
export async function handler(): Promise<SweepReport> {
  const report = await sweepStuckRecords(platform());
  logger.info('sweep done', { checked: report.checked, ended: report.ended.length, errors: report.errors });
  return report;
}
