import { operation } from '../platform/operation.ts';
import { AuthStatus } from './schema.ts';

export const authOperations = {
  authStatus: operation({
    summary: 'Who am I: the organization, environment and key behind the API key',
    auth: 'api_key',
    status: 200,
    response: AuthStatus,
    tags: ['auth'],
  }),
};
