/**
 * Tables and workflows as the dashboard lists them (read only): tables through the tables service;
 * workflows, their published versions and their runs from the records the workflows feature keeps
 * (the same listing its API routes do). Every member may look, and validate a table by rules (the
 * API's validation: a read of the table that changes nothing).
 */
import { Invalid } from '../platform/errors.ts';
import { toValidationIssues } from '../platform/http.ts';
import type { Platform } from '../platform/platform.ts';
import type { Scope } from '../platform/ports.ts';
import type { z } from 'zod';
import { ValidateTableBody, type Table, type TableProfile as TableProfileSchema, type ValidationReport as ValidationReportSchema } from '../tables/schema.ts';
import { downloadTable, listTables, profileTable, validateTable } from '../tables/service.ts';
import { readWorkflowRun, toWireRun, type WorkflowRunData } from '../workflows/runs.ts';
import { WORKFLOW_RUN_TYPE } from '../workflows/schema.ts';
import type { WorkflowRun } from '../workflows/schema.ts';
import { VERSION_TYPE, WORKFLOW_TYPE, type VersionData, type WorkflowData } from '../workflows/service.ts';

export type TableProfile = z.infer<typeof TableProfileSchema>;
export type ValidationReport = z.infer<typeof ValidationReportSchema>;

/** Rules to start from: every column required, of the type it was read as. */
export function suggestedRules(table: Table): string {
  const columns: Record<string, { type: string }> = {};
  for (const column of table.columns) {
    const type = (column.json_schema as { type?: unknown }).type;
    if (typeof type === 'string' && type !== 'null') columns[column.name] = { type };
  }
  return JSON.stringify({ required_columns: table.columns.map((c) => c.name), columns }, null, 2);
}

/**
 * Validates a table of this environment by rules typed as JSON: the body of
 * POST /v1/tables/{table_id}/validate, checked by the same schema and run by the same service.
 */
export async function validateByForm(p: Platform, scope: Scope, tableId: string, rulesText: string): Promise<ValidationReport> {
  let parsed: unknown;
  try {
    parsed = rulesText.trim() === '' ? {} : JSON.parse(rulesText);
  } catch (error) {
    throw Invalid.at(['body', 'rules'], `rules are not valid JSON: ${(error as Error).message}`, 'json_invalid');
  }
  const rules = ValidateTableBody.safeParse(parsed);
  if (!rules.success) throw new Invalid(toValidationIssues('body', rules.error, parsed));
  return (await validateTable(p, scope, tableId, rules.data)) as ValidationReport;
}

/** The tables of the environment, each with its column profile once it has been read (null before). */
export async function tablesOf(p: Platform, scope: Scope): Promise<Array<{ table: Table; profile: TableProfile | null }>> {
  const { tables } = await listTables(p, scope, undefined);
  return Promise.all(
    tables.map(async (table) => ({
      table,
      profile: table.status === 'ready' ? ((await profileTable(p, scope, table.id, undefined).catch(() => null)) as TableProfile | null) : null,
    })),
  );
}

export interface WorkflowRow {
  id: string;
  name: string;
  description: string;
  published_at: string | null;
  versions: Array<{ id: string; description: string; published_at: string }>;
  created_at: string;
  updated_at: string;
}

export interface WorkflowRunRow {
  id: string;
  workflow_id: string;
  version_id: string;
  status: string;
  message: string | null;
  created_at: string;
  completed_at: string | null;
}

export async function workflowsOf(p: Platform, scope: Scope): Promise<{ workflows: WorkflowRow[]; runs: WorkflowRunRow[] }> {
  const [workflows, versions, runs] = await Promise.all([
    p.store.listRecords<WorkflowData>(scope, WORKFLOW_TYPE, { limit: 100, order: 'desc' }),
    // Published versions only: every change of a graph is a version too (functions/workflows/versions.ts).
    p.store.listRecords<VersionData>(scope, VERSION_TYPE, { limit: 100, order: 'desc', attrs: { published: 'true' } }),
    p.store.listRecords<WorkflowRunData>(scope, WORKFLOW_RUN_TYPE, { limit: 50, order: 'desc' }),
  ]);
  return {
    workflows: workflows.items.map(({ data }) => ({
      id: data.id,
      name: data.name,
      description: data.description,
      published_at: (data.published as { published_at?: string } | null)?.published_at ?? null,
      versions: versions.items
        .filter((v) => v.data.workflow_id === data.id && v.data.published_at)
        .map((v) => ({ id: v.data.id, description: v.data.description, published_at: v.data.published_at! })),
      created_at: data.created_at,
      updated_at: data.updated_at,
    })),
    runs: runs.items.map(({ data }) => ({
      id: data.id,
      workflow_id: data.workflow_id,
      version_id: data.workflow_version_id,
      status: data.lifecycle.status,
      message: data.lifecycle.message ?? null,
      created_at: data.timing.created_at,
      completed_at: data.timing.completed_at,
    })),
  };
}

/** One workflow run as the API shows it (its inputs and, once it ended, every block's output), with its workflow's name. */
export async function workflowRunOf(p: Platform, scope: Scope, id: string): Promise<{ run: WorkflowRun; workflowName: string | null }> {
  const run = await toWireRun(p, await readWorkflowRun(p, scope, id));
  const workflow = await p.store.getRecord<WorkflowData>(scope, WORKFLOW_TYPE, run.workflow_id);
  return { run, workflowName: workflow?.data.name ?? null };
}

/** All rows of a table of this environment: its CSV snapshot, as GET /v1/tables/{table_id}/download gives it. */
export async function tableCsv(p: Platform, scope: Scope, tableId: string): Promise<{ status: number; body: string | Buffer; contentType: string; headers: Record<string, string> }> {
  const raw = await downloadTable(p, scope, tableId);
  return { status: raw.status, body: raw.body, contentType: raw.contentType, headers: raw.headers };
}
