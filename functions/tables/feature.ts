/** Tables: CSV tables, their schema, validation and profile. */
import type { Feature } from '../feature.ts';
import { routesOf } from '../platform/route.ts';
import { tableSummaryKind } from './kind.ts';
import { tableOperations as ops } from './operations.ts';

export const tablesFeature: Feature = {
  name: 'tables',
  // Tables read whole CSVs (up to 1 GB) in one streaming pass: the document class (memory, CPU).
  routes: routesOf('tables', [
    { method: 'POST', path: '/v1/tables', handler: 'createTable', size: 'document', op: ops.create },
    { method: 'GET', path: '/v1/tables', handler: 'listTables', size: 'small', op: ops.list },
    { method: 'GET', path: '/v1/tables/{table_id}', handler: 'getTable', size: 'small', op: ops.get },
    { method: 'PUT', path: '/v1/tables/{table_id}', handler: 'replaceTable', size: 'document', op: ops.replace },
    { method: 'PATCH', path: '/v1/tables/{table_id}', handler: 'patchTable', size: 'small', op: ops.patch },
    { method: 'DELETE', path: '/v1/tables/{table_id}', handler: 'deleteTable', size: 'small', op: ops.delete },
    { method: 'GET', path: '/v1/tables/{table_id}/download', handler: 'downloadTable', size: 'small', op: ops.download },
    { method: 'GET', path: '/v1/tables/{table_id}/schema', handler: 'getTableSchema', size: 'small', op: ops.schema },
    { method: 'POST', path: '/v1/tables/{table_id}/validate', handler: 'validateTable', size: 'document', op: ops.validate },
    { method: 'POST', path: '/v1/tables/{table_id}/query', handler: 'queryTable', size: 'document', op: ops.query },
    { method: 'GET', path: '/v1/tables/{table_id}/profile', handler: 'profileTable', size: 'small', op: ops.profile },
  ]),
  runs: [
    { kind: tableSummaryKind, task: async () => (await import('./task.ts')).tableSummaryTask },
  ],
};
