/** The frame of every dashboard page: header (organization, environment switch, navigation, sign out). */
import { html, type Html } from '../html.ts';
import type { DashRequest, Environment } from '../http.ts';

export interface Section {
  path: string;
  label: string;
}

export const SECTIONS = {
  runs: { path: '/dashboard/runs', label: 'Runs' },
  keys: { path: '/dashboard/keys', label: 'API keys' },
  tables: { path: '/dashboard/tables', label: 'Tables' },
  workflows: { path: '/dashboard/workflows', label: 'Workflows' },
  reviews: { path: '/dashboard/reviews', label: 'Reviews' },
  webhooks: { path: '/dashboard/webhooks', label: 'Webhooks' },
  secrets: { path: '/dashboard/secrets', label: 'Secrets' },
  usage: { path: '/dashboard/usage', label: 'Usage' },
  members: { path: '/dashboard/members', label: 'Members' },
  account: { path: '/dashboard/account', label: 'Account' },
} satisfies Record<string, Section>;

export type SectionName = keyof typeof SECTIONS;

export const withEnv = (path: string, env: Environment, extra: Record<string, string> = {}) => `${path}?${new URLSearchParams({ env, ...extra })}`;

function head(title: string): Html {
  return html`<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>${title} · Quire</title>
<link rel="stylesheet" href="/dashboard/app.css">
<script type="module" src="/dashboard/app.js"></script>
</head>`;
}

/** A page for someone not signed in (sign-in, errors). */
export function bare(title: string, body: Html): Html {
  return html`${head(title)}
<body class="bare">
<main class="narrow">
<h1 class="brand">Quire</h1>
${body}
</main>
</body>
</html>`;
}

export function layout(req: DashRequest, options: { title: string; env: Environment; section: SectionName; body: Html }): Html {
  const member = req.member!;
  const sectionPath = SECTIONS[options.section].path;
  const nav = (Object.keys(SECTIONS) as SectionName[]).map(
    (name) => html`<a href="${withEnv(SECTIONS[name].path, options.env)}"${name === options.section ? html` aria-current="page"` : ''}>${SECTIONS[name].label}</a>`,
  );
  const orgSwitch =
    member.memberships.length > 1
      ? html`<form method="post" action="/dashboard/organization" class="inline">
<input type="hidden" name="csrf" value="${member.session.csrf}">
<label for="org-switch">Organization</label>
<select id="org-switch" name="org" data-autosubmit>${member.memberships.map((m) => html`<option value="${m.organization_id}"${m.organization_id === member.org.id ? html` selected` : ''}>${m.organization_id === member.org.id ? member.org.name : m.organization_id}</option>`)}</select>
<noscript><button>Switch</button></noscript>
</form>`
      : html`<span class="org" title="${member.org.id}">${member.org.name}</span>`;
  return html`${head(options.title)}
<body class="env-${options.env}">
<header class="top">
<a class="brand" href="${withEnv('/dashboard/runs', options.env)}">Quire</a>
${orgSwitch}
<form method="get" action="${sectionPath}" class="inline env-form">
<label for="env-switch">Environment</label>
<select id="env-switch" name="env" data-autosubmit>
<option value="test"${options.env === 'test' ? html` selected` : ''}>test</option>
<option value="production"${options.env === 'production' ? html` selected` : ''}>production</option>
</select>
<noscript><button>Switch</button></noscript>
</form>
<nav>${nav}</nav>
<span class="who">${member.user.email} · ${member.membership.role}</span>
<form method="post" action="/dashboard/sign-out" class="inline">
<input type="hidden" name="csrf" value="${member.session.csrf}">
<button class="link">Sign out</button>
</form>
</header>
<main>
<h1>${options.title}</h1>
${options.body}
</main>
</body>
</html>`;
}

export function errorView(req: DashRequest | undefined, status: number, message: string): Html {
  const body = html`<p class="error" role="alert">${message}</p><p><a href="/dashboard">Back to the dashboard</a></p>`;
  const env = (req?.form.get('env') ?? req?.query.get('env')) === 'production' ? 'production' : 'test';
  if (req?.member) return layout(req, { title: status === 404 ? 'Not found' : `Error ${status}`, env, section: 'runs', body });
  return bare(`Error ${status}`, html`<h2>Error ${status}</h2>${body}`);
}
