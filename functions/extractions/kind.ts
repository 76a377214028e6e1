import type { RunKind } from '../runs/kinds.ts';

export const extractionKind: RunKind = {
  name: 'extraction',
  type: 'extraction',
  idPrefix: 'extr',
  resource: 'Extraction',
  emptyOutput: {},
  emptyExtras: { consensus: { choices: [], likelihoods: {} } },
};
