import type { Table } from '../../tables/schema.ts';
import { html, type Html } from '../html.ts';
import type { Environment, MemberRequest } from '../http.ts';
import { suggestedRules, type TableProfile, type ValidationReport, type WorkflowRow, type WorkflowRunRow } from '../workspace.ts';
import type { WorkflowRun } from '../../workflows/schema.ts';
import { layout, withEnv } from './layout.ts';

const short = (at: string | null) => (at ? at.slice(0, 16).replace('T', ' ') : '—');

/** The validation asked for on the page: its rules as typed, and the report or why there is none. */
export interface TableValidation {
  tableId: string;
  rules: string;
  report?: ValidationReport;
  error?: string;
}

function validationReport(t: Table, v: TableValidation): Html {
  if (v.error) return html`<p class="error" role="alert">${v.error}</p>`;
  const report = v.report!;
  if (report.diagnostics.length === 0) return html`<p class="ok" role="status" data-testid="validation-ok">No problems: every rule holds for every row.</p>`;
  const rows = report.diagnostics.map(
    (d) => html`<tr><td><span class="badge ${d.severity === 'error' ? 'warn' : ''}">${d.severity}</span></td><td>${d.column ?? '—'}</td><td><code>${d.rule}</code></td><td>${d.message}</td><td>${d.count}</td><td>${d.rows.join(', ')}</td></tr>`,
  );
  return html`<p class="${report.has_errors ? 'error' : 'hint'}" role="status">${report.has_errors ? 'The table breaks some rules' : 'Warnings only'}: ${report.diagnostics.length} finding(s).</p>
<table class="list" aria-label="Validation of ${t.name}"><thead><tr><th>Severity</th><th>Column</th><th>Rule</th><th>Message</th><th>Count</th><th>Rows (first 20)</th></tr></thead><tbody>${rows}</tbody></table>`;
}

function validateForm(req: MemberRequest, env: Environment, t: Table, v: TableValidation | undefined): Html {
  return html`<form method="post" action="/dashboard/tables/validate" class="stack validate-form">
<input type="hidden" name="csrf" value="${req.member.session.csrf}"><input type="hidden" name="env" value="${env}"><input type="hidden" name="table_id" value="${t.id}">
<label for="rules-${t.id}">Validation rules of ${t.name} (JSON: <code>required_columns</code>, <code>columns</code> with type, format, is_not_empty, enum, pattern, minimum, maximum, and <code>unique</code> keys)</label>
<textarea id="rules-${t.id}" name="rules" rows="8" spellcheck="false">${v ? v.rules : suggestedRules(t)}</textarea>
<button>Validate</button>
</form>
${v ? validationReport(t, v) : ''}`;
}

export function tablesView(req: MemberRequest, options: { env: Environment; tables: Array<{ table: Table; profile: TableProfile | null }>; validation?: TableValidation }): Html {
  const cell = (value: unknown) => (value === null || value === undefined ? '' : typeof value === 'string' ? value : JSON.stringify(value));
  const tables = options.tables.map(({ table: t, profile }) => {
    const columns = profile
      ? profile.columns.map(
          (c) => html`<tr><td>${c.name}</td><td>${cell((c.json_schema as { type?: unknown }).type)}</td><td>${c.null_count}</td><td>${c.distinct_count}${c.is_estimated ? ' (est.)' : ''}</td><td>${cell(c.min)}</td><td>${cell(c.max)}</td></tr>`,
        )
      : t.columns.map((c) => html`<tr><td>${c.name}</td><td>${cell((c.json_schema as { type?: unknown }).type)}</td><td></td><td></td><td></td><td></td></tr>`);
    const validation = options.validation?.tableId === t.id ? options.validation : undefined;
    return html`<details class="table-card"${validation ? html` open` : ''}><summary><strong>${t.name}</strong> <code>${t.id}</code> · ${t.filename} · ${t.row_count ?? '?'} rows · ${t.columns.length} columns · <span class="badge">${t.status}</span> · ${short(t.created_at)}</summary>
<table class="list" aria-label="Profile of ${t.name}"><thead><tr><th>Column</th><th>Type</th><th>Nulls</th><th>Distinct</th><th>Min</th><th>Max</th></tr></thead><tbody>${columns}</tbody></table>
${t.sample_rows.length ? html`<table class="list" aria-label="Sample rows of ${t.name}"><thead><tr>${Object.keys(t.sample_rows[0]!).map((k) => html`<th>${k}</th>`)}</tr></thead><tbody>${t.sample_rows.map((row) => html`<tr>${Object.values(row).map((v) => html`<td>${v ?? ''}</td>`)}</tr>`)}</tbody></table>` : ''}
${t.status === 'ready' ? html`<p><a href="/dashboard/tables/download?env=${options.env}&amp;table_id=${t.id}" download>Download all ${t.row_count ?? ''} rows (CSV)</a></p>` : ''}
${t.diagnostics.length ? html`<p class="muted">${t.diagnostics.length} diagnostic(s) while reading the CSV: ${t.diagnostics.map((d) => `${d.rule}${d.column ? ` (${d.column})` : ''}`).join(', ')}</p>` : ''}
${t.status === 'ready' ? validateForm(req, options.env, t, validation) : ''}
</details>`;
  });
  return layout(req, {
    title: 'Tables',
    env: options.env,
    section: 'tables',
    body: html`<p>CSV tables of the <strong>${options.env}</strong> environment, with the profile of each column; open one to validate it by rules. Upload and replace them through the API or <code>quire tables</code>.</p>
${tables.length ? tables : html`<p class="muted">No tables.</p>`}`,
  });
}

export function workflowsView(req: MemberRequest, options: { env: Environment; workflows: WorkflowRow[]; runs: WorkflowRunRow[] }): Html {
  const names = new Map(options.workflows.map((w) => [w.id, w.name]));
  const workflows = options.workflows.map(
    (w) => html`<tr><td><strong>${w.name}</strong><br><code>${w.id}</code></td><td>${w.description}</td><td>${w.versions.length ? html`<ul class="plain">${w.versions.map((v) => html`<li><code>${v.id}</code> ${short(v.published_at)} ${v.description}</li>`)}</ul>` : html`<span class="muted">draft only</span>`}</td><td>${short(w.updated_at)}</td></tr>`,
  );
  const runs = options.runs.map(
    (r) => html`<tr><td><a href="${withEnv('/dashboard/workflow-run', options.env, { id: r.id })}"><code>${r.id}</code></a></td><td>${names.get(r.workflow_id) ?? r.workflow_id}</td><td><code>${r.version_id}</code></td><td><span class="badge status-${r.status === 'error' ? 'failed' : r.status}">${r.status}</span>${r.message ? html` <span class="muted">${r.message}</span>` : ''}</td><td>${short(r.created_at)}</td><td>${short(r.completed_at)}</td></tr>`,
  );
  return layout(req, {
    title: 'Workflows',
    env: options.env,
    section: 'workflows',
    body: html`<h2>Workflows</h2>
<table class="list" aria-label="Workflows"><thead><tr><th>Workflow</th><th>Description</th><th>Published versions</th><th>Updated</th></tr></thead><tbody>${workflows.length ? workflows : html`<tr><td colspan="4" class="muted">No workflows.</td></tr>`}</tbody></table>
<h2>Runs</h2>
<table class="list" aria-label="Workflow runs"><thead><tr><th>Run</th><th>Workflow</th><th>Version</th><th>Status</th><th>Created</th><th>Completed</th></tr></thead><tbody>${runs.length ? runs : html`<tr><td colspan="6" class="muted">No workflow runs.</td></tr>`}</tbody></table>`,
  });
}

const ACTIVE_WORKFLOW_RUN = new Set(['pending', 'running']);
const statusClass = (status: string) => (status === 'error' ? 'failed' : status);
const pretty = (value: unknown) => JSON.stringify(value ?? null, null, 2);

export function workflowRunView(req: MemberRequest, env: Environment, options: { run: WorkflowRun; workflowName: string | null }): Html {
  const { run } = options;
  const status = run.lifecycle.status;
  const self = withEnv('/dashboard/workflow-run', env, { id: run.id });
  const documents = Object.entries(run.inputs.documents);
  const outputs = Object.entries(run.outputs);
  return layout(req, {
    title: `Workflow run ${run.id}`,
    env,
    section: 'workflows',
    body: html`<dl class="meta">
<dt>Status</dt><dd><span class="badge status-${statusClass(status)}"${ACTIVE_WORKFLOW_RUN.has(status) ? html` data-live="${self}" data-reload` : ''}>${status}</span>${run.lifecycle.message ? html` <span class="muted">${run.lifecycle.message}</span>` : ''}</dd>
<dt>Workflow</dt><dd>${options.workflowName ?? ''} <code>${run.workflow_id}</code></dd>
<dt>Version</dt><dd><code>${run.workflow_version_id}</code></dd>
<dt>Created</dt><dd>${short(run.timing.created_at)}</dd>
<dt>Started</dt><dd>${short(run.timing.started_at)}</dd>
<dt>Completed</dt><dd>${short(run.timing.completed_at)}</dd>
</dl>
<section aria-label="Inputs"><h2>Inputs</h2>
${documents.length ? html`<table class="list" aria-label="Input documents"><thead><tr><th>Block</th><th>Document</th><th>File</th></tr></thead><tbody>${documents.map(([block, file]) => html`<tr><td><code>${block}</code></td><td>${file.filename}</td><td><code>${file.id}</code></td></tr>`)}</tbody></table>` : ''}
${Object.keys(run.inputs.json_data).length ? html`<pre class="output">${pretty(run.inputs.json_data)}</pre>` : documents.length ? '' : html`<p class="muted">No inputs.</p>`}
</section>
<section aria-label="Outputs"><h2>Outputs</h2>
${outputs.length ? outputs.map(([block, output]) => html`<h3><code>${block}</code></h3><pre class="output" data-block="${block}">${pretty(output)}</pre>`) : html`<p class="muted">${ACTIVE_WORKFLOW_RUN.has(status) ? 'Running: the outputs come when it ends.' : 'No outputs.'}</p>`}
</section>`,
  });
}
