/**
 * The generic run lifecycle (API §0.5) on the real local state machine, through a run kind defined
 * by the tests.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { platform, setPlatform, type Platform } from '../../../functions/platform/platform.ts';
import { attempts, gate, probeRoutes } from '../../support/probe.ts';
import { dataUrl, startTestCloud, until, type TestCloud } from '../../support/cloud.ts';

let cloud: TestCloud;
beforeAll(async () => {
  cloud = await startTestCloud({ extraRoutes: probeRoutes });
});
afterAll(() => cloud?.close());

const get = (id: string, query = '') => cloud.api('GET', `/v1/probes/${id}${query}`);
const settled = (id: string) =>
  until(async () => {
    const r = await get(id);
    return ['completed', 'failed', 'cancelled'].includes(r.body.status) ? r.body : undefined;
  }, 15_000, `run ${id} to settle`);

describe('create', () => {
  it('a synchronous create runs through the state machine and answers 201 completed with the output', async () => {
    const r = await cloud.api('POST', '/v1/probes', { body: { text: 'hello' } });
    expect(r.status).toBe(201);
    expect(r.body).toMatchObject({ status: 'completed', error: null, output: { echo: 'hello' }, usage: { credits: 1 }, model: 'quire-local', instructions: null });
    expect(r.body.id).toMatch(/^prb_[0-9a-z]{26}$/);
    expect(r.body.created_at).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/);
    expect(r.headers.get('x-request-id')).toMatch(/^req_/);
    expect((await get(r.body.id)).body).toEqual(r.body);
  });

  it('a background create answers queued with the empty output at once, then completes', async () => {
    const r = await cloud.api('POST', '/v1/probes', { body: { text: 'later', background: true } });
    expect(r.status).toBe(201);
    expect(r.body).toMatchObject({ status: 'queued', output: {}, error: null });
    const done = await settled(r.body.id);
    expect(done).toMatchObject({ status: 'completed', output: { echo: 'later' } });
  });

  it('echoes the model name given, and rejects an unknown model listing the known ones', async () => {
    const ok = await cloud.api('POST', '/v1/probes', { body: { model: 'retab-small' } });
    expect(ok.body.model).toBe('retab-small');
    const bad = await cloud.api('POST', '/v1/probes', { body: { model: 'gpt-9' } });
    expect(bad.status).toBe(422);
    expect(bad.body.detail[0].loc).toEqual(['body', 'model']);
    expect(bad.body.detail[0].msg).toContain('quire-local');
  });

  it('takes a document and records its FileRef', async () => {
    const r = await cloud.api('POST', '/v1/probes', { body: { document: { filename: 'n.txt', url: dataUrl('text/plain', 'note') } } });
    expect(r.status).toBe(201);
    expect(r.body.file).toMatchObject({ filename: 'n.txt', mime_type: 'text/plain' });
    expect(r.body.file.id).toMatch(/^file_/);
  });

  it('a FileRef of the other environment is a 422 "File <id> not found" and stores no run', async () => {
    const live = await cloud.api('POST', '/v1/files', { key: cloud.keys.live, body: { document: { filename: 'l.txt', url: dataUrl('text/plain', 'live') } } });
    const before = await cloud.api('GET', '/v1/probes?limit=100');
    const r = await cloud.api('POST', '/v1/probes', { body: { document: { id: live.body.id, filename: 'l.txt', mime_type: 'text/plain' } } });
    expect(r.status).toBe(422);
    expect(r.body.detail[0].msg).toBe(`File ${live.body.id} not found`);
    const after = await cloud.api('GET', '/v1/probes?limit=100');
    expect(after.body.data.length).toBe(before.body.data.length);
  });

});

describe('failures', () => {
  it('a crash in the task ends failed with an internal PrimitiveError that leaks nothing', async () => {
    const r = await cloud.api('POST', '/v1/probes', { body: { mode: 'crash' } });
    expect(r.status).toBe(201);
    expect(r.body.status).toBe('failed');
    expect(r.body.error).toEqual({ code: 'internal', message: 'The run failed unexpectedly (Error)', details: null });
    expect(r.text).not.toContain('internal detail');
    expect(r.body.output).toEqual({});
  });

  it("a task's own failure is recorded with its code, message and details", async () => {
    const r = await cloud.api('POST', '/v1/probes', { body: { mode: 'fail', background: true } });
    const done = await settled(r.body.id);
    expect(done).toMatchObject({ status: 'failed', error: { code: 'model_error', message: 'The probe model gave up', details: { page: 3 } } });
    const sync = await cloud.api('POST', '/v1/probes', { body: { mode: 'fail' } });
    expect(sync.status).toBe(201);
    expect(sync.body).toMatchObject({ status: 'failed', error: { code: 'model_error' } });
  });

  it('a document that cannot be read: 422 for a synchronous create (nothing kept), a failed run in the background', async () => {
    const before = (await cloud.api('GET', '/v1/probes?limit=100')).body.data.length;
    const sync = await cloud.api('POST', '/v1/probes', { body: { mode: 'bad-document' } });
    expect(sync.status).toBe(422);
    expect(sync.body.detail).toEqual([{ loc: ['body', 'document'], msg: 'The probe document is damaged', type: 'document_invalid' }]);
    expect((await cloud.api('GET', '/v1/probes?limit=100')).body.data.length).toBe(before);
    const background = await cloud.api('POST', '/v1/probes', { body: { mode: 'bad-document', background: true } });
    expect(background.status).toBe(201);
    expect(await settled(background.body.id)).toMatchObject({ status: 'failed', error: { code: 'document_invalid', message: 'The probe document is damaged' } });
  });

  it('a transient failure is retried by the state machine and then completes', async () => {
    const r = await cloud.api('POST', '/v1/probes', { body: { mode: 'transient-once', text: 'again', background: true } });
    const done = await settled(r.body.id);
    expect(done).toMatchObject({ status: 'completed', output: { echo: 'again' } });
    expect(attempts.get(r.body.id)).toBe(2);
  });

  it('a run whose execution cannot be started is recorded failed, not left queued', async () => {
    const real = platform();
    const broken: Platform = { ...real, runner: { ...real.runner, start: () => Promise.reject(new Error('Step Functions is down')) } };
    setPlatform(broken);
    try {
      const r = await cloud.api('POST', '/v1/probes', { body: { text: 'x' } });
      expect(r.status).toBe(500);
      expect(r.body).toEqual({ detail: 'Internal error', request_id: r.headers.get('x-request-id') });
    } finally {
      setPlatform(real);
    }
    const list = await cloud.api('GET', '/v1/probes?limit=1');
    expect(list.body.data[0]).toMatchObject({ status: 'failed', error: { code: 'internal', message: 'The run could not be started' } });
  });
});

describe('progress', () => {
  it('a run in progress shows how far its work is; once ended, it shows no progress', async () => {
    const g = gate('progress');
    const r = await cloud.api('POST', '/v1/probes', { body: { mode: 'gate', gate: 'progress', text: 'progress', background: true } });
    await g.reached.promise;
    const going = await get(r.body.id);
    expect(going.body).toMatchObject({ status: 'in_progress', progress: { pages_done: 2, pages_total: 5 } });
    const listed = (await cloud.api('GET', '/v1/probes?limit=100&include_output=false')).body.data.find((d: { id: string }) => d.id === r.body.id);
    expect(listed.progress).toEqual({ pages_done: 2, pages_total: 5 });
    g.open.resolve();
    const done = await until(async () => {
      const s = await get(r.body.id);
      return s.body.status === 'completed' ? s.body : undefined;
    });
    expect(done.output).toEqual({ echo: 'progress' });
    expect(done).not.toHaveProperty('progress');
  });
});

describe('cancel', () => {
  it('cancelling an in-progress run makes it cancelled, and the late result is discarded', async () => {
    const g = gate('cancel-me');
    const r = await cloud.api('POST', '/v1/probes', { body: { mode: 'gate', gate: 'cancel-me', text: 'late', background: true } });
    await g.reached.promise;
    expect((await get(r.body.id)).body.status).toBe('in_progress');
    const c = await cloud.api('POST', `/v1/probes/${r.body.id}/cancel`);
    expect(c.status).toBe(200);
    expect(c.body).toMatchObject({ id: r.body.id, status: 'cancelled', output: {}, error: null });
    g.open.resolve();
    // The task finishes after the cancel: its result must be dropped and its output removed.
    await new Promise((resolve) => setTimeout(resolve, 300));
    const after = await get(r.body.id);
    expect(after.body).toMatchObject({ status: 'cancelled', output: {} });
    const listed = (await cloud.api('GET', '/v1/probes?limit=100')).body.data.find((d: { id: string }) => d.id === r.body.id);
    expect(listed.status).toBe('cancelled');
    expect(await listOutputKeys(`${cloud.orgId}/`, r.body.id)).toEqual([]);
  });

  it('cancelling a queued run stops it before it starts', async () => {
    const real = platform();
    // Hold the execution start so the run stays queued while we cancel it.
    let release!: () => void;
    const held = new Promise<void>((resolve) => (release = resolve));
    setPlatform({ ...real, runner: { ...real.runner, start: async (machine, execution) => { await held; return real.runner.start(machine, execution); } } });
    const pending = cloud.api('POST', '/v1/probes', { body: { text: 'never', background: true } });
    let queued: { id: string };
    try {
      queued = await until(async () => (await cloud.api('GET', '/v1/probes?limit=1&status=queued')).body.data[0]);
    } finally {
      setPlatform(real);
    }
    const c = await cloud.api('POST', `/v1/probes/${queued.id}/cancel`);
    expect(c.body.status).toBe('cancelled');
    release();
    expect((await pending).status).toBe(201);
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect((await get(queued.id)).body).toMatchObject({ status: 'cancelled', output: {} });
    expect(attempts.has(queued.id)).toBe(false);
  });

  it('cancelling a terminal run returns it unchanged (200, idempotent)', async () => {
    const r = await cloud.api('POST', '/v1/probes', { body: { text: 'done' } });
    const c1 = await cloud.api('POST', `/v1/probes/${r.body.id}/cancel`);
    const c2 = await cloud.api('POST', `/v1/probes/${r.body.id}/cancel`);
    expect(c1.status).toBe(200);
    expect(c1.body).toEqual(r.body);
    expect(c2.body).toEqual(r.body);
    const failed = await cloud.api('POST', '/v1/probes', { body: { mode: 'fail' } });
    expect((await cloud.api('POST', `/v1/probes/${failed.body.id}/cancel`)).body).toEqual(failed.body);
  });

  it('cancel of an unknown run is 404 naming it', async () => {
    const r = await cloud.api('POST', '/v1/probes/prb_01m7z0qenejn1pv4p44vpcbwww/cancel');
    expect(r.status).toBe(404);
    expect(r.body).toEqual({ detail: 'Probe prb_01m7z0qenejn1pv4p44vpcbwww not found' });
  });
});

describe('read, list, delete', () => {
  it('include_output=false answers the record with the empty output without reading storage (a small output is in the record)', async () => {
    const r = await cloud.api('POST', '/v1/probes', { body: { text: 'big' } });
    const real = platform();
    let reads = 0;
    setPlatform({ ...real, blobs: { ...real.blobs, get: (key) => { reads++; return real.blobs.get(key); } } });
    try {
      const cheap = await get(r.body.id, '?include_output=false');
      expect(cheap.body).toEqual({ ...r.body, output: {} });
      expect(reads).toBe(0);
      const full = await get(r.body.id, '?include_output=true');
      expect(full.body.output).toEqual({ echo: 'big' });
      expect(reads).toBe(0); // (test/functions/runs/round-trips.test.ts: a large one is read from storage)
    } finally {
      setPlatform(real);
    }
    expect((await get(r.body.id, '?include_output=maybe')).status).toBe(422);
  });

  it('lists with status filter, order and cursors', async () => {
    const ids: string[] = [];
    for (const text of ['a', 'b', 'c']) ids.push((await cloud.api('POST', '/v1/probes', { body: { text } })).body.id);
    const page1 = await cloud.api('GET', '/v1/probes?limit=2&status=completed');
    expect(page1.body.data.map((d: { id: string }) => d.id)).toEqual([ids[2], ids[1]]);
    expect(page1.body.list_metadata).toEqual({ before: null, after: ids[1] });
    const page2 = await cloud.api('GET', `/v1/probes?limit=1&status=completed&after=${ids[1]}`);
    expect(page2.body.data[0].id).toBe(ids[0]);
    expect(page2.body.list_metadata.before).toBe(ids[0]);
    const back = await cloud.api('GET', `/v1/probes?limit=2&status=completed&before=${ids[0]}`);
    expect(back.body.data.map((d: { id: string }) => d.id)).toEqual([ids[2], ids[1]]);
    const failedOnly = await cloud.api('GET', '/v1/probes?status=failed&limit=100');
    expect(failedOnly.body.data.every((d: { status: string }) => d.status === 'failed')).toBe(true);
    expect((await cloud.api('GET', '/v1/probes?status=weird')).status).toBe(422);
  });

  it('delete answers 204, then the run is gone (404); unknown → 404', async () => {
    const r = await cloud.api('POST', '/v1/probes', { body: { text: 'bye' } });
    const d = await cloud.api('DELETE', `/v1/probes/${r.body.id}`);
    expect(d.status).toBe(204);
    expect(d.text).toBe('');
    expect((await get(r.body.id)).status).toBe(404);
    expect((await cloud.api('DELETE', `/v1/probes/${r.body.id}`)).status).toBe(404);
  });

  it('deleting a run in flight stops it and leaves no output behind', async () => {
    const g = gate('delete-me');
    const r = await cloud.api('POST', '/v1/probes', { body: { mode: 'gate', gate: 'delete-me', background: true } });
    await g.reached.promise;
    expect((await cloud.api('DELETE', `/v1/probes/${r.body.id}`)).status).toBe(204);
    g.open.resolve();
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect((await get(r.body.id)).status).toBe(404);
    expect(await listOutputKeys(`${cloud.orgId}/`, r.body.id)).toEqual([]);
  });
});

async function listOutputKeys(prefix: string, runId: string): Promise<string[]> {
  const { S3Client, ListObjectsV2Command } = await import('@aws-sdk/client-s3');
  const s3 = new S3Client({ region: 'us-east-1', endpoint: cloud.endpoints.s3, forcePathStyle: true });
  const out = await s3.send(new ListObjectsV2Command({ Bucket: cloud.endpoints.bucket, Prefix: prefix }));
  return (out.Contents ?? []).map((o) => o.Key!).filter((k) => k.includes(runId));
}
