import { html, type Html } from '../html.ts';
import { bare } from './layout.ts';

export function signInView(options: { csrf: string; next: string; email?: string; error?: string }): Html {
  return bare(
    'Sign in',
    html`<h2>Sign in</h2>
${options.error ? html`<p class="error" role="alert">${options.error}</p>` : ''}
<form method="post" action="/dashboard/sign-in" class="stack">
<input type="hidden" name="csrf" value="${options.csrf}">
<input type="hidden" name="next" value="${options.next}">
<label for="email">E-mail</label>
<input id="email" name="email" type="email" autocomplete="username" required value="${options.email ?? ''}">
<label for="password">Password</label>
<input id="password" name="password" type="password" autocomplete="current-password" required>
<button class="primary">Sign in</button>
</form>
<p class="hint">First time, or no password yet? Ask an administrator for a one-time sign-in link
(<code>quire members create --email you@example.com</code>), then set a password under Account.</p>`,
  );
}

export function linkView(options: { csrf: string; token: string; error?: string }): Html {
  return bare(
    'Sign in',
    html`<h2>Sign in with your link</h2>
${options.error ? html`<p class="error" role="alert">${options.error}</p>` : ''}
<form method="post" action="/dashboard/sign-in/link" class="stack">
<input type="hidden" name="csrf" value="${options.csrf}">
<input type="hidden" name="token" value="${options.token}">
<p>This link signs you in once and expires 15 minutes after it was made.</p>
<button class="primary">Continue to the dashboard</button>
</form>`,
  );
}
