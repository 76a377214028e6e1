/**
 * Secrets (API §11): named values of one environment, stored only as KMS envelope ciphertext
 * (KeyRing port). The encryption context {organization, environment, name} binds each ciphertext to
 * its item: copied to another environment or name, it no longer decrypts.
 *
 * Values never leave this module except through `GET .../value` and `readSecretValue` (for features
 * that use secrets); they are never logged, and errors never carry them.
 */
import { Conflict, NotFound } from '../platform/errors.ts';
import { timestamp } from '../platform/ids.ts';
import type { Platform } from '../platform/platform.ts';
import type { Scope, Sealed } from '../platform/ports.ts';
import type { Secret } from './schema.ts';

export const SECRET_TYPE = 'secret';

interface SecretData extends Secret {
  sealed: Sealed;
}

/** Who writes: the scope and the id of the calling key. */
export interface SecretWriter extends Scope {
  key: { id: string };
}

export function encryptionContext(scope: Scope, name: string): Record<string, string> {
  return { organization: scope.orgId, environment: scope.envId, name };
}

function publicView(data: SecretData): Secret {
  return { name: data.name, created_at: data.created_at, updated_at: data.updated_at, created_by: data.created_by, updated_by: data.updated_by };
}

async function readSecret(p: Platform, scope: Scope, name: string): Promise<SecretData> {
  const record = await p.store.getRecord<SecretData>(scope, SECRET_TYPE, name);
  if (!record) throw new NotFound(`Secret ${name} not found`);
  return record.data;
}

/**
 * Creates or rotates. The value is sealed before anything is written, so a KMS failure stores
 * nothing. Rotation keeps created_at/created_by and moves updated_at/updated_by.
 */
export async function putSecret(p: Platform, writer: SecretWriter, name: string, value: string, opts: { mustNotExist?: boolean } = {}): Promise<Secret> {
  const existing = opts.mustNotExist ? undefined : await p.store.getRecord<SecretData>(writer, SECRET_TYPE, name);
  const sealed = await p.keyRing.seal(value, encryptionContext(writer, name));
  const now = timestamp(p.clock.now());
  const data: SecretData = {
    name,
    created_at: existing?.data.created_at ?? now,
    created_by: existing?.data.created_by ?? writer.key.id,
    updated_at: now,
    updated_by: writer.key.id,
    sealed,
  };
  try {
    await p.store.putRecord<SecretData>(writer, { type: SECRET_TYPE, id: name, createdAt: data.created_at, data }, { ifAbsent: opts.mustNotExist });
  } catch (error) {
    if (error instanceof Conflict) throw new Conflict(`Secret ${name} already exists`);
    throw error;
  }
  return publicView(data);
}

export async function getSecret(p: Platform, scope: Scope, name: string): Promise<Secret> {
  return publicView(await readSecret(p, scope, name));
}

export async function readSecretValue(p: Platform, scope: Scope, name: string): Promise<{ name: string; value: string; updated_at: string }> {
  const data = await readSecret(p, scope, name);
  const value = await p.keyRing.open(data.sealed, encryptionContext(scope, name));
  return { name, value, updated_at: data.updated_at };
}

export async function listSecrets(p: Platform, scope: Scope): Promise<Secret[]> {
  const secrets: Secret[] = [];
  let after: string | undefined;
  do {
    const page = await p.store.listRecords<SecretData>(scope, SECRET_TYPE, { limit: 100, order: 'asc', after });
    secrets.push(...page.items.map((item) => publicView(item.data)));
    after = page.after ?? undefined;
  } while (after);
  return secrets.sort((a, b) => a.name.localeCompare(b.name));
}

export async function deleteSecret(p: Platform, scope: Scope, name: string): Promise<void> {
  if (!(await p.store.deleteRecord(scope, SECRET_TYPE, name))) throw new NotFound(`Secret ${name} not found`);
}
