import { api } from '../platform/http.ts';
import { listEnvelopeOf, toListQuery } from '../platform/pagination.ts';
import { projectOperations as ops } from './operations.ts';
import type { Project } from './schema.ts';
import { createProject as create, getProject as get, PROJECT_TYPE } from './service.ts';

export const createProject = api(ops.create, ({ platform, caller, body }) => create(platform, caller, body));

export const listProjects = api(ops.list, async ({ platform, caller, query }) => listEnvelopeOf(await platform.store.listRecords<Project>(caller, PROJECT_TYPE, toListQuery(query)), (project) => project));

export const getProject = api(ops.get, ({ platform, caller, params }) => get(platform, caller, params.project_id));
