/**
 * The usage ledger (API §13): one entry per finished run, in the run's own environment, keyed by the
 * run id (so a retried step writes the same entry once). Kept apart from the run record: deleting a
 * run does not give its credits back.
 */
import { timestamp } from '../platform/ids.ts';
import type { Platform } from '../platform/platform.ts';
import type { Ledger, Scope, UsageNote } from '../platform/ports.ts';

export const USAGE_TYPE = 'usage';

export interface UsageEntry {
  run_id: string;
  /** The run kind's name: parse, split, extraction, edit, ... */
  operation: string;
  status: 'completed' | 'failed';
  credits: number;
  page_count?: number;
  recorded_at: string;
  // What the usage breakdowns show (GET /v1/usage/primitives, blocks, runs); absent on entries
  // recorded before them.
  /** When the run was created (a workflow block: when it started). */
  created_at?: string;
  model?: string | null;
  documents?: Array<{ file_id: string | null; filename: string | null }>;
  metadata?: Record<string, string> | null;
  triggered_by?: { auth_method: string; api_key_id: string | null; key_name: string | null; key_prefix: string | null } | null;
  /** A run inside a workflow run: its workflow, workflow run and block. */
  workflow_id?: string | null;
  workflow_run_id?: string | null;
  block_id?: string | null;
  block_type?: string | null;
}

/** What a run's record tells the usage breakdowns (read when the entry is written). */
async function runDetails(p: Platform, scope: Scope, type: string, runId: string): Promise<Partial<UsageEntry>> {
  const record = await p.store.getRecord<Record<string, unknown>>(scope, type, runId);
  if (!record) return {};
  const data = record.data;
  const refs = [data.file, ...(Array.isArray(data.files) ? data.files : [])].filter((f): f is { id: string; filename: string } => !!f && typeof f === 'object' && typeof (f as { id?: unknown }).id === 'string');
  const details: Partial<UsageEntry> = {
    created_at: typeof data.created_at === 'string' ? data.created_at : record.createdAt,
    model: typeof data.model === 'string' ? data.model : null,
    documents: refs.map((f) => ({ file_id: f.id, filename: typeof f.filename === 'string' ? f.filename : null })),
    triggered_by: (data._triggered_by as UsageEntry['triggered_by']) ?? null,
  };
  if (data.metadata && typeof data.metadata === 'object' && !Array.isArray(data.metadata)) details.metadata = data.metadata as Record<string, string>;
  return details;
}

export async function recordUsage(p: Platform, scope: Scope, entry: UsageNote): Promise<void> {
  const recordedAt = timestamp(p.clock.now());
  const details = entry.type ? await runDetails(p, scope, entry.type, entry.runId) : {};
  const origin = entry.origin;
  const data: UsageEntry = { run_id: entry.runId, operation: entry.operation, status: entry.status, credits: entry.usage.credits, recorded_at: recordedAt, ...details };
  if (entry.usage.page_count !== undefined) data.page_count = entry.usage.page_count;
  const attrs: Record<string, string> = { operation: entry.operation, status: entry.status };
  if (origin) {
    Object.assign(data, {
      created_at: origin.started_at ?? recordedAt,
      model: origin.model ?? null,
      documents: origin.documents ?? [],
      workflow_id: origin.workflow_id,
      workflow_run_id: origin.workflow_run_id,
      block_id: origin.block_id,
      block_type: origin.block_type,
    });
    Object.assign(attrs, { workflow_id: origin.workflow_id, workflow_run_id: origin.workflow_run_id, block_id: origin.block_id, block_type: origin.block_type });
  }
  if (data.triggered_by?.api_key_id) attrs.api_key_id = data.triggered_by.api_key_id;
  await p.store.putRecord<UsageEntry>(scope, { type: USAGE_TYPE, id: entry.runId, createdAt: recordedAt, attrs, data });
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
