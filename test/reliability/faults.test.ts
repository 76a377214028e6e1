/**
 * Faults (issue 12).
 *
 * 1. The local server (`npm start`'s entry, worker threads) is killed with SIGKILL in the middle of
 *    background runs of several kinds and started again on the same data dir: every run ends in a
 *    terminal state (resumed by lib/local/recovery.ts, or failed), nothing stays active, every record
 *    reads back and every completed output parses.
 * 2. Storage errors injected through the ports (a fault-injecting decorator around the platform's
 *    Store and Blobs, and a throttling proxy in front of dynalite and s3rver so the AWS SDK's own
 *    retries are exercised): requests either succeed or answer 503 with a request_id, never hang,
 *    never leave a corrupted record.
 */
import type { ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer, request as httpRequest, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { dynamoStore } from '../../functions/platform/dynamo-store.ts';
import { sdkCalls } from '../../functions/platform/dynamo-calls.ts';
import { buildPlatform, platform, setPlatform, type Platform } from '../../functions/platform/platform.ts';
import type { Blobs, Store } from '../../functions/platform/ports.ts';
import { s3Blobs, s3Client } from '../../functions/platform/s3-blobs.ts';
import { startTestCloud, type TestCloud } from '../support/cloud.ts';
import { spawnLocalServer } from '../support/local-server.ts';
import { freePort } from '../support/ports.ts';
import { startReceiver, type Receiver } from '../support/receiver.ts';
import { gate, probeRoutes } from '../support/probe.ts';
import { greyToPng, renderScan } from '../support/scan-fixtures.ts';
import { runTask } from '../../functions/features.ts';
import { resolveCaller } from '../../functions/auth/service.ts';

const KEY = 'rt_test_faults00000000000000000000000';
const ACTIVE = ['pending', 'queued', 'in_progress', 'running', 'retrying'];

const textDoc = (text: string, filename = 'note.txt') => ({ filename, url: `data:text/plain;base64,${Buffer.from(text).toString('base64')}` });
/** A text whose parse output (~12 KB) is over what a run's record keeps itself (8 KB): reading the run reads its object too. */
const longTextDoc = (text: string) => textDoc(`${text}\n${Array.from({ length: 200 }, (_, i) => `Line ${i} of the terms and conditions.`).join('\n')}`);

async function poll<T>(check: () => Promise<T | undefined>, what: string, timeoutMs: number): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await check();
    if (value !== undefined) return value;
    if (Date.now() > deadline) throw new Error(`Timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

describe('SIGKILL of the local server in the middle of background runs', () => {
  const dataDir = mkdtempSync(join(tmpdir(), 'quire-faults-'));
  let child: ChildProcess | undefined;
  let receiver: Receiver;
  let base = '';

  async function startServer(): Promise<void> {
    const port = await freePort();
    const server = await spawnLocalServer({
      via: 'node',
      port,
      env: { QUIRE_DATA_DIR: dataDir, QUIRE_TEST_KEY: KEY, POWERTOOLS_LOG_LEVEL: 'WARN', QUIRE_WEBHOOK_RETRY_SCALE: '0.1' },
    });
    child = server.child;
    base = server.url;
  }

  /** SIGKILL to the whole process group (the server and anything it spawned), then wait until it is gone. */
  async function kill(signal: NodeJS.Signals): Promise<void> {
    const pgid = child!.pid!;
    try {
      process.kill(-pgid, signal);
    } catch {
      return;
    }
    const deadline = Date.now() + 15_000;
    for (;;) {
      try {
        process.kill(-pgid, 0);
      } catch {
        return;
      }
      if (Date.now() > deadline) throw new Error('the process group outlived its kill');
      await new Promise((r) => setTimeout(r, 50));
    }
  }

  async function call(method: string, path: string, body?: unknown) {
    const r = await fetch(`${base}${path}`, { method, headers: { authorization: `Bearer ${KEY}`, 'content-type': 'application/json' }, body: body === undefined ? undefined : JSON.stringify(body) });
    const text = await r.text();
    return { status: r.status, text, body: text ? JSON.parse(text) : undefined };
  }

  beforeAll(async () => {
    receiver = await startReceiver();
  });
  afterAll(async () => {
    if (child) await kill('SIGINT');
    await receiver.close();
    rmSync(dataDir, { recursive: true, force: true });
  });

  it('every run ends after a restart, records and outputs read back', async () => {
    await startServer();
    // Deliveries of the first life fail (503), so they wait for a retry at the kill (first wait 3 s at
    // this retry scale, then 30 s).
    receiver.answer('/hook', { status: 503 });
    expect((await call('PUT', '/v1/webhooks/endpoint', { url: `${receiver.url}/hook` })).status).toBe(200);

    const runs: Array<{ path: string; id: string }> = [];
    const create = async (path: string, body: Record<string, unknown>) => {
      const r = await call('POST', path, { ...body, background: true });
      expect(r.status, r.text).toBeLessThan(300);
      runs.push({ path, id: r.body.id });
    };
    // A first completed run announces itself: a delivery fails and waits for its retry.
    await create('/v1/parses', { document: textDoc('first'), bust_cache: true });
    await receiver.waitFor('/hook', 1, 60_000); // the task containers load every kind's code first
    // Then a slow one, first in line for a task container: OCR of a scanned page takes seconds.
    const scan = greyToPng(renderScan({ dpi: 150 }).image);
    await create('/v1/parses', { document: { filename: 'scan.png', url: `data:image/png;base64,${scan.toString('base64')}` } });
    // The rest is created at once, right before the kill: queued or at work when it comes.
    const project = await call('POST', '/v1/projects', { name: 'faults' });
    expect(project.status, project.text).toBe(201);
    const workflow = await call('POST', '/v1/workflows', { project_id: project.body.id, name: 'faults' });
    expect(workflow.status, workflow.text).toBeLessThan(300);
    const draft = { blocks: [{ id: 'in', type: 'start_json', config: {} }, { id: 'out', type: 'end', config: {} }], edges: [{ source: 'in', target: 'out' }] };
    expect((await call('PUT', `/v1/workflows/${workflow.body.id}/draft`, draft)).status).toBe(200);
    const workflowRun = await call('POST', '/v1/workflows/runs', { workflow_id: workflow.body.id, version: 'draft', json_inputs: { in: { n: 1 } } });
    expect(workflowRun.status, workflowRun.text).toBe(201);

    const schema = { type: 'object', properties: { invoice_number: { type: ['string', 'null'] }, total: { type: ['number', 'null'] } } };
    await Promise.all([
      ...Array.from({ length: 4 }, (_, i) => create('/v1/parses', { document: textDoc(`Invoice ${i}\nTotal: ${i * 10}.00`), bust_cache: true })),
      ...Array.from({ length: 3 }, (_, i) => create('/v1/extractions', { document: textDoc(`Invoice number: INV-${i}\nTotal: ${i}.50`), json_schema: schema, bust_cache: true })),
    ]);
    const before = await Promise.all(runs.map(async (r) => (await call('GET', `${r.path}/${r.id}?include_output=false`)).body.status as string));
    const deliveriesBefore = (await call('GET', '/v1/webhooks/deliveries?limit=100')).body.data as Array<{ id: string; status: string }>;
    console.log(`at the kill: runs ${before.join(', ')}; deliveries ${deliveriesBefore.map((d) => d.status).join(', ')}`);
    expect(before[1], 'the OCR parse is at work').toBe('in_progress');
    expect(before.filter((s) => ACTIVE.includes(s)).length).toBeGreaterThan(1);
    expect(deliveriesBefore.some((d) => d.status === 'pending' || d.status === 'retrying')).toBe(true);
    await kill('SIGKILL');

    // Second life on the same data dir; deliveries now succeed.
    receiver.answer('/hook', { status: 200 });
    await startServer();

    const ended = await poll(
      async () => {
        const statuses = await Promise.all(runs.map(async (r) => (await call('GET', `${r.path}/${r.id}?include_output=false`)).body.status as string));
        return statuses.every((s) => !ACTIVE.includes(s)) ? statuses : undefined;
      },
      'every run to end after the restart',
      90_000,
    );
    expect(ended.every((s) => s === 'completed' || s === 'failed')).toBe(true);

    // Every record reads back whole; every completed output parses and has content.
    for (const r of runs) {
      const got = await call('GET', `${r.path}/${r.id}`);
      expect(got.status, got.text).toBe(200);
      if (got.body.status === 'completed') expect(got.body.output).toBeTruthy();
      else expect(got.body.error).toMatchObject({ code: expect.any(String) });
    }
    const wf = await poll(
      async () => {
        const got = await call('GET', `/v1/workflows/runs/${workflowRun.body.id}`);
        return ACTIVE.includes(got.body.lifecycle?.status ?? got.body.status) ? undefined : got.body;
      },
      'the workflow run to end',
      20_000,
    );
    expect(['completed', 'error']).toContain(wf.lifecycle?.status ?? wf.status);
    // Lists read back and none shows an active item.
    for (const path of ['/v1/parses?limit=100&include_output=true', '/v1/extractions?limit=100&include_output=true']) {
      const list = await call('GET', path);
      expect(list.status, list.text).toBe(200);
      expect(list.body.data.filter((d: { status: string }) => ACTIVE.includes(d.status))).toEqual([]);
    }
    // Webhook deliveries in flight at the kill were delivered again (at least once) and ended.
    await poll(
      async () => {
        const list = (await call('GET', '/v1/webhooks/deliveries?limit=100')).body.data as Array<{ id: string; status: string }>;
        return list.every((d) => !ACTIVE.includes(d.status)) ? list : undefined;
      },
      'every webhook delivery to end',
      30_000,
    );
    for (const d of deliveriesBefore) expect((await call('GET', `/v1/webhooks/deliveries/${d.id}`)).body.status).toBe('succeeded');
  }, 150_000);
});

/** An error shaped like the AWS SDK's for a service error (name, $fault, $metadata.httpStatusCode). */
function awsError(name: string, httpStatusCode: number): Error {
  return Object.assign(new Error(`${name} (injected)`), { name, $fault: 'server', $metadata: { httpStatusCode }, $retryable: { throttling: true } });
}

/**
 * A proxy in front of an emulator answering every `every`-th request with a service error instead of
 * forwarding it: the AWS SDK clients behind it see real throttling responses on the wire.
 */
async function faultyProxy(target: string, every: number, fault: (n: number) => { status: number; contentType: string; body: string }): Promise<{ url: string; injected: () => number; forwarded: () => number; close(): Promise<void> }> {
  let count = 0;
  let injected = 0;
  const targetUrl = new URL(target);
  const server: Server = createServer((req, res) => {
    count++;
    if (count % every === 0) {
      injected++;
      const f = fault(injected);
      req.resume();
      res.writeHead(f.status, { 'content-type': f.contentType, 'x-amzn-requestid': `fault-${injected}` });
      res.end(f.body);
      return;
    }
    const upstream = httpRequest({ host: targetUrl.hostname, port: targetUrl.port, method: req.method, path: req.url, headers: req.headers }, (answer) => {
      res.writeHead(answer.statusCode ?? 502, answer.headers);
      answer.pipe(res);
    });
    upstream.on('error', () => res.destroy());
    req.pipe(upstream);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    injected: () => injected,
    forwarded: () => count - injected,
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };
}

/** The platform's Store and Blobs with a hook in front of every call: the hook may throw, wait or act. */
function withHooks(p: Platform, hooks: { store?: (method: string, args: unknown[]) => Promise<void>; blobs?: (method: string, args: unknown[]) => Promise<void> }): Platform {
  const wrap = <T extends object>(target: T, hook?: (method: string, args: unknown[]) => Promise<void>): T =>
    new Proxy(target, {
      get(t, method) {
        const value = (t as Record<PropertyKey, unknown>)[method];
        if (typeof value !== 'function' || !hook || method === 'keyOfUrl') return value;
        return async (...args: unknown[]) => {
          await hook(String(method), args);
          return (value as (...a: unknown[]) => unknown).apply(t, args);
        };
      },
    });
  return { ...p, store: wrap<Store>(p.store, hooks.store), blobs: wrap<Blobs>(p.blobs, hooks.blobs) };
}

describe('storage faults through the ports', () => {
  let cloud: TestCloud;
  let original: Platform;
  beforeAll(async () => {
    cloud = await startTestCloud({ extraRoutes: probeRoutes });
    original = platform();
  }, 60_000);
  afterAll(async () => {
    setPlatform(original);
    await cloud?.close();
  });

  it('DynamoDB throttling and S3 SlowDown/500 on the wire are absorbed by the SDK retries', async () => {
    const dynamo = await faultyProxy(cloud.endpoints.dynamodb, 6, (n) => ({
      status: 400,
      contentType: 'application/x-amz-json-1.0',
      body: JSON.stringify({ __type: n % 2 ? 'com.amazonaws.dynamodb.v20120810#ProvisionedThroughputExceededException' : 'com.amazon.coral.availability#ThrottlingException', message: 'Rate exceeded' }),
    }));
    const s3 = await faultyProxy(cloud.endpoints.s3, 4, (n) => ({
      status: n % 2 ? 503 : 500,
      contentType: 'application/xml',
      body: `<?xml version="1.0" encoding="UTF-8"?><Error><Code>${n % 2 ? 'SlowDown' : 'InternalError'}</Code><Message>Please reduce your request rate.</Message><RequestId>fault</RequestId></Error>`,
    }));
    const base = buildPlatform();
    setPlatform({
      ...base,
      store: dynamoStore(sdkCalls(new DynamoDBClient({ region: cloud.endpoints.region, endpoint: dynamo.url })), cloud.endpoints.table),
      blobs: s3Blobs(s3Client({ region: cloud.endpoints.region, endpoint: s3.url, forcePathStyle: true }), cloud.endpoints.bucket, { endpoint: s3.url }),
    });
    try {
      const created = await cloud.api('POST', '/v1/parses', { body: { document: longTextDoc('Invoice 7\nTotal: 70.00'), bust_cache: true } });
      expect(created.status, created.text).toBe(201);
      expect(created.body.status).toBe('completed');
      expect(created.body.output.text).toContain('Invoice 7');
      for (let i = 0; i < 3; i++) {
        const got = await cloud.api('GET', `/v1/parses/${created.body.id}`);
        expect(got.status, got.text).toBe(200);
        expect(got.body.output.text).toContain('Invoice 7');
        const list = await cloud.api('GET', '/v1/parses?limit=10&include_output=true');
        expect(list.status, list.text).toBe(200);
        expect(list.body.data.map((d: { id: string }) => d.id)).toContain(created.body.id);
      }
      expect(dynamo.injected()).toBeGreaterThan(3);
      expect(s3.injected()).toBeGreaterThan(2);
    } finally {
      setPlatform(original);
      await dynamo.close();
      await s3.close();
    }
  }, 60_000);

  it('throttling that outlasts the SDK retries answers 503 with a request_id at once, and the record stays whole', async () => {
    const created = await cloud.api('POST', '/v1/parses', { body: { document: longTextDoc('Invoice 8\nTotal: 80.00'), bust_cache: true } });
    expect(created.status, created.text).toBe(201);
    const id = created.body.id as string;
    const cases: Array<[string, 'store' | 'blobs', string, Error]> = [
      [`/v1/parses/${id}`, 'store', 'getRecord', awsError('ProvisionedThroughputExceededException', 400)],
      ['/v1/parses?limit=5', 'store', 'listRecords', awsError('ThrottlingException', 400)],
      [`/v1/parses/${id}`, 'blobs', 'get', awsError('SlowDown', 503)],
      [`/v1/parses/${id}`, 'blobs', 'get', awsError('InternalError', 500)],
    ];
    for (const [path, port, method, error] of cases) {
      setPlatform(withHooks(original, { [port]: async (m: string) => { if (m === method) throw error; } }));
      const started = Date.now();
      const r = await cloud.api('GET', path);
      setPlatform(original);
      expect(r.status, `${error.name} on ${port}.${method}: ${r.text}`).toBe(503);
      expect(r.body).toEqual({ detail: 'The service is busy, retry shortly', request_id: expect.stringMatching(/^req_/) });
      expect(r.headers.get('x-request-id')).toBe(r.body.request_id);
      expect(r.headers.get('retry-after')).toBe('1');
      expect(Date.now() - started).toBeLessThan(5_000);
    }
    // An unknown failure stays a 500 with its request_id.
    setPlatform(withHooks(original, { store: async (m) => { if (m === 'getRecord') throw new Error('boom'); } }));
    const crashed = await cloud.api('GET', `/v1/parses/${id}`);
    setPlatform(original);
    expect(crashed.status).toBe(500);
    expect(crashed.body).toEqual({ detail: 'Internal error', request_id: expect.stringMatching(/^req_/) });
    // Nothing was damaged.
    const again = await cloud.api('GET', `/v1/parses/${id}`);
    expect(again.status).toBe(200);
    expect(again.body).toEqual(created.body);
  });

  it('a create whose record write is throttled answers 503 and leaves no run behind', async () => {
    const before = (await cloud.api('GET', '/v1/parses?limit=100')).body.data.length;
    setPlatform(withHooks(original, { store: async (m) => { if (m === 'putRecord') throw awsError('ProvisionedThroughputExceededException', 400); } }));
    const r = await cloud.api('POST', '/v1/parses', { body: { document: textDoc('never stored'), bust_cache: true, background: true } });
    setPlatform(original);
    expect(r.status, r.text).toBe(503);
    expect((await cloud.api('GET', '/v1/parses?limit=100')).body.data.length).toBe(before);
  });

  it('a run whose status moves are throttled inside its task still ends (failed, never stuck)', async () => {
    // Every move to completed is throttled: the task's Finish step throws, the state machine's Catch
    // sends it to Fail, whose move to failed goes through.
    setPlatform(withHooks(original, { store: async (m, args) => { if (m === 'moveStatus' && args[4] === 'completed') throw awsError('ThrottlingException', 400); } }));
    try {
      const r = await cloud.api('POST', '/v1/parses', { body: { document: textDoc('Invoice 9'), bust_cache: true, background: true } });
      expect(r.status, r.text).toBe(201);
      const ended = await poll(async () => {
        const got = await cloud.api('GET', `/v1/parses/${r.body.id}`);
        return ACTIVE.includes(got.body.status) ? undefined : got.body;
      }, 'the throttled run to end', 20_000);
      expect(ended.status).toBe('failed');
      expect(ended.error).toEqual({ code: 'internal', message: 'The run failed unexpectedly (ThrottlingException)', details: null });
      expect(ended.output).toEqual({ pages: [], text: '' }); // the empty output, no result
    } finally {
      setPlatform(original);
    }
  }, 30_000);

  it('a cancel that lands while the task writes its output wins: the run ends cancelled, no output left', async () => {
    let cancelled: Promise<{ status: number; body: any }> | undefined;
    let outputKey: string | undefined;
    setPlatform(
      withHooks(original, {
        blobs: async (m, args) => {
          const key = String(args[0]);
          if (m === 'put' && key.includes('/outputs/parse/') && !cancelled) {
            outputKey = key;
            // The cancel is answered before the output is written: the task's own check (or the
            // finish step's conditional move) must see it.
            cancelled = cloud.api('POST', `/v1/parses/${key.split('/').pop()!.replace('.json', '')}/cancel`);
            await cancelled;
          }
        },
      }),
    );
    try {
      const r = await cloud.api('POST', '/v1/parses', { body: { document: textDoc('Invoice 10'), bust_cache: true, background: true } });
      expect(r.status, r.text).toBe(201);
      await poll(async () => cancelled, 'the cancel', 15_000);
      const answer = await cancelled!;
      expect(answer.status).toBe(200);
      expect(answer.body.status).toBe('cancelled');
      const ended = await poll(async () => {
        const got = await cloud.api('GET', `/v1/parses/${r.body.id}`);
        return ACTIVE.includes(got.body.status) ? undefined : got.body;
      }, 'the run to end', 15_000);
      expect(ended.status).toBe('cancelled');
      expect(ended.output).toEqual({ pages: [], text: '' }); // the empty output, no result
      await new Promise((resolve) => setTimeout(resolve, 300));
      expect(await original.blobs.head(outputKey!)).toBeUndefined();
      expect((await cloud.api('GET', `/v1/parses/${r.body.id}`)).body.status).toBe('cancelled');
    } finally {
      setPlatform(original);
    }
  }, 30_000);

  it('a run whose task outlives its time budget ends failed (timeout), and its late result is dropped', async () => {
    // The probe waits at a gate that opens only after the state machine gave up on it. The run state
    // machine's Execute step has TimeoutSeconds (900 s, the Lambda's timeout): when it fires, its Catch
    // calls the task's Fail step with States.Timeout. That step is called here as the state machine
    // would, so the test does not wait 15 minutes.
    const r = await cloud.api('POST', '/v1/probes', { body: { mode: 'gate', gate: 'faults-timeout', background: true } });
    expect(r.status, r.text).toBe(201);
    const g = gate('faults-timeout');
    await g.reached.promise;
    const record = (await cloud.api('GET', `/v1/probes/${r.body.id}`)).body;
    expect(record.status).toBe('in_progress');
    const caller = await resolveCaller(original, cloud.keys.test);
    const ref = { kind: 'probe', orgId: caller.orgId, envId: caller.envId, id: r.body.id as string };
    await runTask({ step: 'fail', run: ref, error: { Error: 'States.Timeout', Cause: 'Task timed out' } });
    const failed = (await cloud.api('GET', `/v1/probes/${r.body.id}`)).body;
    expect(failed.status).toBe('failed');
    expect(failed.error).toEqual({ code: 'timeout', message: 'The run exceeded its time budget', details: null });
    // The work comes back late: its finish finds the run failed and leaves nothing behind.
    g.open.resolve();
    await new Promise((resolve) => setTimeout(resolve, 500));
    const after = (await cloud.api('GET', `/v1/probes/${r.body.id}`)).body;
    expect(after).toEqual(failed);
  });
});
