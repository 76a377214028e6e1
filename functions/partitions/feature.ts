/** Partitions: a document's pages grouped by a key the caller names. */
import type { Feature } from '../feature.ts';
import { routesOf } from '../platform/route.ts';
import { partitionKind } from './kind.ts';
import { partitionOperations as ops } from './operations.ts';

export const partitionsFeature: Feature = {
  name: 'partitions',
  routes: routesOf('partitions', [
    { method: 'POST', path: '/v1/partitions', handler: 'createPartition', size: 'document', op: ops.create },
    { method: 'GET', path: '/v1/partitions', handler: 'listPartitions', size: 'small', op: ops.list },
    { method: 'GET', path: '/v1/partitions/{partition_id}', handler: 'getPartition', size: 'small', op: ops.get },
    { method: 'DELETE', path: '/v1/partitions/{partition_id}', handler: 'deletePartition', size: 'small', op: ops.delete },
    { method: 'POST', path: '/v1/partitions/{partition_id}/cancel', handler: 'cancelPartition', size: 'small', op: ops.cancel },
  ]),
  runs: [
    { kind: partitionKind, path: '/v1/partitions', dashboard: {}, task: async () => (await import('./task.ts')).partitionTask },
  ],
};
