import { html, jsonBlock, type Html } from '../html.ts';
import type { Environment, MemberRequest } from '../http.ts';
import type { ReviewView } from '../reviews.ts';
import type { ReviewData } from '../../workflows/reviews.ts';
import { layout, withEnv } from './layout.ts';
import { MAX_PAGES } from './runs.ts';

const short = (at: string) => at.slice(0, 19).replace('T', ' ');
const display = (v: unknown) => (v === null || v === undefined ? '' : typeof v === 'object' ? JSON.stringify(v) : String(v));

export function reviewQueueView(req: MemberRequest, options: { env: Environment; rows: ReviewData[]; next: string | null; notice?: string }): Html {
  const { env } = options;
  const rows = options.rows.map(
    (r) => html`<tr>
<td><a href="${withEnv('/dashboard/review', env, { id: r.id })}"><code>${r.id}</code></a></td>
<td>${short(r.created_at)}</td>
<td><a href="${withEnv('/dashboard/workflow-run', env, { id: r.run_id })}"><code>${r.run_id}</code></a></td>
<td>${r.block_id} (${r.block_type})</td>
<td>${String(r.triggered_by.kind ?? '')}</td>
</tr>`,
  );
  return layout(req, {
    title: 'Reviews',
    env,
    section: 'reviews',
    body: html`<p>Workflow runs of the <strong>${env}</strong> environment waiting for a person: open one to check the values on the page, correct them and approve, or reject.</p>
${options.notice ? html`<p class="notice" role="status">${options.notice}</p>` : ''}
<table class="list" data-testid="review-queue">
<thead><tr><th>Review</th><th>Waiting since</th><th>Run</th><th>Block</th><th>Why</th></tr></thead>
<tbody>${rows.length ? rows : html`<tr><td colspan="5" class="muted">Nothing waits for a review.</td></tr>`}</tbody>
</table>
${options.next ? html`<p><a href="${withEnv('/dashboard/reviews', env, { after: options.next })}">Next page</a></p>` : ''}`,
  });
}

export function reviewPageView(req: MemberRequest, env: Environment, view: ReviewView, options: { canReview: boolean; error?: string }): Html {
  const { review } = view;
  const open = review.decision === null;
  const editable = open && options.canReview;
  const values = view.values ?? [];
  const pages = view.file && view.preview ? Math.min(view.preview === 'image' ? 1 : Math.max(view.file.page_count ?? 1, ...values.map((v) => v.box?.page ?? 1)), MAX_PAGES) : 0;
  const pageDivs = Array.from({ length: pages }, (_, i) => i + 1).map(
    (n) => html`<div class="page" data-page="${n}">${values.flatMap((v, i) =>
      v.box && v.box.page === n ? [html`<div class="source-box" id="box-${i}" data-testid="source-box" data-left="${v.box.left}" data-top="${v.box.top}" data-width="${v.box.width}" data-height="${v.box.height}" data-value="${v.path}: ${display(v.value)}" title="${v.path}: ${display(v.value)}"></div>`] : [],
    )}<span class="page-label">page ${n}</span></div>`,
  );
  const data = view.file && view.preview ? { maxPages: MAX_PAGES, file: { kind: view.preview, filename: view.file.filename, url: withEnv('/dashboard/file', env, { id: view.file.id }) }, layout: [] } : { file: null };
  const fields = view.values
    ? html`<ol class="review-values">${values.map(
        (v, i) => html`<li><label for="v-${i}">${v.box ? html`<button type="button" class="value" data-box="box-${i}" title="Show on the page">${v.path}</button>` : html`<span class="value unlocated" title="${v.where ? `Read at ${v.where}` : 'No source: the value is null or was not found'}">${v.path}</span>`}</label>
<input id="v-${i}" name="v:${v.path}" value="${display(v.value)}" data-testid="review-value"${editable ? '' : html` readonly`}></li>`,
      )}</ol>`
    : html`<label for="snapshot">Snapshot (JSON)</label><textarea id="snapshot" name="snapshot" rows="12" class="code"${editable ? '' : html` readonly`}>${JSON.stringify(view.snapshot, null, 2)}</textarea>`;
  const csrf = html`<input type="hidden" name="csrf" value="${req.member.session.csrf}"><input type="hidden" name="env" value="${env}"><input type="hidden" name="id" value="${review.id}">`;
  const decision = review.decision
    ? html`<p class="notice" role="status" data-testid="review-decision">${review.decision.verdict} by ${review.decision.author.display_name} at ${short(review.decision.created_at)}${review.decision.reason ? html`: ${review.decision.reason}` : ''}</p>`
    : options.canReview
      ? ''
      : html`<p class="muted" data-testid="read-only">Your role (${req.member.membership.role}) cannot review in the ${env} environment: this review is shown read-only.</p>`;
  const actions = editable
    ? html`<p class="review-actions"><label for="note">Note</label> <input id="note" name="note" maxlength="500" placeholder="what you corrected (optional)">
<button class="primary" name="action" value="approve" accesskey="a" data-testid="approve">Approve</button></p>`
    : '';
  const reject = editable
    ? html`<form method="post" action="/dashboard/review" class="reject-form" aria-label="Reject">${csrf}<input type="hidden" name="action" value="reject">
<label for="reason">Reason</label> <input id="reason" name="reason" required maxlength="1000" placeholder="why this output cannot go on">
<button class="danger" accesskey="r" data-testid="reject">Reject</button></form>`
    : '';
  return layout(req, {
    title: `Review ${review.id}`,
    env,
    section: 'reviews',
    body: html`<dl class="meta">
<dt>Run</dt><dd><a href="${withEnv('/dashboard/workflow-run', env, { id: review.run_id })}"><code>${review.run_id}</code></a></dd>
<dt>Block</dt><dd>${review.block_id} (${review.block_type})</dd>
<dt>Why</dt><dd><code>${JSON.stringify(review.triggered_by)}</code></dd>
<dt>Version</dt><dd><code>${view.head.id}</code> by ${view.head.author.display_name}${view.head.note ? html` (${view.head.note})` : ''}</dd>
</dl>
${options.error ? html`<p class="error" role="alert">${options.error}</p>` : ''}
${decision}
<p class="muted">Keyboard: Tab moves from value to value; Alt+A approves, Alt+R goes to the rejection (the browser's access keys).</p>
<div class="run-layout">
<section aria-label="Pages">${view.file && view.preview ? html`<p id="pages-status" class="muted">Drawing the pages…</p><div class="pages">${pageDivs}</div>` : html`<p class="muted">No page images for this review's document.</p>`}</section>
<aside class="values" aria-label="Values"><h2>Values</h2>
<form method="post" action="/dashboard/review" aria-label="Approve">${csrf}${fields}${actions}</form>
${reject}
</aside>
</div>
<script type="application/json" id="run-data">${jsonBlock(data)}</script>`,
  });
}
