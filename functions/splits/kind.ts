import type { RunKind } from '../runs/kinds.ts';

export const splitKind: RunKind = {
  name: 'split',
  type: 'split',
  idPrefix: 'splt',
  resource: 'Split',
  emptyOutput: [],
  emptyExtras: { consensus: { likelihoods: [], choices: [] } },
};
