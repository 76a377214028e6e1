import { ROLES } from '../../platform/callers.ts';
import { html, type Html } from '../html.ts';
import type { Environment, MemberRequest } from '../http.ts';
import type { KeyRow } from '../keys.ts';
import { layout } from './layout.ts';

const when = (at: string | null) => (at ? html`<time datetime="${at}">${at.slice(0, 16).replace('T', ' ')}</time>` : html`<span class="muted">never</span>`);

export function keysView(req: MemberRequest, options: { env: Environment; keys: KeyRow[]; canManage: boolean; created?: { key: string; row: KeyRow }; error?: string }): Html {
  const { session } = req.member;
  const { env } = options;
  const created = options.created
    ? html`<section class="new-key" aria-label="New key">
<p><strong>Key "${options.created.row.name}" created.</strong> Copy it now: it is shown only once.</p>
<p class="key-line"><code data-testid="new-key" id="new-key">${options.created.key}</code>
<button type="button" data-copy="new-key">Copy</button></p>
</section>`
    : '';
  const form = options.canManage
    ? html`<form method="post" action="/dashboard/keys" class="row-form" aria-label="Create key">
<input type="hidden" name="csrf" value="${session.csrf}">
<input type="hidden" name="env" value="${env}">
<label for="key-name">Name</label>
<input id="key-name" name="name" required maxlength="100" placeholder="ci-pipeline">
<label for="key-role">Role</label>
<select id="key-role" name="role">${ROLES.map((r) => html`<option value="${r}">${r}</option>`)}</select>
<button class="primary">Create key</button>
</form>`
    : html`<p class="muted">Your role (${req.member.membership.role}) cannot create or revoke keys of the ${env} environment.</p>`;
  const rows = options.keys.map(
    (k) => html`<tr data-key-id="${k.id}"${k.revoked_at ? html` class="revoked"` : ''}>
<td>${k.name}</td>
<td><code>${k.prefix}</code></td>
<td><code>…${k.last4}</code></td>
<td>${k.role}</td>
<td>${k.legacy ? html`<span class="badge">legacy</span>` : ''}</td>
<td>${when(k.created_at)}</td>
<td>${when(k.last_used_at)}</td>
<td>${
      k.revoked_at
        ? html`<span class="badge warn">revoked</span>`
        : options.canManage
          ? html`<form method="post" action="/dashboard/keys/revoke" data-confirm="Revoke key ${k.name} (${k.prefix}…${k.last4})? Programs using it get 401 at once.">
<input type="hidden" name="csrf" value="${session.csrf}">
<input type="hidden" name="env" value="${env}">
<input type="hidden" name="key_id" value="${k.id}">
<button class="danger">Revoke</button>
</form>`
          : html`<span class="badge ok">active</span>`
    }</td>
</tr>`,
  );
  return layout(req, {
    title: 'API keys',
    env,
    section: 'keys',
    body: html`<p>Keys of the <strong>${env}</strong> environment. A key acts in its own environment only.</p>
${options.error ? html`<p class="error" role="alert">${options.error}</p>` : ''}
${created}
${form}
<table class="list">
<thead><tr><th>Name</th><th>Prefix</th><th>Last 4</th><th>Role</th><th>Legacy</th><th>Created</th><th>Last used</th><th></th></tr></thead>
<tbody>${rows.length ? rows : html`<tr><td colspan="8" class="muted">No keys yet.</td></tr>`}</tbody>
</table>`,
  });
}
