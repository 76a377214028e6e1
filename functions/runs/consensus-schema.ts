/** Request fields shared by the runs that vote (API §4–§6): n_consensus. */
import * as z from 'zod';

export const NConsensus = z.number().int().min(1, 'n_consensus must be between 1 and 16').max(16, 'n_consensus must be between 1 and 16').default(1);

/** Names of a list must be unique (categories, subdocuments). */
export function uniqueNames<T extends { name: string }>(items: T[], ctx: z.RefinementCtx, what: string): void {
  const seen = new Set<string>();
  items.forEach((item, i) => {
    if (seen.has(item.name)) ctx.addIssue({ code: 'custom', path: [i, 'name'], message: `${what} names must be unique: "${item.name}" appears more than once` });
    seen.add(item.name);
  });
}
