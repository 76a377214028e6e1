/**
 * The usage ledger (API §13): one entry per finished run, in the run's own environment, keyed by the
 * run id (so a retried step writes the same entry once). Kept apart from the run record: deleting a
 * run does not give its credits back.
 */
import { timestamp } from '../platform/ids.ts';
import type { Platform } from '../platform/platform.ts';
import type { Ledger, Scope } from '../platform/ports.ts';

export const USAGE_TYPE = 'usage';

export interface UsageEntry {
  run_id: string;
  /** The run kind's name: parse, split, extraction, edit, ... */
  operation: string;
  status: 'completed' | 'failed';
  credits: number;
  page_count?: number;
  recorded_at: string;
}

export async function recordUsage(
  p: Platform,
  scope: Scope,
  entry: { runId: string; operation: string; status: UsageEntry['status']; usage: { credits: number; page_count?: number } },
): Promise<void> {
  const recordedAt = timestamp(p.clock.now());
  const data: UsageEntry = { run_id: entry.runId, operation: entry.operation, status: entry.status, credits: entry.usage.credits, recorded_at: recordedAt };
  if (entry.usage.page_count !== undefined) data.page_count = entry.usage.page_count;
  await p.store.putRecord<UsageEntry>(scope, { type: USAGE_TYPE, id: entry.runId, createdAt: recordedAt, attrs: { operation: entry.operation }, data });
}

/** Takes an entry back (a run whose finish did not happen after all, or a request answered 422). */
export async function forgetUsage(p: Platform, scope: Scope, runId: string): Promise<void> {
  await p.store.deleteRecord(scope, USAGE_TYPE, runId);
}

/** The Ledger port's adapter (handed to the platform by functions/wiring.ts). */
export const usageLedger: Ledger = {
  record: (p, scope, note) => recordUsage(p, scope, note),
  forget: (p, scope, runId) => forgetUsage(p, scope, runId),
};
