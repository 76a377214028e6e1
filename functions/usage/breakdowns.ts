/**
 * Usage breakdowns (the Retab SDK's usage resource): the ledger (./ledger.ts, one entry per finished
 * primitive run, a workflow's document blocks included) listed by primitive run, summed by workflow
 * block, and summed by workflow run. The calling environment only, like GET /v1/usage.
 */
import type { Caller } from '../auth/service.ts';
import { Invalid } from '../platform/errors.ts';
import { listEnvelopeOf, parseDateBound, toListQuery } from '../platform/pagination.ts';
import type { Platform } from '../platform/platform.ts';
import type { ListQuery, StoredRecord } from '../platform/ports.ts';
import { statusOfFilter, WORKFLOW_RUN_TYPE, type WorkflowRun } from '../workflows/schema.ts';
import { USAGE_TYPE, type UsageEntry } from './ledger.ts';
import type { BlocksQuery, PrimitivesQuery, RunsQuery } from './schema.ts';
import type { z } from 'zod';

const round = (n: number) => Math.round(n * 1e6) / 1e6;
const durationOf = (from: string | undefined | null, to: string | undefined | null) => (from && to ? Math.max(0, Date.parse(to) - Date.parse(from)) : null);

/** The `metadata` query: a JSON-encoded object of strings, every entry of which must match. */
function metadataOf(raw: string | undefined): Record<string, string> | undefined {
  if (raw === undefined) return undefined;
  let parsed: unknown;
  try {
    parsed = JSON.parse(raw);
  } catch {
    throw Invalid.at(['query', 'metadata'], 'metadata must be a JSON-encoded object, e.g. {"customer":"acme"}', 'json_invalid', raw);
  }
  if (!parsed || typeof parsed !== 'object' || Array.isArray(parsed) || Object.values(parsed).some((v) => typeof v !== 'string')) {
    throw Invalid.at(['query', 'metadata'], 'metadata must be a JSON object whose values are strings', 'value_error', raw);
  }
  return parsed as Record<string, string>;
}

function primitiveOf(entry: UsageEntry, caller: Caller) {
  const by = entry.triggered_by ?? null;
  return {
    primitive_execution_id: entry.run_id,
    operation: entry.operation,
    resource_kind: entry.operation,
    status: entry.status,
    credits: entry.credits,
    page_count: entry.page_count ?? 0,
    model: entry.model ?? null,
    documents: entry.documents ?? null,
    metadata: entry.metadata ?? null,
    environment_id: caller.envId,
    project_id: null,
    workflow_id: entry.workflow_id ?? null,
    run_id: entry.workflow_run_id ?? null,
    block_id: entry.block_id ?? null,
    created_at: entry.created_at ?? null,
    completed_at: entry.recorded_at,
    duration_ms: durationOf(entry.created_at, entry.recorded_at),
    triggered_by: by ? { auth_method: by.auth_method, api_key_id: by.api_key_id, key_name: by.key_name, key_prefix: by.key_prefix, access_token_id: null, user_id: null, user_email: null } : null,
  };
}

/** GET /v1/usage/primitives: one record per finished primitive run, newest first by default. */
export async function usagePrimitives(p: Platform, caller: Caller, q: z.infer<typeof PrimitivesQuery>) {
  const metadata = metadataOf(q.metadata);
  // Filters nothing here can match: no entry is of another environment, of a project, or started by a user.
  const none = (q.environment_id !== undefined && q.environment_id !== caller.envId) || q.project_id !== undefined || q.access_token_id !== undefined || q.user_id !== undefined;
  const query = toListQuery(
    { limit: q.limit, order: q.order, before: q.before, after: q.after, from_date: q.from_date, to_date: q.to_date },
    { operation: q.operation, status: q.status, workflow_id: q.workflow_id, workflow_run_id: q.run_id, block_id: q.block_id, api_key_id: q.api_key_id },
  );
  if (none || metadata) {
    query.where = (r: StoredRecord<UsageEntry>) => !none && Object.entries(metadata ?? {}).every(([k, v]) => r.data.metadata?.[k] === v);
  }
  const page = await p.store.listRecords<UsageEntry>(caller, USAGE_TYPE, query);
  return listEnvelopeOf(page, (entry) => primitiveOf(entry, caller));
}

/** Every ledger entry matching `query` (all pages, oldest first). */
async function allEntries(p: Platform, caller: Caller, query: Omit<ListQuery, 'limit' | 'order' | 'after' | 'before'>): Promise<UsageEntry[]> {
  const entries: UsageEntry[] = [];
  const q: ListQuery = { ...query, limit: 100, order: 'asc' };
  for (;;) {
    const page = await p.store.listRecords<UsageEntry>(caller, USAGE_TYPE, q);
    entries.push(...page.items.map((item) => item.data));
    if (!page.after) return entries;
    q.after = page.after;
  }
}

interface BlockRecord {
  workflow_id: string;
  block_id: string;
  block_type: string;
  execution_count: number;
  run_count: number;
  credits: number;
  page_count: number;
  status_counts: Record<string, number>;
  first_activity_at: string | null;
  last_activity_at: string | null;
}

/** A block record's cursor (`after`/`before`): its workflow and block. */
const blockKey = (b: { workflow_id: string; block_id: string }) => `${b.workflow_id}/${b.block_id}`;

/**
 * GET /v1/usage/blocks: per block of a workflow, what its primitive runs used in the date range;
 * ordered by the block's last activity (newest first by default). Cursors are `<workflow_id>/<block_id>`.
 */
export async function usageBlocks(p: Platform, caller: Caller, q: z.infer<typeof BlocksQuery>) {
  if (q.before !== undefined && q.after !== undefined) throw Invalid.at(['query', 'before'], 'Give either before or after, not both', 'value_error');
  const range: Omit<ListQuery, 'limit' | 'order'> = { where: (r: StoredRecord<UsageEntry>) => typeof r.data.block_id === 'string' };
  if (q.from_date !== undefined) range.fromTime = parseDateBound(q.from_date, 'from_date');
  if (q.to_date !== undefined) range.toTime = parseDateBound(q.to_date, 'to_date');
  const attrs = Object.fromEntries(Object.entries({ workflow_id: q.workflow_id, block_type: q.block_type }).filter(([, v]) => v !== undefined)) as Record<string, string>;
  if (Object.keys(attrs).length > 0) range.attrs = attrs;
  const byBlock = new Map<string, BlockRecord & { runs: Set<string> }>();
  for (const entry of await allEntries(p, caller, range)) {
    const key = blockKey({ workflow_id: entry.workflow_id!, block_id: entry.block_id! });
    let block = byBlock.get(key);
    if (!block) {
      block = { workflow_id: entry.workflow_id!, block_id: entry.block_id!, block_type: entry.block_type ?? '', execution_count: 0, run_count: 0, credits: 0, page_count: 0, status_counts: {}, first_activity_at: null, last_activity_at: null, runs: new Set() };
      byBlock.set(key, block);
    }
    block.execution_count += 1;
    block.credits = round(block.credits + entry.credits);
    block.page_count += entry.page_count ?? 0;
    block.status_counts[entry.status] = (block.status_counts[entry.status] ?? 0) + 1;
    if (entry.workflow_run_id) block.runs.add(entry.workflow_run_id);
    const started = entry.created_at ?? entry.recorded_at;
    if (!block.first_activity_at || started < block.first_activity_at) block.first_activity_at = started;
    if (!block.last_activity_at || entry.recorded_at > block.last_activity_at) block.last_activity_at = entry.recorded_at;
  }
  const sign = q.order === 'asc' ? 1 : -1;
  const all = [...byBlock.values()]
    .map(({ runs, ...block }) => ({ ...block, run_count: runs.size }))
    .sort((a, b) => sign * (a.last_activity_at! < b.last_activity_at! ? -1 : a.last_activity_at! > b.last_activity_at! ? 1 : blockKey(a) < blockKey(b) ? -1 : 1));
  return pageOf(all, blockKey, q);
}

/** A page of an in-memory list by the §0.3 cursors (item keys); a cursor that is no item of the list is a 422. */
function pageOf<T>(all: T[], keyOf: (item: T) => string, q: { limit: number; before?: string | undefined; after?: string | undefined }) {
  let start = 0;
  let end = all.length;
  if (q.after !== undefined) {
    const at = all.findIndex((item) => keyOf(item) === q.after);
    if (at < 0) throw Invalid.at(['query', 'after'], `after ${q.after} is not an item of this list`, 'value_error', q.after);
    start = at + 1;
    end = Math.min(all.length, start + q.limit);
  } else if (q.before !== undefined) {
    const at = all.findIndex((item) => keyOf(item) === q.before);
    if (at < 0) throw Invalid.at(['query', 'before'], `before ${q.before} is not an item of this list`, 'value_error', q.before);
    end = at;
    start = Math.max(0, end - q.limit);
  } else {
    end = Math.min(all.length, q.limit);
  }
  const data = all.slice(start, end);
  return {
    data,
    list_metadata: { before: start > 0 && data.length > 0 ? keyOf(data[0]!) : null, after: end < all.length && data.length > 0 ? keyOf(data.at(-1)!) : null },
  };
}

/**
 * GET /v1/usage/runs: the workflow runs (created in the date range), each with what its blocks'
 * primitive runs used; the store's own order and cursors (run ids).
 */
export async function usageRuns(p: Platform, caller: Caller, q: z.infer<typeof RunsQuery>) {
  const query = toListQuery(
    { limit: q.limit, order: q.order, before: q.before, after: q.after, from_date: q.from_date, to_date: q.to_date, status: q.status === undefined ? undefined : statusOfFilter(q.status) },
    { workflow_id: q.workflow_id, trigger_type: q.trigger_type },
  );
  const page = await p.store.listRecords<WorkflowRun>(caller, WORKFLOW_RUN_TYPE, query);
  const used = await Promise.all(page.items.map((item) => allEntries(p, caller, { attrs: { workflow_run_id: item.id } })));
  const usedBy = new Map(page.items.map((item, i) => [item.id, used[i]!]));
  return listEnvelopeOf(page, (run) => {
    const entries = usedBy.get(run.id) ?? [];
    const ended = ['completed', 'error', 'cancelled'].includes(run.lifecycle.status);
    return {
      run_id: run.id,
      workflow_id: run.workflow_id,
      status: run.lifecycle.status,
      trigger_type: run.trigger?.type ?? 'api',
      credits: round(entries.reduce((sum, e) => sum + e.credits, 0)),
      page_count: entries.reduce((sum, e) => sum + (e.page_count ?? 0), 0),
      created_at: run.timing.created_at,
      started_at: run.timing.started_at,
      completed_at: run.timing.completed_at,
      duration_ms: ended ? durationOf(run.timing.started_at ?? run.timing.created_at, run.timing.completed_at) : null,
      execution_duration_ms: entries.reduce((sum, e) => sum + (durationOf(e.created_at, e.recorded_at) ?? 0), 0),
      retry_count: 0,
      triggered_by: null,
    };
  });
}
