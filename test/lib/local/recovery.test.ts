/**
 * Runs left queued or in progress when the local runtime stopped (its executions live in memory) are
 * resumed on the next start, on the same data dir, and complete.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ListExecutionsCommand, SFNClient } from '@aws-sdk/client-sfn';
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

it('resumes webhook deliveries left pending or retrying, and never mistakes them for runs', async () => {
  const { startReceiver } = await import('../../support/receiver.ts');
  const receiver = await startReceiver();
  const dir = mkdtempSync(join(tmpdir(), 'quire-recovery-hooks-'));
  const first = await startTestCloud({ dataDir: dir });
  try {
    expect((await first.api('PUT', '/v1/webhooks/endpoint', { body: { url: `${receiver.url}/resumed` } })).status).toBe(200);
    const envId = (await first.api('GET', '/v1/auth/status')).body.environment_id as string;
    const scope = { orgId: first.orgId, envId };
    const p = platform();
    // As a stopped process would leave them: the event stored, its deliveries not yet attempted / between attempts.
    const ids: string[] = [];
    for (const status of ['pending', 'retrying'] as const) {
      const eventId = p.ids.next('evt');
      const createdAt = new Date().toISOString();
      await p.store.putRecord(scope, { type: 'webhook_event', id: eventId, createdAt, data: { id: eventId, type: 'webhook.test', created_at: createdAt, body: JSON.stringify({ id: eventId, type: 'webhook.test', environment: 'test', organization_id: first.orgId, created_at: createdAt, data: { message: status } }) } });
      const id = p.ids.next('whd');
      ids.push(id);
      const delivery = { id, event_id: eventId, event_type: 'webhook.test', url: `${receiver.url}/resumed`, status, attempts: status === 'retrying' ? 1 : 0, last_status_code: null, last_error: null, next_attempt_at: createdAt, created_at: createdAt, _attempt_log: [] };
      await p.store.putRecord(scope, { type: 'webhook_delivery', id, createdAt, status, attrs: { event_type: 'webhook.test' }, data: delivery });
    }
    await first.close();
    const second = await startTestCloud({ dataDir: dir, keys: { ...first.keys, orgId: first.orgId } });
    try {
      for (const id of ids) {
        const done = await until(async () => {
          const r = await second.api('GET', `/v1/webhooks/deliveries/${id}`);
          return r.body.status === 'succeeded' ? r.body : undefined;
        });
        expect(done.last_status_code).toBe(200);
      }
      expect(receiver.received.filter((r) => r.path === '/resumed').map((r) => JSON.parse(r.body).data.message).sort()).toEqual(['pending', 'retrying']);
    } finally {
      await second.close();
    }
  } finally {
    await receiver.close();
    rmSync(dir, { recursive: true, force: true });
  }
});

it('resumes the oldest unfinished run first: its steps go first in line for a task container', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'quire-recovery-order-'));
  const first = await startTestCloud({ dataDir: dir, extraRoutes: probeRoutes });
  const envId = (await first.api('GET', '/v1/auth/status')).body.environment_id as string;
  const scope = { orgId: first.orgId, envId };
  // Written newest first: the store's scan order says nothing of their age.
  const ids = ['prb_01m7z0qenejn1pv4p44vpcbw13', 'prb_01m7z0qenejn1pv4p44vpcbw12', 'prb_01m7z0qenejn1pv4p44vpcbw11'];
  const createdAt = (i: number) => new Date(Date.UTC(2026, 0, 1, 0, 0, 3 - i)).toISOString();
  for (const [i, id] of ids.entries()) {
    const data = { id, file: null, model: 'quire-local', mode: 'echo', text: id, instructions: null, status: 'queued', error: null, usage: { credits: 0 }, created_at: createdAt(i), _output_key: null, _input: {}, _cache_key: null };
    await platform().store.putRecord(scope, { type: 'probe', id, createdAt: createdAt(i), status: 'queued', data });
  }
  await first.close();

  const second = await startTestCloud({ dataDir: dir, extraRoutes: probeRoutes, keys: { ...first.keys, orgId: first.orgId } });
  const sfn = new SFNClient({ region: second.endpoints.region, endpoint: second.endpoints.stepfunctions, credentials: { accessKeyId: 'x', secretAccessKey: 'x' } });
  try {
    for (const id of ids) await until(async () => ((await second.api('GET', `/v1/probes/${id}`)).body.status === 'completed' ? true : undefined));
    const listed = await sfn.send(new ListExecutionsCommand({ stateMachineArn: second.endpoints.runStateMachineArn }));
    const started = [...listed.executions!].sort((a, b) => a.startDate!.getTime() - b.startDate!.getTime()).map((e) => e.name);
    expect(started).toEqual([...ids].reverse());
  } finally {
    sfn.destroy();
    await second.close();
    rmSync(dir, { recursive: true, force: true });
  }
});
