/**
 * The run kit's fan-out (functions/runs/task.ts, statemachines/run.asl.json), with the tests' own
 * kind so that it is proven apart from any feature: Execute answers a fan-out, the Ranges map runs
 * each range in a task of its own, Merge puts their parts together in range order; a range's
 * expected failure fails the run with that range's error; either way no part is left behind.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { resolveCaller } from '../../../functions/auth/service.ts';
import { platform } from '../../../functions/platform/platform.ts';
import { partKeyOf, type RunData } from '../../../functions/runs/service.ts';
import { startTestCloud, until, type TestCloud } from '../../support/cloud.ts';
import { probeKind, probeRoutes } from '../../support/probe.ts';

let cloud: TestCloud;
beforeAll(async () => {
  cloud = await startTestCloud({ extraRoutes: probeRoutes });
});
afterAll(() => cloud?.close());

async function partsLeft(id: string): Promise<number> {
  const caller = await resolveCaller(platform(), cloud.keys.test);
  const heads = await Promise.all([0, 1, 2].map((index) => platform().blobs.head(partKeyOf(caller, probeKind, id, index))));
  return heads.filter((head) => head !== undefined).length;
}

describe('a run that fans out over ranges', () => {
  it('completes with its ranges merged in order, usage from the merge, and its parts deleted', async () => {
    const r = await cloud.api('POST', '/v1/probes', { body: { mode: 'ranges', text: 'p' } });
    expect(r.status, r.text).toBe(201);
    expect(r.body).toMatchObject({ status: 'completed', output: { echo: 'p:1 p:2 p:3' }, usage: { credits: 3 }, error: null });
    const caller = await resolveCaller(platform(), cloud.keys.test);
    expect((await platform().store.getRecord<RunData>(caller, probeKind.type, r.body.id))?.data._ranges).toBe(3);
    expect(await partsLeft(r.body.id)).toBe(0);
  });

  it("fails with the failing range's own error when one range fails, and leaves no part behind", async () => {
    // Waited for, a damaged document is the caller's 422 naming the page the range found damaged.
    const sync = await cloud.api('POST', '/v1/probes', { body: { mode: 'ranges-fail', text: 'p' } });
    expect(sync.status, sync.text).toBe(422);
    expect(sync.body.detail[0]).toMatchObject({ type: 'document_invalid', msg: 'Page 2 of the probe document is damaged' });
    // In the background, the run ends failed with that error.
    const r = await cloud.api('POST', '/v1/probes', { body: { mode: 'ranges-fail', text: 'p', background: true } });
    expect(r.status, r.text).toBe(201);
    const failed = await until(async () => {
      const got = await cloud.api('GET', `/v1/probes/${r.body.id}`);
      return got.body.status === 'queued' || got.body.status === 'in_progress' ? undefined : got.body;
    }, 30_000, 'the run to end');
    expect(failed).toMatchObject({ status: 'failed', output: {}, error: { code: 'document_invalid', message: 'Page 2 of the probe document is damaged' } });
    expect(await partsLeft(r.body.id)).toBe(0);
  });
});
