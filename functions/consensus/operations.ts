import { operation } from '../platform/operation.ts';
import { CreateConsensusBody, ReconciliationResult } from './schema.ts';

export const consensusOperations = {
  create: operation({
    summary: 'Reconcile several JSON answers into one: list items aligned by content, then every leaf voted',
    auth: 'api_key',
    body: CreateConsensusBody,
    // An input's null is a vote ("no value"), not an omitted field.
    keepNulls: true,
    status: 200,
    response: ReconciliationResult,
    tags: ['consensus'],
  }),
};
