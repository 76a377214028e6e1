/** Secrets: KMS envelope-encrypted values by name. */
import type { Feature } from '../feature.ts';
import { routesOf } from '../platform/route.ts';
import { secretOperations as ops } from './operations.ts';

export const secretsFeature: Feature = {
  name: 'secrets',
  routes: routesOf('secrets', [
    { method: 'GET', path: '/v1/secrets', handler: 'listSecrets', size: 'small', op: ops.list },
    { method: 'POST', path: '/v1/secrets', handler: 'createSecret', size: 'small', op: ops.create },
    { method: 'GET', path: '/v1/secrets/{name}', handler: 'getSecret', size: 'small', op: ops.get },
    { method: 'PUT', path: '/v1/secrets/{name}', handler: 'putSecretValue', size: 'small', op: ops.put },
    { method: 'DELETE', path: '/v1/secrets/{name}', handler: 'deleteSecret', size: 'small', op: ops.delete },
    { method: 'GET', path: '/v1/secrets/{name}/value', handler: 'getSecretValue', size: 'small', op: ops.value },
  ]),
};
