import * as z from 'zod';
import { ListQueryParams } from '../platform/schemas.ts';

export const UsageQuery = z.object({
  from_date: z.string().optional().describe('YYYY-MM-DD (start of that UTC day) or RFC 3339'),
  to_date: z.string().optional().describe('YYYY-MM-DD (end of that UTC day) or RFC 3339'),
});

export const UsageReport = z
  .object({
    environment_slug: z.enum(['test', 'production']),
    credits: z.number(),
    billable_credits: z.number().describe('Always 0 in the test environment'),
    by_operation: z.record(z.string(), z.number()),
    runs: z.number().int(),
  })
  .meta({ id: 'UsageReport' });
export type UsageReport = z.infer<typeof UsageReport>;

// ── Breakdowns (GET /v1/usage/primitives, /blocks, /runs): the Retab SDK's usage resource ──────────

const Page = ListQueryParams.omit({ filename: true });

export const PrimitivesQuery = Page.extend({
  environment_id: z.string().optional().describe("This key's environment id (another environment's answers nothing)"),
  workflow_id: z.string().optional(),
  project_id: z.string().optional(),
  api_key_id: z.string().optional().describe('The key that started the run (key_...)'),
  access_token_id: z.string().optional().describe('Accepted; runs are started by API keys here, so it matches none'),
  user_id: z.string().optional().describe('Accepted; runs are started by API keys here, so it matches none'),
  run_id: z.string().optional().describe('A workflow run (run_...): the primitives its blocks ran'),
  block_id: z.string().optional(),
  operation: z.string().optional().describe('parse, split, classification, extraction, edit, partition, schema_generation'),
  status: z.enum(['completed', 'failed']).optional(),
  metadata: z.string().optional().describe('A JSON-encoded object of metadata that must match, e.g. {"customer":"acme"}'),
});

export const BlocksQuery = Page.extend({ workflow_id: z.string().optional(), block_type: z.string().optional() });

export const RunsQuery = Page.extend({
  workflow_id: z.string().optional(),
  status: z.enum(['pending', 'queued', 'running', 'awaiting_review', 'completed', 'error', 'failed', 'cancelled']).optional(),
  trigger_type: z.enum(['manual', 'api', 'schedule', 'webhook', 'email', 'restart']).optional(),
});

const ListMetadata = z.object({ before: z.string().nullable(), after: z.string().nullable() });

export const UsagePrimitiveRecord = z
  .object({
    primitive_execution_id: z.string().describe('The run (extr_..., prs_...), or the workflow step that ran it (stp_...)'),
    operation: z.string(),
    resource_kind: z.string().nullable(),
    status: z.string(),
    credits: z.number(),
    page_count: z.number().int(),
    model: z.string().nullable(),
    documents: z.array(z.object({ file_id: z.string().nullable(), filename: z.string().nullable() })).nullable(),
    metadata: z.record(z.string(), z.string()).nullable(),
    environment_id: z.string().nullable(),
    project_id: z.string().nullable(),
    workflow_id: z.string().nullable(),
    run_id: z.string().nullable().describe('The workflow run it ran in, if any'),
    block_id: z.string().nullable(),
    created_at: z.string().nullable(),
    completed_at: z.string().nullable(),
    duration_ms: z.number().int().nullable(),
    triggered_by: z
      .object({
        auth_method: z.string().nullable(),
        api_key_id: z.string().nullable(),
        key_name: z.string().nullable(),
        key_prefix: z.string().nullable(),
        access_token_id: z.string().nullable(),
        user_id: z.string().nullable(),
        user_email: z.string().nullable(),
      })
      .nullable(),
  })
  .meta({ id: 'UsagePrimitiveRecord' });

export const UsageBlockRecord = z
  .object({
    workflow_id: z.string(),
    block_id: z.string(),
    block_type: z.string(),
    execution_count: z.number().int(),
    run_count: z.number().int(),
    credits: z.number(),
    page_count: z.number().int(),
    status_counts: z.record(z.string(), z.number().int()).nullable(),
    first_activity_at: z.string().nullable(),
    last_activity_at: z.string().nullable(),
  })
  .meta({ id: 'UsageBlockRecord' });

export const UsageRunRecord = z
  .object({
    run_id: z.string(),
    workflow_id: z.string(),
    status: z.string(),
    trigger_type: z.string(),
    credits: z.number(),
    page_count: z.number().int(),
    created_at: z.string().nullable(),
    started_at: z.string().nullable(),
    completed_at: z.string().nullable(),
    duration_ms: z.number().int().nullable(),
    execution_duration_ms: z.number().int(),
    retry_count: z.number().int(),
    triggered_by: z.object({ api_key_id: z.string().nullable(), user_id: z.string().nullable(), user_email: z.string().nullable() }).nullable(),
  })
  .meta({ id: 'UsageRunRecord' });

export const PrimitivesList = z.object({ data: z.array(UsagePrimitiveRecord), list_metadata: ListMetadata });
export const BlocksList = z.object({ data: z.array(UsageBlockRecord), list_metadata: ListMetadata });
export const RunsList = z.object({ data: z.array(UsageRunRecord), list_metadata: ListMetadata });
