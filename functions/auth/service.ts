/**
 * Organizations, environments and API keys (API §1). Only the SHA-256 of a key is stored; the key's
 * prefix is a hint, the environment is the one stored with it.
 */
import { createHash, randomBytes } from 'node:crypto';
import { Invalid, NotFound, Unauthorized } from '../platform/errors.ts';
import { timestamp } from '../platform/ids.ts';
import type { Platform } from '../platform/platform.ts';
import type { Scope } from '../platform/ports.ts';
import type { EnvironmentSlug, Role } from './schema.ts';

export interface Organization {
  id: string;
  name: string;
  created_at: string;
  environments: Record<EnvironmentSlug, string>;
}

export interface ApiKeyItem {
  id: string;
  hash: string;
  name: string;
  prefix: string;
  last4: string;
  organization_id: string;
  environment_id: string;
  environment_slug: EnvironmentSlug;
  role: Role;
  legacy: boolean;
  created_at: string;
  revoked_at: string | null;
}

/** Who is calling: resolved from the API key on every request. */
export interface Caller extends Scope {
  envSlug: EnvironmentSlug;
  key: ApiKeyItem;
}

export const KEY_PREFIXES = { test: 'rt_test_', production: 'rt_live_', legacy: 'sk_service_' } as const;
const KEY_PATTERN = /^(rt_test_|rt_live_|sk_service_)[A-Za-z0-9_-]{16,200}$/;

export function hashKey(key: string): string {
  return createHash('sha256').update(key, 'utf8').digest('hex');
}

const orgItemKey = (orgId: string) => `org#${orgId}`;
const apiKeyItemKey = (hash: string) => `apikey#${hash}`;
const orgKeysIndex = (orgId: string) => `${orgId}#apikeys`;

/** Reads `Authorization: Bearer <key>`; every failure is a 401 naming what is wrong. */
export function bearerKey(authorization: string | undefined): string {
  if (!authorization) throw new Unauthorized('Missing API key: send the header "Authorization: Bearer <api key>"');
  const match = /^Bearer\s+(\S+)\s*$/i.exec(authorization);
  if (!match) throw new Unauthorized('Malformed Authorization header: expected "Bearer <api key>"');
  const key = match[1]!;
  if (!KEY_PATTERN.test(key)) throw new Unauthorized('Malformed API key: expected rt_test_..., rt_live_... or sk_service_...');
  return key;
}

export async function resolveCaller(p: Platform, key: string): Promise<Caller> {
  const item = await p.store.getItem<ApiKeyItem>(apiKeyItemKey(hashKey(key)));
  if (!item) throw new Unauthorized('Invalid API key');
  if (item.revoked_at) throw new Unauthorized('API key revoked');
  return { orgId: item.organization_id, envId: item.environment_id, envSlug: item.environment_slug, key: item };
}

/** Checked again after the work, before the response: a revoked key fails at once, even mid-request. */
export async function assertKeyStillValid(p: Platform, caller: Caller): Promise<void> {
  const item = await p.store.getItem<ApiKeyItem>(apiKeyItemKey(caller.key.hash));
  if (!item) throw new Unauthorized('Invalid API key');
  if (item.revoked_at) throw new Unauthorized('API key revoked');
}

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
