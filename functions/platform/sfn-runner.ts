/**
 * The Runner port on Step Functions. Executions are named after the run id; Standard workflows make
 * a repeated start with the same name and input idempotent.
 */
import {
  DescribeExecutionCommand,
  ExecutionAlreadyExists,
  SendTaskFailureCommand,
  SendTaskSuccessCommand,
  SFNClient,
  StartExecutionCommand,
  StopExecutionCommand,
} from '@aws-sdk/client-sfn';
import type { ExecutionStatus, MachineName, Runner } from './ports.ts';

export function executionArnOf(stateMachineArn: string, name: string): string {
  return `${stateMachineArn.replace(':stateMachine:', ':execution:')}:${name}`;
}

export function sfnRunner(client: SFNClient, stateMachines: Record<MachineName, string>): Runner {
  return {
    async start(machine, execution) {
      const stateMachineArn = stateMachines[machine];
      if (!stateMachineArn) throw new Error(`Configuration error: no state machine ARN for ${machine}`);
      try {
        const out = await client.send(
          new StartExecutionCommand({ stateMachineArn, name: execution.name, input: JSON.stringify(execution.input) }),
        );
        return out.executionArn ?? executionArnOf(stateMachineArn, execution.name);
      } catch (error) {
        if (error instanceof ExecutionAlreadyExists) return executionArnOf(stateMachineArn, execution.name);
        throw error;
      }
    },

    async stop(executionArn, cause) {
      try {
        await client.send(new StopExecutionCommand({ executionArn, cause }));
      } catch (error) {
        // Already ended or never started: a stop is best effort, the conditional status write is what counts.
        const name = (error as { name?: string }).name;
        if (name !== 'ExecutionDoesNotExist' && name !== 'InvalidArn') throw error;
      }
    },

    async executionStatus(machine, name) {
      const stateMachineArn = stateMachines[machine];
      if (!stateMachineArn) throw new Error(`Configuration error: no state machine ARN for ${machine}`);
      try {
        const out = await client.send(new DescribeExecutionCommand({ executionArn: executionArnOf(stateMachineArn, name) }));
        return (out.status ?? 'MISSING') as ExecutionStatus;
      } catch (error) {
        if ((error as { name?: string }).name === 'ExecutionDoesNotExist') return 'MISSING';
        throw error;
      }
    },

    async sendTaskSuccess(token, output) {
      return taskGone(() => client.send(new SendTaskSuccessCommand({ taskToken: token, output: JSON.stringify(output ?? null) })));
    },

    async sendTaskFailure(token, error, cause) {
      return taskGone(() => client.send(new SendTaskFailureCommand({ taskToken: token, error, cause })));
    },
  };
}

/** Errors saying that no task waits on a token any more: the answer is false, not an error. */
const GONE_TASK_ERRORS = new Set(['TaskDoesNotExist', 'TaskTimedOut', 'InvalidToken']);

async function taskGone(send: () => Promise<unknown>): Promise<boolean> {
  try {
    await send();
    return true;
  } catch (error) {
    if (GONE_TASK_ERRORS.has((error as { name?: string }).name ?? '')) return false;
    throw error;
  }
}
