/**
 * Organizations, environments and API keys (API §1): creating and revoking keys. Resolving the key of
 * a request is the platform's (functions/platform/callers.ts).
 */
import { randomBytes } from 'node:crypto';
import { type ApiKeyItem, apiKeyItemKey, type Caller, hashKey, KEY_PATTERN, KEY_PREFIXES } from '../platform/callers.ts';
import { Invalid, NotFound } from '../platform/errors.ts';
import { timestamp } from '../platform/ids.ts';
import type { Platform } from '../platform/platform.ts';
import type { EnvironmentSlug, Role } from './schema.ts';

export interface Organization {
  id: string;
  name: string;
  created_at: string;
  environments: Record<EnvironmentSlug, string>;
}

export { apiKeyItemKey, assertKeyStillValid, bearerKey, hashKey, KEY_PREFIXES, resolveCaller } from '../platform/callers.ts';
export type { ApiKeyItem, Caller } from '../platform/callers.ts';

const orgItemKey = (orgId: string) => `org#${orgId}`;
const orgKeysIndex = (orgId: string) => `${orgId}#apikeys`;

export async function createOrganization(p: Platform, name: string): Promise<Organization> {
  const org: Organization = {
    id: p.ids.next('org'),
    name,
    created_at: timestamp(p.clock.now()),
    environments: { test: p.ids.next('env'), production: p.ids.next('env') },
  };
  await p.store.putItem(orgItemKey(org.id), org, { ifAbsent: true });
  return org;
}

export async function getOrganization(p: Platform, orgId: string): Promise<Organization> {
  const org = await p.store.getItem<Organization>(orgItemKey(orgId));
  if (!org) throw NotFound.of('Organization', orgId);
  return org;
}

export interface CreateKeyInput {
  orgId: string;
  environment: EnvironmentSlug;
  name: string;
  role: Role;
  legacy?: boolean;
  /** Register this exact key instead of generating one (QUIRE_TEST_KEY / QUIRE_LIVE_KEY). */
  key?: string;
}

export async function createApiKey(p: Platform, input: CreateKeyInput): Promise<{ key: string; item: ApiKeyItem }> {
  if (input.legacy && input.environment !== 'production') throw Invalid.at(['legacy'], 'legacy sk_service_ keys exist only in production');
  const org = await getOrganization(p, input.orgId);
  const prefix = input.legacy ? KEY_PREFIXES.legacy : KEY_PREFIXES[input.environment];
  const key = input.key ?? `${prefix}${randomBytes(24).toString('base64url')}`;
  if (!KEY_PATTERN.test(key)) throw Invalid.at(['key'], 'a key must look like rt_test_<secret>, rt_live_<secret> or sk_service_<secret> (16+ characters of [A-Za-z0-9_-])');
  const item: ApiKeyItem = {
    id: p.ids.next('key'),
    hash: hashKey(key),
    name: input.name,
    prefix: /^(rt_test_|rt_live_|sk_service_)/.exec(key)![1]!,
    last4: key.slice(-4),
    organization_id: org.id,
    environment_id: org.environments[input.environment],
    environment_slug: input.environment,
    role: input.role,
    legacy: key.startsWith(KEY_PREFIXES.legacy),
    created_at: timestamp(p.clock.now()),
    revoked_at: null,
  };
  const existing = await p.store.getItem<ApiKeyItem>(apiKeyItemKey(item.hash));
  if (existing) {
    if (existing.organization_id !== org.id || existing.environment_slug !== input.environment) {
      throw Invalid.at(['key'], 'this key is already registered for another organization or environment');
    }
    return { key, item: existing };
  }
  await p.store.putIndexedItem(apiKeyItemKey(item.hash), orgKeysIndex(org.id), item);
  return { key, item };
}

export async function listApiKeys(p: Platform, orgId: string): Promise<ApiKeyItem[]> {
  const keys = await p.store.listItems<ApiKeyItem>(orgKeysIndex(orgId));
  return keys.sort((a, b) => a.created_at.localeCompare(b.created_at));
}

export async function revokeApiKey(p: Platform, orgId: string, keyId: string): Promise<ApiKeyItem> {
  const item = (await listApiKeys(p, orgId)).find((k) => k.id === keyId);
  if (!item) throw NotFound.of('Key', keyId);
  if (item.revoked_at) return item;
  const revoked = { ...item, revoked_at: timestamp(p.clock.now()) };
  await p.store.putIndexedItem(apiKeyItemKey(item.hash), orgKeysIndex(orgId), revoked);
  return revoked;
}

export function authStatusOf(caller: Caller) {
  return {
    authenticated: true as const,
    auth_method: 'api_key' as const,
    organization_id: caller.orgId,
    environment_slug: caller.envSlug,
    environment_id: caller.envId,
    environment: {
      id: caller.envId,
      name: caller.envSlug,
      type: caller.envSlug === 'production' ? ('production' as const) : ('non_production' as const),
    },
    key: {
      id: caller.key.id,
      name: caller.key.name,
      prefix: caller.key.prefix,
      last4: caller.key.last4,
      role: caller.key.role,
      legacy: caller.key.legacy,
    },
  };
}
