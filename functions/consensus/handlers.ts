import { api } from '../platform/http.ts';
import { consensusOperations as ops } from './operations.ts';
import { createConsensus as reconcileInputs } from './service.ts';

export const createConsensus = api(ops.create, async ({ body }) => reconcileInputs(body));
