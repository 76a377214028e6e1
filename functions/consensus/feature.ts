/** Consensus: several JSON answers reconciled into one (list items aligned by content, leaves voted). */
import type { Feature } from '../feature.ts';
import { routesOf } from '../platform/route.ts';
import { consensusOperations as ops } from './operations.ts';

export const consensusFeature: Feature = {
  name: 'consensus',
  // 'document': a body of up to 6 MB of inputs is parsed and reconciled in memory.
  routes: routesOf('consensus', [{ method: 'POST', path: '/v1/consensus', handler: 'createConsensus', size: 'document', op: ops.create }]),
};
