/**
 * The task handler of statemachines/workflow-run.asl.json: one Lambda, four steps.
 *   start   — secrets first: a referenced secret missing in the run's environment ends the run at once
 *             (`error`, stage input_collection) before any block runs; else pending → running.
 *   execute — runs the blocks (./blocks.ts) with the secrets resolved in memory only, writes the
 *             outputs to storage and passes on their key, or the failing block's error.
 *   finish  — conditional running → completed | error; a run cancelled meanwhile stays cancelled.
 *   fail    — any uncaught failure (crash, timeout) → error.
 * Every end sends `workflow.run.completed|failed` to the run's own environment.
 */
import { logger } from '../platform/logger.ts';
import { platform, type Platform } from '../platform/platform.ts';
import type { Scope } from '../platform/ports.ts';
import { timestamp } from '../platform/ids.ts';
import { readSecretValue } from '../secrets/service.ts';
import { BlockFailure, runBlocks } from './blocks.ts';
import { secretNames } from './definition.ts';
import { endWorkflowRun, outputsKeyOf, readWorkflowRun, type WorkflowRunData } from './runs.ts';
import { WORKFLOW_RUN_TYPE, type Definition, type WorkflowRun } from './schema.ts';
import { missingSecrets } from './secrets.ts';

interface RunRef {
  orgId: string;
  envId: string;
  id: string;
}

type LifecycleError = Extract<WorkflowRun['lifecycle'], object>;
type Executed = { outputsKey: string } | { failure: LifecycleError } | { skipped: true };

export type WorkflowTaskInput =
  | { step: 'start'; run: RunRef }
  | { step: 'execute'; run: RunRef }
  | { step: 'finish'; run: RunRef; executed: Executed }
  | { step: 'fail'; run: RunRef; error: { Error?: string; Cause?: string } };

const DEADLINE_MARGIN_MS = 10_000;

async function readDefinition(p: Platform, data: WorkflowRunData): Promise<Definition> {
  const bytes = await p.blobs.get(data._definition_key);
  if (!bytes) throw new Error('The run definition is missing');
  return JSON.parse(Buffer.from(bytes).toString('utf8')) as Definition;
}

export async function handler(input: WorkflowTaskInput, context?: { getRemainingTimeInMillis(): number }): Promise<unknown> {
  const p = platform();
  const scope: Scope = { orgId: input.run.orgId, envId: input.run.envId };
  const id = input.run.id;
  logger.appendKeys({ run_id: id, step: input.step, kind: 'workflow_run' });
  switch (input.step) {
    case 'start': {
      const data = await readWorkflowRun(p, scope, id);
      // Running already: this start is a retry, or a resumed execution (local runtime restart).
      if (data.lifecycle.status === 'running') return { proceed: true };
      if (data.lifecycle.status !== 'pending') return { proceed: false };
      const missing = await missingSecrets(p, scope, secretNames(await readDefinition(p, data)));
      if (missing.length) {
        await endWorkflowRun(p, scope, id, {
          status: 'error',
          message: `The workflow references secrets that do not exist in this environment: ${missing.join(', ')}`,
          stage: 'input_collection',
          category: 'permanent',
          details: { error_code: 'missing_secret', missing_secrets: missing },
        });
        return { proceed: false };
      }
      const moved = await p.store.moveStatus<WorkflowRunData>(scope, WORKFLOW_RUN_TYPE, id, ['pending'], 'running', {
        lifecycle: { status: 'running' },
        timing: { ...data.timing, started_at: timestamp(p.clock.now()) },
      });
      return { proceed: moved !== undefined };
    }

    case 'execute': {
      const data = await readWorkflowRun(p, scope, id);
      if (data.lifecycle.status !== 'running') return { skipped: true } satisfies Executed;
      const definition = await readDefinition(p, data);
      const secrets: Record<string, string> = {};
      for (const name of secretNames(definition)) secrets[name] = (await readSecretValue(p, scope, name)).value;
      const remaining = context?.getRemainingTimeInMillis() ?? 15 * 60_000;
      try {
        const outputs = await runBlocks(
          {
            platform: p,
            scope,
            runId: id,
            deadline: Date.now() + Math.max(1_000, remaining - DEADLINE_MARGIN_MS),
            secrets,
            allowPrivateUrls: p.config.allowPrivateUrls,
            stillWanted: async () => (await readWorkflowRun(p, scope, id)).lifecycle.status === 'running',
          },
          definition,
          data.inputs,
        );
        const outputsKey = outputsKeyOf(scope, id);
        await p.blobs.put(outputsKey, JSON.stringify(outputs), 'application/json');
        return { outputsKey } satisfies Executed;
      } catch (error) {
        if (!(error instanceof BlockFailure)) throw error;
        const failure: LifecycleError = {
          status: 'error',
          message: error.message,
          stage: 'block_execution',
          category: error.category,
          details: { block_id: error.blockId, error_code: error.code, ...error.details },
        };
        return { failure } satisfies Executed;
      }
    }

    case 'finish': {
      const executed = input.executed;
      if ('skipped' in executed) return { finished: false };
      if ('failure' in executed) return { finished: await endWorkflowRun(p, scope, id, executed.failure) };
      const finished = await endWorkflowRun(p, scope, id, { status: 'completed' }, { _outputs_key: executed.outputsKey });
      if (!finished) await p.blobs.delete(executed.outputsKey);
      return { finished };
    }

    case 'fail': {
      const timedOut = input.error.Error === 'States.Timeout' || input.error.Error === 'Sandbox.Timedout';
      logger.error('workflow run failed', { error_name: input.error.Error });
      const finished = await endWorkflowRun(p, scope, id, {
        status: 'error',
        message: timedOut ? 'The run exceeded its time budget' : `The run failed unexpectedly (${input.error.Error ?? 'Error'})`,
        stage: 'block_execution',
        category: timedOut ? 'transient' : 'permanent',
        details: { error_code: timedOut ? 'timeout' : 'internal' },
      });
      return { finished };
    }
  }
}
