/**
 * The two kinds of run of this feature, on the run kit (functions/runs/): an eval run (a batch of a
 * workflow's evals) and an experiment run (one block over an experiment's documents). Their records
 * are run kit records (status queued → in_progress → completed | failed | cancelled, the sweeper,
 * cancel and `<kind>.completed|failed` webhook events); `present` gives them the SDK's shape.
 */
import type { RunStatus } from '../platform/schemas.ts';
import type { RunKind } from '../runs/kinds.ts';
import { lifecycleOfRun, timingOf } from './common.ts';

export const EVAL_RUN_TYPE = 'workflow_eval_run';
export const EXPERIMENT_RUN_TYPE = 'workflow_experiment_run';

export const EMPTY_EVAL_COUNTS = {
  lifecycle_counts: { pending: 0, queued: 0, running: 0, completed: 0, error: 0, cancelled: 0 },
  outcome: { passed: 0, failed: 0, blocked: 0 },
};
export type EvalCounts = typeof EMPTY_EVAL_COUNTS;

type Wire = Record<string, unknown> & { id: string; status: RunStatus; error: unknown; created_at: string };

/** An eval run as the SDK reads it (WorkflowEvalRun). */
export function evalRunWire(w: Wire): Record<string, unknown> {
  return {
    id: w.id,
    workflow_id: w.workflow_id,
    workflow_version_id: w.workflow_version_id,
    trigger: w.trigger ?? { type: 'api' },
    lifecycle: lifecycleOfRun(w.status, w.error),
    timing: timingOf(w.created_at, w.started_at as string | null, w.completed_at as string | null),
    target: w.target ?? null,
    eval_id: w.eval_id ?? null,
    total_evals: w.total_evals ?? 0,
    counts: w.counts ?? EMPTY_EVAL_COUNTS,
    freshness: { status: 'unknown', reasons: [], validity_fingerprint: null, input_fingerprint: null, baseline_run_id: null },
  };
}

/** An experiment run as the SDK reads it (ExperimentRun). */
export function experimentRunWire(w: Wire): Record<string, unknown> {
  return {
    id: w.id,
    workflow_id: w.workflow_id,
    workflow_version_id: w.workflow_version_id,
    trigger: w.trigger ?? { type: 'api' },
    experiment_id: w.experiment_id,
    block_id: w.block_id,
    block_type: w.block_type,
    n_consensus: w.n_consensus,
    lifecycle: lifecycleOfRun(w.status, w.error),
    timing: timingOf(w.created_at, w.started_at as string | null, w.completed_at as string | null),
    parent_run_id: w.parent_run_id ?? null,
    block_version_id: w.block_version_id ?? null,
    metrics_validity_fingerprint: w.metrics_validity_fingerprint ?? null,
    metrics_validity_fingerprint_version: w.metrics_validity_fingerprint_version ?? null,
    block_execution_fingerprint: w.block_execution_fingerprint,
    documents_fingerprint: w.documents_fingerprint,
    score: w.score ?? null,
    total_document_count: w.total_document_count ?? 0,
    completed_document_count: w.completed_document_count ?? 0,
    document_count: w.document_count ?? 0,
    error_count: w.error_count ?? 0,
  };
}

export const evalRunKind: RunKind = {
  name: EVAL_RUN_TYPE,
  type: EVAL_RUN_TYPE,
  idPrefix: 'evr',
  resource: 'Workflow eval run',
  emptyOutput: {},
  present: (wire) => evalRunWire(wire as Wire),
};

export const experimentRunKind: RunKind = {
  name: EXPERIMENT_RUN_TYPE,
  type: EXPERIMENT_RUN_TYPE,
  idPrefix: 'expr',
  resource: 'Experiment run',
  emptyOutput: {},
  present: (wire) => experimentRunWire(wire as Wire),
};
