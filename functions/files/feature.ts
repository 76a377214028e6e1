/** Files: the three-step upload, uploads from a URL, lists and download links. */
import type { Feature } from '../feature.ts';
import { routesOf } from '../platform/route.ts';
import { fileOperations as ops } from './operations.ts';

export const filesFeature: Feature = {
  name: 'files',
  routes: routesOf('files', [
    { method: 'POST', path: '/v1/files/upload', handler: 'createUpload', size: 'small', op: ops.createUpload },
    { method: 'POST', path: '/v1/files/upload/{file_id}/complete', handler: 'completeUpload', size: 'document', op: ops.completeUpload },
    { method: 'POST', path: '/v1/files', handler: 'createFile', size: 'small', op: ops.createFile },
    { method: 'GET', path: '/v1/files', handler: 'listFiles', size: 'small', op: ops.listFiles },
    { method: 'GET', path: '/v1/files/{file_id}', handler: 'getFile', size: 'small', op: ops.getFile },
    { method: 'GET', path: '/v1/files/{file_id}/download-link', handler: 'getDownloadLink', size: 'small', op: ops.getDownloadLink },
  ]),
};
