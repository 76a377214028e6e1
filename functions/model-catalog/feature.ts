/** The models a request may name. */
import type { Feature } from '../feature.ts';
import { routesOf } from '../platform/route.ts';
import { modelOperations as ops } from './operations.ts';

export const modelCatalogFeature: Feature = {
  name: 'model-catalog',
  routes: routesOf('model-catalog', [
    { method: 'GET', path: '/v1/models', handler: 'listModels', size: 'small', op: ops.listModels },
  ]),
};
