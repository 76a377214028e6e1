/**
 * End to end, webhooks (API §12): `npm start` as a user runs it (handlers and the deliver-webhook
 * state machine's task in worker threads), driven over HTTP only, with loopback receivers. Retry waits
 * are scaled down through QUIRE_WEBHOOK_RETRY_SCALE, the local-only switch the runtime reads.
 */
import type { ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { verifyWebhook } from '../../functions/webhooks/verify.ts';
import { spawnLocalServer } from '../support/local-server.ts';
import { freePort } from '../support/ports.ts';
import { startReceiver, type Receiver } from '../support/receiver.ts';

const dataDir = mkdtempSync(join(tmpdir(), 'quire-e2e-hooks-'));
let child: ChildProcess;
let url: string;
let keys: { test: string; live: string };
let receiver: Receiver;

beforeAll(async () => {
  receiver = await startReceiver();
  const port = await freePort();
  const server = await spawnLocalServer({ via: 'npm start', port, env: { QUIRE_DATA_DIR: dataDir, QUIRE_WEBHOOK_RETRY_SCALE: '0.001' } });
  child = server.child;
  url = server.url;
  const out = server.output();
  keys = { test: /Test key[^:]*: (rt_test_\S+)/.exec(out)![1]!, live: /Live key[^:]*: (rt_live_\S+)/.exec(out)![1]! };
}, 60_000);

afterAll(async () => {
  if (child?.pid) {
    process.kill(-child.pid, 'SIGINT');
    const deadline = Date.now() + 15_000;
    for (;;) {
      try {
        process.kill(-child.pid, 0);
      } catch {
        break;
      }
      if (Date.now() > deadline) break;
      await new Promise((r) => setTimeout(r, 50));
    }
  }
  await receiver?.close();
  rmSync(dataDir, { recursive: true, force: true });
});

async function call(method: string, path: string, key: string, body?: unknown) {
  const r = await fetch(`${url}${path}`, { method, headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' }, body: body === undefined ? undefined : JSON.stringify(body) });
  const text = await r.text();
  return { status: r.status, body: text ? JSON.parse(text) : undefined };
}

async function poll<T>(check: () => Promise<T | undefined>, what: string, timeoutMs = 20_000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await check();
    if (value !== undefined) return value;
    if (Date.now() > deadline) throw new Error(`Timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 50));
  }
}

it('a loopback receiver gets a signed webhook.test and a parse.completed', async () => {
  const endpoint = await call('PUT', '/v1/webhooks/endpoint', keys.test, { url: `${receiver.url}/ok` });
  expect(endpoint.status).toBe(200);
  const secret = endpoint.body.signing_secret as string;

  const test = await call('POST', '/v1/webhooks/test', keys.test);
  expect(test.status).toBe(202);
  const parse = await call('POST', '/v1/parses', keys.test, { document: { filename: 'e2e.txt', url: `data:text/plain;base64,${Buffer.from('Hello webhooks').toString('base64')}` }, background: true });
  expect(parse.status).toBe(201);

  const hits = await receiver.waitFor('/ok', 2, 20_000);
  const events = hits.map((h) => verifyWebhook(h.body, h.headers, secret));
  expect(events.map((e) => e.type).sort()).toEqual(['parse.completed', 'webhook.test']);
  expect(events.find((e) => e.type === 'webhook.test')!.id).toBe(test.body.event_id);
  expect(events.find((e) => e.type === 'parse.completed')!.data).toMatchObject({ id: parse.body.id, status: 'completed' });
  for (const h of hits) expect(h.headers['x-service-environment']).toBe('test');
});

it("a failing receiver gets the retries and a failed delivery, visible only in its own environment's log", async () => {
  receiver.answer('/down', { status: 500 });
  expect((await call('PUT', '/v1/webhooks/endpoint', keys.live, { url: `${receiver.url}/down` })).status).toBe(200);
  const sent = await call('POST', '/v1/webhooks/test', keys.live);
  // Production: six retries (30 s … 24 h, scaled by 0.001 here: about 2 minutes in all is too long,
  // so only the first retries are awaited; the full schedule is proven in the integration tests).
  const delivery = await poll(async () => {
    const list = await call('GET', '/v1/webhooks/deliveries?limit=100', keys.live);
    const d = list.body.data.find((x: { event_id: string }) => x.event_id === sent.body.event_id);
    return d && d.attempts >= 3 ? d : undefined;
  }, 'three attempts');
  expect(delivery).toMatchObject({ status: 'retrying', last_status_code: 500, last_error: 'HTTP 500' });
  expect(delivery.next_attempt_at).not.toBeNull();
  expect(receiver.received.filter((r) => r.path === '/down').length).toBeGreaterThanOrEqual(3);
  // Not in the test environment's log, and its id is unknown there.
  const testLog = await call('GET', '/v1/webhooks/deliveries?limit=100', keys.test);
  expect(testLog.body.data.map((d: { id: string }) => d.id)).not.toContain(delivery.id);
  expect((await call('GET', `/v1/webhooks/deliveries/${delivery.id}`, keys.test)).status).toBe(404);
  expect((await call('GET', `/v1/webhooks/deliveries/${delivery.id}`, keys.live)).status).toBe(200);

  // In the test environment the schedule is short (30 s, 5 min, 30 min → ~2 s here): it ends failed.
  receiver.answer('/down-test', { status: 503 });
  await call('PUT', '/v1/webhooks/endpoint', keys.test, { url: `${receiver.url}/down-test` });
  const sentTest = await call('POST', '/v1/webhooks/test', keys.test);
  const failed = await poll(async () => {
    const list = await call('GET', '/v1/webhooks/deliveries?status=failed&limit=100', keys.test);
    return list.body.data.find((x: { event_id: string }) => x.event_id === sentTest.body.event_id);
  }, 'a failed delivery');
  expect(failed).toMatchObject({ status: 'failed', attempts: 4, last_status_code: 503 });
  const liveFailed = await call('GET', '/v1/webhooks/deliveries?status=failed&limit=100', keys.live);
  expect(liveFailed.body.data.map((d: { id: string }) => d.id)).not.toContain(failed.id);
});
