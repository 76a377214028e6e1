/**
 * Which referenced secrets a scope lacks. Secrets are their own resource (API §11); this is the one
 * place workflows look them up.
 */
import type { Platform } from '../platform/platform.ts';
import type { Scope } from '../platform/ports.ts';

export const SECRET_TYPE = 'secret';

export async function missingSecrets(p: Platform, scope: Scope, names: string[]): Promise<string[]> {
  const missing: string[] = [];
  for (const name of names) if (!(await p.store.getRecord(scope, SECRET_TYPE, name))) missing.push(name);
  return missing;
}
