/**
 * The task of a block execution (./block-executions.ts, kind ./kind.ts), in the run task Lambda:
 * the block run alone (./blocks.ts `runBlockAlone`, the code a workflow run uses for it) on the
 * inputs its step received in the source run. Its artifact is stored under the execution (never
 * among the source run's); its handle outputs are the execution's output.
 */
import { RunFailure, type PrimitiveErrorCode } from '../platform/errors.ts';
import { timestamp } from '../platform/ids.ts';
import type { RunContext, RunTask } from '../runs/kinds.ts';
import { readSecretValue } from '../secrets/service.ts';
import type { BlockExecutionData, BlockExecutionInput, BlockExecutionOutput } from './block-executions.ts';
import { aloneEnvironment, BlockFailure, runBlockAlone, type BlockEntry } from './blocks.ts';
import { secretNames } from './definition.ts';
import { blockExecutionKind } from './kind.ts';
import { artifactIdOf, putArtifact, type Handles } from './steps.ts';

const CODES: readonly PrimitiveErrorCode[] = ['document_invalid', 'document_unsupported', 'model_error', 'model_unavailable', 'timeout', 'missing_secret', 'configuration_error', 'internal'];

/** What reached the block in the source run, as `runBlockAlone` takes it (the handles runGraph wrote). */
export function entryOf(handles: Handles): BlockEntry {
  const document = handles.document?.type === 'file' ? handles.document.document : undefined;
  const sources = Object.entries(handles)
    .filter(([name, h]) => name.startsWith('input-') && h.type === 'json')
    .map(([name, h]) => [name.slice('input-'.length), (h as { data: unknown }).data] as const);
  const input = handles.input?.type === 'json' ? handles.input.data : sources.length ? Object.fromEntries(sources) : (document ?? null);
  return { input, document, ...(sources.length ? { sources } : {}) };
}

export const blockExecutionTask: RunTask = {
  kind: blockExecutionKind,
  async execute(ctx: RunContext) {
    const p = ctx.platform;
    const input = ctx.record._input as BlockExecutionInput;
    const startedAt = p.clock.now();
    await p.store.updateRecord<BlockExecutionData>(ctx.scope, blockExecutionKind.type, ctx.runId, { started_at: timestamp(startedAt) });
    const ended = async () => {
      const completedAt = p.clock.now();
      const times = { completed_at: timestamp(completedAt), duration_ms: Math.max(0, completedAt.getTime() - startedAt.getTime()) };
      await p.store.updateRecord<BlockExecutionData>(ctx.scope, blockExecutionKind.type, ctx.runId, times);
      return times;
    };

    let handles = input.handle_inputs;
    if (!handles && input.handle_inputs_key) {
      const bytes = await p.blobs.get(input.handle_inputs_key);
      handles = bytes ? (JSON.parse(Buffer.from(bytes).toString('utf8')) as Handles) : null;
    }
    if (!handles) throw new RunFailure('internal', `The inputs of block "${input.block.id}" in run ${input.source_run_id} are missing`);

    const secrets: Record<string, string> = {};
    try {
      for (const name of secretNames({ blocks: [input.block], edges: [] })) secrets[name] = (await readSecretValue(p, ctx.scope, name)).value;
    } catch {
      await ended();
      throw new RunFailure('missing_secret', `Block "${input.block.id}" references secrets that do not exist in this environment: ${secretNames({ blocks: [input.block], edges: [] }).join(', ')}`);
    }

    let result;
    try {
      result = await runBlockAlone(
        aloneEnvironment(ctx, { runId: ctx.runId, workflowId: input.workflow_id, workflowVersionId: input.workflow_version_id, secrets }),
        input.block,
        entryOf(handles),
      );
    } catch (error) {
      await ended();
      if (error instanceof BlockFailure) {
        const code = (CODES as readonly string[]).includes(error.code) ? (error.code as PrimitiveErrorCode) : 'configuration_error';
        throw new RunFailure(code, error.message, { block_id: error.blockId, error_code: error.code, ...error.details });
      }
      throw error;
    }

    let artifact: { operation: string; id: string } | null = null;
    if (result.artifact) {
      artifact = { operation: result.artifact.operation, id: artifactIdOf(ctx.runId, result.artifact.operation) };
      await putArtifact(p, ctx.scope, { ...artifact, run_id: ctx.runId, step_id: ctx.runId, block_id: input.block.id }, { ...result.artifact.body, source_run_id: input.source_run_id }, result.artifact.hidden);
    }
    const handleOutputs: Handles = { output: { type: 'json', data: result.output ?? null } };
    if (result.document) handleOutputs.document = { type: 'file', document: result.document };
    const usage = (result.artifact?.body as { usage?: { credits: number; page_count?: number } } | undefined)?.usage ?? { credits: 0 };
    const times = await ended();
    return {
      output: { handle_outputs: handleOutputs } satisfies BlockExecutionOutput,
      usage,
      fields: { ...times, artifact, routing_decisions: result.handle ? [result.handle] : null },
    };
  },
};
