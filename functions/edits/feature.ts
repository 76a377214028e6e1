/** Edits: PDF forms filled from instructions, and edit templates. */
import type { Feature } from '../feature.ts';
import { routesOf } from '../platform/route.ts';
import { editKind, fieldDetectionKind } from './kind.ts';
import { editOperations as ops } from './operations.ts';

export const editsFeature: Feature = {
  name: 'edits',
  routes: routesOf('edits', [
    { method: 'POST', path: '/v1/edits/templates', handler: 'createTemplate', size: 'document', op: ops.createTemplate },
    { method: 'GET', path: '/v1/edits/templates', handler: 'listTemplates', size: 'small', op: ops.listTemplates },
    { method: 'GET', path: '/v1/edits/templates/{template_id}', handler: 'getTemplate', size: 'small', op: ops.getTemplate },
    { method: 'PATCH', path: '/v1/edits/templates/{template_id}', handler: 'updateTemplate', size: 'small', op: ops.updateTemplate },
    { method: 'DELETE', path: '/v1/edits/templates/{template_id}', handler: 'deleteTemplate', size: 'small', op: ops.deleteTemplate },
    { method: 'POST', path: '/v1/edits', handler: 'createEdit', size: 'document', op: ops.create },
    { method: 'GET', path: '/v1/edits', handler: 'listEdits', size: 'small', op: ops.list },
    { method: 'GET', path: '/v1/edits/{edit_id}', handler: 'getEdit', size: 'small', op: ops.get },
    { method: 'DELETE', path: '/v1/edits/{edit_id}', handler: 'deleteEdit', size: 'small', op: ops.delete },
    { method: 'POST', path: '/v1/edits/{edit_id}/cancel', handler: 'cancelEdit', size: 'small', op: ops.cancel },
  ]),
  runs: [
    { kind: editKind, path: '/v1/edits', dashboard: { pages: async () => (await import('./dashboard.ts')).editPages }, task: async () => (await import('./task.ts')).editTask },
    { kind: fieldDetectionKind, task: async () => (await import('./task.ts')).fieldDetectionTask },
  ],
  blocks: [{ type: 'edit', kind: 'edit', load: async () => (await import('./block.ts')).editBlock }],
};
