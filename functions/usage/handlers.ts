import { api } from '../platform/http.ts';
import { usageOperations as ops } from './operations.ts';
import { usageReport } from './service.ts';
import { usageBlocks, usagePrimitives, usageRuns } from './breakdowns.ts';

export const getUsage = api(ops.getUsage, ({ platform, caller, query }) => usageReport(platform, caller, query));

export const listUsagePrimitives = api(ops.listPrimitives, ({ platform, caller, query }) => usagePrimitives(platform, caller, query));
export const listUsageBlocks = api(ops.listBlocks, ({ platform, caller, query }) => usageBlocks(platform, caller, query));
export const listUsageRuns = api(ops.listRuns, ({ platform, caller, query }) => usageRuns(platform, caller, query));
