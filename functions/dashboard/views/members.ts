import { html, type Html } from '../html.ts';
import type { Environment, MemberRequest } from '../http.ts';
import { MEMBER_ROLES, type Membership } from '../../members/members.ts';
import { layout } from './layout.ts';

export function membersView(req: MemberRequest, options: { env: Environment; members: Membership[]; canManage: boolean; invited?: { email: string; url: string; expiresAt: string }; error?: string }): Html {
  const { session, user } = req.member;
  const { env } = options;
  const invited = options.invited
    ? html`<section class="new-key" aria-label="Sign-in link">
<p><strong>${options.invited.email}</strong> can sign in once with this link until ${options.invited.expiresAt.slice(0, 16).replace('T', ' ')} UTC. Hand it over privately:</p>
<p class="key-line"><code data-testid="sign-in-link" id="sign-in-link">${options.invited.url}</code>
<button type="button" data-copy="sign-in-link">Copy</button></p>
</section>`
    : '';
  const roleOptions = (selected: string) => MEMBER_ROLES.map((r) => html`<option value="${r}"${r === selected ? html` selected` : ''}>${r}</option>`);
  const rows = options.members.map(
    (m) => html`<tr data-member="${m.user_id}">
<td>${m.email}${m.user_id === user.id ? html` <span class="badge">you</span>` : ''}</td>
<td>${
      options.canManage && m.user_id !== user.id
        ? html`<form method="post" action="/dashboard/members/change" class="inline">
<input type="hidden" name="csrf" value="${session.csrf}"><input type="hidden" name="env" value="${env}"><input type="hidden" name="user_id" value="${m.user_id}">
<label class="visually-hidden" for="role-${m.user_id}">Role of ${m.email}</label>
<select id="role-${m.user_id}" name="role" data-autosubmit>${roleOptions(m.role)}</select><noscript><button>Change</button></noscript>
</form>`
        : m.role
    }</td>
<td><time datetime="${m.created_at}">${m.created_at.slice(0, 16).replace('T', ' ')}</time></td>
<td>${
      options.canManage && m.user_id !== user.id
        ? html`<form method="post" action="/dashboard/members/change" data-confirm="Remove ${m.email} from the organization? They are signed out at once.">
<input type="hidden" name="csrf" value="${session.csrf}"><input type="hidden" name="env" value="${env}"><input type="hidden" name="user_id" value="${m.user_id}"><input type="hidden" name="remove" value="1">
<button class="danger">Remove</button></form>`
        : ''
    }</td>
</tr>`,
  );
  const form = options.canManage
    ? html`<form method="post" action="/dashboard/members" class="row-form" aria-label="Add member">
<input type="hidden" name="csrf" value="${session.csrf}"><input type="hidden" name="env" value="${env}">
<label for="member-email">E-mail</label><input id="member-email" name="email" type="email" required>
<label for="member-role">Role</label><select id="member-role" name="role">${roleOptions('developer')}</select>
<button class="primary">Add member</button>
</form>`
    : html`<p class="muted">Owners and admins add and remove members.</p>`;
  return layout(req, {
    title: 'Members',
    env,
    section: 'members',
    body: html`<p>Members of <strong>${req.member.org.name}</strong> work in both environments. Owners and admins manage keys of both and members; developers run documents and manage test keys; viewers look.</p>
${options.error ? html`<p class="error" role="alert">${options.error}</p>` : ''}
${invited}
${form}
<table class="list" aria-label="Members">
<thead><tr><th>E-mail</th><th>Role</th><th>Joined</th><th></th></tr></thead>
<tbody>${rows}</tbody>
</table>`,
  });
}
