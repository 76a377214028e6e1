/** Extractions: JSON by a JSON Schema, with the place in the file behind every value. */
import type { Feature } from '../feature.ts';
import { routesOf } from '../platform/route.ts';
import { extractionKind } from './kind.ts';
import { extractionOperations as ops } from './operations.ts';

export const extractionsFeature: Feature = {
  name: 'extractions',
  routes: routesOf('extractions', [
    { method: 'POST', path: '/v1/extractions', handler: 'createExtraction', size: 'document', op: ops.create },
    { method: 'POST', path: '/v1/extractions/stream', handler: 'streamExtractionRun', size: 'document', op: ops.stream, stream: true },
    { method: 'GET', path: '/v1/extractions', handler: 'listExtractions', size: 'small', op: ops.list },
    { method: 'GET', path: '/v1/extractions/{extraction_id}', handler: 'getExtraction', size: 'small', op: ops.get },
    { method: 'DELETE', path: '/v1/extractions/{extraction_id}', handler: 'deleteExtraction', size: 'small', op: ops.delete },
    { method: 'POST', path: '/v1/extractions/{extraction_id}/cancel', handler: 'cancelExtraction', size: 'small', op: ops.cancel },
    { method: 'GET', path: '/v1/extractions/{extraction_id}/sources', handler: 'getExtractionSources', size: 'small', op: ops.sources },
    { method: 'POST', path: '/v1/extractions/{extraction_id}/sources', handler: 'createExtractionSources', size: 'small', op: ops.createSources },
  ]),
  runs: [
    { kind: extractionKind, path: '/v1/extractions', dashboard: { startable: true, pages: async () => (await import('./dashboard.ts')).extractionPages }, task: async () => (await import('./task.ts')).extractionTask },
  ],
  blocks: [{ type: 'extract', kind: 'extraction', load: async () => (await import('./block.ts')).extractBlock }],
};
