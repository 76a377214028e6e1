/** Classifications: which of the given categories a document is. */
import type { Feature } from '../feature.ts';
import { routesOf } from '../platform/route.ts';
import { classificationKind } from './kind.ts';
import { classificationOperations as ops } from './operations.ts';

export const classificationsFeature: Feature = {
  name: 'classifications',
  routes: routesOf('classifications', [
    { method: 'POST', path: '/v1/classifications', handler: 'createClassification', size: 'document', op: ops.create },
    { method: 'GET', path: '/v1/classifications', handler: 'listClassifications', size: 'small', op: ops.list },
    { method: 'GET', path: '/v1/classifications/{classification_id}', handler: 'getClassification', size: 'small', op: ops.get },
    { method: 'DELETE', path: '/v1/classifications/{classification_id}', handler: 'deleteClassification', size: 'small', op: ops.delete },
    { method: 'POST', path: '/v1/classifications/{classification_id}/cancel', handler: 'cancelClassification', size: 'small', op: ops.cancel },
  ]),
  runs: [
    { kind: classificationKind, path: '/v1/classifications', dashboard: { startable: true, pages: async () => (await import('./dashboard.ts')).classificationPages }, task: async () => (await import('./task.ts')).classificationTask },
  ],
  blocks: [{ type: 'classifier', kind: 'classification', load: async () => (await import('./block.ts')).classifierBlock }],
};
