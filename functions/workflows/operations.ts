import * as z from 'zod';
import { operation } from '../platform/operation.ts';
import { listEnvelope, ListQueryParams } from '../platform/schemas.ts';
import {
  CancelRunResponse,
  CreateRunBody,
  CreateWorkflowBody,
  ListRunsQuery,
  RunIdParams,
  WorkflowRun,
  Definition,
  Draft,
  ExportBundle,
  ExportQuery,
  ListWorkflowsQuery,
  PatchWorkflowBody,
  Promotion,
  PromotionBody,
  PublishBody,
  Version,
  Workflow,
  WorkflowIdParams,
  RunStatusFilter,
  TRIGGER_TYPES,
} from './schema.ts';

const tags = ['workflows'];
const VersionsQuery = z.object({
  limit: z.coerce.number().int().min(1).max(100).default(10),
  order: z.enum(['asc', 'desc']).default('desc'),
  before: z.string().optional(),
  after: z.string().optional(),
});

export const workflowOperations = {
  create: operation({ summary: 'Create a workflow in a project', auth: 'api_key', body: CreateWorkflowBody, status: 201, response: Workflow, tags }),
  list: operation({ summary: 'List workflows', auth: 'api_key', query: ListWorkflowsQuery, status: 200, response: listEnvelope(Workflow), tags }),
  get: operation({ summary: 'Get a workflow (metadata only)', auth: 'api_key', params: WorkflowIdParams, status: 200, response: Workflow, tags }),
  patch: operation({ summary: 'Rename or describe a workflow', auth: 'api_key', params: WorkflowIdParams, body: PatchWorkflowBody, status: 200, response: Workflow, tags }),
  delete: operation({ summary: 'Delete a workflow', auth: 'api_key', params: WorkflowIdParams, status: 204, tags }),
  getDraft: operation({ summary: "Get a workflow's draft definition", auth: 'api_key', params: WorkflowIdParams, status: 200, response: Draft, tags }),
  putDraft: operation({ summary: "Replace a workflow's draft definition (validated)", auth: 'api_key', params: WorkflowIdParams, body: Definition, status: 200, response: Draft, tags }),
  publish: operation({ summary: 'Publish the draft as a new immutable version', auth: 'api_key', params: WorkflowIdParams, body: PublishBody, status: 200, response: Workflow, tags }),
  versions: operation({ summary: 'List published versions', auth: 'api_key', params: WorkflowIdParams, query: VersionsQuery, status: 200, response: listEnvelope(Version), tags }),
  export: operation({ summary: 'Export a version for promotion', auth: 'api_key', params: WorkflowIdParams, query: ExportQuery, status: 200, response: ExportBundle, tags }),
  createRun: operation({ summary: 'Run a workflow (on Step Functions)', auth: 'api_key', body: CreateRunBody, status: 201, response: WorkflowRun, tags }),
  listRuns: operation({ summary: 'List workflow runs', auth: 'api_key', query: ListRunsQuery, status: 200, response: listEnvelope(WorkflowRun), tags }),
  getRun: operation({ summary: 'Get a workflow run', auth: 'api_key', params: RunIdParams, status: 200, response: WorkflowRun, tags }),
  cancelRun: operation({ summary: 'Cancel a workflow run', auth: 'api_key', params: RunIdParams, status: 200, response: CancelRunResponse, tags }),
  promote: operation({ summary: 'Import an export into this environment (idempotent)', auth: 'api_key', body: PromotionBody, status: 201, response: Promotion, tags }),
};

// ── The graph, versions, spec, steps, artifacts and reviews (the Retab SDK's workflow routes) ───

/** Every list's paging, and its creation-date bounds (checked: a date that is none is a 422). */
const Page = ListQueryParams.omit({ filename: true });
const Obj = z.record(z.string(), z.unknown());
const WorkflowScope = z.object({ workflow_id: z.string().optional() });
const id = (name: string) => z.object({ [name]: z.string() });
const Loose = (name: string) => z.object({ id: z.string() }).loose().meta({ id: name });
const list = (item: z.ZodType) => listEnvelope(item);
const ConfigMode = z.enum(['merge', 'replace']).nullable().optional();

const Block = Loose('WorkflowBlock');
const Edge = Loose('WorkflowEdge');
const BlockVersion = Loose('WorkflowBlockVersion');
const EdgeVersion = Loose('WorkflowEdgeVersion');
const GraphVersion = Loose('WorkflowGraphVersion');
const Step = z.object({ step_id: z.string(), block_id: z.string(), run_id: z.string() }).loose().meta({ id: 'WorkflowRunStep' });
const Artifact = z.object({ id: z.string(), operation: z.string() }).loose().meta({ id: 'WorkflowArtifact' });
const Review = Loose('Review');
const ReviewVersion = Loose('ReviewVersion');
const Decision = z.object({ submission_status: z.enum(['accepted', 'already_applied', 'conflict']), review: Review, resume_status: z.enum(['resumed', 'pending', 'failed', 'skipped']), resume_error: z.string().nullable() }).meta({ id: 'SubmitDecisionResponse' });
const FieldDiff = z.object({ field: z.string(), from_value: z.unknown(), to_value: z.unknown() });
const SpecBody = z.object({ yaml_definition: z.string(), project_id: z.string().optional() });
const Plan = z.object({ workflow_id: z.string(), action: z.enum(['create', 'update', 'noop']) }).loose().meta({ id: 'DeclarativePlanResponse' });
const BlockBody = z.object({
  label: z.string().max(200).nullable().optional(),
  position_x: z.number().nullable().optional(),
  position_y: z.number().nullable().optional(),
  width: z.number().nullable().optional(),
  height: z.number().nullable().optional(),
  config: Obj.nullable().optional(),
  parent_id: z.string().nullable().optional(),
});

const Handle = z.union([z.object({ type: z.literal('json'), data: z.unknown() }), z.object({ type: z.literal('file'), document: z.object({ id: z.string(), filename: z.string(), mime_type: z.string() }).loose() })]);
const BlockExecution = z
  .object({
    id: z.string(),
    workflow_id: z.string(),
    workflow_version_id: z.string(),
    source_run_id: z.string(),
    block_id: z.string(),
    block_type: z.string(),
    lifecycle: z.union([
      z.object({ status: z.enum(['pending', 'queued', 'running', 'completed']) }),
      z.object({ status: z.literal('error'), message: z.string() }),
      z.object({ status: z.enum(['cancelled', 'skipped']), reason: z.string() }),
    ]),
    handle_inputs: z.record(z.string(), Handle).nullable(),
    artifact: z.object({ operation: z.string(), id: z.string() }).nullable(),
    handle_outputs: z.record(z.string(), Handle).nullable(),
    routing_decisions: z.array(z.string()).nullable(),
    duration_ms: z.number().nullable(),
    created_at: z.string(),
    started_at: z.string().optional(),
    completed_at: z.string().optional(),
    handle_inputs_fingerprint: z.string(),
    workflow_draft_fingerprint: z.string(),
    block_execution_fingerprint: z.string(),
    execution_fingerprint: z.string(),
    block_config: Obj.nullable(),
    source_step_id: z.string().nullable(),
    available_iterations: z.array(Obj).nullable(),
  })
  .meta({ id: 'StoredBlockExecution' });
const CreateBlockExecutionBody = z.object({
  run_id: z.string().min(1),
  block_id: z.string().min(1),
  step_id: z.string().min(1).optional(),
  n_consensus: z
    .number()
    .int()
    .refine((n) => n === 3 || n === 5 || n === 7, 'n_consensus must be 3, 5 or 7')
    .optional(),
  check_eligibility: z.boolean().default(true),
});

export const graphOperations = {
  listBlocks: operation({ summary: "List a workflow's blocks (its draft)", auth: 'api_key', query: Page.extend({ workflow_id: z.string() }), status: 200, response: list(Block), tags }),
  createBlock: operation({ summary: 'Add a block to the draft', auth: 'api_key', body: BlockBody.extend({ workflow_id: z.string(), type: z.string(), id: z.string().min(1).max(100).nullable().optional() }), status: 201, response: Block, tags }),
  getBlock: operation({ summary: 'Get a block', auth: 'api_key', params: id('block_id'), query: WorkflowScope, status: 200, response: Block, tags }),
  updateBlock: operation({ summary: 'Change a block (config_mode merge: null deletes a key; replace)', auth: 'api_key', params: id('block_id'), query: WorkflowScope, body: BlockBody.extend({ config_mode: ConfigMode }), keepNulls: true, status: 200, response: Block, tags }),
  deleteBlock: operation({ summary: 'Delete a block (and its edges)', auth: 'api_key', params: id('block_id'), query: WorkflowScope, status: 204, tags }),
  validateBlockConfig: operation({ summary: 'Check a block config without storing it', auth: 'api_key', params: id('block_id'), query: WorkflowScope, body: z.object({ config: Obj, config_mode: ConfigMode }), keepNulls: true, status: 200, response: z.object({ ok: z.boolean(), workflow_id: z.string(), block_id: z.string(), block_type: z.string(), config_hash: z.string() }), tags }),
  listBlockVersions: operation({ summary: 'List block versions', auth: 'api_key', query: Page.extend({ workflow_id: z.string(), block_id: z.string().optional(), workflow_version_id: z.string().optional() }), status: 200, response: list(BlockVersion), tags }),
  diffBlockVersions: operation({ summary: 'Compare two versions of a block', auth: 'api_key', query: z.object({ from_block_version_id: z.string(), to_block_version_id: z.string() }), status: 200, response: z.object({ block_id: z.string(), changes: z.array(FieldDiff) }).loose(), tags }),
  getBlockVersion: operation({ summary: 'Get a block version', auth: 'api_key', params: id('block_version_id'), status: 200, response: BlockVersion, tags }),
  restoreBlockVersion: operation({ summary: "Restore a block version into the draft", auth: 'api_key', params: id('block_version_id'), status: 200, response: Block, tags }),
  listEdges: operation({ summary: "List a workflow's edges", auth: 'api_key', query: Page.extend({ workflow_id: z.string(), source_block: z.string().optional(), target_block: z.string().optional() }), status: 200, response: list(Edge), tags }),
  createEdge: operation({ summary: 'Connect two blocks', auth: 'api_key', body: z.object({ workflow_id: z.string(), source_block: z.string(), target_block: z.string(), id: z.string().min(1).max(100).optional(), source_handle: z.string().optional(), target_handle: z.string().optional() }), status: 201, response: Edge, tags }),
  getEdge: operation({ summary: 'Get an edge', auth: 'api_key', params: id('edge_id'), query: WorkflowScope, status: 200, response: Edge, tags }),
  deleteEdge: operation({ summary: 'Delete an edge', auth: 'api_key', params: id('edge_id'), status: 204, tags }),
  listEdgeVersions: operation({ summary: 'List edge versions', auth: 'api_key', query: Page.extend({ workflow_id: z.string(), edge_id: z.string().optional(), workflow_version_id: z.string().optional() }), status: 200, response: list(EdgeVersion), tags }),
  diffEdgeVersions: operation({ summary: 'Compare two versions of an edge', auth: 'api_key', query: z.object({ from_edge_version_id: z.string(), to_edge_version_id: z.string() }), status: 200, response: z.object({ edge_id: z.string(), changes: z.array(FieldDiff) }).loose(), tags }),
  getEdgeVersion: operation({ summary: 'Get an edge version', auth: 'api_key', params: id('edge_version_id'), status: 200, response: EdgeVersion, tags }),
  restoreEdgeVersion: operation({ summary: 'Restore an edge version into the draft', auth: 'api_key', params: id('edge_version_id'), status: 200, response: Edge, tags }),
  listGraphVersions: operation({ summary: "List a workflow's graph versions (every change)", auth: 'api_key', query: Page.extend({ workflow_id: z.string() }), status: 200, response: list(GraphVersion), tags }),
  diffGraphVersions: operation({ summary: 'Compare two graph versions', auth: 'api_key', query: z.object({ workflow_id: z.string(), from_workflow_version_id: z.string(), to_workflow_version_id: z.string() }), status: 200, response: z.object({ added_block_ids: z.array(z.string()) }).loose(), tags }),
  getGraphVersion: operation({ summary: 'Get a graph version', auth: 'api_key', params: id('workflow_version_id'), query: z.object({ workflow_id: z.string() }), status: 200, response: GraphVersion, tags }),
  restoreGraphVersion: operation({ summary: 'Restore a graph version into the draft', auth: 'api_key', params: id('workflow_version_id'), query: z.object({ workflow_id: z.string() }), status: 200, response: Workflow, tags }),
  discardDraft: operation({ summary: 'Discard the draft: back to the published version', auth: 'api_key', params: WorkflowIdParams, status: 200, response: Workflow, tags }),
  exportSpec: operation({ summary: 'The draft as a YAML spec', auth: 'api_key', params: WorkflowIdParams, status: 200, response: z.object({ workflow_id: z.string(), yaml_definition: z.string() }), tags }),
  validateSpec: operation({ summary: 'Validate a YAML spec', auth: 'api_key', body: SpecBody, status: 200, response: z.object({ is_valid: z.boolean() }).loose(), tags }),
  planSpec: operation({ summary: 'What applying a YAML spec would change', auth: 'api_key', body: SpecBody, status: 200, response: Plan, tags }),
  planSpecOf: operation({ summary: 'What applying a YAML spec to this workflow would change', auth: 'api_key', params: WorkflowIdParams, body: SpecBody, status: 200, response: Plan, tags }),
  applySpec: operation({ summary: 'Apply a YAML spec (create or update a workflow)', auth: 'api_key', body: SpecBody, status: 200, response: Plan, tags }),
  applySpecOf: operation({ summary: 'Apply a YAML spec to this workflow', auth: 'api_key', params: WorkflowIdParams, body: SpecBody, status: 200, response: Plan, tags }),
  deleteRun: operation({ summary: 'Delete an ended workflow run', auth: 'api_key', params: RunIdParams, status: 204, tags }),
  exportRuns: operation({
    summary: "A block's outputs (or inputs) over runs, as CSV",
    auth: 'api_key',
    body: z.object({
      workflow_id: z.string(),
      block_id: z.string(),
      export_source: z.enum(['outputs', 'inputs']).default('outputs'),
      selected_run_ids: z.array(z.string()).max(1000).optional(),
      selected_doc_types: z.array(z.string()).optional(),
      status: RunStatusFilter.optional(),
      exclude_status: RunStatusFilter.optional(),
      from_date: z.string().optional(),
      to_date: z.string().optional(),
      trigger_type: z.enum(TRIGGER_TYPES).optional(),
      preferred_columns: z.array(z.string()).default([]),
      delimiter: z.string().min(1).max(1).default(','),
      line_delimiter: z.string().min(1).max(2).default('\n'),
      quote: z.string().min(1).max(1).default('"'),
    }),
    status: 200,
    response: z.object({ csv_data: z.string(), rows: z.number(), columns: z.number() }),
    tags,
  }),
  listSteps: operation({ summary: "List a run's (or a workflow's) steps", auth: 'api_key', query: Page.extend({ run_id: z.string().optional(), workflow_id: z.string().optional(), block_id: z.string().optional(), step_id: z.string().optional(), block_type: z.union([z.string(), z.array(z.string())]).optional(), status: z.union([z.string(), z.array(z.string())]).optional() }), status: 200, response: list(Step), tags }),
  getStep: operation({ summary: 'Get a step', auth: 'api_key', params: id('step_id'), query: z.object({ run_id: z.string().optional() }), status: 200, response: Step, tags }),
  listArtifacts: operation({ summary: "List a run's artifacts (400 without run_id or step_id)", auth: 'api_key', query: Page.extend({ run_id: z.string().optional(), operation: z.string().optional(), block_id: z.string().optional(), step_id: z.string().optional() }), status: 200, response: list(Artifact), tags }),
  getArtifact: operation({ summary: 'Get an artifact', auth: 'api_key', params: id('artifact_id'), status: 200, response: Artifact, tags }),
  listReviews: operation({ summary: 'List reviews (the review queue)', auth: 'api_key', query: Page.extend({ workflow_id: z.string().optional(), run_id: z.string().optional(), block_id: z.string().optional(), step_id: z.string().optional(), iteration_key: z.string().optional(), decision_status: z.enum(['pending', 'approved', 'rejected', 'decided', 'all']).default('all') }), status: 200, response: list(Review), tags }),
  getReview: operation({ summary: 'Get a review', auth: 'api_key', params: id('review_id'), status: 200, response: Review, tags }),
  approveReview: operation({ summary: 'Approve a version: the run goes on with it', auth: 'api_key', params: id('review_id'), body: z.object({ version_id: z.string() }), status: 200, response: Decision, tags }),
  rejectReview: operation({ summary: 'Reject a version, with a reason: the run ends', auth: 'api_key', params: id('review_id'), body: z.object({ version_id: z.string(), reason: z.string().trim().min(1, 'a rejection needs a reason').max(5000) }), status: 200, response: Decision, tags }),
  listReviewVersions: operation({ summary: "List a review's versions", auth: 'api_key', query: Page.extend({ review_id: z.string() }), status: 200, response: list(ReviewVersion), tags }),
  createReviewVersion: operation({ summary: 'Correct a review: a new immutable version', auth: 'api_key', body: z.object({ review_id: z.string(), parent_id: z.string(), snapshot: Obj, note: z.string().max(5000).optional() }), status: 201, response: ReviewVersion, tags }),
  listBlockExecutions: operation({ summary: "List the executions of a run's block (block re-runs)", auth: 'api_key', query: Page.extend({ run_id: z.string(), block_id: z.string().optional() }), status: 200, response: list(BlockExecution), tags }),
  createBlockExecution: operation({
    summary: 'Run one block of a run again on the inputs it received in that run, with its draft config (answers at once, queued)',
    auth: 'api_key',
    body: CreateBlockExecutionBody,
    status: 201,
    response: BlockExecution,
    tags,
  }),
  getReviewVersion: operation({ summary: 'Get a review version', auth: 'api_key', params: id('version_id'), status: 200, response: ReviewVersion, tags }),
};
