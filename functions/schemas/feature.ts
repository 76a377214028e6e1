/** Schema generation: a JSON Schema from example documents. */
import type { Feature } from '../feature.ts';
import { routesOf } from '../platform/route.ts';
import { schemaGenerationKind } from './kind.ts';
import { schemaGenerationOperations as ops } from './operations.ts';

export const schemasFeature: Feature = {
  name: 'schemas',
  routes: routesOf('schemas', [
    { method: 'POST', path: '/v1/schemas/generate', handler: 'createSchemaGeneration', size: 'document', op: ops.create },
    { method: 'GET', path: '/v1/schemas/generate', handler: 'listSchemaGenerations', size: 'small', op: ops.list },
    { method: 'GET', path: '/v1/schemas/generate/{schema_generation_id}', handler: 'getSchemaGeneration', size: 'small', op: ops.get },
    { method: 'DELETE', path: '/v1/schemas/generate/{schema_generation_id}', handler: 'deleteSchemaGeneration', size: 'small', op: ops.delete },
    { method: 'POST', path: '/v1/schemas/generate/{schema_generation_id}/cancel', handler: 'cancelSchemaGeneration', size: 'small', op: ops.cancel },
  ]),
  runs: [
    { kind: schemaGenerationKind, path: '/v1/schemas/generate', dashboard: {}, task: async () => (await import('./task.ts')).schemaGenerationTask },
  ],
};
