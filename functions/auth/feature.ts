/** Who is calling: the key's organization and environment. */
import type { Feature } from '../feature.ts';
import { routesOf } from '../platform/route.ts';
import { authOperations as ops } from './operations.ts';

export const authFeature: Feature = {
  name: 'auth',
  routes: routesOf('auth', [
    { method: 'GET', path: '/v1/auth/status', handler: 'authStatus', size: 'small', op: ops.authStatus },
  ]),
};
