/**
 * The end of a run, shared by the run task (./task.ts: finish, fail) and the sweeper (./sweeper.ts:
 * runs whose execution was lost). Light on purpose: the sweeper Lambda bundles it without any
 * document engine.
 */
import { logger } from '../platform/logger.ts';
import type { Platform } from '../platform/platform.ts';
import type { Scope } from '../platform/ports.ts';
import type { RunKind, RunUsage } from './kinds.ts';
import { runWithoutOutput, type RunData } from './service.ts';

/**
 * A run reached `completed` or `failed` (see `settle`): a background run announces it to its own
 * environment's webhook endpoint.
 * An event that cannot be emitted is logged, never turned into a failure of the finished run.
 */
async function announce(p: Platform, scope: Scope, kind: RunKind, data: RunData): Promise<void> {
  if (!data._background) return;
  try {
    await p.events.emit(p, scope, { type: `${kind.name}.${data.status}`, data: runWithoutOutput(data, kind) });
  } catch (error) {
    logger.error('run event could not be emitted', { run_id: data.id, error_type: (error as Error).name });
  }
}

/**
 * Moves a run to its end status and keeps the ledger in step: the usage entry is written first, so
 * whoever sees the run finished also finds its usage, and taken back when the move does not happen
 * (cancelled meanwhile). `also`: work of the caller's that must be done before the move too (the
 * output's put), done alongside the usage entry. `stored`: the output's JSON when small, announced
 * with the end so the waiting request need not read it back.
 */
export async function settle(
  p: Platform,
  scope: Scope,
  kind: RunKind,
  id: string,
  from: readonly string[],
  to: 'completed' | 'failed',
  patch: Partial<RunData>,
  usage: RunUsage,
  { also, stored }: { also?: Promise<unknown>; stored?: string } = {},
): Promise<RunData | undefined> {
  await Promise.all([p.ledger.record(p, scope, { runId: id, operation: kind.name, status: to, usage, type: kind.type }), also]);
  const moved = await p.store.moveStatus<RunData>(scope, kind.type, id, from, to, patch);
  if (!moved) {
    // Cancelled or deleted meanwhile: no usage. Already finished by an earlier step (a Fail after a
    // Finish that moved the status, then threw): the entry must say what that step recorded.
    const current = (await p.store.getRecord<RunData>(scope, kind.type, id))?.data;
    if (current?.status === 'completed' || current?.status === 'failed') {
      await p.ledger.record(p, scope, { runId: id, operation: kind.name, status: current.status, usage: current.usage, type: kind.type });
    } else {
      await p.ledger.forget(p, scope, id);
    }
    return undefined;
  }
  p.runEnds.announce(id, { record: moved.data, ...(stored !== undefined ? { stored } : {}) });
  await announce(p, scope, kind, moved.data);
  return moved.data;
}
