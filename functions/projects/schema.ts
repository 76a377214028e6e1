import * as z from 'zod';
import { ListQueryParams } from '../platform/schemas.ts';

export const Project = z
  .object({
    id: z.string(),
    name: z.string(),
    description: z.string(),
    environment_id: z.string(),
    created_at: z.string(),
    updated_at: z.string(),
  })
  .meta({ id: 'Project' });
export type Project = z.infer<typeof Project>;

export const CreateProjectBody = z.object({
  name: z.string().trim().min(1, 'must not be empty').max(200),
  description: z.string().max(2000).default(''),
});

export const ProjectIdParams = z.object({ project_id: z.string() });
export const ListProjectsQuery = ListQueryParams;
