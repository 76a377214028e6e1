import type { RunKind } from '../runs/kinds.ts';

/**
 * Reading a big CSV (a FileRef above the background threshold of ./service.ts): an internal run, so
 * the one-pass summary runs in the task Lambda (15 min) and never against the API's 29 s. Its task
 * settles the table itself (ready, or failed with the reason); the run is only the carrier. Its
 * records carry `attrs.table_version` and are deleted once the create/replace that started them sees
 * them end; no route lists them.
 */
export const tableSummaryKind: RunKind = {
  name: 'table_summary',
  type: 'table_summary',
  idPrefix: 'tsum',
  resource: 'Table summary',
  emptyOutput: null,
};
