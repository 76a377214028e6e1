/**
 * Usage reports (API §13): sums the calling environment's ledger over a date range. Test usage is
 * recorded like production usage, in its own environment, and is never billable.
 */
import type { Caller } from '../auth/service.ts';
import { parseDateBound } from '../platform/pagination.ts';
import type { Platform } from '../platform/platform.ts';
import type { ListQuery } from '../platform/ports.ts';
import { USAGE_TYPE, type UsageEntry } from './ledger.ts';
import type { UsageReport } from './schema.ts';

/** Sums of many fractional credits: keep them free of binary noise. */
const round = (n: number) => Math.round(n * 1e6) / 1e6;

export async function usageReport(p: Platform, caller: Caller, range: { from_date?: string; to_date?: string }): Promise<UsageReport> {
  const query: ListQuery = { limit: 100, order: 'asc' };
  if (range.from_date !== undefined) query.fromTime = parseDateBound(range.from_date, 'from_date');
  if (range.to_date !== undefined) query.toTime = parseDateBound(range.to_date, 'to_date');
  let credits = 0;
  let runs = 0;
  const byOperation: Record<string, number> = {};
  for (;;) {
    const page = await p.store.listRecords<UsageEntry>(caller, USAGE_TYPE, query);
    for (const { data } of page.items) {
      credits += data.credits;
      runs += 1;
      byOperation[data.operation] = round((byOperation[data.operation] ?? 0) + data.credits);
    }
    if (!page.after) break;
    query.after = page.after;
  }
  credits = round(credits);
  return {
    environment_slug: caller.envSlug,
    credits,
    billable_credits: caller.envSlug === 'production' ? credits : 0,
    by_operation: byOperation,
    runs,
  };
}
