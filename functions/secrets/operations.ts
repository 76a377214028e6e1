import { operation } from '../platform/operation.ts';
import { CreateSecretBody, PutSecretBody, SecretEnvelope, SecretList, SecretNameParams, SecretValueEnvelope } from './schema.ts';

export const secretOperations = {
  list: operation({ summary: 'List the secrets of this environment (never their values)', auth: 'api_key', status: 200, response: SecretList, tags: ['secrets'] }),
  create: operation({ summary: 'Create a secret (409 if it exists)', auth: 'api_key', body: CreateSecretBody, status: 201, response: SecretEnvelope, tags: ['secrets'] }),
  get: operation({ summary: 'Get a secret (never its value)', auth: 'api_key', params: SecretNameParams, status: 200, response: SecretEnvelope, tags: ['secrets'] }),
  put: operation({
    summary: 'Create or rotate a secret; never returns the value',
    auth: 'api_key',
    params: SecretNameParams,
    body: PutSecretBody,
    status: 200,
    response: SecretEnvelope,
    tags: ['secrets'],
  }),
  value: operation({ summary: "Read a secret's value", auth: 'api_key', params: SecretNameParams, status: 200, response: SecretValueEnvelope, tags: ['secrets'] }),
  delete: operation({ summary: 'Delete a secret', auth: 'api_key', params: SecretNameParams, status: 204, tags: ['secrets'] }),
};
