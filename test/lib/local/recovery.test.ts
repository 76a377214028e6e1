/**
 * Runs left queued or in progress when the local runtime stopped (its executions live in memory) are
 * resumed on the next start, on the same data dir, and complete.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, expect, it } from 'vitest';
import { platform } from '../../../functions/platform/platform.ts';
import { probeRoutes } from '../../support/probe.ts';
import { startTestCloud, until } from '../../support/cloud.ts';

const dataDir = mkdtempSync(join(tmpdir(), 'quire-recovery-'));
afterAll(() => rmSync(dataDir, { recursive: true, force: true }));

it('resumes unfinished runs after a restart', async () => {
  const first = await startTestCloud({ dataDir, extraRoutes: probeRoutes });
  const envId = (await first.api('GET', '/v1/auth/status')).body.environment_id as string;
  const scope = { orgId: first.orgId, envId };
  // As a crashed process would leave them: one in progress, one queued, their executions gone.
  const unfinished = [
    { id: 'prb_01m7z0qenejn1pv4p44vpcbw01', status: 'in_progress' },
    { id: 'prb_01m7z0qenejn1pv4p44vpcbw02', status: 'queued' },
  ];
  for (const { id, status } of unfinished) {
    const data = { id, file: null, model: 'quire-local', mode: 'echo', text: `resumed ${id}`, instructions: null, status, error: null, usage: { credits: 0 }, created_at: new Date().toISOString(), _output_key: null, _input: {}, _cache_key: null };
    await platform().store.putRecord(scope, { type: 'probe', id, createdAt: data.created_at, status, data });
  }
  await first.close();

  const second = await startTestCloud({ dataDir, extraRoutes: probeRoutes, keys: { ...first.keys, orgId: first.orgId } });
  try {
    for (const { id } of unfinished) {
      const done = await until(async () => {
        const r = await second.api('GET', `/v1/probes/${id}`);
        return r.body.status === 'completed' ? r.body : undefined;
      });
      expect(done.output).toEqual({ echo: `resumed ${id}` });
    }
  } finally {
    await second.close();
  }
});
