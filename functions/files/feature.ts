/** Files: the three-step upload, uploads from a URL, lists, download links, and blueprints. */
import type { Feature } from '../feature.ts';
import { routesOf } from '../platform/route.ts';
import { fileBlueprintKind } from './kind.ts';
import { blueprintOperations as blueprints, fileOperations as ops } from './operations.ts';

export const filesFeature: Feature = {
  name: 'files',
  routes: routesOf('files', [
    { method: 'POST', path: '/v1/files/upload', handler: 'createUpload', size: 'small', op: ops.createUpload },
    { method: 'POST', path: '/v1/files/upload/{file_id}/complete', handler: 'completeUpload', size: 'document', op: ops.completeUpload },
    { method: 'POST', path: '/v1/files', handler: 'createFile', size: 'small', op: ops.createFile },
    { method: 'GET', path: '/v1/files', handler: 'listFiles', size: 'small', op: ops.listFiles },
    { method: 'GET', path: '/v1/files/{file_id}', handler: 'getFile', size: 'small', op: ops.getFile },
    { method: 'GET', path: '/v1/files/{file_id}/download-link', handler: 'getDownloadLink', size: 'small', op: ops.getDownloadLink },
    { method: 'POST', path: '/v1/files/blueprints', handler: 'createBlueprint', size: 'small', op: blueprints.create },
    { method: 'GET', path: '/v1/files/blueprints/{blueprint_id}', handler: 'getBlueprint', size: 'small', op: blueprints.get },
    { method: 'POST', path: '/v1/files/blueprints/{blueprint_id}/cancel', handler: 'cancelBlueprint', size: 'small', op: blueprints.cancel },
  ]),
  runs: [{ kind: fileBlueprintKind, task: async () => (await import('./task.ts')).blueprintTask }],
};
