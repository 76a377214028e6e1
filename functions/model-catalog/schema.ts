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
