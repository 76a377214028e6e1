/** Handlers of the API keys page: list, create (shown once), revoke. */
import { Role } from '../../auth/schema.ts';
import { Invalid } from '../../platform/errors.ts';
import { dashboard, environmentOf, jsonReply, page, redirect, type MemberRequest, type Reply } from '../http.ts';
import { canManageKeys, createKey, listKeys, revokeKey } from '../keys.ts';
import { keysView } from '../views/keys.ts';
import { withEnv } from '../views/layout.ts';

async function keysPageOf(req: MemberRequest, extra: { created?: Awaited<ReturnType<typeof createKey>>; error?: string } = {}, status = 200): Promise<Reply> {
  const env = environmentOf(req);
  const keys = await listKeys(req.platform, req.member.org.id, env);
  return page(keysView(req, { env, keys, canManage: canManageKeys(req.member.membership, env), ...extra }), status);
}

export const keysPage = dashboard({ auth: 'member' }, async (req) => keysPageOf(req));

export const createKeyPost = dashboard({ auth: 'member', csrf: 'session' }, async (req) => {
  const env = environmentOf(req);
  const role = Role.safeParse(req.form.get('role') ?? 'admin');
  if (!role.success) throw Invalid.at(['body', 'role'], 'role must be admin, operator or viewer');
  try {
    const created = await createKey(req.platform, req.member.membership, env, { name: req.form.get('name') ?? '', role: role.data });
    return keysPageOf(req, { created });
  } catch (error) {
    if (error instanceof Invalid) return keysPageOf(req, { error: error.issues[0]?.msg }, 422);
    throw error;
  }
});

export const revokeKeyPost = dashboard({ auth: 'member', csrf: 'session' }, async (req) => {
  const env = environmentOf(req);
  await revokeKey(req.platform, req.member.membership, env, req.form.get('key_id') ?? '');
  if (/application\/json/.test(req.event.headers?.accept ?? '')) return jsonReply({ revoked: true });
  return redirect(withEnv('/dashboard/keys', env));
});
