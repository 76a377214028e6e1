import type { Delivery, Endpoint } from '../../webhooks/schema.ts';
import { html, type Html } from '../html.ts';
import type { Environment, MemberRequest } from '../http.ts';
import { layout } from './layout.ts';

export function webhooksView(req: MemberRequest, options: { env: Environment; endpoint: Endpoint | null; deliveries: Delivery[]; canManage: boolean; secret?: string; notice?: string; error?: string }): Html {
  const { env, endpoint } = options;
  const csrf = req.member.session.csrf;
  const hidden = html`<input type="hidden" name="csrf" value="${csrf}"><input type="hidden" name="env" value="${env}">`;
  const action = (name: string, label: string, confirm?: string) =>
    html`<form method="post" action="/dashboard/webhooks/action" class="inline"${confirm ? html` data-confirm="${confirm}"` : ''}>${hidden}<input type="hidden" name="action" value="${name}"><button${name === 'delete' ? html` class="danger"` : ''}>${label}</button></form>`;
  const deliveries = options.deliveries.map(
    (d) => html`<tr><td><code>${d.id}</code></td><td>${d.event_type}</td><td><span class="badge status-${d.status === 'succeeded' ? 'completed' : d.status}">${d.status}</span></td><td>${d.attempts}</td><td>${d.last_status_code ?? '—'}</td><td>${d.last_error ?? ''}</td><td>${d.next_attempt_at ?? ''}</td>
<td>${options.canManage && endpoint ? html`<form method="post" action="/dashboard/webhooks/action">${hidden}<input type="hidden" name="action" value="resend"><input type="hidden" name="delivery_id" value="${d.id}"><button>Resend</button></form>` : ''}</td></tr>`,
  );
  return layout(req, {
    title: 'Webhooks',
    env,
    section: 'webhooks',
    body: html`<p>The webhook endpoint of the <strong>${env}</strong> environment and its deliveries.</p>
${options.notice ? html`<p class="ok" role="status">${options.notice}</p>` : ''}
${options.secret ? html`<p class="key-line"><code data-testid="signing-secret" id="signing-secret">${options.secret}</code><button type="button" data-copy="signing-secret">Copy</button></p>` : ''}
${options.error ? html`<p class="error" role="alert">${options.error}</p>` : ''}
${endpoint ? html`<dl class="meta"><dt>URL</dt><dd><code>${endpoint.url}</code></dd><dt>Events</dt><dd>${endpoint.events.join(', ')}</dd><dt>Enabled</dt><dd>${endpoint.enabled ? 'yes' : 'no'}</dd><dt>Signing secret</dt><dd>…${endpoint.secret_last4}</dd></dl>` : html`<p class="muted">No endpoint yet.</p>`}
${
  options.canManage
    ? html`<form method="post" action="/dashboard/webhooks" class="row-form" aria-label="Endpoint">${hidden}
<label for="wh-url">Endpoint URL</label><input id="wh-url" name="url" type="url" required size="40" value="${endpoint?.url ?? ''}" placeholder="https://example.com/quire-webhooks">
<label for="wh-events">Events</label><input id="wh-events" name="events" value="${endpoint?.events.join(', ') ?? '*'}" placeholder="*, parse.*, extraction.completed">
<label><input type="checkbox" name="enabled" value="1"${!endpoint || endpoint.enabled ? html` checked` : ''}> Enabled</label>
<button class="primary">Save endpoint</button></form>
${endpoint ? html`<p>${action('reveal', 'Reveal signing secret')} ${action('rotate', 'Rotate signing secret', 'Rotate the signing secret? The previous one stays valid for 24 hours.')} ${action('test', 'Send test event')} ${action('delete', 'Delete endpoint', 'Delete the webhook endpoint? No more events are delivered.')}</p>` : ''}`
    : html`<p class="muted">Your role (${req.member.membership.role}) cannot change webhooks of the ${env} environment.</p>`
}
<h2>Deliveries</h2>
<table class="list" aria-label="Deliveries"><thead><tr><th>Delivery</th><th>Event</th><th>Status</th><th>Attempts</th><th>Last status</th><th>Last error</th><th>Next attempt</th><th></th></tr></thead>
<tbody>${deliveries.length ? deliveries : html`<tr><td colspan="8" class="muted">No deliveries.</td></tr>`}</tbody></table>`,
  });
}
