/** Usage: credits by environment and operation. */
import type { Feature } from '../feature.ts';
import { routesOf } from '../platform/route.ts';
import { usageOperations as ops } from './operations.ts';

export const usageFeature: Feature = {
  name: 'usage',
  routes: routesOf('usage', [
    { method: 'GET', path: '/v1/usage', handler: 'getUsage', size: 'small', op: ops.getUsage },
  ]),
};
