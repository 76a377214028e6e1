/**
 * Who is calling (API §1): the API key of a request resolved to its organization, environment and
 * role. The platform authenticates every request with it; the auth feature creates and revokes keys.
 * Only the SHA-256 of a key is stored; the key's prefix is a hint, the environment is the one stored
 * with it.
 */
import { createHash } from 'node:crypto';
import { Unauthorized } from './errors.ts';
import { keepNewest } from './keep-newest.ts';
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
  return callerOf(p, hashKey(key));
}

async function callerOf(p: Platform, hash: string): Promise<Caller> {
  const item = await p.store.getItem<ApiKeyItem>(apiKeyItemKey(hash));
  if (!item) throw new Unauthorized('Invalid API key');
  if (item.revoked_at) throw new Unauthorized('API key revoked');
  const caller = { orgId: item.organization_id, envId: item.environment_id, envSlug: item.environment_slug, key: item };
  keepNewest(knownIn(p), hash, caller, KNOWN_KEPT);
  return caller;
}

/**
 * Callers this container has resolved, by key hash, per store (a process that starts another local
 * cloud has another store). What a key names (organization, environment, role) never changes once it
 * is made; only its revocation does, and that is read again after every request's work
 * (assertKeyStillValid).
 */
const known = new WeakMap<Platform['store'], Map<string, Caller>>();
const KNOWN_KEPT = 256;

function knownIn(p: Platform): Map<string, Caller> {
  let callers = known.get(p.store);
  if (!callers) known.set(p.store, (callers = new Map()));
  return callers;
}

/**
 * The caller of a request that only reads: a key this container resolved before is not read again
 * before the work, as the work changes nothing and the check after it (assertKeyStillValid) answers
 * 401 for a key revoked since, before anything is shown. A request that writes resolves its key
 * first (resolveCaller): a revoked key stores nothing.
 */
export async function resolveReader(p: Platform, key: string): Promise<Caller> {
  const hash = hashKey(key);
  return knownIn(p).get(hash) ?? callerOf(p, hash);
}

const keyUseItemKey = (hash: string) => `apikeyused#${hash}`;
/** When this container last wrote the use of each key (by hash): at most one write a minute per key. */
const lastNoted = new Map<string, number>();
const NOTE_EVERY_MS = 60_000;

/**
 * Remembers that a key was used (after a successful request), for the dashboard's "last used". Kept
 * in an item of its own, never in the key's item, so it cannot race with a revoke; written at most
 * once a minute per key by each container, so it is as precise as that.
 */
export async function noteKeyUse(p: Platform, caller: Caller): Promise<void> {
  const now = p.clock.now().getTime();
  if (now - (lastNoted.get(caller.key.hash) ?? 0) < NOTE_EVERY_MS) return;
  lastNoted.set(caller.key.hash, now);
  // Bookkeeping only: a failed write must not fail the request it follows.
  await p.store.putItem(keyUseItemKey(caller.key.hash), { last_used_at: new Date(now).toISOString() }).catch(() => lastNoted.delete(caller.key.hash));
}

/** When a key was last used (to the minute), or null. */
export async function keyLastUsed(p: Platform, hash: string): Promise<string | null> {
  return (await p.store.getItem<{ last_used_at: string }>(keyUseItemKey(hash)))?.last_used_at ?? null;
}

/** Checked again after the work, before the response: a revoked key fails at once, even mid-request. */
export async function assertKeyStillValid(p: Platform, caller: Caller): Promise<void> {
  const item = await p.store.getItem<ApiKeyItem>(apiKeyItemKey(caller.key.hash));
  if (!item) throw new Unauthorized('Invalid API key');
  if (item.revoked_at) throw new Unauthorized('API key revoked');
}
