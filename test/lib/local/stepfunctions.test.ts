import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import {
  DescribeExecutionCommand,
  ExecutionAlreadyExists,
  ExecutionDoesNotExist,
  InvalidExecutionInput,
  ListExecutionsCommand,
  SFNClient,
  StartExecutionCommand,
  StateMachineDoesNotExist,
  StopExecutionCommand,
  type DescribeExecutionCommandOutput,
} from '@aws-sdk/client-sfn';
import { startLocalStepFunctions, type LocalStepFunctions } from '../../../lib/local/stepfunctions.ts';

const lambda = (name: string) => `arn:aws:lambda:us-east-1:000000000000:function:${name}`;

/** Each test installs the behaviour of the Lambda ARNs it uses. */
type Handler = (input: unknown, order: { started(): void }) => Promise<unknown>;
const handlers = new Map<string, Handler>();
/** Resources whose handler says itself when its task got a container (the others start at once). */
const waitForContainer = new Set<string>();
const calls: { resource: string; input: unknown }[] = [];

function callsTo(name: string) {
  return calls.filter((c) => c.resource === lambda(name));
}

function deferred<T = unknown>() {
  let resolve!: (value: T) => void;
  let reject!: (reason: unknown) => void;
  const promise = new Promise<T>((res, rej) => {
    resolve = res;
    reject = rej;
  });
  return { promise, resolve, reject };
}

class NamedError extends Error {
  constructor(name: string, message: string) {
    super(message);
    this.name = name;
  }
}

const stateMachines = {
  classify: {
    StartAt: 'Classify',
    States: {
      Classify: { Type: 'Task', Resource: lambda('classify'), ResultPath: '$.kind', TimeoutSeconds: 5, Next: 'Route' },
      Route: {
        Type: 'Choice',
        Choices: [{ Variable: '$.kind', StringEquals: 'invoice', Next: 'Extract' }],
        Default: 'Unknown',
      },
      Unknown: { Type: 'Fail', Error: 'UnknownKind', Cause: 'not an invoice' },
      Extract: {
        Type: 'Task',
        Resource: lambda('extract'),
        Parameters: { 'doc.$': '$.doc', 'kind.$': '$.kind' },
        TimeoutSeconds: 5,
        End: true,
      },
    },
  },
  caught: {
    StartAt: 'Work',
    States: {
      Work: {
        Type: 'Task',
        Resource: lambda('throws'),
        TimeoutSeconds: 5,
        Catch: [{ ErrorEquals: ['States.ALL'], ResultPath: '$.error', Next: 'Recovered' }],
        End: true,
      },
      Recovered: { Type: 'Pass', End: true },
    },
  },
  uncaught: {
    StartAt: 'Work',
    States: { Work: { Type: 'Task', Resource: lambda('throws'), TimeoutSeconds: 5, End: true } },
  },
  retried: {
    StartAt: 'Flaky',
    States: {
      Flaky: {
        Type: 'Task',
        Resource: lambda('flaky'),
        TimeoutSeconds: 5,
        Retry: [{ ErrorEquals: ['TransientError'], IntervalSeconds: 1, MaxAttempts: 2 }],
        End: true,
      },
    },
  },
  timeout: {
    StartAt: 'Slow',
    States: {
      Slow: {
        Type: 'Task',
        Resource: lambda('slow'),
        TimeoutSeconds: 1,
        Catch: [{ ErrorEquals: ['States.Timeout'], ResultPath: '$.error', Next: 'TimedOut' }],
        End: true,
      },
      TimedOut: { Type: 'Pass', End: true },
    },
  },
  waited: {
    StartAt: 'Queued',
    States: { Queued: { Type: 'Task', Resource: lambda('queued'), TimeoutSeconds: 1, End: true } },
  },
  overall: {
    TimeoutSeconds: 1,
    StartAt: 'Long',
    States: { Long: { Type: 'Task', Resource: lambda('long'), TimeoutSeconds: 30, End: true } },
  },
  blocking: {
    StartAt: 'Block',
    States: {
      Block: {
        Type: 'Task',
        Resource: lambda('block'),
        TimeoutSeconds: 30,
        Retry: [{ ErrorEquals: ['States.ALL'], IntervalSeconds: 1, MaxAttempts: 3 }],
        Next: 'After',
      },
      After: { Type: 'Task', Resource: lambda('after'), TimeoutSeconds: 5, End: true },
    },
  },
  nested: {
    StartAt: 'Both',
    States: {
      Both: {
        Type: 'Parallel',
        Branches: [
          { StartAt: 'Left', States: { Left: { Type: 'Task', Resource: lambda('left'), TimeoutSeconds: 5, End: true } } },
          {
            StartAt: 'Each',
            States: {
              Each: {
                Type: 'Map',
                ItemsPath: '$.items',
                ItemProcessor: {
                  StartAt: 'Item',
                  States: { Item: { Type: 'Task', Resource: lambda('item'), TimeoutSeconds: 5, End: true } },
                },
                End: true,
              },
            },
          },
        ],
        End: true,
      },
    },
  },
};

let sfn: LocalStepFunctions;
let client: SFNClient;

beforeAll(async () => {
  sfn = await startLocalStepFunctions({
    stateMachines,
    invokeTask: async (resource, input, order) => {
      calls.push({ resource, input });
      const handler = handlers.get(resource);
      if (!handler) throw new Error(`no handler for ${resource}`);
      if (!waitForContainer.has(resource)) order.started();
      return handler(input, order);
    },
  });
  client = new SFNClient({
    endpoint: sfn.endpoint,
    region: 'us-east-1',
    credentials: { accessKeyId: 'x', secretAccessKey: 'x' },
  });
});

afterAll(async () => {
  client?.destroy();
  await sfn?.close();
});

let counter = 0;
async function start(machine: keyof typeof stateMachines, input: unknown, name = `run_${++counter}`) {
  return client.send(
    new StartExecutionCommand({ stateMachineArn: sfn.stateMachineArn(machine), name, input: JSON.stringify(input) }),
  );
}

async function describe_(executionArn: string) {
  return client.send(new DescribeExecutionCommand({ executionArn }));
}

/** Runs an execution to its end and describes it. */
async function runToEnd(machine: keyof typeof stateMachines, input: unknown) {
  const { executionArn } = await start(machine, input);
  await sfn.whenSettled(executionArn!);
  return describe_(executionArn!);
}

/** Polls DescribeExecution (as a caller would) until the execution has left RUNNING. */
async function pollUntilClosed(executionArn: string): Promise<DescribeExecutionCommandOutput> {
  const deadline = Date.now() + 4000;
  for (;;) {
    const execution = await describe_(executionArn);
    if (execution.status !== 'RUNNING') return execution;
    if (Date.now() > deadline) throw new Error(`${executionArn} still RUNNING`);
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
}

describe('local Step Functions endpoint', () => {
  beforeEach(() => {
    handlers.clear();
    calls.length = 0;
  });

  it('installs Promise.withResolvers (aws-local-stepfunctions needs it on Node 20)', () => {
    expect(typeof (Promise as unknown as { withResolvers?: unknown }).withResolvers).toBe('function');
  });

  it('runs Task -> Choice -> Task to SUCCEEDED, passing state inputs to the task resources', async () => {
    handlers.set(lambda('classify'), async () => 'invoice');
    handlers.set(lambda('extract'), async (input) => ({ extracted: true, input }));

    const { executionArn, startDate } = await start('classify', { doc: 'doc_1' }, 'run_classify');
    expect(executionArn).toBe('arn:aws:states:us-east-1:000000000000:execution:classify:run_classify');
    expect(startDate).toBeInstanceOf(Date);
    await sfn.whenSettled(executionArn!);
    const execution = await describe_(executionArn!);

    expect(execution).toMatchObject({
      executionArn,
      stateMachineArn: 'arn:aws:states:us-east-1:000000000000:stateMachine:classify',
      name: 'run_classify',
      status: 'SUCCEEDED',
      input: '{"doc":"doc_1"}',
    });
    expect(JSON.parse(execution.output!)).toEqual({ extracted: true, input: { doc: 'doc_1', kind: 'invoice' } });
    expect(execution.startDate!.getTime()).toBe(startDate!.getTime());
    expect(execution.stopDate!.getTime()).toBeGreaterThanOrEqual(execution.startDate!.getTime());
    expect(calls.map((c) => c.resource)).toEqual([lambda('classify'), lambda('extract')]);
    expect(calls[0]!.input).toEqual({ doc: 'doc_1' });
    // The library's validator writes into definitions; ours must be left alone.
    expect(JSON.stringify(stateMachines)).not.toContain('QueryLanguage');
  });

  it('takes the Choice default into a Fail state: FAILED with its error and cause', async () => {
    handlers.set(lambda('classify'), async () => 'receipt');
    const execution = await runToEnd('classify', { doc: 'doc_2' });
    expect(execution).toMatchObject({ status: 'FAILED', error: 'UnknownKind', cause: 'not an invoice' });
    expect(execution.output).toBeUndefined();
    expect(callsTo('extract')).toHaveLength(0);
  });

  it('catches a task error into ResultPath with a Lambda-shaped Cause', async () => {
    handlers.set(lambda('throws'), async () => {
      throw new NamedError('PermanentError', 'the document is encrypted');
    });
    const execution = await runToEnd('caught', { run: 'run_x' });

    expect(execution.status).toBe('SUCCEEDED');
    const output = JSON.parse(execution.output!);
    expect(output.run).toBe('run_x');
    expect(output.error.Error).toBe('PermanentError');
    expect(JSON.parse(output.error.Cause)).toEqual({
      errorType: 'PermanentError',
      errorMessage: 'the document is encrypted',
    });
  });

  it('fails the execution with the task error when nothing catches it', async () => {
    handlers.set(lambda('throws'), async () => {
      throw new TypeError('boom');
    });
    const execution = await runToEnd('uncaught', {});
    expect(execution.status).toBe('FAILED');
    expect(execution.error).toBe('TypeError');
    expect(JSON.parse(execution.cause!)).toEqual({ errorType: 'TypeError', errorMessage: 'boom' });
  });

  it('StopExecution marks a running execution ABORTED at once and ignores the late task result', async () => {
    const started = deferred();
    const release = deferred();
    handlers.set(lambda('block'), () => {
      started.resolve(undefined);
      return release.promise;
    });
    handlers.set(lambda('after'), async () => 'after');
    const { executionArn } = await start('blocking', {});
    await started.promise;
    expect((await describe_(executionArn!)).status).toBe('RUNNING');

    const { stopDate } = await client.send(
      new StopExecutionCommand({ executionArn, error: 'Cancelled', cause: 'cancelled by the user' }),
    );
    expect(stopDate).toBeInstanceOf(Date);
    const stopped = await describe_(executionArn!);
    expect(stopped).toMatchObject({ status: 'ABORTED', error: 'Cancelled', cause: 'cancelled by the user' });

    release.resolve({ late: true });
    await sfn.whenSettled(executionArn!);
    const after = await describe_(executionArn!);
    expect(after.status).toBe('ABORTED');
    expect(after.output).toBeUndefined();
    expect(after.stopDate!.getTime()).toBe(stopped.stopDate!.getTime());
    expect(callsTo('after')).toHaveLength(0);
  });

  it('does not retry a task that fails after its execution was stopped', async () => {
    const started = deferred();
    const release = deferred();
    handlers.set(lambda('block'), () => {
      started.resolve(undefined);
      return release.promise;
    });
    const { executionArn } = await start('blocking', {});
    await started.promise;
    await client.send(new StopExecutionCommand({ executionArn }));

    release.reject(new NamedError('TransientError', 'late failure'));
    await sfn.whenSettled(executionArn!);
    expect((await describe_(executionArn!)).status).toBe('ABORTED');
    expect(callsTo('block')).toHaveLength(1);
  });

  it('maps Task states inside Parallel branches and Map item processors', async () => {
    handlers.set(lambda('left'), async () => 'left');
    handlers.set(lambda('item'), async (input) => `item:${String(input)}`);
    const execution = await runToEnd('nested', { items: ['a', 'b'] });
    expect(execution.status).toBe('SUCCEEDED');
    expect(JSON.parse(execution.output!)).toEqual(['left', ['item:a', 'item:b']]);
  });

  it('is idempotent by name and input while running; refuses other input, and any start once closed', async () => {
    const release = deferred();
    handlers.set(lambda('block'), () => release.promise);
    handlers.set(lambda('after'), async () => 'done');

    const first = await start('blocking', { run: 'run_same' }, 'run_same');
    const again = await start('blocking', { run: 'run_same' }, 'run_same');
    expect(again.executionArn).toBe(first.executionArn);
    expect(again.startDate!.getTime()).toBe(first.startDate!.getTime());
    await expect(start('blocking', { run: 'other' }, 'run_same')).rejects.toBeInstanceOf(ExecutionAlreadyExists);

    release.resolve('ok');
    await sfn.whenSettled(first.executionArn!);
    expect((await describe_(first.executionArn!)).status).toBe('SUCCEEDED');
    // As on AWS: a closed execution's name cannot be reused, whatever the input.
    await expect(start('blocking', { run: 'run_same' }, 'run_same')).rejects.toBeInstanceOf(ExecutionAlreadyExists);
    expect(callsTo('block')).toHaveLength(1);
  });

  it('answers unknown executions, unknown state machines and bad input with the SDK error types', async () => {
    const missing = client.send(
      new DescribeExecutionCommand({
        executionArn: 'arn:aws:states:us-east-1:000000000000:execution:classify:nope',
      }),
    );
    await expect(missing).rejects.toBeInstanceOf(ExecutionDoesNotExist);
    await expect(missing).rejects.toMatchObject({ name: 'ExecutionDoesNotExist', $metadata: { httpStatusCode: 400 } });

    await expect(
      client.send(
        new StopExecutionCommand({ executionArn: 'arn:aws:states:us-east-1:000000000000:execution:classify:nope' }),
      ),
    ).rejects.toBeInstanceOf(ExecutionDoesNotExist);
    await expect(
      client.send(new StartExecutionCommand({ stateMachineArn: sfn.stateMachineArn('nope'), name: 'run_1' })),
    ).rejects.toBeInstanceOf(StateMachineDoesNotExist);
    await expect(
      client.send(
        new StartExecutionCommand({ stateMachineArn: sfn.stateMachineArn('classify'), name: 'run_bad', input: '{' }),
      ),
    ).rejects.toBeInstanceOf(InvalidExecutionInput);
  });

  it('lists executions of a state machine, newest first, filtered by status', async () => {
    handlers.set(lambda('throws'), async () => {
      throw new Error('x');
    });
    const a = await runToEnd('uncaught', {});
    const b = await runToEnd('uncaught', {});
    const listed = await client.send(
      new ListExecutionsCommand({ stateMachineArn: sfn.stateMachineArn('uncaught'), statusFilter: 'FAILED' }),
    );
    const arns = listed.executions!.map((e) => e.executionArn);
    expect(arns.indexOf(b.executionArn)).toBeLessThan(arns.indexOf(a.executionArn));
    expect(listed.executions!.every((e) => e.status === 'FAILED')).toBe(true);
  });
});

// These wait on real one-second timers (AWS's minimum interval and timeout), so they run side by side;
// each uses its own task resources.
describe.concurrent('local Step Functions endpoint: timed states', () => {
  it('retries a named error, then succeeds', async () => {
    let attempts = 0;
    handlers.set(lambda('flaky'), async () => {
      attempts += 1;
      if (attempts === 1) throw new NamedError('TransientError', 'throttled');
      return { ok: true, attempts };
    });
    const execution = await runToEnd('retried', {});
    expect(execution.status).toBe('SUCCEEDED');
    expect(JSON.parse(execution.output!)).toEqual({ ok: true, attempts: 2 });
  });

  it('times a slow task out with States.Timeout, which a Catch can handle', async () => {
    const release = deferred();
    handlers.set(lambda('slow'), () => release.promise);
    const { executionArn } = await start('timeout', { run: 'slow' });

    const execution = await pollUntilClosed(executionArn!);
    expect(execution.status).toBe('SUCCEEDED');
    expect(JSON.parse(execution.output!).error.Error).toBe('States.Timeout');

    // The abandoned task failing later changes nothing (and is no unhandled rejection).
    release.reject(new Error('late failure'));
    await sfn.whenSettled(executionArn!);
    expect((await describe_(executionArn!)).output).toBe(execution.output);
  });

  it("counts a Task state's TimeoutSeconds from when its task gets a container, not while it waits for one", async () => {
    waitForContainer.add(lambda('queued'));
    let waitedMs = 0;
    handlers.set(lambda('queued'), async (_input, order) => {
      // Waits 1.5 s for a container (the local runtime runs a few tasks at once), then takes 0.2 s.
      const queued = Date.now();
      await new Promise((resolve) => setTimeout(resolve, 1500));
      waitedMs = Date.now() - queued;
      order.started();
      await new Promise((resolve) => setTimeout(resolve, 200));
      return { done: true };
    });
    const execution = await runToEnd('waited', {});
    expect(waitedMs).toBeGreaterThan(1000); // longer than the state's TimeoutSeconds
    expect(execution.status).toBe('SUCCEEDED');
    expect(JSON.parse(execution.output!)).toEqual({ done: true });
  });

  it('ends an execution past its own TimeoutSeconds as TIMED_OUT', async () => {
    const release = deferred();
    handlers.set(lambda('long'), () => release.promise);
    const { executionArn } = await start('overall', {});

    const execution = await pollUntilClosed(executionArn!);
    expect(execution.status).toBe('TIMED_OUT');
    release.resolve('late');
    await sfn.whenSettled(executionArn!);
    expect((await describe_(executionArn!)).status).toBe('TIMED_OUT');
  });
});

describe('closing the local Step Functions endpoint', () => {
  it('aborts running executions and releases its port', async () => {
    const release = deferred();
    const started = deferred();
    const first = await startLocalStepFunctions({
      stateMachines: { blocking: stateMachines.blocking },
      invokeTask: () => {
        started.resolve(undefined);
        return release.promise;
      },
    });
    const firstClient = new SFNClient({
      endpoint: first.endpoint,
      region: 'us-east-1',
      credentials: { accessKeyId: 'x', secretAccessKey: 'x' },
    });
    const { executionArn } = await firstClient.send(
      new StartExecutionCommand({ stateMachineArn: first.stateMachineArn('blocking'), name: 'run_close' }),
    );
    await started.promise;
    const port = Number(new URL(first.endpoint).port);

    await first.close(); // with the client's keep-alive socket still open
    firstClient.destroy();
    release.resolve('late');
    await first.whenSettled(executionArn!);

    const second = await startLocalStepFunctions({ port, stateMachines: {}, invokeTask: async () => null });
    expect(second.endpoint).toBe(first.endpoint);
    await second.close();
  });
});
