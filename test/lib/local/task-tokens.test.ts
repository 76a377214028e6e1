/**
 * The local Step Functions' callback pattern (lib/local/stepfunctions.ts TaskTokens), the part of it
 * Quire uses: a `lambda:invoke.waitForTaskToken` Task invokes `FunctionName` with the token in its
 * Payload and waits until SendTaskSuccess (its output is the state's result) or SendTaskFailure (the
 * state fails with that error, a Catch takes it); a token nobody waits on is TaskDoesNotExist; a
 * stopped execution's waiting task ends.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DescribeExecutionCommand, SendTaskFailureCommand, SendTaskSuccessCommand, SFNClient, StartExecutionCommand, StopExecutionCommand } from '@aws-sdk/client-sfn';
import { startLocalStepFunctions, type LocalStepFunctions } from '../../../lib/local/stepfunctions.ts';

const FN = 'arn:aws:lambda:us-east-1:000000000000:function:waiter';
const tokens: string[] = [];
let sfn: LocalStepFunctions;
let client: SFNClient;

const machine = {
  StartAt: 'Wait',
  States: {
    Wait: {
      Type: 'Task',
      Resource: 'arn:aws:states:::lambda:invoke.waitForTaskToken',
      Parameters: { FunctionName: FN, Payload: { 'who.$': '$.who', 'token.$': '$$.Task.Token' } },
      ResultPath: '$.answer',
      TimeoutSeconds: 60,
      Catch: [{ ErrorEquals: ['States.ALL'], ResultPath: '$.error', Next: 'Caught' }],
      End: true,
    },
    Caught: { Type: 'Pass', End: true },
  },
};

beforeAll(async () => {
  sfn = await startLocalStepFunctions({
    stateMachines: { waiting: machine },
    invokeTask: async (resource, input, order) => {
      order?.started();
      if (resource !== FN) throw new Error(`unexpected ${resource}`);
      tokens.push((input as { token: string }).token);
      return { ignored: true };
    },
  });
  client = new SFNClient({ region: 'us-east-1', endpoint: sfn.endpoint, credentials: { accessKeyId: 'x', secretAccessKey: 'x' } });
});
afterAll(async () => {
  client?.destroy();
  await sfn?.close();
});

async function start(who: string) {
  const before = tokens.length;
  const { executionArn } = await client.send(new StartExecutionCommand({ stateMachineArn: sfn.stateMachineArn('waiting'), name: who, input: JSON.stringify({ who }) }));
  for (let i = 0; tokens.length === before; i++) {
    if (i > 500) throw new Error('the task was not invoked');
    await new Promise((r) => setTimeout(r, 10));
  }
  return { arn: executionArn!, token: tokens.at(-1)! };
}

const describeOf = (arn: string) => client.send(new DescribeExecutionCommand({ executionArn: arn }));

describe('task tokens in the local Step Functions', () => {
  it('wait with no result until SendTaskSuccess, whose output becomes the result', async () => {
    const { arn, token } = await start('alice');
    expect(token).not.toContain('local-task-token-of');
    await new Promise((r) => setTimeout(r, 100));
    expect((await describeOf(arn)).status).toBe('RUNNING');
    await client.send(new SendTaskSuccessCommand({ taskToken: token, output: JSON.stringify({ verdict: 'approved' }) }));
    await sfn.whenSettled(arn);
    const done = await describeOf(arn);
    expect(done.status).toBe('SUCCEEDED');
    expect(JSON.parse(done.output!)).toEqual({ who: 'alice', answer: { verdict: 'approved' } });
    // Used once: the token is gone.
    await expect(client.send(new SendTaskSuccessCommand({ taskToken: token, output: '{}' }))).rejects.toMatchObject({ name: 'TaskDoesNotExist' });
  });

  it('fail the state on SendTaskFailure (a Catch takes it); drop the tokens of a stopped execution', async () => {
    const failed = await start('bob');
    await client.send(new SendTaskFailureCommand({ taskToken: failed.token, error: 'Rejected', cause: 'not ours' }));
    await sfn.whenSettled(failed.arn);
    expect(JSON.parse((await describeOf(failed.arn)).output!)).toMatchObject({ error: { Error: 'Rejected' } });

    const stopped = await start('carol');
    await client.send(new StopExecutionCommand({ executionArn: stopped.arn }));
    await sfn.whenSettled(stopped.arn);
    expect((await describeOf(stopped.arn)).status).toBe('ABORTED');
    await expect(client.send(new SendTaskSuccessCommand({ taskToken: stopped.token, output: '{}' }))).rejects.toMatchObject({ name: 'TaskDoesNotExist' });
    await expect(client.send(new SendTaskSuccessCommand({ taskToken: 'made-up', output: '{}' }))).rejects.toMatchObject({ name: 'TaskDoesNotExist' });
  });
});
