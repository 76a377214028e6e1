import * as z from 'zod';
import { DEFAULT_MODEL, findModel, knownModelNames } from './registry.ts';

/** A `model` field of a request body: a name of the registry (API §14); unknown → 422 listing the known ones. */
export const ModelName = z
  .string()
  .refine((name) => findModel(name) !== undefined, {
    error: (issue) => `Unknown model ${JSON.stringify(issue.input)}; known models: ${knownModelNames().join(', ')}`,
  })
  .default(DEFAULT_MODEL);
