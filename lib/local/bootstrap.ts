/**
 * First start: one organization with one test key and one live key, printed once. With
 * QUIRE_TEST_KEY / QUIRE_LIVE_KEY, those exact keys are registered instead (for scripts).
 * The organization id is remembered in the data dir; keys are never written there.
 */
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { createApiKey, createOrganization } from '../../functions/auth/service.ts';
import type { Platform } from '../../functions/platform/platform.ts';

export interface BootstrapResult {
  organizationId: string;
  /** Keys created by this start (printed once); empty when they existed already. */
  created: Array<{ environment: 'test' | 'production'; key: string }>;
}

export async function bootstrap(p: Platform, dataDir: string, given: { testKey?: string; liveKey?: string }): Promise<BootstrapResult> {
  const stateFile = join(dataDir, 'bootstrap.json');
  const state = existsSync(stateFile) ? (JSON.parse(readFileSync(stateFile, 'utf8')) as { organization_id: string }) : undefined;
  const isFirstStart = !state;
  const organizationId = state?.organization_id ?? (await createOrganization(p, 'Default organization')).id;
  if (isFirstStart) writeFileSync(stateFile, `${JSON.stringify({ organization_id: organizationId }, null, 2)}\n`);

  const created: BootstrapResult['created'] = [];
  const wanted: Array<{ environment: 'test' | 'production'; key?: string }> = [
    { environment: 'test', key: given.testKey },
    { environment: 'production', key: given.liveKey },
  ];
  for (const { environment, key } of wanted) {
    if (key) {
      // Registering a given key is idempotent: a restart with the same variable changes nothing.
      await createApiKey(p, { orgId: organizationId, environment, name: `${environment} (from environment)`, role: 'admin', key });
    } else if (isFirstStart) {
      const made = await createApiKey(p, { orgId: organizationId, environment, name: `default ${environment} key`, role: 'admin' });
      created.push({ environment, key: made.key });
    }
  }
  return { organizationId, created };
}
