/**
 * `POST /v1/workflows/runs/export` (the SDK's `runs.export`): one block's outputs (or inputs) over
 * the runs of a workflow, flattened into CSV columns (`total`, `lines.0.amount`, ...), one row per
 * run, the `preferred_columns` first. Runs are chosen like the run list filters them (status,
 * exclude_status, dates, trigger type), or by id; `selected_doc_types` keeps the runs whose
 * classifier picked one of those categories.
 */
import type { Caller } from '../auth/service.ts';
import { Invalid } from '../platform/errors.ts';
import type { Platform } from '../platform/platform.ts';
import { listWorkflowRuns, readWorkflowRun } from './runs.ts';
import type { RunStatusFilter } from './schema.ts';
import { readWorkflow, requireCapability } from './service.ts';
import { readHandles, stepsOfRun, type Handles } from './steps.ts';
import type { z } from 'zod';

const MAX_RUNS = 1000;

type Status = z.infer<typeof RunStatusFilter>;
interface ExportBody {
  workflow_id: string;
  block_id: string;
  export_source: 'outputs' | 'inputs';
  selected_run_ids?: string[] | undefined;
  selected_doc_types?: string[] | undefined;
  status?: Status | undefined;
  exclude_status?: Status | undefined;
  from_date?: string | undefined;
  to_date?: string | undefined;
  trigger_type?: string | undefined;
  preferred_columns: string[];
  delimiter: string;
  line_delimiter: string;
  quote: string;
}

function flatten(value: unknown, prefix: string, into: Record<string, unknown>): void {
  if (Array.isArray(value)) value.forEach((v, i) => flatten(v, prefix ? `${prefix}.${i}` : String(i), into));
  else if (value && typeof value === 'object') for (const [k, v] of Object.entries(value)) flatten(v, prefix ? `${prefix}.${k}` : k, into);
  else into[prefix || 'value'] = value;
}

/** The JSON a block passed on (its `output` handle) or got (its `input`), else every handle (files by name and id). */
const dataOf = (handles: Handles) => {
  for (const main of ['output', 'input']) {
    const h = handles[main];
    if (h?.type === 'json') return h.data;
  }
  const out: Record<string, unknown> = {};
  for (const [name, h] of Object.entries(handles)) out[name] = h.type === 'json' ? h.data : { filename: h.document.filename, id: h.document.id };
  return out;
};

export async function exportRuns(p: Platform, caller: Caller, body: ExportBody) {
  await readWorkflow(p, caller, body.workflow_id).catch(() => {
    throw Invalid.at(['body', 'workflow_id'], 'Workflow not found', 'value_error', body.workflow_id);
  });
  requireCapability(caller, 'workflow:view');
  let runIds: string[];
  if (body.selected_run_ids?.length) {
    runIds = [];
    for (const id of body.selected_run_ids) {
      const run = await readWorkflowRun(p, caller, id).catch(() => undefined);
      if (!run || run.workflow_id !== body.workflow_id) throw Invalid.at(['body', 'selected_run_ids'], `${id} is not a run of workflow ${body.workflow_id}`, 'value_error', id);
      runIds.push(id);
    }
  } else {
    runIds = [];
    let after: string | undefined;
    do {
      const page = await listWorkflowRuns(p, caller, { limit: 100, order: 'asc', after, workflow_id: body.workflow_id, status: body.status, exclude_status: body.exclude_status, from_date: body.from_date, to_date: body.to_date, trigger_type: body.trigger_type });
      runIds.push(...page.data.map((r) => r.id));
      after = page.list_metadata.after ?? undefined;
    } while (after && runIds.length < MAX_RUNS);
  }
  const rows: Array<Record<string, unknown>> = [];
  for (const runId of runIds.slice(0, MAX_RUNS)) {
    const steps = await stepsOfRun(p, caller, runId);
    if (body.selected_doc_types?.length) {
      const categories = await Promise.all(steps.filter((s) => s.block_type === 'classifier' && s.lifecycle.status === 'completed').map(async (s) => (dataOf((await readHandles(p, s)).handle_outputs) as { category?: string })?.category));
      if (!categories.some((c) => c !== undefined && body.selected_doc_types!.includes(c))) continue;
    }
    const step = steps.find((s) => s.block_id === body.block_id && !s.loop_containers.length);
    if (!step || (body.export_source === 'outputs' && step.lifecycle.status !== 'completed')) continue;
    const handles = await readHandles(p, step);
    const row: Record<string, unknown> = { run_id: runId };
    flatten(dataOf(body.export_source === 'outputs' ? handles.handle_outputs : handles.handle_inputs), '', row);
    rows.push(row);
  }
  const seen = new Set<string>(['run_id', ...body.preferred_columns]);
  const columns = ['run_id', ...body.preferred_columns.filter((c) => c !== 'run_id')];
  for (const row of rows) for (const key of Object.keys(row)) if (!seen.has(key)) (seen.add(key), columns.push(key));
  const q = body.quote;
  const cell = (v: unknown) => {
    const text = v === undefined || v === null ? '' : typeof v === 'object' ? JSON.stringify(v) : String(v);
    return text.includes(body.delimiter) || text.includes(q) || /[\r\n]/.test(text) ? `${q}${text.split(q).join(q + q)}${q}` : text;
  };
  const lines = [columns.map(cell).join(body.delimiter), ...rows.map((row) => columns.map((c) => cell(row[c])).join(body.delimiter))];
  return { csv_data: lines.join(body.line_delimiter) + (rows.length ? body.line_delimiter : ''), rows: rows.length, columns: columns.length };
}
