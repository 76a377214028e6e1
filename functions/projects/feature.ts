/** Projects: where workflows live. */
import type { Feature } from '../feature.ts';
import { routesOf } from '../platform/route.ts';
import { projectOperations as ops } from './operations.ts';

export const projectsFeature: Feature = {
  name: 'projects',
  routes: routesOf('projects', [
    { method: 'POST', path: '/v1/projects', handler: 'createProject', size: 'small', op: ops.create },
    { method: 'GET', path: '/v1/projects', handler: 'listProjects', size: 'small', op: ops.list },
    { method: 'GET', path: '/v1/projects/{project_id}', handler: 'getProject', size: 'small', op: ops.get },
  ]),
};
