import { operation } from '../platform/operation.ts';
import { listEnvelope } from '../platform/schemas.ts';
import { CreateProjectBody, ListProjectsQuery, Project, ProjectIdParams } from './schema.ts';

export const projectOperations = {
  create: operation({ summary: 'Create a project', auth: 'api_key', body: CreateProjectBody, status: 201, response: Project, tags: ['projects'] }),
  list: operation({ summary: 'List projects', auth: 'api_key', query: ListProjectsQuery, status: 200, response: listEnvelope(Project), tags: ['projects'] }),
  get: operation({ summary: 'Get a project', auth: 'api_key', params: ProjectIdParams, status: 200, response: Project, tags: ['projects'] }),
};
