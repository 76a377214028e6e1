/** Usage: credits by environment and operation, and broken down by primitive run, workflow block and workflow run. */
import type { Feature } from '../feature.ts';
import { routesOf } from '../platform/route.ts';
import { usageOperations as ops } from './operations.ts';

export const usageFeature: Feature = {
  name: 'usage',
  routes: routesOf('usage', [
    { method: 'GET', path: '/v1/usage', handler: 'getUsage', size: 'small', op: ops.getUsage },
    { method: 'GET', path: '/v1/usage/primitives', handler: 'listUsagePrimitives', size: 'small', op: ops.listPrimitives },
    { method: 'GET', path: '/v1/usage/blocks', handler: 'listUsageBlocks', size: 'small', op: ops.listBlocks },
    { method: 'GET', path: '/v1/usage/runs', handler: 'listUsageRuns', size: 'small', op: ops.listRuns },
  ]),
};
