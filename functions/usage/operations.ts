import { operation } from '../platform/operation.ts';
import { BlocksList, BlocksQuery, PrimitivesList, PrimitivesQuery, RunsList, RunsQuery, UsageQuery, UsageReport } from './schema.ts';

export const usageOperations = {
  getUsage: operation({ summary: "The calling environment's usage (credits by operation)", auth: 'api_key', query: UsageQuery, status: 200, response: UsageReport, tags: ['usage'] }),
  listPrimitives: operation({ summary: 'Usage by primitive run: one record per finished run (parse, extraction, ...), in workflows or not', auth: 'api_key', query: PrimitivesQuery, status: 200, response: PrimitivesList, tags: ['usage'] }),
  listBlocks: operation({ summary: "Usage by workflow block: its primitive runs' credits, pages and statuses", auth: 'api_key', query: BlocksQuery, status: 200, response: BlocksList, tags: ['usage'] }),
  listRuns: operation({ summary: "Usage by workflow run: its blocks' credits and pages, its timing", auth: 'api_key', query: RunsQuery, status: 200, response: RunsList, tags: ['usage'] }),
};
