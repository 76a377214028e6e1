/** Handlers of the API keys page: list, create (shown once), revoke. */
import { Role } from '../../auth/schema.ts';
import { Invalid } from '../../platform/errors.ts';
import { cookieName, dashboard, environmentOf, jsonReply, page, redirect, setCookie, type MemberRequest, type Reply } from '../http.ts';
import { canManageKeys, createKey, listKeys, revokeKey } from '../keys.ts';
import { keysView } from '../views/keys.ts';
import { withEnv } from '../views/layout.ts';

async function keysPageOf(req: MemberRequest, extra: { created?: Awaited<ReturnType<typeof createKey>>; error?: string } = {}, status = 200): Promise<Reply> {
  const env = environmentOf(req);
  const keys = await listKeys(req.platform, req.member.org.id, env);
  return page(keysView(req, { env, keys, canManage: canManageKeys(req.member.membership, env), ...extra }), status);
}

/**
 * A created key is shown once, on the page the POST redirects to (so reloading that page creates no
 * second key): the POST hands it over in a short-lived HttpOnly, SameSite=Strict cookie scoped to
 * this page's path, which the page reads and clears at once.
 */
const NEW_KEY_COOKIE = 'quire_new_key';

export const keysPage = dashboard({ auth: 'member' }, async (req) => {
  const env = environmentOf(req);
  const handed = req.cookies[cookieName(NEW_KEY_COOKIE, req.secure)];
  if (!handed) return keysPageOf(req);
  setCookie(req, NEW_KEY_COOKIE, '', 0);
  try {
    const created = JSON.parse(Buffer.from(handed, 'base64url').toString('utf8')) as Awaited<ReturnType<typeof createKey>> & { env: string; org: string };
    if (created.env === env && created.org === req.member.org.id) return keysPageOf(req, { created });
  } catch {
    // Not ours or damaged: show nothing.
  }
  return keysPageOf(req);
});

export const createKeyPost = dashboard({ auth: 'member', csrf: 'session' }, async (req) => {
  const env = environmentOf(req);
  const role = Role.safeParse(req.form.get('role') ?? 'admin');
  if (!role.success) throw Invalid.at(['body', 'role'], 'role must be admin, operator or viewer');
  try {
    const created = await createKey(req.platform, req.member.membership, env, { name: req.form.get('name') ?? '', role: role.data });
    setCookie(req, NEW_KEY_COOKIE, Buffer.from(JSON.stringify({ ...created, env, org: req.member.org.id })).toString('base64url'), 300);
    return redirect(withEnv('/dashboard/keys', env));
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
