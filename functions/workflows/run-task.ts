/**
 * The task handler of statemachines/workflow-run.asl.json: one Lambda, five steps.
 *   start        — secrets first: a referenced secret missing in the run's environment ends the run
 *                  at once (`error`, stage input_collection) before any block runs; else pending →
 *                  running. A run already running or awaiting review proceeds (a retry, or an
 *                  execution started again by the local runtime's recovery).
 *   execute      — runs the blocks (./blocks.ts) with the secrets resolved in memory only, reusing
 *                  the steps an earlier execution completed; writes the outputs to storage and
 *                  passes on their key, or the failing block's error, or `awaiting` when a review
 *                  gate fired (running → awaiting_review), or `rejected`.
 *   await_review — called by the AwaitReview state with its task token (`.waitForTaskToken`): notes
 *                  the token on the review and returns; the state machine then waits, no compute
 *                  running, until the decision sends the token back (./reviews.ts), and executes again.
 *   finish       — conditional → completed | error | cancelled (rejected); a run cancelled meanwhile stays cancelled.
 *   fail         — any uncaught failure (crash, timeout) → error.
 * Every end sends `workflow.run.completed|failed|cancelled` to the run's own environment, and the
 * start of a wait `workflow.run.awaiting_review`.
 */
import { logger } from '../platform/logger.ts';
import { platform, type Platform } from '../platform/platform.ts';
import type { Scope } from '../platform/ports.ts';
import { timestamp } from '../platform/ids.ts';
import { readSecretValue } from '../secrets/service.ts';
import { emitEvent } from '../webhooks/events.ts';
import { BlockFailure, executeRun } from './blocks.ts';
import { secretNames } from './definition.ts';
import { registerTaskToken } from './reviews.ts';
import { endWorkflowRun, outputsKeyOf, readWorkflowRun, toWireRun, type WorkflowRunData } from './runs.ts';
import { stepsOfRun } from './steps.ts';
import { WORKFLOW_RUN_TYPE, type Definition, type WorkflowRun } from './schema.ts';
import { missingSecrets } from './secrets.ts';

interface RunRef {
  orgId: string;
  envId: string;
  id: string;
}

type LifecycleError = Extract<WorkflowRun['lifecycle'], object>;
type Executed =
  | { outputsKey: string }
  | { failure: LifecycleError }
  | { skipped: true }
  | { awaiting: { review_id: string; block_id: string } }
  | { rejected: { review_id: string; block_id: string; reason: string } };

export type WorkflowTaskInput =
  | { step: 'start'; run: RunRef }
  | { step: 'execute'; run: RunRef }
  | { step: 'await_review'; run: RunRef; review_id: string; task_token: string }
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
      // Running (or waiting for a review) already: this start is a retry, or a resumed execution (local runtime restart).
      if (data.lifecycle.status === 'running' || data.lifecycle.status === 'awaiting_review') return { proceed: true };
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
      const live = (status: string) => status === 'running' || status === 'awaiting_review';
      if (!live(data.lifecycle.status)) return { skipped: true } satisfies Executed;
      const definition = await readDefinition(p, data);
      const secrets: Record<string, string> = {};
      for (const name of secretNames(definition)) secrets[name] = (await readSecretValue(p, scope, name)).value;
      const remaining = context?.getRemainingTimeInMillis() ?? 15 * 60_000;
      try {
        const outcome = await executeRun(
          {
            platform: p,
            scope,
            runId: id,
            workflowId: data.workflow_id,
            workflowVersionId: data.workflow_version_id,
            deadline: Date.now() + Math.max(1_000, remaining - DEADLINE_MARGIN_MS),
            secrets,
            allowPrivateUrls: p.config.allowPrivateUrls,
            stillWanted: async () => live((await readWorkflowRun(p, scope, id)).lifecycle.status),
            previous: new Map((await stepsOfRun(p, scope, id)).map((s) => [s.step_id, s])),
            onAwait: async (blockId) => {
              const moved = await p.store.moveStatus<WorkflowRunData>(scope, WORKFLOW_RUN_TYPE, id, ['running'], 'awaiting_review', {
                lifecycle: { status: 'awaiting_review', waiting_for_block_ids: [blockId] },
              });
              if (!moved) return;
              try {
                await emitEvent(p, scope, { type: 'workflow.run.awaiting_review', data: await toWireRun(p, moved.data, false) });
              } catch (error) {
                logger.error('workflow run event could not be emitted', { run_id: id, error_type: (error as Error).name });
              }
            },
            onResume: async () => {
              await p.store.moveStatus<WorkflowRunData>(scope, WORKFLOW_RUN_TYPE, id, ['awaiting_review'], 'running', { lifecycle: { status: 'running' } });
            },
          },
          definition,
          data.inputs,
        );
        if ('stopped' in outcome) return { skipped: true } satisfies Executed;
        if ('awaiting' in outcome) return { awaiting: outcome.awaiting } satisfies Executed;
        if ('rejected' in outcome) return { rejected: outcome.rejected } satisfies Executed;
        const outputsKey = outputsKeyOf(scope, id);
        await p.blobs.put(outputsKey, JSON.stringify(outcome.outputs), 'application/json');
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

    case 'await_review': {
      await registerTaskToken(p, scope, input.review_id, input.task_token);
      return { waiting: true };
    }

    case 'finish': {
      const executed = input.executed;
      if ('skipped' in executed || 'awaiting' in executed) return { finished: false };
      if ('rejected' in executed) return { finished: await endWorkflowRun(p, scope, id, { status: 'cancelled', reason: executed.rejected.reason }) };
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
