/**
 * The sweeper (functions/runs/sweeper.ts) on the real local emulators: records whose state machine
 * execution ended without settling them (stopped behind their back, or never started) end as their
 * Fail step would have ended them; everything else is left alone.
 */
import { MAX_PAGES } from '../../../functions/documents/doc.ts';
import { fanOutSettings } from '../../../functions/parses/ranges.ts';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { resolveCaller, type Caller } from '../../../functions/auth/service.ts';
import { timestamp } from '../../../functions/platform/ids.ts';
import { platform, type Platform } from '../../../functions/platform/platform.ts';
import type { Store } from '../../../functions/platform/ports.ts';
import { executionArnOf } from '../../../functions/platform/sfn-runner.ts';
import { loadRunTask, runKinds, stateMachines, sweptRecords } from '../../../functions/features.ts';
import { RETRY_SCHEDULE } from '../../../functions/webhooks/task.ts';
import { REPO_ROOT } from '../../../lib/local/invoker.ts';
import { lostRunError, sweepStuckRecords } from '../../../functions/runs/sweeper.ts';
import { USAGE_TYPE, type UsageEntry } from '../../../functions/usage/ledger.ts';
import type { StoredEvent } from '../../../functions/webhooks/events.ts';
import { EVENT_TYPE } from '../../../functions/webhooks/service.ts';
import type { WorkflowRunData } from '../../../functions/workflows/runs.ts';
import { WORKFLOW_RUN_TYPE } from '../../../functions/workflows/schema.ts';
import { startTestCloud, until, type TestCloud } from '../../support/cloud.ts';
import { gate, probeKind, probeRoutes } from '../../support/probe.ts';
import { partKeyOf } from '../../../functions/runs/service.ts';
import { startReceiver, type Receiver } from '../../support/receiver.ts';

const LOST = 'The run was lost: its background execution ended before the run finished';

describe('the run kinds the sweeper knows', () => {
  it('are every kind of the feature list, each named after its record type and run by a task of that kind', async () => {
    expect(sweptRecords.runKinds).toBe(runKinds);
    expect(runKinds.map((kind) => kind.name)).toEqual(expect.arrayContaining(['parse', 'classification', 'split', 'partition', 'extraction', 'schema_generation', 'edit', 'table_summary']));
    for (const kind of runKinds) {
      expect(kind.type).toBe(kind.name);
      expect((await loadRunTask(kind.name)).kind).toBe(kind);
    }
  });

  it('an execution that timed out gives a `timeout` error, any other end an `internal` one', () => {
    expect(lostRunError('TIMED_OUT')).toEqual({ code: 'timeout', message: 'The run exceeded its time budget', details: null });
    expect(lostRunError('FAILED')).toEqual({ code: 'internal', message: LOST, details: { execution_status: 'failed' } });
  });
});

interface TaskState {
  Type: string;
  /** A Map state's processor (the run machine's Ranges: one task per page range). */
  ItemProcessor?: { States: Record<string, TaskState> };
  Resource?: string;
  TimeoutSeconds?: number;
  Retry?: Array<{ IntervalSeconds: number; MaxAttempts: number; BackoffRate: number }>;
}
/**
 * The longest one Task state can take: every attempt up to its timeout, and the waits between them.
 * A state that waits for a task token (a review) fails a retried attempt when its Lambda is invoked,
 * before the wait: such an attempt costs at most the Lambda's own timeout, and the wait happens once.
 */
function longestTaskSeconds(state: TaskState, lambdaTimeout = LAMBDA_TIMEOUT_SECONDS): number {
  const waitsForToken = String(state.Resource ?? '').endsWith('.waitForTaskToken');
  const attempt = waitsForToken ? Math.min(state.TimeoutSeconds!, lambdaTimeout) : state.TimeoutSeconds!;
  let seconds = state.TimeoutSeconds!;
  for (const retry of state.Retry ?? []) {
    for (let i = 0; i < retry.MaxAttempts; i++) seconds += attempt + retry.IntervalSeconds * retry.BackoffRate ** i;
  }
  return seconds;
}
/** The longest a Lambda runs (API Gateway's and Step Functions' tasks alike): 15 minutes. */
const LAMBDA_TIMEOUT_SECONDS = 900;
function readMachine(name: keyof typeof stateMachines): { TimeoutSeconds?: number; States: Record<string, TaskState> } {
  return JSON.parse(readFileSync(join(REPO_ROOT, stateMachines[name].definition), 'utf8'));
}

describe('the life of a state machine execution', () => {
  it('is bounded by a top-level TimeoutSeconds above its longest legitimate path, so the sweeper always gets to a lost record', () => {
    for (const name of ['run', 'workflowRun'] as const) {
      // Each Task state is visited at most once (Start, Execute, Merge, Finish, Fail); a Map's tasks
      // once per wave: the most ranges a parse fans out to (MAX_PAGES pages), `concurrency` at once.
      const machine = readMachine(name);
      const tasks = Object.values(machine.States).filter((state) => state.Type === 'Task');
      expect(tasks.every((state) => state.TimeoutSeconds! > 0), name).toBe(true);
      // (As deployed: none of the overrides a local stack or a shell sets in this process's environment.)
      const { rangePages, concurrency } = fanOutSettings({});
      const waves = Math.ceil(Math.ceil(MAX_PAGES / rangePages) / concurrency);
      const maps = Object.values(machine.States).filter((state) => state.Type === 'Map');
      const mapped = maps.reduce((sum, map) => sum + waves * Object.values(map.ItemProcessor!.States).reduce((s, state) => s + longestTaskSeconds(state), 0), 0);
      const longest = tasks.reduce((sum, state) => sum + longestTaskSeconds(state), 0) + mapped;
      expect(machine.TimeoutSeconds, name).toBeGreaterThan(longest);
    }
    // Deliveries: one attempt more than the production retry waits, the waits themselves, then GiveUp.
    const deliver = readMachine('deliver');
    const schedule = RETRY_SCHEDULE.production;
    const longest = (schedule.length + 1) * longestTaskSeconds(deliver.States.Attempt!) + schedule.reduce((a, b) => a + b, 0) + longestTaskSeconds(deliver.States.GiveUp!);
    expect(deliver.TimeoutSeconds).toBeGreaterThan(longest);
  });
});

describe('sweeps called directly', () => {
  let cloud: TestCloud;
  let p: Platform;
  let caller: Caller;
  let receiver: Receiver;

  beforeAll(async () => {
    // Real retry waits of the test environment (first one 30 s): a failed delivery waits at its Wait state.
    cloud = await startTestCloud({ extraRoutes: probeRoutes, webhooks: { retryScale: 1, timeoutMs: 2_000 } });
    p = platform();
    caller = await resolveCaller(p, cloud.keys.test);
    receiver = await startReceiver();
  });
  afterAll(async () => {
    await cloud?.close();
    await receiver?.close();
  });

  const getProbe = async (id: string) => (await cloud.api('GET', `/v1/probes/${id}`)).body;
  /** A background probe run at work (in_progress), waiting at its gate until the test opens it. */
  async function runAtWork(name: string): Promise<{ id: string; open(): void }> {
    const g = gate(name);
    const created = await cloud.api('POST', '/v1/probes', { body: { mode: 'gate', gate: name, text: name, background: true } });
    expect(created.status, created.text).toBe(201);
    await g.reached.promise;
    expect((await getProbe(created.body.id)).status).toBe('in_progress');
    return { id: created.body.id, open: () => g.open.resolve() };
  }
  /** Stops a run's execution behind its back: nothing settles the record. */
  const stopRunExecution = (id: string) => p.runner.stop(executionArnOf(cloud.endpoints.runStateMachineArn, id), 'Stopped by the test');
  const eventsOf = async (type: string) =>
    (await p.store.listRecords<StoredEvent>(caller, EVENT_TYPE, { limit: 100, order: 'desc', attrs: { event_type: type } })).items.map((item) => JSON.parse(item.data.body) as { data: { id: string } });

  it('a run whose execution was stopped is left alone inside the grace period, then ends failed with a clear error, its usage and its event', async () => {
    const run = await runAtWork('sweep-stopped');
    await stopRunExecution(run.id);
    expect(await p.runner.executionStatus('run', run.id)).toBe('ABORTED');

    const young = await sweepStuckRecords(p, sweptRecords, { graceMs: 60_000 });
    expect(young.ended.map((e) => e.id)).not.toContain(run.id);
    expect((await getProbe(run.id)).status).toBe('in_progress');

    const swept = await sweepStuckRecords(p, sweptRecords, { graceMs: 0 });
    expect(swept.ended).toContainEqual({ type: 'probe', id: run.id, execution: 'ABORTED' });
    expect(swept.errors).toBe(0);
    const got = await getProbe(run.id);
    expect(got).toMatchObject({ status: 'failed', error: { code: 'internal', message: LOST, details: { execution_status: 'aborted' } }, output: {} });
    expect((await p.store.getRecord<UsageEntry>(caller, USAGE_TYPE, run.id))?.data).toMatchObject({ status: 'failed', operation: 'probe', credits: 0 });
    expect((await eventsOf('probe.failed')).map((e) => e.data.id)).toContain(run.id);

    // A second sweep finds nothing more to do with it.
    expect((await sweepStuckRecords(p, sweptRecords, { graceMs: 0 })).ended.map((e) => e.id)).not.toContain(run.id);
    // The abandoned task finishing late changes nothing (its execution is gone, so no Finish).
    run.open();
    expect((await getProbe(run.id)).status).toBe('failed');
  });

  it('a run that fanned out and was lost between its ranges ends failed and leaves no part behind', async () => {
    const g = gate('sweep-ranges');
    const created = await cloud.api('POST', '/v1/probes', { body: { mode: 'ranges-gate', gate: 'sweep-ranges', text: 'p', background: true } });
    expect(created.status, created.text).toBe(201);
    const id = created.body.id as string;
    await g.reached.promise;
    // Ranges 1 and 3 are done (their parts stored); range 2 waits at the gate.
    const part = (index: number) => partKeyOf(caller, probeKind, id, index);
    await until(async () => ((await p.blobs.head(part(0))) && (await p.blobs.head(part(2))) ? true : undefined), 15_000, 'the two parts');
    await stopRunExecution(id);

    const swept = await sweepStuckRecords(p, sweptRecords, { graceMs: 0 });
    expect(swept.ended).toContainEqual({ type: 'probe', id, execution: 'ABORTED' });
    expect((await getProbe(id)).status).toBe('failed');
    expect(await p.blobs.head(part(0))).toBeUndefined();
    expect(await p.blobs.head(part(2))).toBeUndefined();
    // The abandoned range ending late deletes the part it writes: the run is no longer in progress.
    g.open.resolve();
    await until(async () => ((await p.blobs.head(part(1))) === undefined ? true : undefined), 15_000, 'the late part to be deleted');
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(await p.blobs.head(part(1))).toBeUndefined();
    expect((await getProbe(id)).status).toBe('failed');
  });

  it('never touches a run whose execution is still running, nor one that completed', async () => {
    const done = await cloud.api('POST', '/v1/probes', { body: { text: 'done' } });
    expect(done.body.status).toBe('completed');
    const run = await runAtWork('sweep-running');
    expect(await p.runner.executionStatus('run', run.id)).toBe('RUNNING');

    const swept = await sweepStuckRecords(p, sweptRecords, { graceMs: 0 });
    expect(swept.ended.map((e) => e.id)).not.toContain(run.id);
    expect(swept.ended.map((e) => e.id)).not.toContain(done.body.id);
    expect((await getProbe(done.body.id)).status).toBe('completed');

    run.open();
    const completed = await until(async () => {
      const got = await getProbe(run.id);
      return got.status === 'in_progress' ? undefined : got;
    }, 10_000, 'the running run to finish');
    expect(completed).toMatchObject({ status: 'completed', error: null, output: { echo: 'sweep-running' } });
  });

  it('a run that finishes between the execution check and the sweeper write keeps its result (conditional move)', async () => {
    const run = await runAtWork('sweep-race');
    await stopRunExecution(run.id);
    // The run's Finish lands just before the sweeper's write (the race the conditional move decides).
    const racing: Platform = {
      ...p,
      store: {
        ...p.store,
        moveStatus: (async (scope, type, id, from, to, patch) => {
          if (id === run.id && to === 'failed') await p.store.moveStatus(scope, type, id, ['in_progress'], 'completed', { usage: { credits: 1 }, error: null });
          return p.store.moveStatus(scope, type, id, from, to, patch);
        }) as Store['moveStatus'],
      },
    };
    const swept = await sweepStuckRecords(racing, sweptRecords, { graceMs: 0 });
    expect(swept.ended.map((e) => e.id)).not.toContain(run.id);
    expect(swept.errors).toBe(0);
    expect(await getProbe(run.id)).toMatchObject({ status: 'completed', error: null });
    // The ledger says what the finish recorded, and no failure was announced.
    expect((await p.store.getRecord<UsageEntry>(caller, USAGE_TYPE, run.id))?.data).toMatchObject({ status: 'completed', credits: 1 });
    expect((await eventsOf('probe.failed')).map((e) => e.data.id)).not.toContain(run.id);
    run.open();
  });

  it('a webhook delivery waiting for its retry whose execution was stopped ends failed', async () => {
    receiver.answer('/hook', { status: 503 });
    // Disabled: only the explicit test event is delivered, so no other delivery is in flight.
    expect((await cloud.api('PUT', '/v1/webhooks/endpoint', { body: { url: `${receiver.url}/hook`, enabled: false } })).status).toBe(200);
    const sent = await cloud.api('POST', '/v1/webhooks/test');
    expect(sent.status, sent.text).toBe(202);
    const delivery = await until(async () => {
      const list = (await cloud.api('GET', '/v1/webhooks/deliveries?event_type=webhook.test&limit=100')).body.data as Array<{ id: string; event_id: string; status: string }>;
      return list.find((d) => d.event_id === sent.body.event_id && d.status === 'retrying');
    }, 10_000, 'the delivery to wait for its retry');
    await p.runner.stop(executionArnOf(cloud.endpoints.deliverStateMachineArn, delivery.id), 'Stopped by the test');

    const swept = await sweepStuckRecords(p, sweptRecords, { graceMs: 0 });
    expect(swept.ended).toContainEqual({ type: 'webhook_delivery', id: delivery.id, execution: 'ABORTED' });
    const got = await cloud.api('GET', `/v1/webhooks/deliveries/${delivery.id}`);
    expect(got.body).toMatchObject({ status: 'failed', attempts: 1, last_status_code: 503, last_error: 'Internal error while delivering', next_attempt_at: null });
  });

  it('a workflow run left running without an execution ends in error, with its event', async () => {
    // What a workflow run whose execution never started (or was forgotten) looks like: running, old.
    const id = p.ids.next('run');
    const createdAt = timestamp(new Date(Date.now() - 10 * 60_000));
    const data: WorkflowRunData = {
      id,
      workflow_id: 'wf_sweeper_test',
      workflow_version_id: 'draft',
      trigger: { type: 'api' },
      lifecycle: { status: 'running' },
      timing: { created_at: createdAt, started_at: createdAt, completed_at: null },
      inputs: { documents: {}, json_data: {} },
      outputs: {},
      metadata: {},
      _definition_key: `${caller.orgId}/${caller.envId}/workflow-runs/${id}/definition.json`,
      _outputs_key: null,
      _execution_arn: null,
    };
    await p.store.putRecord(caller, { type: WORKFLOW_RUN_TYPE, id, createdAt, status: 'running', attrs: { workflow_id: data.workflow_id }, data });

    // The default grace period (5 min): the record is older than that.
    const swept = await sweepStuckRecords(p, sweptRecords);
    expect(swept.ended).toEqual([{ type: WORKFLOW_RUN_TYPE, id, execution: 'MISSING' }]);
    const got = await cloud.api('GET', `/v1/workflows/runs/${id}`);
    expect(got.status, got.text).toBe(200);
    expect(got.body.lifecycle).toMatchObject({ status: 'error', message: LOST, category: 'permanent', details: { error_code: 'internal', execution_status: 'missing' } });
    expect(got.body.timing.completed_at).toEqual(expect.any(String));
    expect((await eventsOf('workflow.run.failed')).map((e) => e.data.id)).toContain(id);
  });
});

describe('the sweeper of the local runtime', () => {
  let cloud: TestCloud;
  beforeAll(async () => {
    cloud = await startTestCloud({ extraRoutes: probeRoutes, sweeper: { intervalMs: 100, graceMs: 500 } });
  });
  afterAll(() => cloud?.close());

  it('ends a run whose execution was stopped on its own, and leaves normal runs alone', async () => {
    const g = gate('periodic-sweep');
    const created = await cloud.api('POST', '/v1/probes', { body: { mode: 'gate', gate: 'periodic-sweep', background: true } });
    await g.reached.promise;
    await platform().runner.stop(executionArnOf(cloud.endpoints.runStateMachineArn, created.body.id), 'Stopped by the test');
    const failed = await until(async () => {
      const got = (await cloud.api('GET', `/v1/probes/${created.body.id}`)).body;
      return got.status === 'failed' ? got : undefined;
    }, 10_000, 'the periodic sweep to end the run');
    expect(failed.error).toMatchObject({ code: 'internal', message: LOST });
    g.open.resolve();

    // Runs created while it sweeps every 100 ms complete as usual.
    const runs = await Promise.all(Array.from({ length: 5 }, (_, i) => cloud.api('POST', '/v1/probes', { body: { text: `n${i}` } })));
    expect(runs.map((r) => r.body.status)).toEqual(Array(5).fill('completed'));
  });
});
