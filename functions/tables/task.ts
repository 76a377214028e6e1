/**
 * The background read of a big CSV (./kind.ts): one streaming pass from S3, then the table record is
 * moved from `processing` to `ready` (or `failed`). All the logic is the service's.
 */
import type { RunContext, RunTask } from '../runs/kinds.ts';
import { tableSummaryKind } from './kind.ts';
import { summariseStoredTable, type TableSummaryInput } from './service.ts';

export const tableSummaryTask: RunTask = {
  kind: tableSummaryKind,
  async execute(ctx: RunContext) {
    const outcome = await summariseStoredTable(ctx.platform, ctx.scope, ctx.record._input as TableSummaryInput);
    return { output: { table: outcome }, usage: { credits: 0 } };
  },
};
