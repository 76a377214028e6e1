/** Handlers of the members page: list, add (a one-time sign-in link), change role, remove. */
import { Forbidden, Invalid } from '../../platform/errors.ts';
import { dashboard, environmentOf, page, redirect, type MemberRequest, type Reply } from '../http.ts';
import { addMember, changeRole, isMemberRole, issueSignInLink, listMembers, removeMember } from '../../members/members.ts';
import { withEnv } from '../views/layout.ts';
import { membersView } from '../views/members.ts';

const canManageMembers = (req: MemberRequest) => req.member.membership.role === 'owner' || req.member.membership.role === 'admin';

async function membersPageOf(req: MemberRequest, extra: { invited?: { email: string; url: string; expiresAt: string }; error?: string } = {}, status = 200): Promise<Reply> {
  const env = environmentOf(req);
  const members = await listMembers(req.platform, req.member.org.id);
  return page(membersView(req, { env, members, canManage: canManageMembers(req), ...extra }), status);
}

export const membersPage = dashboard({ auth: 'member' }, async (req) => membersPageOf(req));

export const addMemberPost = dashboard({ auth: 'member', csrf: 'session' }, async (req) => {
  if (!canManageMembers(req)) throw new Forbidden(`A ${req.member.membership.role} cannot add members`);
  const role = req.form.get('role') ?? 'developer';
  if (!isMemberRole(role)) throw Invalid.at(['body', 'role'], 'unknown role');
  if (role === 'owner' && req.member.membership.role !== 'owner') throw new Forbidden('Only an owner can add an owner');
  try {
    const { membership } = await addMember(req.platform, { orgId: req.member.org.id, email: req.form.get('email') ?? '', role });
    const link = await issueSignInLink(req.platform, req.member.org.id, membership.user_id);
    const host = req.event.headers?.host ?? 'localhost';
    const url = `${req.secure ? 'https' : 'http'}://${host}/dashboard/sign-in/link?token=${link.token}`;
    return membersPageOf(req, { invited: { email: membership.email, url, expiresAt: link.expiresAt } });
  } catch (error) {
    if (error instanceof Invalid) return membersPageOf(req, { error: `Not added: ${error.issues[0]?.msg}` }, 422);
    throw error;
  }
});

export const changeMemberPost = dashboard({ auth: 'member', csrf: 'session' }, async (req) => {
  if (!canManageMembers(req)) throw new Forbidden(`A ${req.member.membership.role} cannot change members`);
  const userId = req.form.get('user_id') ?? '';
  if (userId === req.member.user.id) throw new Forbidden('Members do not change their own role or remove themselves here');
  if (req.form.get('remove')) await removeMember(req.platform, req.member.membership, userId);
  else {
    const role = req.form.get('role') ?? '';
    if (!isMemberRole(role)) throw Invalid.at(['body', 'role'], 'unknown role');
    await changeRole(req.platform, req.member.membership, userId, role);
  }
  return redirect(withEnv('/dashboard/members', environmentOf(req)));
});
