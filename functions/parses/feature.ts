/** Parses: a document read into per-page text and tables. */
import type { Feature } from '../feature.ts';
import { routesOf } from '../platform/route.ts';
import { parseKind } from './kind.ts';
import { parseOperations as ops } from './operations.ts';

export const parsesFeature: Feature = {
  name: 'parses',
  routes: routesOf('parses', [
    { method: 'POST', path: '/v1/parses', handler: 'createParse', size: 'document', op: ops.create },
    { method: 'GET', path: '/v1/parses', handler: 'listParses', size: 'small', op: ops.list },
    { method: 'GET', path: '/v1/parses/{parse_id}', handler: 'getParse', size: 'small', op: ops.get },
    { method: 'DELETE', path: '/v1/parses/{parse_id}', handler: 'deleteParse', size: 'small', op: ops.delete },
    { method: 'POST', path: '/v1/parses/{parse_id}/cancel', handler: 'cancelParse', size: 'small', op: ops.cancel },
  ]),
  runs: [
    { kind: parseKind, path: '/v1/parses', dashboard: { startable: true, pages: async () => (await import('./dashboard.ts')).parsePages }, task: async () => (await import('./task.ts')).parseTask },
  ],
  blocks: [{ type: 'parse', kind: 'parse', load: async () => (await import('./block.ts')).parseBlock }],
};
