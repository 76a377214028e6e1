import { html, jsonBlock, type Html } from '../html.ts';
import type { Environment, MemberRequest } from '../http.ts';
import type { SourcedValue } from '../run-pages.ts';
import { RUN_KINDS, type RunFilter, type RunRow, type RunView } from '../runs.ts';
import { layout, withEnv } from './layout.ts';

/** Pages drawn on a run page. */
export const MAX_PAGES = 50;
const STATUSES = ['queued', 'in_progress', 'completed', 'failed', 'cancelled'];
const ACTIVE = new Set(['pending', 'queued', 'in_progress']);
const short = (at: string) => at.slice(0, 19).replace('T', ' ');
const option = (value: string, label: string, selected: string | undefined) => html`<option value="${value}"${value === (selected ?? '') ? html` selected` : ''}>${label}</option>`;

export function runsView(req: MemberRequest, options: { env: Environment; filter: RunFilter; rows: RunRow[]; next: string | null }): Html {
  const { env, filter } = options;
  const link = (row: RunRow) => withEnv('/dashboard/run', env, { kind: row.kind, id: row.id });
  const rows = options.rows.map(
    (row) => html`<tr>
<td><a href="${link(row)}"><code>${row.id}</code></a></td>
<td>${row.kind}</td>
<td><span class="badge status-${row.status}"${ACTIVE.has(row.status) ? html` data-live="${link(row)}"` : ''}>${row.status}</span></td>
<td>${row.filename}</td>
<td>${row.model}</td>
<td><time datetime="${row.created_at}">${short(row.created_at)}</time></td>
</tr>`,
  );
  const keep: Record<string, string> = {};
  if (filter.kind) keep.kind = filter.kind;
  if (filter.status) keep.status = filter.status;
  if (filter.search) keep.q = filter.search;
  return layout(req, {
    title: 'Runs',
    env,
    section: 'runs',
    body: html`${req.member.membership.role !== 'viewer' ? html`<p><a class="button" href="${withEnv('/dashboard/new', env)}">New run</a></p>` : ''}
<form method="get" action="/dashboard/runs" class="filters" role="search">
<input type="hidden" name="env" value="${env}">
<label for="f-kind">Kind</label>
<select id="f-kind" name="kind">${option('', 'all kinds', filter.kind)}${RUN_KINDS.map((k) => option(k.name, k.name, filter.kind))}</select>
<label for="f-status">Status</label>
<select id="f-status" name="status">${option('', 'any status', filter.status)}${STATUSES.map((s) => option(s, s, filter.status))}</select>
<label for="f-q">Search</label>
<input id="f-q" name="q" type="search" placeholder="file name contains…" value="${filter.search ?? ''}">
<button>Filter</button>
</form>
<table class="list" aria-label="Runs">
<thead><tr><th>Run</th><th>Kind</th><th>Status</th><th>File</th><th>Model</th><th>Created</th></tr></thead>
<tbody>${rows.length ? rows : html`<tr><td colspan="6" class="muted">No runs${filter.kind || filter.status || filter.search ? ' match' : ' yet in this environment'}.</td></tr>`}</tbody>
</table>
${options.next ? html`<p><a href="${withEnv('/dashboard/runs', env, { ...keep, before: options.next })}">Older runs →</a></p>` : ''}`,
  });
}

function display(value: unknown): string {
  if (value === null || value === undefined) return '—';
  return typeof value === 'string' ? value : JSON.stringify(value);
}

function valuesPanel(values: SourcedValue[], label: string): Html {
  const items = values.map(
    (v, i) => html`<li><button type="button"${v.box ? html` data-box="box-${i}"` : ''} class="${v.box ? 'value' : 'value unlocated'}" title="${v.box ? 'Show on the page' : v.where ? `Read at ${v.where}` : 'No source: the value is null or was not found'}">
<span class="path">${v.path}</span><span>${display(v.value)}</span></button></li>`,
  );
  return html`<aside class="values" aria-label="${label}"><h2>${label}</h2><ul>${items}</ul></aside>`;
}

function pagesPanel(view: RunView, values: SourcedValue[]): Html {
  // An extraction's boxes are its values' sources; an edit's are its form fields.
  const testId = view.kind.name === 'edit' ? 'field-box' : 'source-box';
  if (!view.file) return html`<p class="muted">This run has no file to show.</p>`;
  if (!view.preview) return html`<p class="muted">${view.file.filename}: no page images for this kind of file here (${view.file.mime_type}, ${view.file.size_bytes} bytes).</p>`;
  // Pages the server knows of (the file's or the run's count, or as far as a box or part goes); the
  // page script adds any further pages of the PDF it draws.
  // A split or partition names the part each page belongs to.
  const partOfPage = new Map<number, string>();
  if ((view.kind.name === 'split' || view.kind.name === 'partition') && Array.isArray(view.run.output)) {
    for (const part of view.run.output as Array<{ name?: string; key?: string; pages?: number[] }>) for (const n of part.pages ?? []) partOfPage.set(n, part.name ?? part.key ?? '');
  }
  const usage = view.run.usage as { page_count?: number } | undefined;
  const known = Math.max(view.file.page_count ?? 1, usage?.page_count ?? 1, ...values.map((v) => v.box?.page ?? 1), ...partOfPage.keys(), ...(view.layout ?? []).map((l) => l.page));
  const count = view.preview === 'image' ? 1 : Math.min(known, MAX_PAGES);
  // A classification names the document's category on every page.
  const category = view.kind.name === 'classification' && view.run.status === 'completed' ? (view.run.output as { category?: string } | null)?.category : undefined;
  if (category) for (let n = 1; n <= count; n++) partOfPage.set(n, category);
  const pages = Array.from({ length: count }, (_, i) => i + 1).map((n) => {
    const boxes = values.flatMap((v, i) =>
      v.box && v.box.page === n
        ? [html`<div class="source-box" id="box-${i}" data-testid="${testId}" data-left="${v.box.left}" data-top="${v.box.top}" data-width="${v.box.width}" data-height="${v.box.height}" data-value="${v.path}: ${display(v.value)}" title="${v.path}: ${display(v.value)}"></div>`]
        : [],
    );
    const part = partOfPage.get(n);
    return html`<div class="page" data-page="${n}">${boxes}${part ? html`<span class="page-part">${part}</span>` : ''}<span class="page-label">page ${n}</span></div>`;
  });
  // A parse's words and tables are boxed by the page script, from the run's data (they are many).
  const layers = view.layout?.length
    ? html`<p class="layers">Show on the pages: <label><input type="checkbox" data-layer="words" checked> words</label> <label><input type="checkbox" data-layer="tables" checked> tables</label></p>`
    : '';
  return html`${layers}<p id="pages-status" class="muted">Drawing the pages…</p><div class="pages">${pages}</div>`;
}

function outputPanel(view: RunView): Html {
  const run = view.run;
  const output = run.output;
  if (run.status !== 'completed') return html``;
  switch (view.kind.name) {
    case 'parse': {
      const pages = ((output as { pages?: string[] })?.pages ?? []).map((text, i) => html`<h3>Page ${i + 1}</h3><pre class="output">${text}</pre>`);
      return html`<section aria-label="Parsed text"><h2>Text</h2>${pages}</section>`;
    }
    case 'classification': {
      const o = output as { category?: string; reasoning?: string };
      return html`<section aria-label="Classification"><h2>Category: ${o.category ?? ''}</h2><p>${o.reasoning ?? ''}</p></section>`;
    }
    case 'split':
    case 'partition': {
      const parts = (Array.isArray(output) ? output : []) as Array<{ name?: string; key?: string; pages?: number[] }>;
      return html`<section aria-label="Parts"><h2>Parts</h2><table class="list"><thead><tr><th>Part</th><th>Pages</th></tr></thead><tbody>${parts.map(
        (part) => html`<tr><td>${part.name ?? part.key ?? ''}</td><td>${(part.pages ?? []).join(', ')}</td></tr>`,
      )}</tbody></table></section>`;
    }
    default:
      return html``;
  }
}

function runAction(req: MemberRequest, env: Environment, view: RunView, action: string, label: string, confirm: string): Html {
  return html`<form method="post" action="/dashboard/run" class="inline" data-confirm="${confirm}">
<input type="hidden" name="csrf" value="${req.member.session.csrf}"><input type="hidden" name="env" value="${env}">
<input type="hidden" name="kind" value="${view.kind.name}"><input type="hidden" name="id" value="${String(view.run.id)}"><input type="hidden" name="action" value="${action}">
<button class="${action === 'delete' ? 'danger' : ''}">${label}</button></form> `;
}

export function runPageView(req: MemberRequest, env: Environment, view: RunView): Html {
  const { run, kind } = view;
  const status = String(run.status);
  const error = run.error as { code?: string; message?: string } | null;
  const values = view.values ?? [];
  const located = values.filter((v) => v.box).length;
  const self = withEnv('/dashboard/run', env, { kind: kind.name, id: String(run.id) });
  const data = view.file && view.preview ? { maxPages: MAX_PAGES, file: { kind: view.preview, filename: view.file.filename, url: withEnv('/dashboard/file', env, { id: view.file.id }) }, layout: view.layout ?? [] } : { file: null };
  const kept = view.layout ?? [];
  const words = kept.reduce((n, page) => n + page.words.length, 0);
  const tables = kept.reduce((n, page) => n + page.tables.length, 0);
  const usage = run.usage as { credits?: number; page_count?: number } | undefined;
  const progress = run.progress as { pages_done: number; pages_total: number } | undefined;
  const shown = progress ? `${status} · ${progress.pages_done} of ${progress.pages_total} pages read` : status;
  return layout(req, {
    title: `${kind.resource} ${String(run.id)}`,
    env,
    section: 'runs',
    body: html`<dl class="meta">
<dt>Status</dt><dd><span class="badge status-${status}"${ACTIVE.has(status) ? html` data-live="${self}" data-reload` : ''}>${shown}</span></dd>
<dt>File</dt><dd>${view.file ? html`${view.file.filename} <span class="muted">(${view.file.mime_type}, ${view.file.page_count ?? '?'} page(s))</span>` : '—'}</dd>
<dt>Model</dt><dd>${String(run.model ?? '')}</dd>
<dt>Created</dt><dd><time datetime="${String(run.created_at)}">${short(String(run.created_at))}</time></dd>
<dt>Credits</dt><dd>${usage?.credits ?? 0}</dd>
${error ? html`<dt>Error</dt><dd class="error">${error.code}: ${error.message}</dd>` : ''}
${view.layout ? html`<dt>Boxes</dt><dd data-testid="layout-count">${view.layout.length ? `${words} words and ${tables} table(s) boxed on ${kept.length} page(s)` : 'none: this document has no page coordinates, or the parse was made before they were kept'}</dd>` : ''}
${view.values ? html`<dt>${kind.name === 'edit' ? 'Fields' : 'Sources'}</dt><dd>${located} of ${values.length} ${kind.name === 'edit' ? 'fields' : 'values located'} on the pages</dd>` : ''}
</dl>
${
  req.member.membership.role !== 'viewer'
    ? html`<p class="run-actions">${ACTIVE.has(status) ? runAction(req, env, view, 'cancel', 'Cancel run', 'Cancel this run?') : ''}${runAction(req, env, view, 'delete', 'Delete run', 'Delete this run and its output?')}</p>`
    : ''
}
<div class="run-layout">
<section aria-label="Pages">${pagesPanel(view, values)}</section>
${view.values ? valuesPanel(values, kind.name === 'edit' ? 'Form fields' : 'Values') : html`<aside class="values"><h2>Output</h2><pre class="output">${JSON.stringify(run.output ?? null, null, 2)}</pre></aside>`}
</div>
${outputPanel(view)}
<script type="application/json" id="run-data">${jsonBlock(data)}</script>`,
  });
}
