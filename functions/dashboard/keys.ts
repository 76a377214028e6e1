/**
 * API keys as the dashboard shows them: the keys of one environment of the member's organization,
 * created and revoked through the auth service (functions/auth/service.ts), with what each member
 * role may do. Owners and admins manage keys of both environments, developers those of test,
 * viewers none.
 */
import { createApiKey, listApiKeys, revokeApiKey, type ApiKeyItem } from '../auth/service.ts';
import type { Role } from '../auth/schema.ts';
import { keyLastUsed } from '../platform/callers.ts';
import { Forbidden, Invalid, NotFound } from '../platform/errors.ts';
import type { Platform } from '../platform/platform.ts';
import type { Environment } from './http.ts';
import type { Membership } from '../members/members.ts';

export interface KeyRow {
  id: string;
  name: string;
  prefix: string;
  last4: string;
  role: Role;
  legacy: boolean;
  created_at: string;
  last_used_at: string | null;
  revoked_at: string | null;
}

export function canManageKeys(membership: Membership, env: Environment): boolean {
  return membership.role === 'owner' || membership.role === 'admin' || (membership.role === 'developer' && env === 'test');
}

function assertCanManage(membership: Membership, env: Environment): void {
  if (!canManageKeys(membership, env)) throw new Forbidden(`A ${membership.role} cannot manage API keys of the ${env} environment`);
}

async function keysOf(p: Platform, orgId: string, env: Environment): Promise<ApiKeyItem[]> {
  return (await listApiKeys(p, orgId)).filter((key) => key.environment_slug === env);
}

export async function listKeys(p: Platform, orgId: string, env: Environment): Promise<KeyRow[]> {
  const keys = await keysOf(p, orgId, env);
  const used = await Promise.all(keys.map((key) => keyLastUsed(p, key.hash)));
  return keys
    .map((key, i) => ({
      id: key.id,
      name: key.name,
      prefix: key.prefix,
      last4: key.last4,
      role: key.role,
      legacy: key.legacy,
      created_at: key.created_at,
      last_used_at: used[i]!,
      revoked_at: key.revoked_at,
    }))
    .reverse();
}

export async function createKey(p: Platform, membership: Membership, env: Environment, input: { name: string; role: Role }): Promise<{ key: string; row: KeyRow }> {
  assertCanManage(membership, env);
  const name = input.name.trim();
  if (!name || name.length > 100) throw Invalid.at(['body', 'name'], 'a key needs a name of 1 to 100 characters');
  const { key, item } = await createApiKey(p, { orgId: membership.organization_id, environment: env, name, role: input.role });
  return { key, row: { ...item, last_used_at: null } };
}

/** Revokes a key of this environment; a key of the other environment or organization is unknown here (404). */
export async function revokeKey(p: Platform, membership: Membership, env: Environment, keyId: string): Promise<void> {
  const key = (await keysOf(p, membership.organization_id, env)).find((k) => k.id === keyId);
  if (!key) throw NotFound.of('Key', keyId);
  assertCanManage(membership, env);
  await revokeApiKey(p, membership.organization_id, keyId);
}
