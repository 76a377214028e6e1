/**
 * Who is calling (API §1): the API key of a request resolved to its organization, environment and
 * role. The platform authenticates every request with it; the auth feature creates and revokes keys.
 * Only the SHA-256 of a key is stored; the key's prefix is a hint, the environment is the one stored
 * with it.
 */
import { createHash } from 'node:crypto';
import { Unauthorized } from './errors.ts';
import type { Platform } from './platform.ts';
import type { Scope } from './ports.ts';

export const ENVIRONMENT_SLUGS = ['test', 'production'] as const;
export type EnvironmentSlug = (typeof ENVIRONMENT_SLUGS)[number];
export const ROLES = ['admin', 'operator', 'viewer'] as const;
export type Role = (typeof ROLES)[number];

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
export const KEY_PATTERN = /^(rt_test_|rt_live_|sk_service_)[A-Za-z0-9_-]{16,200}$/;

export function hashKey(key: string): string {
  return createHash('sha256').update(key, 'utf8').digest('hex');
}

export const apiKeyItemKey = (hash: string) => `apikey#${hash}`;

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
