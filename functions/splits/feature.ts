/** Splits: a bundle cut into its subdocuments. */
import type { Feature } from '../feature.ts';
import { routesOf } from '../platform/route.ts';
import { splitKind, splitReconstructKind } from './kind.ts';
import { reconstructOperation, splitOperations as ops } from './operations.ts';

export const splitsFeature: Feature = {
  name: 'splits',
  routes: routesOf('splits', [
    { method: 'POST', path: '/v1/splits', handler: 'createSplit', size: 'document', op: ops.create },
    { method: 'GET', path: '/v1/splits', handler: 'listSplits', size: 'small', op: ops.list },
    { method: 'GET', path: '/v1/splits/{split_id}', handler: 'getSplit', size: 'small', op: ops.get },
    { method: 'DELETE', path: '/v1/splits/{split_id}', handler: 'deleteSplit', size: 'small', op: ops.delete },
    { method: 'POST', path: '/v1/splits/{split_id}/cancel', handler: 'cancelSplit', size: 'small', op: ops.cancel },
    { method: 'POST', path: '/v1/splits/reconstruct', handler: 'reconstructSplitTables', size: 'small', op: reconstructOperation },
  ]),
  runs: [
    { kind: splitKind, path: '/v1/splits', dashboard: { startable: true, pages: async () => (await import('./dashboard.ts')).splitPages }, task: async () => (await import('./task.ts')).splitTask },
    { kind: splitReconstructKind, task: async () => (await import('./task.ts')).reconstructTask },
  ],
  blocks: [{ type: 'split', kind: 'split', load: async () => (await import('./block.ts')).splitBlock }],
};
