/**
 * The sweeper of the local runtime (functions/runs/sweeper.ts): once at start, after the recovery of
 * unfinished runs, then every `intervalMs` while the runtime is up. On AWS a scheduled Lambda does
 * the same (lib/cloud/sweeper.ts).
 *
 * One sweep at a time; the timer does not keep the process alive; `stop` waits for a sweep under way,
 * so nothing touches the emulators after they close.
 */
import { logger } from '../../functions/platform/logger.ts';
import { platform } from '../../functions/platform/platform.ts';
import { sweptRecords } from '../../functions/features.ts';
import { sweepStuckRecords, type SweepOptions } from '../../functions/runs/sweeper.ts';

export const DEFAULT_SWEEP_INTERVAL_MS = 60_000;

export interface PeriodicSweeper {
  stop(): Promise<void>;
}

export async function startPeriodicSweeper(options: SweepOptions & { intervalMs?: number } = {}): Promise<PeriodicSweeper> {
  const intervalMs = options.intervalMs ?? DEFAULT_SWEEP_INTERVAL_MS;
  let sweeping: Promise<void> | undefined;
  let stopped = false;

  const sweepOnce = async () => {
    try {
      await sweepStuckRecords(platform(), sweptRecords, { graceMs: options.graceMs });
    } catch (error) {
      logger.error('local sweep failed', { error: error as Error });
    }
  };

  await sweepOnce();
  const timer = setInterval(() => {
    // A tick that comes while a sweep is still under way is skipped.
    if (stopped || sweeping) return;
    sweeping = sweepOnce().finally(() => (sweeping = undefined));
  }, intervalMs);
  timer.unref();

  return {
    async stop() {
      stopped = true;
      clearInterval(timer);
      await sweeping;
    },
  };
}
