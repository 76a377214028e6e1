/**
 * The tasks of eval runs and experiment runs (the run kit's task Lambda runs them,
 * statemachines/run.asl.json). Each runs its items (evals, documents) one after the other on the
 * workflow version the run was created on: the target block alone (functions/workflows/blocks.ts
 * `runBlockAlone`: the code a workflow run uses for that block, no step, no review gate) on the
 * item's handle inputs, its artifact kept under the run (GET /v1/workflows/artifacts/{id},
 * `?run_id=` lists a run's), then the assertion (evals) or the votes' metrics (experiments). Each
 * item's result is written as it ends and the run's progress with it; between items the task stops
 * when the run was cancelled, and when its time budget runs out the items left end `error`
 * (timeout) and the run completes with what it has.
 */
import { ModelFailure } from '../models/engine.ts';
import { Invalid, RunFailure } from '../platform/errors.ts';
import { timestamp } from '../platform/ids.ts';
import type { Platform } from '../platform/platform.ts';
import type { Scope } from '../platform/ports.ts';
import type { RunData } from '../runs/service.ts';
import type { RunContext, RunTask } from '../runs/kinds.ts';
import { readSecretValue } from '../secrets/service.ts';
import { aloneEnvironment, BlockFailure, runBlockAlone, type BlockResult } from '../workflows/blocks.ts';
import { secretNames, type RunBlock } from '../workflows/definition.ts';
import { draftGraph } from '../workflows/graph.ts';
import { definitionFor, readWorkflow } from '../workflows/service.ts';
import { artifactIdOf, putArtifact } from '../workflows/steps.ts';
import { missingSecrets } from '../workflows/secrets.ts';
import { evaluateAssertion, type HandlePayload } from './assertions.ts';
import { blockExecutionFingerprint, capturedHandles, entryOf, fingerprintOf, type Lifecycle } from './common.ts';
import { countsOf, ensureEvalResults, evalResultIdOf, moveEvalResult, resultsOfRun, type EvalResultData, type EvalRunInput } from './eval-runs.ts';
import { EVAL_TYPE, sourceFingerprintOf, validityFingerprintOf, type EvalData, type RunSummary } from './evals.ts';
import { ensureExperimentResults, experimentResultIdOf, moveExperimentResult, progressOf, resultsOfExperimentRun, type ExperimentRunInput } from './experiment-runs.ts';
import { readDocuments } from './experiments.ts';
import { judgeOf } from './judge.ts';
import { EVAL_RUN_TYPE, evalRunKind, EXPERIMENT_RUN_TYPE, experimentRunKind } from './kind.ts';
import { documentMetrics } from './metrics.ts';
import type { StoredHandles } from './schema.ts';

/** What is kept in hand at the end of the task's budget to write the results left. */
const MARGIN_MS = 15_000;

interface Definition {
  blocks: RunBlock[];
}

/** The workflow version a run was created on (the draft then); a run of a deleted workflow fails. */
async function definitionOfRun(p: Platform, scope: Scope, record: Record<string, unknown>): Promise<Definition> {
  const workflow = await readWorkflow(p, scope, record.workflow_id as string).catch(() => {
    throw new RunFailure('configuration_error', `Workflow ${record.workflow_id as string} no longer exists`);
  });
  const versionId = record.workflow_version_id as string;
  if (!versionId.startsWith('ver_')) return draftGraph(workflow);
  const { definition } = await definitionFor(p, scope, workflow, versionId, ['workflow_version_id']);
  return definition;
}

/** The values of the secrets the blocks reference; those missing are named. */
async function secretsOf(p: Platform, scope: Scope, blocks: RunBlock[]): Promise<{ values: Record<string, string>; missing: string[] }> {
  const names = secretNames({ blocks, edges: [] });
  const missing = await missingSecrets(p, scope, names);
  const values: Record<string, string> = {};
  for (const name of names) if (!missing.includes(name)) values[name] = (await readSecretValue(p, scope, name)).value;
  return { values, missing };
}

type Ran = { ok: true; result: BlockResult; outputs: StoredHandles; artifact: { operation: string; id: string } | null; credits: number } | { ok: false; lifecycle: Extract<Lifecycle, { status: 'error' }> };

const errorOf = (message: string, code: string, blockId: string | null, context: Record<string, unknown> | null = null): Extract<Lifecycle, { status: 'error' }> => ({
  status: 'error',
  message,
  details: { message, block_id: blockId, error_code: code, context },
});

/** Runs the block alone on the handles and keeps its artifact under the run (`itemId` as its step). */
async function runOne(ctx: RunContext, block: RunBlock, handles: StoredHandles, itemId: string, secrets: Record<string, string>, workflowId: string, versionId: string): Promise<Ran> {
  const p = ctx.platform;
  let result: BlockResult;
  try {
    result = await runBlockAlone(
      aloneEnvironment(ctx, { runId: itemId, workflowId, workflowVersionId: versionId, secrets }),
      block,
      entryOf(handles) as never,
    );
  } catch (error) {
    if (error instanceof BlockFailure) return { ok: false, lifecycle: errorOf(error.message, error.code, error.blockId, error.details) };
    if (error instanceof Invalid) return { ok: false, lifecycle: errorOf(`Block ${block.id} cannot run on these inputs: ${error.message}`, 'configuration_error', block.id) };
    if (error instanceof RunFailure || error instanceof ModelFailure) return { ok: false, lifecycle: errorOf(error.message, error.code, block.id) };
    return { ok: false, lifecycle: errorOf(`Block ${block.id} failed unexpectedly (${(error as Error).name})`, 'internal', block.id) };
  }
  const outputs: StoredHandles = { output: { type: 'json', data: result.output ?? null } };
  if (result.document) outputs.document = { type: 'file', document: result.document };
  let artifact: { operation: string; id: string } | null = null;
  let credits = 0;
  if (result.artifact) {
    artifact = { operation: result.artifact.operation, id: artifactIdOf(itemId, result.artifact.operation) };
    await putArtifact(p, ctx.scope, { ...artifact, run_id: ctx.runId, step_id: itemId, block_id: block.id }, result.artifact.body, result.artifact.hidden);
    const usage = result.artifact.body.usage as { credits?: number } | undefined;
    credits = typeof usage?.credits === 'number' ? usage.credits : 0;
  }
  return { ok: true, result, outputs, artifact, credits };
}

const roundCredits = (x: number) => Math.round(x * 1000) / 1000;

// ── Eval runs ───────────────────────────────────────────────────────────────────────────────────

export const evalRunTask: RunTask = {
  kind: evalRunKind,
  async execute(ctx) {
    const p = ctx.platform;
    const { scope, runId, record } = ctx;
    const now = () => timestamp(p.clock.now());
    await p.store.moveStatus<RunData>(scope, EVAL_RUN_TYPE, runId, ['in_progress'], 'in_progress', { started_at: now() });
    const definition = await definitionOfRun(p, scope, record);
    const workflowId = record.workflow_id as string;
    const versionId = record.workflow_version_id as string;
    const evalIds = (record._input as EvalRunInput).eval_ids;
    const evals = new Map<string, EvalData>();
    for (const id of evalIds) {
      const found = await p.store.getRecord<EvalData>(scope, EVAL_TYPE, id);
      if (found) evals.set(id, found.data);
    }
    const blockOf = (e: EvalData | undefined) => (e ? definition.blocks.find((b) => b.id === e.target.block_id) : undefined);
    await ensureEvalResults(p, scope, { id: runId, created_at: record.created_at as string, workflow_id: workflowId, workflow_version_id: versionId }, evalIds.map((id) => ({ id, target: evals.get(id)?.target ?? { type: 'block', block_id: 'unknown' }, block_type: blockOf(evals.get(id))?.type ?? 'unknown' })));
    const targets = [...new Set([...evals.values()].map(blockOf).filter((b): b is RunBlock => b !== undefined))];
    const secrets = await secretsOf(p, scope, targets);
    const judge = judgeOf(ctx.deadline);
    let credits = 0;

    // Where each result stands, kept here as the task moves them: the run's counts without reading them back.
    const states = new Map((await resultsOfRun(p, scope, runId)).map((r) => [r.id, { lifecycle: r.lifecycle, verdict: r.verdict }]));
    const progress = async () => {
      await p.store.moveStatus<RunData>(scope, EVAL_RUN_TYPE, runId, ['in_progress'], 'in_progress', { counts: countsOf([...states.values()]) });
    };

    for (const evalId of evalIds) {
      if (!(await ctx.stillWanted())) break;
      const resultId = evalResultIdOf(runId, evalId);
      const ref = { id: resultId, workflow_eval_run_id: runId };
      if (Date.now() > ctx.deadline - MARGIN_MS) {
        const lifecycle = errorOf('The eval run ran out of time before this eval', 'timeout', null);
        if (await moveEvalResult(p, scope, ref, { lifecycle, completed_at: now() })) states.set(resultId, { lifecycle, verdict: null });
        continue;
      }
      const ended = async (patch: Partial<EvalResultData> & { lifecycle: Lifecycle }, handles?: { handle_inputs: StoredHandles; handle_outputs: StoredHandles | null }) => {
        if (await moveEvalResult(p, scope, ref, { completed_at: now(), ...patch }, handles)) states.set(resultId, { lifecycle: patch.lifecycle, verdict: patch.verdict ?? null });
        await progress();
      };
      const data = evals.get(evalId);
      if (!data) {
        await ended({ lifecycle: errorOf(`Workflow eval ${evalId} was deleted before it ran`, 'eval_deleted', null) });
        continue;
      }
      const block = blockOf(data);
      if (!block) {
        await ended({ lifecycle: errorOf(`Block ${data.target.block_id} is not in the workflow version this run is on (${versionId})`, 'block_missing', data.target.block_id) });
        continue;
      }
      const startedAt = now();
      if (await moveEvalResult(p, scope, ref, { lifecycle: { status: 'running' }, started_at: startedAt, block_type: block.type })) states.set(resultId, { lifecycle: { status: 'running' }, verdict: null });
      await progress();
      let handles: StoredHandles;
      try {
        handles = data.source.type === 'manual' ? data.source.handle_inputs : (await capturedHandles(p, scope, workflowId, block.id, data.source.run_id, data.source.step_id, ['source'])).handles;
      } catch (error) {
        if (!(error instanceof Invalid)) throw error;
        await ended({ lifecycle: errorOf(`The eval's inputs cannot be read: ${error.issues.map((i) => i.msg).join('; ')}`, 'input_unavailable', block.id) });
        continue;
      }
      const blockSecrets = secretNames({ blocks: [block], edges: [] }).filter((n) => secrets.missing.includes(n));
      const fingerprints = {
        handle_inputs_fingerprint: fingerprintOf(handles),
        block_execution_fingerprint: blockExecutionFingerprint(block),
        execution_fingerprint: fingerprintOf({ block: blockExecutionFingerprint(block), inputs: fingerprintOf(handles) }),
      };
      if (blockSecrets.length) {
        await ended({ ...fingerprints, lifecycle: errorOf(`Block ${block.id} references secrets that do not exist in this environment: ${blockSecrets.join(', ')}`, 'missing_secret', block.id, { missing_secrets: blockSecrets }) }, { handle_inputs: handles, handle_outputs: null });
        continue;
      }
      const ran = await runOne(ctx, block, handles, resultId, secrets.values, workflowId, versionId);
      const completedAt = now();
      let summary: RunSummary;
      const base = {
        run_record_id: runId,
        started_at: startedAt,
        completed_at: completedAt,
        duration_ms: Math.max(0, Date.parse(completedAt) - Date.parse(startedAt)),
        workflow_draft_fingerprint: versionId,
        block_execution_fingerprint: fingerprints.block_execution_fingerprint,
        validity_fingerprint: validityFingerprintOf(block, data.assertion),
        handle_inputs_fingerprint: fingerprints.handle_inputs_fingerprint,
        _source_fingerprint: sourceFingerprintOf(data.source),
      };
      if (!ran.ok) {
        await ended({ ...fingerprints, lifecycle: ran.lifecycle }, { handle_inputs: handles, handle_outputs: null });
        summary = { ...base, status: 'error', outcome: null, assertions_passed: 0, assertions_failed: 0, blocked_assertions: 0 };
      } else {
        credits += ran.credits;
        const schema = block.config.json_schema;
        const assertion = await evaluateAssertion(data.assertion, ran.outputs as Record<string, HandlePayload>, {
          blockSchema: block.type === 'extract' && schema && typeof schema === 'object' ? (schema as Record<string, unknown>) : undefined,
          ...judge,
        });
        const outcome = assertion.outcome;
        const verdictSummary = {
          passed: outcome === 'passed',
          assertions_passed: outcome === 'passed' ? 1 : 0,
          assertions_failed: outcome === 'failed' ? 1 : 0,
          blocked_assertions: outcome === 'blocked' ? 1 : 0,
          failed_assertion_ids: outcome === 'failed' ? [assertion.assertion_id] : [],
        };
        await ended(
          { ...fingerprints, lifecycle: { status: 'completed' }, verdict: outcome, artifact: ran.artifact, routing_decisions: ran.result.handle ? [ran.result.handle] : null, assertion_result: assertion, verdict_summary: verdictSummary },
          { handle_inputs: handles, handle_outputs: ran.outputs },
        );
        summary = { ...base, status: 'completed', outcome, assertions_passed: verdictSummary.assertions_passed, assertions_failed: verdictSummary.assertions_failed, blocked_assertions: verdictSummary.blocked_assertions };
      }
      // The eval's latest results (an eval deleted meanwhile is left alone).
      if (await ctx.stillWanted()) {
        await p.store.updateRecord<EvalData>(scope, EVAL_TYPE, evalId, {
          latest_run_summary: summary,
          ...(summary.outcome === 'passed' ? { latest_passing_run_summary: summary } : summary.outcome === 'failed' ? { latest_failing_run_summary: summary } : {}),
        });
      }
    }
    const counts = countsOf([...states.values()]);
    return { output: { counts }, usage: { credits: roundCredits(credits) }, fields: { counts, completed_at: now() } };
  },
};

// ── Experiment runs ─────────────────────────────────────────────────────────────────────────────

export const experimentRunTask: RunTask = {
  kind: experimentRunKind,
  async execute(ctx) {
    const p = ctx.platform;
    const { scope, runId, record } = ctx;
    const now = () => timestamp(p.clock.now());
    await p.store.moveStatus<RunData>(scope, EXPERIMENT_RUN_TYPE, runId, ['in_progress'], 'in_progress', { started_at: now() });
    const definition = await definitionOfRun(p, scope, record);
    const workflowId = record.workflow_id as string;
    const versionId = record.workflow_version_id as string;
    const blockType = record.block_type as string;
    const found = definition.blocks.find((b) => b.id === record.block_id);
    if (!found || found.type !== blockType) throw new RunFailure('configuration_error', `Block ${record.block_id as string} (${blockType}) is not in the workflow version this run is on (${versionId})`);
    // The block with the experiment's number of votes.
    const block: RunBlock = { ...found, config: { ...found.config, n_consensus: record.n_consensus as number } };
    const documents = await readDocuments(p, (record._input as ExperimentRunInput).documents_key);
    await ensureExperimentResults(p, scope, { id: runId, created_at: record.created_at as string, experiment_id: record.experiment_id as string, block_type: blockType }, documents);
    const secrets = await secretsOf(p, scope, [block]);
    if (secrets.missing.length) throw new RunFailure('missing_secret', `Block ${block.id} references secrets that do not exist in this environment: ${secrets.missing.join(', ')}`, { missing_secrets: secrets.missing });
    let credits = 0;
    const scores = new Map<string, number | null>();

    const states = new Map((await resultsOfExperimentRun(p, scope, runId)).map((r) => [r.id, { lifecycle: r.lifecycle }]));
    const move = async (ref: { id: string; experiment_run_id: string }, patch: Parameters<typeof moveExperimentResult>[3] & { lifecycle: Lifecycle }, extra?: Parameters<typeof moveExperimentResult>[4]) => {
      if (await moveExperimentResult(p, scope, ref, patch, extra)) states.set(ref.id, { lifecycle: patch.lifecycle });
    };
    const progress = async () => {
      await p.store.moveStatus<RunData>(scope, EXPERIMENT_RUN_TYPE, runId, ['in_progress'], 'in_progress', progressOf([...states.values()], [...scores.values()]));
    };

    for (const doc of documents) {
      if (!(await ctx.stillWanted())) break;
      const resultId = experimentResultIdOf(runId, doc.id);
      const ref = { id: resultId, experiment_run_id: runId };
      if (Date.now() > ctx.deadline - MARGIN_MS) {
        await move(ref, { lifecycle: errorOf('The experiment run ran out of time before this document', 'timeout', null), completed_at: now() });
        continue;
      }
      await move(ref, { lifecycle: { status: 'running' }, started_at: now() });
      await progress();
      const ran = await runOne(ctx, block, doc.handle_inputs, resultId, secrets.values, workflowId, versionId);
      if (!ran.ok) {
        await move(ref, { lifecycle: ran.lifecycle, completed_at: now() });
      } else {
        credits += ran.credits;
        const consensus = ran.result.artifact?.body.consensus as { choices?: unknown[] } | undefined;
        const { metrics, votes } = documentMetrics(blockType, ran.result.output, Array.isArray(consensus?.choices) ? consensus.choices : []);
        scores.set(doc.id, metrics.score);
        await move(ref, { lifecycle: { status: 'completed' }, completed_at: now(), artifact: ran.artifact }, { handles: { handle_inputs: doc.handle_inputs, handle_outputs: ran.outputs }, metrics, votes });
      }
      await progress();
    }
    const fields = progressOf([...states.values()], [...scores.values()]);
    return { output: {}, usage: { credits: roundCredits(credits) }, fields: { ...fields, completed_at: now() } };
  },
};
