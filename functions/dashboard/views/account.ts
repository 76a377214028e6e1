import { html, type Html } from '../html.ts';
import type { MemberRequest, Environment } from '../http.ts';
import { PASSWORD_MIN } from '../../members/passwords.ts';
import { layout } from './layout.ts';

export function accountView(req: MemberRequest, env: Environment, notice?: { ok?: string; error?: string }): Html {
  const { user, session } = req.member;
  return layout(req, {
    title: 'Account',
    env,
    section: 'account',
    body: html`<p>Signed in as <strong>${user.email}</strong>. Password: ${user.password_set_at ? html`set ${user.password_set_at}` : 'not set (sign in with one-time links)'}.</p>
${notice?.ok ? html`<p class="ok" role="status">${notice.ok}</p>` : ''}
${notice?.error ? html`<p class="error" role="alert">${notice.error}</p>` : ''}
<form method="post" action="/dashboard/account/password" class="stack narrow">
<input type="hidden" name="csrf" value="${session.csrf}">
<input type="hidden" name="env" value="${env}">
<label for="new-password">New password (at least ${PASSWORD_MIN} characters)</label>
<input id="new-password" name="password" type="password" autocomplete="new-password" minlength="${PASSWORD_MIN}" required>
<button class="primary">Set password</button>
</form>`,
  });
}
