/**
 * Which referenced secrets a scope lacks (publish in production, promotions, the start of a run).
 */
import type { Platform } from '../platform/platform.ts';
import type { Scope } from '../platform/ports.ts';
import { SECRET_TYPE } from '../secrets/service.ts';

export async function missingSecrets(p: Platform, scope: Scope, names: string[]): Promise<string[]> {
  const missing: string[] = [];
  for (const name of names) if (!(await p.store.getRecord(scope, SECRET_TYPE, name))) missing.push(name);
  return missing;
}
