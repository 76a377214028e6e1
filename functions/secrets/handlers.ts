import { api } from '../platform/http.ts';
import { secretOperations as ops } from './operations.ts';
import { deleteSecret as remove, getSecret as read, listSecrets as list, putSecret, readSecretValue } from './service.ts';

export const listSecrets = api(ops.list, async ({ platform, caller }) => ({ secrets: await list(platform, caller) }));

export const createSecret = api(ops.create, async ({ platform, caller, body }) => ({
  secret: await putSecret(platform, caller, body.name, body.value, { mustNotExist: true }),
}));

export const getSecret = api(ops.get, async ({ platform, caller, params }) => ({ secret: await read(platform, caller, params.name) }));

export const putSecretValue = api(ops.put, async ({ platform, caller, params, body }) => ({ secret: await putSecret(platform, caller, params.name, body.value) }));

export const getSecretValue = api(ops.value, async ({ platform, caller, params }) => ({ secret: await readSecretValue(platform, caller, params.name) }));

export const deleteSecret = api(ops.delete, async ({ platform, caller, params }) => {
  await remove(platform, caller, params.name);
});
