/**
 * A synchronous create waits at most the sync budget (25 s on AWS; 300 ms here), then answers with
 * the run as it stands, which goes on in the background. Own file: it needs its own local cloud.
 */
import { afterAll, beforeAll, expect, it } from 'vitest';
import { gate, probeRoutes } from '../../support/probe.ts';
import { startTestCloud, until, type TestCloud } from '../../support/cloud.ts';

let short: TestCloud;
beforeAll(async () => {
  short = await startTestCloud({ extraRoutes: probeRoutes, syncWaitMs: 300 });
});
afterAll(() => short?.close());

it('answers 201 in_progress when the budget runs out, and the run completes later', async () => {
  const g = gate('budget');
  const started = Date.now();
  const r = await short.api('POST', '/v1/probes', { body: { mode: 'gate', gate: 'budget' } });
  expect(Date.now() - started).toBeLessThan(5_000);
  expect(r.status).toBe(201);
  expect(r.body.status).toBe('in_progress');
  expect(r.body.output).toEqual({});
  g.open.resolve();
  const done = await until(async () => {
    const s = await short.api('GET', `/v1/probes/${r.body.id}`);
    return s.body.status === 'completed' ? s.body : undefined;
  });
  expect(done.output).toEqual({ echo: '' });
});
