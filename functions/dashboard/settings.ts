/**
 * Secrets and usage as the dashboard shows them, through their services (functions/secrets,
 * functions/usage). Secrets: names and dates, set and rotated, deleted, never shown back; owners and
 * admins in both environments, developers in test. Usage: the credits of each day, per environment.
 */
import { SecretName, SecretValue } from '../secrets/schema.ts';
import { deleteSecret, listSecrets, putSecret } from '../secrets/service.ts';
import type { Secret } from '../secrets/schema.ts';
import { Forbidden, Invalid } from '../platform/errors.ts';
import type { Platform } from '../platform/platform.ts';
import type { Scope } from '../platform/ports.ts';
import { USAGE_TYPE, type UsageEntry } from '../usage/ledger.ts';
import type { Environment } from './http.ts';
import { canManageKeys } from './keys.ts';
import type { Membership } from '../members/members.ts';

/** Secrets follow the keys' rule: what a member may do with keys of an environment, they may with its secrets. */
export const canManageSecrets = canManageKeys;

export async function secretsOf(p: Platform, scope: Scope): Promise<Secret[]> {
  return listSecrets(p, scope);
}

export async function setSecret(p: Platform, membership: Membership, env: Environment, scope: Scope, input: { name: string; value: string }): Promise<Secret> {
  if (!canManageSecrets(membership, env)) throw new Forbidden(`A ${membership.role} cannot set secrets of the ${env} environment`);
  const name = SecretName.safeParse(input.name);
  if (!name.success) throw Invalid.at(['body', 'name'], name.error.issues[0]?.message ?? 'invalid name');
  const value = SecretValue.safeParse(input.value);
  if (!value.success) throw Invalid.at(['body', 'value'], value.error.issues[0]?.message ?? 'invalid value');
  return putSecret(p, { ...scope, key: { id: membership.user_id } }, name.data, value.data);
}

export async function removeSecret(p: Platform, membership: Membership, env: Environment, scope: Scope, name: string): Promise<void> {
  if (!canManageSecrets(membership, env)) throw new Forbidden(`A ${membership.role} cannot delete secrets of the ${env} environment`);
  await deleteSecret(p, scope, name);
}

export interface UsageDay {
  day: string;
  credits: number;
  runs: number;
}

const round = (n: number) => Math.round(n * 1e6) / 1e6;

/** Credits per UTC day over the last `days` days (oldest first), from the environment's usage ledger. */
export async function usageByDay(p: Platform, scope: Scope, days: number): Promise<UsageDay[]> {
  const now = p.clock.now();
  const start = new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), now.getUTCDate() - (days - 1)));
  const byDay = new Map<string, UsageDay>();
  for (let i = 0; i < days; i++) {
    const day = new Date(start.getTime() + i * 86_400_000).toISOString().slice(0, 10);
    byDay.set(day, { day, credits: 0, runs: 0 });
  }
  let after: string | undefined;
  do {
    const page = await p.store.listRecords<UsageEntry>(scope, USAGE_TYPE, { limit: 100, order: 'asc', fromTime: start.toISOString(), after });
    for (const { data, createdAt } of page.items) {
      const entry = byDay.get(createdAt.slice(0, 10));
      if (!entry) continue;
      entry.credits = round(entry.credits + data.credits);
      entry.runs += 1;
    }
    after = page.after ?? undefined;
  } while (after);
  return [...byDay.values()];
}
