import { operation } from '../platform/operation.ts';
import { UsageQuery, UsageReport } from './schema.ts';

export const usageOperations = {
  getUsage: operation({ summary: "The calling environment's usage (credits by operation)", auth: 'api_key', query: UsageQuery, status: 200, response: UsageReport, tags: ['usage'] }),
};
