/**
 * The Runner port on Step Functions. Executions are named after the run id; Standard workflows make
 * a repeated start with the same name and input idempotent.
 */
import { DescribeExecutionCommand, ExecutionAlreadyExists, SFNClient, StartExecutionCommand, StopExecutionCommand } from '@aws-sdk/client-sfn';
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
  };
}
