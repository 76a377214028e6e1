import * as z from 'zod';

export const Model = z
  .object({
    id: z.string(),
    provider: z.string(),
    capabilities: z.array(z.string()),
    credits_per_page: z.number(),
  })
  .meta({ id: 'Model' });

export const ModelList = z.object({ data: z.array(Model) });

import { DEFAULT_MODEL, findModel, knownModelNames } from './registry.ts';

/** A `model` field of a request body: a name of the registry (API §14); unknown → 422 listing the known ones. */
export const ModelName = z
  .string()
  .refine((name) => findModel(name) !== undefined, {
    error: (issue) => `Unknown model ${JSON.stringify(issue.input)}; known models: ${knownModelNames().join(', ')}`,
  })
  .default(DEFAULT_MODEL);
