/**
 * Projects (API §9.1): named groups of workflows and tables in one environment.
 */
import { NotFound } from '../platform/errors.ts';
import { timestamp } from '../platform/ids.ts';
import type { Platform } from '../platform/platform.ts';
import type { Scope } from '../platform/ports.ts';
import type { Project } from './schema.ts';

export const PROJECT_TYPE = 'project';

export async function createProject(p: Platform, scope: Scope, input: { name: string; description: string }): Promise<Project> {
  const now = timestamp(p.clock.now());
  const project: Project = { id: p.ids.next('proj'), name: input.name, description: input.description, environment_id: scope.envId, created_at: now, updated_at: now };
  await p.store.putRecord(scope, { type: PROJECT_TYPE, id: project.id, createdAt: now, data: project }, { ifAbsent: true });
  return project;
}

export async function findProject(p: Platform, scope: Scope, id: string): Promise<Project | undefined> {
  return (await p.store.getRecord<Project>(scope, PROJECT_TYPE, id))?.data;
}

export async function getProject(p: Platform, scope: Scope, id: string): Promise<Project> {
  const project = await findProject(p, scope, id);
  if (!project) throw NotFound.of('Project', id);
  return project;
}
