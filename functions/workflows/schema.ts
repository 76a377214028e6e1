import * as z from 'zod';
import { DocumentInput, FileRef, ListQueryParams } from '../platform/schemas.ts';

export const CAPABILITIES = ['workflow:view', 'workflow:edit', 'workflow:run', 'workflow:delete', 'workflow:publish', 'workflow:review', 'workflow:manage'] as const;
export type Capability = (typeof CAPABILITIES)[number];

export const AuthzStatus = z.enum(['provisioning', 'ready', 'failed', 'deleting', 'deleted']);

export const Published = z.object({ version_id: z.string(), published_at: z.string(), description: z.string() });

export const Workflow = z
  .object({
    id: z.string(),
    name: z.string(),
    description: z.string(),
    project_id: z.string().nullable(),
    published: Published.nullable(),
    capabilities: z.array(z.enum(CAPABILITIES)),
    authz_status: AuthzStatus,
    created_at: z.string(),
    updated_at: z.string(),
  })
  .meta({ id: 'Workflow' });
export type Workflow = z.infer<typeof Workflow>;

const Name = z.string().trim().min(1, 'must not be empty').max(200, 'must be at most 200 characters');

export const CreateWorkflowBody = z.object({
  project_id: z.string(),
  name: Name.default('Untitled Workflow'),
  description: z.string().max(5000).default(''),
});
export const PatchWorkflowBody = z.object({ name: Name.optional(), description: z.string().max(5000).optional() });
export const WorkflowIdParams = z.object({ workflow_id: z.string() });
export const ListWorkflowsQuery = ListQueryParams.extend({ project_id: z.string().optional(), sort_by: z.enum(['created_at']).default('created_at').describe('Workflows are listed by creation time (order asc|desc)') });

export const BLOCK_TYPES = [
  'start_document', 'start_json', 'note', 'parse', 'split', 'classifier', 'extract', 'edit', 'conditional', 'api_call', 'function',
  'while_loop', 'for_each', 'merge_dicts', 'end',
] as const;
export type BlockType = (typeof BLOCK_TYPES)[number];

export const Block = z.object({
  id: z.string().min(1).max(100),
  type: z.string(),
  name: z.string().max(200).optional(),
  config: z.record(z.string(), z.unknown()).default({}),
  parent_id: z.string().optional(),
});
export type Block = z.infer<typeof Block>;
export const Edge = z.object({ source: z.string(), target: z.string(), source_handle: z.string().optional(), target_handle: z.string().optional() });
export type Edge = z.infer<typeof Edge>;
export const Definition = z.object({ blocks: z.array(Block).max(200), edges: z.array(Edge).max(1000) });
export type Definition = z.infer<typeof Definition>;

export const Draft = z
  .object({ workflow_id: z.string(), blocks: z.array(Block), edges: z.array(Edge), updated_at: z.string() })
  .meta({ id: 'WorkflowDraft' });
export type Draft = z.infer<typeof Draft>;

export const PublishBody = z.object({ description: z.string().max(5000).default('') });

export const Version = z
  .object({ id: z.string(), workflow_id: z.string(), description: z.string(), published_at: z.string() })
  .meta({ id: 'WorkflowVersion' });
export type Version = z.infer<typeof Version>;

export const ExportQuery = z.object({ version: z.string().default('published').describe('published, draft or a ver_ id') });
export const ExportBundle = z
  .object({
    format: z.literal('quire.workflow/v1'),
    name: z.string(),
    description: z.string(),
    definition: Definition,
    source: z.object({ environment_slug: z.string(), workflow_id: z.string(), version_id: z.string().nullable().default(null) }),
  })
  .meta({ id: 'WorkflowExport' });
export type ExportBundle = z.infer<typeof ExportBundle>;

export const PromotionBody = z.object({
  bundle: ExportBundle,
  target_workflow_id: z.string().optional(),
  target_project_id: z.string().optional(),
  idempotency_key: z.string().min(1).max(200),
});
export const Promotion = z
  .object({
    promotion_id: z.string(),
    target_workflow_id: z.string(),
    target_draft_version: z.string(),
    missing_secrets: z.array(z.string()),
    warnings: z.array(z.string()),
  })
  .meta({ id: 'Promotion' });
export type Promotion = z.infer<typeof Promotion>;

export const RunLifecycleStatus = z.enum(['pending', 'running', 'awaiting_review', 'completed', 'error', 'cancelled']);
export type RunLifecycleStatus = z.infer<typeof RunLifecycleStatus>;
/** The store type of workflow run records, and the statuses of a run whose execution has not ended it. */
export const WORKFLOW_RUN_TYPE = 'workflow_run';
export const ACTIVE: RunLifecycleStatus[] = ['pending', 'running', 'awaiting_review'];
/** The statuses the SDK filters by; `queued` and `failed` are its names for pending and error. */
export const RunStatusFilter = z.enum(['pending', 'queued', 'running', 'awaiting_review', 'completed', 'error', 'failed', 'cancelled']);
export const statusOfFilter = (s: z.infer<typeof RunStatusFilter>): RunLifecycleStatus => (s === 'queued' ? 'pending' : s === 'failed' ? 'error' : s);

export const WorkflowRun = z
  .object({
    id: z.string(),
    workflow_id: z.string(),
    workflow_version_id: z.string(),
    trigger: z.object({ type: z.literal('api') }),
    lifecycle: z
      .object({
        status: RunLifecycleStatus,
        waiting_for_block_ids: z.array(z.string()).optional(),
        reason: z.string().optional(),
        message: z.string().optional(),
        stage: z.string().optional(),
        category: z.enum(['transient', 'permanent', 'quota']).optional(),
        details: z.record(z.string(), z.unknown()).optional(),
      })
      .loose(),
    timing: z.object({ created_at: z.string(), started_at: z.string().nullable(), completed_at: z.string().nullable() }),
    inputs: z.object({ documents: z.record(z.string(), FileRef), json_data: z.record(z.string(), z.unknown()) }),
    outputs: z.record(z.string(), z.unknown()),
    metadata: z.record(z.string(), z.string()),
  })
  .meta({ id: 'WorkflowRun' });
export type WorkflowRun = z.infer<typeof WorkflowRun>;

export const CreateRunBody = z.object({
  workflow_id: z.string(),
  documents: z.record(z.string(), DocumentInput).default({}),
  json_inputs: z.record(z.string(), z.unknown()).default({}),
  version: z.string().default('production').describe('production (the published version), draft, or a ver_ id'),
  metadata: z.record(z.string(), z.string()).default({}),
});
export const RunIdParams = z.object({ run_id: z.string() });
export const TRIGGER_TYPES = ['manual', 'api', 'schedule', 'webhook', 'email', 'restart'] as const;
export const ListRunsQuery = ListQueryParams.extend({
  workflow_id: z.string().optional(),
  status: RunStatusFilter.optional(),
  exclude_status: RunStatusFilter.optional(),
  trigger_type: z.enum(TRIGGER_TYPES).optional(),
  min_duration_ms: z.coerce.number().int().min(0).optional(),
  max_duration_ms: z.coerce.number().int().min(0).optional(),
  search: z.string().max(200).optional().describe('Case-insensitive text in the run id, its metadata values or its input file names'),
  metadata: z.string().optional().describe('A JSON-encoded object of metadata that must match, e.g. {"batch":"7"}'),
  sort_by: z.enum(['created_at']).default('created_at').describe('Runs are listed by creation time (order asc|desc)'),
});
export const CancelRunResponse = z
  .object({ run: WorkflowRun, cancellation_status: z.enum(['cancelled', 'cancellation_requested', 'cancellation_failed']) })
  .meta({ id: 'WorkflowRunCancellation' });
