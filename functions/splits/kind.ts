import type { RunKind } from '../runs/kinds.ts';

export const splitKind: RunKind = {
  name: 'split',
  type: 'split',
  idPrefix: 'splt',
  resource: 'Split',
  emptyOutput: [],
  emptyExtras: { consensus: { likelihoods: [], choices: [] } },
};

/**
 * Rebuilding tables from spreadsheet regions (POST /v1/splits/reconstruct): an internal run, so the
 * workbook is read in the task Lambda (the readers are not in the API's), waited for by the request
 * and deleted once it has answered; no route lists it, and it is free.
 */
export const splitReconstructKind: RunKind = {
  name: 'split_reconstruct',
  type: 'split_reconstruct',
  idPrefix: 'srec',
  resource: 'Split reconstruction',
  emptyOutput: { tables: [] },
};
