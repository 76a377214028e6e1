/**
 * Run events (API §12) and the usage ledger (API §13) on the real local cloud: background runs
 * announce `<kind>.completed` / `<kind>.failed` to their own environment's endpoint only (the event
 * name comes from the run kind, so every kind — the test-only "probe" too — gets them), and every
 * finished run lands in its environment's usage ledger.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { verifyWebhook } from '../../../functions/webhooks/verify.ts';
import { dataUrl, startTestCloud, until, type TestCloud } from '../../support/cloud.ts';
import { gate, probeRoutes } from '../../support/probe.ts';
import { startReceiver, type Receiver } from '../../support/receiver.ts';

let cloud: TestCloud;
let receiver: Receiver;
const secrets: Record<string, string> = {};
beforeAll(async () => {
  cloud = await startTestCloud({ extraRoutes: probeRoutes, webhooks: { retryScale: 0.001, timeoutMs: 1000 } });
  receiver = await startReceiver();
  for (const [env, key] of [['test', cloud.keys.test], ['live', cloud.keys.live]] as const) {
    const r = await cloud.api('PUT', '/v1/webhooks/endpoint', { key, body: { url: `${receiver.url}/${env}` } });
    secrets[env] = r.body.signing_secret;
  }
});
afterAll(async () => {
  await receiver?.close();
  await cloud?.close();
});

const doc = (text: string) => ({ filename: 'note.txt', url: dataUrl('text/plain', text) });

/** The event about one run that reached a receiver path, verified with that environment's secret. */
async function eventFor(path: '/test' | '/live', runId: string) {
  const hit = await until(async () => receiver.received.find((r) => r.path === path && JSON.parse(r.body).data?.id === runId), 15_000, `event for ${runId}`);
  return verifyWebhook(hit.body, hit.headers, secrets[path.slice(1)]!);
}
const eventsAbout = (runId: string) => receiver.received.filter((r) => JSON.parse(r.body).data?.id === runId);

describe('run events', () => {
  it('a background parse sends parse.completed with the run without output, signed, to its own environment only', async () => {
    const created = await cloud.api('POST', '/v1/parses', { body: { document: doc('Invoice INV-1 total 10 EUR'), background: true } });
    expect(created.status).toBe(201);
    const event = await eventFor('/test', created.body.id);
    expect(event.type).toBe('parse.completed');
    expect(event.environment).toBe('test');
    const run = (await cloud.api('GET', `/v1/parses/${created.body.id}?include_output=false`)).body;
    const { output: _output, ...withoutOutput } = run;
    expect(event.data).toEqual(withoutOutput);
    expect(event.data).not.toHaveProperty('output');
    expect(run.status).toBe('completed');
    expect(receiver.received.filter((r) => r.path === '/live' && r.body.includes(created.body.id))).toHaveLength(0);
  });

  it('a synchronous run sends no event', async () => {
    const created = await cloud.api('POST', '/v1/parses', { body: { document: doc('sync, no event') } });
    expect(created.body.status).toBe('completed');
    // A background run started after it is announced; by then any event of the first would have come.
    const later = await cloud.api('POST', '/v1/probes', { body: { text: 'x', background: true } });
    await eventFor('/test', later.body.id);
    expect(eventsAbout(created.body.id)).toHaveLength(0);
  });

  it('failures send <kind>.failed with the error; a production run goes to the production endpoint', async () => {
    const failed = await cloud.api('POST', '/v1/probes', { body: { mode: 'fail', background: true } });
    const crashed = await cloud.api('POST', '/v1/probes', { body: { mode: 'crash', background: true } });
    expect((await eventFor('/test', failed.body.id))).toMatchObject({ type: 'probe.failed', data: { status: 'failed', error: { code: 'model_error' } } });
    const crash = await eventFor('/test', crashed.body.id);
    expect(crash).toMatchObject({ type: 'probe.failed', data: { status: 'failed', error: { code: 'internal' } } });
    expect(JSON.stringify(crash)).not.toContain('boom');

    const live = await cloud.api('POST', '/v1/probes', { key: cloud.keys.live, body: { text: 'live', background: true } });
    expect(await eventFor('/live', live.body.id)).toMatchObject({ type: 'probe.completed', environment: 'production' });
    expect(receiver.received.filter((r) => r.path === '/test' && r.body.includes(live.body.id))).toHaveLength(0);
  });

  it('a cancelled run sends nothing, even when its late result arrives', async () => {
    const g = gate('events-cancel');
    const r = await cloud.api('POST', '/v1/probes', { body: { mode: 'gate', gate: 'events-cancel', background: true } });
    await g.reached.promise;
    expect((await cloud.api('POST', `/v1/probes/${r.body.id}/cancel`)).body.status).toBe('cancelled');
    g.open.resolve();
    const later = await cloud.api('POST', '/v1/probes', { body: { text: 'after', background: true } });
    await eventFor('/test', later.body.id);
    await new Promise((resolve) => setTimeout(resolve, 200));
    expect(eventsAbout(r.body.id)).toHaveLength(0);
  });
});

describe('usage', () => {
  const usage = async (key: string, query = '') => (await cloud.api('GET', `/v1/usage${query}`, { key })).body;

  it("records every finished run in its own environment's ledger; test usage is never billable", async () => {
    const beforeTest = await usage(cloud.keys.test);
    const beforeLive = await usage(cloud.keys.live);
    const beforeOther = await usage(cloud.keys.otherOrgLive);
    const parses = [];
    for (const text of ['first page of text', 'second document, a bit longer than the first']) {
      parses.push((await cloud.api('POST', '/v1/parses', { body: { document: doc(text), bust_cache: true } })).body);
    }
    const probe = (await cloud.api('POST', '/v1/probes', { body: { text: 'p' } })).body;
    const liveParse = (await cloud.api('POST', '/v1/parses', { key: cloud.keys.live, body: { document: doc('production text'), bust_cache: true } })).body;
    const testCredits = parses.reduce((s, p) => s + p.usage.credits, 0) + probe.usage.credits;
    expect(testCredits).toBeGreaterThan(0);

    const afterTest = await usage(cloud.keys.test);
    expect(afterTest.environment_slug).toBe('test');
    expect(afterTest.runs - beforeTest.runs).toBe(3);
    expect(afterTest.credits - beforeTest.credits).toBeCloseTo(testCredits, 6);
    expect(afterTest.by_operation.parse - (beforeTest.by_operation.parse ?? 0)).toBeCloseTo(parses[0].usage.credits + parses[1].usage.credits, 6);
    expect(afterTest.by_operation.probe - (beforeTest.by_operation.probe ?? 0)).toBeCloseTo(probe.usage.credits, 6);
    expect(afterTest.billable_credits).toBe(0);

    const afterLive = await usage(cloud.keys.live);
    expect(afterLive.environment_slug).toBe('production');
    expect(afterLive.runs - beforeLive.runs).toBe(1);
    expect(afterLive.credits - beforeLive.credits).toBeCloseTo(liveParse.usage.credits, 6);
    expect(afterLive.billable_credits).toBe(afterLive.credits);
    expect(await usage(cloud.keys.otherOrgLive)).toEqual(beforeOther);

    // Deleting a run does not give its credits back.
    await cloud.api('DELETE', `/v1/parses/${parses[0].id}`);
    expect((await usage(cloud.keys.test)).credits).toBe(afterTest.credits);
  });

  it('a cancelled run and a request refused with 422 record nothing', async () => {
    const before = await usage(cloud.keys.test);
    const g = gate('usage-cancel');
    const r = await cloud.api('POST', '/v1/probes', { body: { mode: 'gate', gate: 'usage-cancel', background: true } });
    await g.reached.promise;
    await cloud.api('POST', `/v1/probes/${r.body.id}/cancel`);
    g.open.resolve();
    const refused = await cloud.api('POST', '/v1/probes', { body: { mode: 'bad-document' } });
    expect(refused.status).toBe(422);
    const marker = await cloud.api('POST', '/v1/probes', { body: { text: 'marker' } });
    expect(marker.body.status).toBe('completed');
    await new Promise((resolve) => setTimeout(resolve, 200));
    const after = await usage(cloud.keys.test);
    expect(after.runs - before.runs).toBe(1);
  });

  it('filters by date and refuses bad dates', async () => {
    await cloud.api('POST', '/v1/probes', { body: { text: 'dated' } });
    const today = new Date().toISOString().slice(0, 10);
    const all = await usage(cloud.keys.test);
    expect((await usage(cloud.keys.test, `?from_date=${today}&to_date=${today}`)).runs).toBe(all.runs);
    expect(await usage(cloud.keys.test, '?to_date=2000-01-01')).toMatchObject({ runs: 0, credits: 0, by_operation: {} });
    expect(await usage(cloud.keys.test, '?from_date=2999-01-01')).toMatchObject({ runs: 0, credits: 0 });
    const bad = await cloud.api('GET', '/v1/usage?from_date=yesterday');
    expect(bad.status).toBe(422);
    expect(bad.body.detail[0].loc).toEqual(['query', 'from_date']);
  });
});
