import * as z from 'zod';
import { operation } from '../platform/operation.ts';
import { listEnvelope } from '../platform/schemas.ts';
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
