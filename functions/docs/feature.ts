/** The API reference: the OpenAPI document and its docs page. */
import type { Feature } from '../feature.ts';
import { routesOf } from '../platform/route.ts';
import { docsOperations as ops } from './operations.ts';

export const docsFeature: Feature = {
  name: 'docs',
  routes: routesOf('docs', [
    { method: 'GET', path: '/openapi.json', handler: 'openapiDocument', size: 'small', op: ops.openapiDocument },
    { method: 'GET', path: '/docs', handler: 'docsPage', size: 'small', op: ops.docsPage },
    { method: 'GET', path: '/docs/{asset}', handler: 'docsAsset', size: 'small', op: ops.docsAsset },
  ]),
};
