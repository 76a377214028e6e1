/**
 * Wire types of workflow evals and experiments (API §9.5, the Retab SDK's `workflows.evals` and
 * `workflows.experiments`). Request bodies keep their nulls (a JSON input may hold null, `equals`
 * may expect null): a top-level null field is "not given" all the same. Assertions are checked by
 * ./assertions.ts (every problem located), not here: the schema only says it is an object.
 */
import * as z from 'zod';
import { DocumentInput, FileRef } from '../platform/schemas.ts';

const Page = {
  limit: z.coerce.number().int().min(1).max(100).default(10),
  order: z.enum(['asc', 'desc']).default('desc'),
  before: z.string().optional(),
  after: z.string().optional(),
};
const Obj = z.record(z.string(), z.unknown());

// ── Handle inputs (what reaches the block: a document, JSON) ─────────────────────────────────────

export const JsonHandle = z.object({ type: z.literal('json'), data: z.unknown().optional() });
export const FileHandle = z.object({ type: z.literal('file'), document: DocumentInput });
export const HandleInput = z.discriminatedUnion('type', [JsonHandle, FileHandle]).meta({ id: 'EvalHandleInput' });
export const HandleInputs = z.record(z.string().min(1).max(200), HandleInput);
export type HandleInputs = z.infer<typeof HandleInputs>;
/** As stored and answered: files as FileRefs. */
export type StoredHandle = { type: 'json'; data: unknown } | { type: 'file'; document: FileRef };
export type StoredHandles = Record<string, StoredHandle>;

// ── Evals ───────────────────────────────────────────────────────────────────────────────────────

export const BlockTarget = z.object({ type: z.literal('block').default('block'), block_id: z.string().min(1).max(100) });
export const ManualSource = z.object({ type: z.literal('manual'), handle_inputs: HandleInputs.nullish() });
export const RunStepSource = z.object({ type: z.literal('run_step'), run_id: z.string().min(1), step_id: z.string().min(1).nullish() });
export const Source = z.discriminatedUnion('type', [ManualSource, RunStepSource]).meta({ id: 'WorkflowEvalSource' });
export type Source = z.infer<typeof Source>;
const Name = z.string().trim().min(1, 'must not be empty').max(200, 'must be at most 200 characters');

export const CreateEvalBody = z.object({
  workflow_id: z.string().min(1),
  target: BlockTarget,
  source: Source,
  assertion: Obj.describe('{id?, target: {output_handle_id, path?}, condition: {kind, ...}, label?} (API §9.5)'),
  name: Name.nullish(),
});
export const UpdateEvalBody = z.object({ name: Name.nullish(), assertion: Obj.nullish(), source: Source.nullish() });
export const ListEvalsQuery = z.object({ ...Page, workflow_id: z.string().min(1), target_block_id: z.string().optional() });
export const EvalIdParams = z.object({ eval_id: z.string() });

const Loose = (id: string) => z.object({ id: z.string() }).loose().meta({ id });
export const WorkflowEval = Loose('WorkflowEval');

// ── Eval runs and results ───────────────────────────────────────────────────────────────────────

/** The SDK's lifecycle names; `queued` and `failed` are accepted for queued and error. */
export const LifecycleFilter = z.enum(['pending', 'queued', 'running', 'completed', 'error', 'failed', 'cancelled']);
export type LifecycleFilter = z.infer<typeof LifecycleFilter>;
export const TRIGGER_TYPES = ['manual', 'api', 'schedule', 'webhook', 'email', 'custom', 'restart'] as const;

export const EvalRunScope = z.discriminatedUnion('type', [
  z.object({ type: z.literal('workflow') }),
  z.object({ type: z.literal('block'), block_id: z.string().min(1) }),
  z.object({ type: z.literal('single'), eval_id: z.string().min(1) }),
]);
export const CreateEvalRunBody = z.object({ workflow_id: z.string().min(1), scope: EvalRunScope.nullish() });
const RunFilters = {
  ...Page,
  workflow_id: z.string().optional(),
  status: LifecycleFilter.optional(),
  exclude_status: LifecycleFilter.optional(),
  trigger_type: z.enum(TRIGGER_TYPES).optional(),
  from_date: z.string().optional().describe('YYYY-MM-DD (start of that UTC day) or RFC 3339'),
  to_date: z.string().optional().describe('YYYY-MM-DD (end of that UTC day) or RFC 3339'),
  sort_by: z.enum(['created_at']).default('created_at').describe('Runs are listed by creation time (order asc|desc)'),
};
export const ListEvalRunsQuery = z.object({ ...RunFilters, eval_id: z.string().optional(), target_block_id: z.string().optional() });
export const RunIdParams = z.object({ run_id: z.string() });
export const WorkflowEvalRun = Loose('WorkflowEvalRun');
export const ListResultsQuery = z.object({ ...Page, run_id: z.string().min(1) });
export const ResultIdParams = z.object({ result_id: z.string() });
export const WorkflowEvalResult = Loose('WorkflowEvalResult');

// ── Experiments ─────────────────────────────────────────────────────────────────────────────────

export const N_CONSENSUS = [1, 3, 5, 7] as const;
const NConsensus = z
  .number()
  .int()
  .refine((n) => (N_CONSENSUS as readonly number[]).includes(n), { message: `n_consensus must be one of ${N_CONSENSUS.join(', ')}` });
export const DocumentCapture = z.object({ run_id: z.string().min(1), step_id: z.string().min(1).nullish() });
export const ExplicitDocument = z.object({
  handle_inputs: HandleInputs,
  provenance: z.object({ run_id: z.string().nullish(), step_id: z.string().nullish() }).nullish(),
});
export const MAX_EXPERIMENT_DOCUMENTS = 200;
export const CreateExperimentBody = z.object({
  workflow_id: z.string().min(1),
  block_id: z.string().min(1).nullish(),
  document_captures: z.array(DocumentCapture).max(MAX_EXPERIMENT_DOCUMENTS).nullish(),
  documents: z.array(ExplicitDocument).max(MAX_EXPERIMENT_DOCUMENTS).nullish(),
  n_consensus: NConsensus.nullish(),
  name: Name.nullish(),
  source_experiment_id: z.string().min(1).nullish(),
});
export const UpdateExperimentBody = z.object({
  document_captures: z.array(DocumentCapture).max(MAX_EXPERIMENT_DOCUMENTS).nullish(),
  documents: z.array(ExplicitDocument).max(MAX_EXPERIMENT_DOCUMENTS).nullish(),
  n_consensus: NConsensus.nullish(),
  name: Name.nullish(),
});
export const ListExperimentsQuery = z.object({ ...Page, workflow_id: z.string().min(1), block_id: z.string().optional() });
export const ExperimentIdParams = z.object({ experiment_id: z.string() });
export const WorkflowExperiment = Loose('WorkflowExperiment');

export const CreateExperimentRunBody = z.object({ experiment_id: z.string().min(1), workflow_id: z.string().nullish(), plan_token: z.string().nullish() });
export const ListExperimentRunsQuery = z.object({ ...RunFilters, experiment_id: z.string().optional(), block_id: z.string().optional() });
export const ExperimentRun = Loose('ExperimentRun');
export const CancelExperimentRunResponse = z.object({ id: z.string(), lifecycle: z.object({ status: z.string() }).loose() }).meta({ id: 'CancelWorkflowExperimentRunResponse' });
export const ExperimentResult = Loose('ExperimentResult');

export const METRICS_VIEWS = ['summary', 'by_document', 'by_target', 'votes'] as const;
export const MetricsQuery = z.object({
  run_id: z.string().min(1),
  view: z.enum(METRICS_VIEWS).default('summary'),
  document_id: z.string().optional(),
  target_path: z.string().max(500).optional(),
  include_prior: z
    .enum(['true', 'false'])
    .default('false')
    .transform((v) => v === 'true'),
  prior_run_id: z.string().optional(),
});
export const ExperimentMetrics = z.object({ kind: z.string() }).loose().meta({ id: 'ExperimentMetrics' });
