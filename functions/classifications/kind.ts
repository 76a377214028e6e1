import type { RunKind } from '../runs/kinds.ts';

export const classificationKind: RunKind = {
  name: 'classification',
  type: 'classification',
  idPrefix: 'clsf',
  resource: 'Classification',
  emptyOutput: { category: '', reasoning: '' },
  emptyExtras: { consensus: { choices: [], likelihoods: 0 }, scores: {} },
};
