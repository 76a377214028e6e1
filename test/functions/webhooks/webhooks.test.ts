/**
 * Webhooks (API §12) end to end on the real local cloud: the endpoint routes, the Events port, the
 * deliver-webhook state machine on the local Step Functions endpoint, and loopback receivers started
 * here. Retry waits are scaled down by config (QUIRE_WEBHOOK_RETRY_SCALE) and the attempt timeout
 * shortened (QUIRE_WEBHOOK_TIMEOUT_MS) so the whole file runs in seconds.
 */
import { DynamoDBClient, ScanCommand } from '@aws-sdk/client-dynamodb';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { logger } from '../../../functions/platform/logger.ts';
import { resolveCaller } from '../../../functions/auth/service.ts';
import { platform } from '../../../functions/platform/platform.ts';
import { emitEvent } from '../../../functions/webhooks/events.ts';
import { RETRY_SCHEDULE } from '../../../functions/webhooks/task.ts';
import { verifyWebhook } from '../../../functions/webhooks/verify.ts';
import { startTestCloud, until, type TestCloud } from '../../support/cloud.ts';
import { startReceiver, type Receiver } from '../../support/receiver.ts';

const RETRY_SCALE = 0.001;
const TIMEOUT_MS = 400;

let cloud: TestCloud;
let receiver: Receiver;
beforeAll(async () => {
  cloud = await startTestCloud({ webhooks: { retryScale: RETRY_SCALE, timeoutMs: TIMEOUT_MS } });
  receiver = await startReceiver();
});
afterAll(async () => {
  await receiver?.close();
  await cloud?.close();
});
afterEach(async () => {
  for (const key of [cloud.keys.test, cloud.keys.live]) await cloud.api('DELETE', '/v1/webhooks/endpoint', { key });
});

let pathCounter = 0;
const freshPath = () => `/hook-${++pathCounter}`;

async function setEndpoint(key: string, path: string, extra: Record<string, unknown> = {}) {
  const r = await cloud.api('PUT', '/v1/webhooks/endpoint', { key, body: { url: `${receiver.url}${path}`, ...extra } });
  expect(r.status, r.text).toBe(200);
  return r.body as { signing_secret?: string; secret_last4: string };
}

async function deliveryOf(key: string, eventId: string, settled = true) {
  return until(async () => {
    const list = await cloud.api('GET', '/v1/webhooks/deliveries?limit=100', { key });
    const found = (list.body.data as Array<{ event_id: string; status: string }>).find((d) => d.event_id === eventId);
    if (!found) return undefined;
    return !settled || found.status === 'succeeded' || found.status === 'failed' ? found : undefined;
  }, 20_000, `delivery of ${eventId}`) as Promise<Record<string, any>>;
}

describe('the endpoint', () => {
  it('shows the signing secret once, then never; GET/DELETE; 404 "No webhook endpoint" when there is none', async () => {
    const none = await cloud.api('GET', '/v1/webhooks/endpoint');
    expect(none.status).toBe(404);
    expect(none.body).toEqual({ detail: 'No webhook endpoint' });
    const first = await cloud.api('PUT', '/v1/webhooks/endpoint', { body: { url: `${receiver.url}/a` } });
    expect(first.status).toBe(200);
    expect(first.body).toEqual({
      url: `${receiver.url}/a`,
      events: ['*'],
      enabled: true,
      secret_last4: first.body.signing_secret.slice(-4),
      created_at: expect.any(String),
      updated_at: expect.any(String),
      signing_secret: expect.stringMatching(/^whsec_[A-Za-z0-9_-]{24,}$/),
    });
    const second = await cloud.api('PUT', '/v1/webhooks/endpoint', { body: { url: `${receiver.url}/b`, events: ['parse.completed'], enabled: false } });
    expect(second.body).toEqual({ url: `${receiver.url}/b`, events: ['parse.completed'], enabled: false, secret_last4: first.body.secret_last4, created_at: first.body.created_at, updated_at: expect.any(String) });
    const got = await cloud.api('GET', '/v1/webhooks/endpoint');
    expect(got.body).toEqual(second.body);
    expect(got.text).not.toContain(first.body.signing_secret);
    expect((await cloud.api('DELETE', '/v1/webhooks/endpoint')).status).toBe(204);
    expect((await cloud.api('GET', '/v1/webhooks/endpoint')).status).toBe(404);
    expect((await cloud.api('DELETE', '/v1/webhooks/endpoint')).status).toBe(404);
    expect((await cloud.api('POST', '/v1/webhooks/endpoint/rotate-secret', { body: {} })).status).toBe(404);
    expect((await cloud.api('POST', '/v1/webhooks/test')).status).toBe(404);
  });

  it('refuses bad URLs and bodies with 422 naming the field, storing nothing', async () => {
    for (const url of ['not a url', 'ftp://example.com/x', 'https://user:pw@example.com/x', '']) {
      const r = await cloud.api('PUT', '/v1/webhooks/endpoint', { body: { url } });
      expect(r.status, url).toBe(422);
      expect(r.body.detail[0].loc).toEqual(['body', 'url']);
    }
    for (const [body, loc] of [[{ url: 'https://example.com', events: [] }, 'events'], [{ url: 'https://example.com', events: ['Bad Type'] }, 'events'], [{ url: 'https://example.com', enabled: 'yes' }, 'enabled']] as const) {
      const r = await cloud.api('PUT', '/v1/webhooks/endpoint', { body });
      expect(r.status).toBe(422);
      expect(r.body.detail[0].loc.slice(0, 2)).toEqual(['body', loc]);
    }
    await setEndpoint(cloud.keys.test, '/x');
    for (const grace of [-1, 604_801, 1.5, 'soon']) {
      const r = await cloud.api('POST', '/v1/webhooks/endpoint/rotate-secret', { body: { grace_period_seconds: grace } });
      expect(r.status).toBe(422);
      expect(r.body.detail[0].loc).toEqual(['body', 'grace_period_seconds']);
    }
    expect((await cloud.api('GET', '/v1/webhooks/endpoint')).body.url).toBe(`${receiver.url}/x`);
  });

  it('each environment has its own endpoint and secret; rotating one never touches the other', async () => {
    const test = await setEndpoint(cloud.keys.test, '/t');
    const live = await setEndpoint(cloud.keys.live, '/l');
    expect(test.signing_secret).not.toBe(live.signing_secret);
    const rotated = await cloud.api('POST', '/v1/webhooks/endpoint/rotate-secret', { key: cloud.keys.live, body: {} });
    expect(rotated.status).toBe(200);
    expect(rotated.body.signing_secret).toMatch(/^whsec_/);
    expect(rotated.body.signing_secret).not.toBe(live.signing_secret);
    expect((await cloud.api('GET', '/v1/webhooks/endpoint', { key: cloud.keys.test })).body.secret_last4).toBe(test.secret_last4);
    expect((await cloud.api('GET', '/v1/webhooks/endpoint', { key: cloud.keys.otherOrgTest })).status).toBe(404);
    // Deleting one leaves the other.
    await cloud.api('DELETE', '/v1/webhooks/endpoint', { key: cloud.keys.live });
    expect((await cloud.api('GET', '/v1/webhooks/endpoint', { key: cloud.keys.test })).status).toBe(200);
  });
});

describe('delivery', () => {
  it('POSTs a signed webhook.test with the headers and body of API §12, and logs a succeeded delivery', async () => {
    const path = freshPath();
    const { signing_secret } = await setEndpoint(cloud.keys.test, path);
    const sent = await cloud.api('POST', '/v1/webhooks/test');
    expect(sent.status).toBe(202);
    expect(sent.body).toEqual({ event_id: expect.stringMatching(/^evt_[0-9a-z]{26}$/) });
    const [hit] = await receiver.waitFor(path, 1);
    expect(hit!.headers['content-type']).toBe('application/json');
    expect(hit!.headers['x-service-environment']).toBe('test');
    expect(hit!.headers['x-service-signature']).toMatch(/^t=\d+,v1=[0-9a-f]{64}$/);
    const event = verifyWebhook(hit!.body, hit!.headers, signing_secret!);
    expect(JSON.parse(hit!.body)).toEqual({
      id: sent.body.event_id,
      type: 'webhook.test',
      environment: 'test',
      organization_id: cloud.orgId,
      created_at: expect.stringMatching(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/),
      data: { message: expect.any(String) },
    });
    expect(event.id).toBe(sent.body.event_id);
    const delivery = await deliveryOf(cloud.keys.test, sent.body.event_id);
    expect(delivery).toEqual({
      id: expect.stringMatching(/^whd_/),
      event_id: sent.body.event_id,
      event_type: 'webhook.test',
      url: `${receiver.url}${path}`,
      status: 'succeeded',
      attempts: 1,
      last_status_code: 200,
      last_error: null,
      next_attempt_at: null,
      created_at: expect.any(String),
    });
    expect((await cloud.api('GET', `/v1/webhooks/deliveries/${delivery.id}`)).body).toEqual(delivery);
  });

  it('during a rotation grace period both secrets sign; with no grace only the new one', async () => {
    const path = freshPath();
    const old = (await setEndpoint(cloud.keys.test, path)).signing_secret!;
    const rotated = (await cloud.api('POST', '/v1/webhooks/endpoint/rotate-secret', { body: { grace_period_seconds: 3600 } })).body.signing_secret as string;
    await cloud.api('POST', '/v1/webhooks/test');
    const [hit] = await receiver.waitFor(path, 1);
    expect(hit!.headers['x-service-signature']).toMatch(/^t=\d+,v1=[0-9a-f]{64},v1=[0-9a-f]{64}$/);
    expect(() => verifyWebhook(hit!.body, hit!.headers, old)).not.toThrow();
    expect(() => verifyWebhook(hit!.body, hit!.headers, rotated)).not.toThrow();

    const newest = (await cloud.api('POST', '/v1/webhooks/endpoint/rotate-secret', { body: { grace_period_seconds: 0 } })).body.signing_secret as string;
    await cloud.api('POST', '/v1/webhooks/test');
    const hits = await receiver.waitFor(path, 2);
    expect(hits[1]!.headers['x-service-signature']).toMatch(/^t=\d+,v1=[0-9a-f]{64}$/);
    expect(() => verifyWebhook(hits[1]!.body, hits[1]!.headers, newest)).not.toThrow();
    expect(() => verifyWebhook(hits[1]!.body, hits[1]!.headers, rotated)).toThrow();
    expect(() => verifyWebhook(hits[1]!.body, hits[1]!.headers, old)).toThrow();
  });

  it("a failing receiver gets the retries of API §12 and a failed delivery, visible only in its own environment's log", async () => {
    const path = freshPath();
    receiver.answer(path, { status: 500 });
    await setEndpoint(cloud.keys.test, path);
    const livePath = freshPath();
    await setEndpoint(cloud.keys.live, livePath);
    const sent = await cloud.api('POST', '/v1/webhooks/test');
    const delivery = await deliveryOf(cloud.keys.test, sent.body.event_id);
    expect(delivery).toMatchObject({ status: 'failed', attempts: RETRY_SCHEDULE.test.length + 1, last_status_code: 500, last_error: 'HTTP 500', next_attempt_at: null });
    const hits = receiver.received.filter((r) => r.path === path);
    expect(hits).toHaveLength(4);
    // The same event each time (receivers dedupe on id), waits growing as the schedule says.
    expect(new Set(hits.map((h) => h.body)).size).toBe(1);
    for (let i = 1; i < hits.length; i++) expect(hits[i]!.at - hits[i - 1]!.at).toBeGreaterThanOrEqual(RETRY_SCHEDULE.test[i - 1]! * RETRY_SCALE * 1000 - 5);
    // Never reached the other environment's receiver or log.
    expect(receiver.received.filter((r) => r.path === livePath)).toHaveLength(0);
    const liveList = await cloud.api('GET', '/v1/webhooks/deliveries?limit=100', { key: cloud.keys.live });
    expect(liveList.body.data.map((d: { id: string }) => d.id)).not.toContain(delivery.id);
    for (const key of [cloud.keys.live, cloud.keys.otherOrgTest]) expect((await cloud.api('GET', `/v1/webhooks/deliveries/${delivery.id}`, { key })).status).toBe(404);
    // The log's filters.
    const failed = await cloud.api('GET', '/v1/webhooks/deliveries?status=failed&limit=100');
    expect(failed.body.data.map((d: { id: string }) => d.id)).toContain(delivery.id);
    expect(failed.body.data.every((d: { status: string }) => d.status === 'failed')).toBe(true);
    const succeeded = await cloud.api('GET', '/v1/webhooks/deliveries?status=succeeded&limit=100');
    expect(succeeded.body.data.map((d: { id: string }) => d.id)).not.toContain(delivery.id);
    const byType = await cloud.api('GET', '/v1/webhooks/deliveries?event_type=parse.completed&limit=100');
    expect(byType.body.data.map((d: { id: string }) => d.id)).not.toContain(delivery.id);
    expect((await cloud.api('GET', '/v1/webhooks/deliveries?status=lost')).status).toBe(422);
  });

  it('production retries six times before failing', async () => {
    const path = freshPath();
    receiver.answer(path, { status: 503 });
    await setEndpoint(cloud.keys.live, path);
    // The production schedule adds up to 31 hours: scale it further for this one delivery.
    const p = platform();
    const previous = p.config.webhookRetryScale;
    p.config.webhookRetryScale = 0.00001;
    try {
      const sent = await cloud.api('POST', '/v1/webhooks/test', { key: cloud.keys.live });
      const delivery = await deliveryOf(cloud.keys.live, sent.body.event_id);
      expect(delivery).toMatchObject({ status: 'failed', attempts: 7, last_status_code: 503 });
      expect(receiver.received.filter((r) => r.path === path)).toHaveLength(7);
      expect(receiver.received.filter((r) => r.path === path)[0]!.headers['x-service-environment']).toBe('production');
    } finally {
      p.config.webhookRetryScale = previous;
    }
  });

  it('while retrying, the delivery says so with next_attempt_at; a later success ends it succeeded', async () => {
    const path = freshPath();
    receiver.answer(path, { status: 500 });
    await setEndpoint(cloud.keys.test, path);
    const sent = await cloud.api('POST', '/v1/webhooks/test');
    await receiver.waitFor(path, 2);
    // The third attempt comes 300 s × scale after the second: long enough to look.
    const retrying = await deliveryOf(cloud.keys.test, sent.body.event_id, false);
    expect(retrying.status).toBe('retrying');
    expect(retrying.next_attempt_at > retrying.created_at).toBe(true);
    receiver.answer(path, { status: 204 });
    const done = await deliveryOf(cloud.keys.test, sent.body.event_id);
    expect(done).toMatchObject({ status: 'succeeded', last_status_code: 204, last_error: null, attempts: 3 });
  });

  it('a receiver that hangs is cut at the timeout; a redirect is a failure and is not followed', async () => {
    const hang = freshPath();
    receiver.answer(hang, 'hang');
    await setEndpoint(cloud.keys.test, hang);
    const started = Date.now();
    const sent = await cloud.api('POST', '/v1/webhooks/test');
    await receiver.waitFor(hang, 1);
    const first = await until(async () => {
      const d = await deliveryOf(cloud.keys.test, sent.body.event_id, false);
      return d.attempts >= 1 ? d : undefined;
    });
    expect(first.last_error).toBe(`Timed out after ${TIMEOUT_MS} ms`);
    expect(first.last_status_code).toBeNull();
    expect(Date.now() - started).toBeGreaterThanOrEqual(TIMEOUT_MS);
    await cloud.api('DELETE', '/v1/webhooks/endpoint');
    await deliveryOf(cloud.keys.test, sent.body.event_id);

    const moved = freshPath();
    const target = freshPath();
    receiver.answer(moved, { status: 302, location: `${receiver.url}${target}` });
    await setEndpoint(cloud.keys.test, moved);
    const redirected = await cloud.api('POST', '/v1/webhooks/test');
    await receiver.waitFor(moved, 1);
    const d = await until(async () => {
      const x = await deliveryOf(cloud.keys.test, redirected.body.event_id, false);
      return x.attempts >= 1 ? x : undefined;
    });
    expect(d).toMatchObject({ last_status_code: 302, last_error: 'Redirect (HTTP 302) not followed' });
    expect(d.status).not.toBe('succeeded');
    expect(receiver.received.filter((r) => r.path === target)).toHaveLength(0);
  });

  it('the endpoint filter and enabled flag decide which events are delivered; webhook.test always is', async () => {
    const path = freshPath();
    await setEndpoint(cloud.keys.test, path, { events: ['parse.*', 'split.completed'] });
    const scope = await resolveCaller(platform(), cloud.keys.test);
    const p = platform();
    const wanted = await emitEvent(p, scope, { type: 'parse.completed', data: { id: 'prs_x' } });
    const family = await emitEvent(p, scope, { type: 'parse.failed', data: { id: 'prs_y' } });
    const exact = await emitEvent(p, scope, { type: 'split.completed', data: { id: 'splt_x' } });
    const unwanted = await emitEvent(p, scope, { type: 'extraction.completed', data: { id: 'extr_x' } });
    expect(wanted.deliveryId).not.toBeNull();
    expect(family.deliveryId).not.toBeNull();
    expect(exact.deliveryId).not.toBeNull();
    expect(unwanted.deliveryId).toBeNull();
    // A retry of an earlier test's delivery goes to the endpoint's current URL, so a stray
    // webhook.test may land here too: only the events emitted above count.
    const emitted = () => receiver.received.filter((r) => r.path === path).map((r) => JSON.parse(r.body).type as string).filter((t) => t !== 'webhook.test');
    for (let i = 0; i < 1500 && emitted().length < 3; i++) await new Promise((r) => setTimeout(r, 10));
    expect(emitted().sort()).toEqual(['parse.completed', 'parse.failed', 'split.completed']);

    await setEndpoint(cloud.keys.test, path, { enabled: false });
    expect((await emitEvent(p, scope, { type: 'parse.completed', data: {} })).deliveryId).toBeNull();
    const test = await cloud.api('POST', '/v1/webhooks/test');
    expect((await deliveryOf(cloud.keys.test, test.body.event_id)).status).toBe('succeeded');
  });
});

it('signing secrets are never stored in plaintext nor logged', async () => {
  const lines: string[] = [];
  const capture = (chunk: unknown) => {
    lines.push(String(chunk));
    return true;
  };
  logger.setLogLevel('DEBUG');
  const out = vi.spyOn(process.stdout, 'write').mockImplementation(capture);
  const err = vi.spyOn(process.stderr, 'write').mockImplementation(capture);
  const path = freshPath();
  const shown: string[] = [];
  try {
    shown.push((await setEndpoint(cloud.keys.test, path)).signing_secret!);
    shown.push((await cloud.api('POST', '/v1/webhooks/endpoint/rotate-secret', { body: {} })).body.signing_secret);
    await cloud.api('POST', '/v1/webhooks/test');
    await receiver.waitFor(path, 1);
    await until(async () => (lines.join('').includes('webhook attempt') ? true : undefined));
  } finally {
    out.mockRestore();
    err.mockRestore();
    logger.setLogLevel('ERROR');
  }
  const logs = lines.join('');
  expect(logs).toContain('"message":"webhook attempt"'); // the capture saw the delivery's log
  const client = new DynamoDBClient({ region: cloud.endpoints.region, endpoint: cloud.endpoints.dynamodb, credentials: { accessKeyId: 'x', secretAccessKey: 'x' } });
  const items = JSON.stringify((await client.send(new ScanCommand({ TableName: cloud.endpoints.table }))).Items);
  client.destroy();
  expect(items).toContain('webhook_endpoint');
  for (const secret of shown) {
    expect(secret).toMatch(/^whsec_/);
    const body = secret.slice('whsec_'.length);
    expect(logs).not.toContain(body);
    expect(items).not.toContain(body);
    expect(items).not.toContain(Buffer.from(secret).toString('base64').slice(0, 24));
  }
});
