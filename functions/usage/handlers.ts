import { api } from '../platform/http.ts';
import { usageOperations as ops } from './operations.ts';
import { usageReport } from './service.ts';

export const getUsage = api(ops.getUsage, ({ platform, caller, query }) => usageReport(platform, caller, query));
