import type { RunKind } from '../runs/kinds.ts';

export const partitionKind: RunKind = {
  name: 'partition',
  type: 'partition',
  idPrefix: 'prt',
  resource: 'Partition',
  emptyOutput: [],
  emptyExtras: { consensus: { likelihoods: [], choices: [] } },
};
