import type { Secret } from '../../secrets/schema.ts';
import { html, type Html } from '../html.ts';
import type { Environment, MemberRequest } from '../http.ts';
import type { UsageDay } from '../settings.ts';
import { layout } from './layout.ts';

export function secretsView(req: MemberRequest, options: { env: Environment; secrets: Secret[]; canManage: boolean; notice?: string; error?: string }): Html {
  const { env } = options;
  const csrf = req.member.session.csrf;
  const rows = options.secrets.map(
    (s) => html`<tr><td><code>${s.name}</code></td><td>${s.created_at.slice(0, 16).replace('T', ' ')}</td><td>${s.updated_at.slice(0, 16).replace('T', ' ')}</td>
<td>${
      options.canManage
        ? html`<form method="post" action="/dashboard/secrets/delete" data-confirm="Delete secret ${s.name}? Workflows using it fail until it is set again.">
<input type="hidden" name="csrf" value="${csrf}"><input type="hidden" name="env" value="${env}"><input type="hidden" name="name" value="${s.name}"><button class="danger">Delete</button></form>`
        : ''
    }</td></tr>`,
  );
  return layout(req, {
    title: 'Secrets',
    env,
    section: 'secrets',
    body: html`<p>Secrets of the <strong>${env}</strong> environment, for workflows. Values are encrypted (KMS) and never shown back: setting a name again rotates it.</p>
${options.notice ? html`<p class="ok" role="status">${options.notice}</p>` : ''}
${options.error ? html`<p class="error" role="alert">${options.error}</p>` : ''}
${
  options.canManage
    ? html`<form method="post" action="/dashboard/secrets" class="row-form" aria-label="Set secret">
<input type="hidden" name="csrf" value="${csrf}"><input type="hidden" name="env" value="${env}">
<label for="secret-name">Secret name</label><input id="secret-name" name="name" required maxlength="128" pattern="[A-Za-z_][A-Za-z0-9_]*">
<label for="secret-value">Value</label><input id="secret-value" name="value" type="password" autocomplete="off" required>
<button class="primary">Set secret</button></form>`
    : html`<p class="muted">Your role (${req.member.membership.role}) cannot change secrets of the ${env} environment.</p>`
}
<table class="list" aria-label="Secrets"><thead><tr><th>Name</th><th>Created</th><th>Updated</th><th></th></tr></thead>
<tbody>${rows.length ? rows : html`<tr><td colspan="4" class="muted">No secrets.</td></tr>`}</tbody></table>`,
  });
}

export function usageView(req: MemberRequest, options: { env: Environment; days: Record<Environment, UsageDay[]> }): Html {
  const envs: Environment[] = ['test', 'production'];
  const total = (env: Environment) => Math.round(options.days[env].reduce((sum, d) => sum + d.credits, 0) * 1e6) / 1e6;
  const max = Math.max(1e-9, ...envs.flatMap((env) => options.days[env].map((d) => d.credits)));
  const rows = options.days.test.map((d, i) => {
    const p = options.days.production[i]!;
    return html`<tr><td>${d.day}</td>
<td>${d.credits} <span class="muted">(${d.runs} runs)</span> <meter min="0" max="${max}" value="${d.credits}"></meter></td>
<td>${p.credits} <span class="muted">(${p.runs} runs)</span> <meter min="0" max="${max}" value="${p.credits}"></meter></td></tr>`;
  });
  return layout(req, {
    title: 'Usage',
    env: options.env,
    section: 'usage',
    body: html`<p>Credits per day (UTC) over the last ${options.days.test.length} days, each environment apart. Test usage is never billable.</p>
<p>Total: test <strong data-testid="usage-test">${total('test')}</strong> · production <strong data-testid="usage-production">${total('production')}</strong> (billable)</p>
<table class="list" aria-label="Usage"><thead><tr><th>Day</th><th>test</th><th>production</th></tr></thead><tbody>${rows.reverse()}</tbody></table>`,
  });
}
