import * as z from 'zod';

export const UsageQuery = z.object({
  from_date: z.string().optional().describe('YYYY-MM-DD (start of that UTC day) or RFC 3339'),
  to_date: z.string().optional().describe('YYYY-MM-DD (end of that UTC day) or RFC 3339'),
});

export const UsageReport = z
  .object({
    environment_slug: z.enum(['test', 'production']),
    credits: z.number(),
    billable_credits: z.number().describe('Always 0 in the test environment'),
    by_operation: z.record(z.string(), z.number()),
    runs: z.number().int(),
  })
  .meta({ id: 'UsageReport' });
export type UsageReport = z.infer<typeof UsageReport>;
