/**
 * Handlers of signing in and out, the account page, the organization switch, the home redirect and
 * the dashboard's static files.
 */
import { Invalid, NotFound, Unauthorized } from '../../platform/errors.ts';
import { ASSETS, readAsset } from '../assets.ts';
import { dashboard, environmentOf, page, redirect, SESSION_COOKIE, setCookie, type DashRequest } from '../http.ts';
import { consumeSignInLink, passwordSignIn, setPassword, TooManyAttempts } from '../../members/members.ts';
import { createSession, endSession, safeNext, SESSION_TTL_MS, switchOrganization } from '../sessions.ts';
import { accountView } from '../views/account.ts';
import { linkView, signInView } from '../views/sign-in.ts';

async function startSession(req: DashRequest, userId: string, orgId: string): Promise<void> {
  const { token } = await createSession(req.platform, userId, orgId);
  setCookie(req, SESSION_COOKIE, token, Math.floor(SESSION_TTL_MS / 1000));
}

const ASSET_NAMES = Object.keys(ASSETS);

export const asset = dashboard({ auth: 'none', static: true }, async (req) => {
  const name = req.event.rawPath.split('/').pop() ?? '';
  const found = ASSET_NAMES.includes(name) ? ASSETS[name] : undefined;
  if (!found) throw new NotFound('Not Found');
  return { status: 200, body: await readAsset(found), contentType: found.contentType, headers: { 'cache-control': 'public, max-age=300' } };
});

export const home = dashboard({ auth: 'member' }, async () => redirect('/dashboard/runs?env=test'));

export const signInPage = dashboard({ auth: 'none' }, async (req) => {
  if (req.member) return redirect(safeNext(req.query.get('next')));
  return page(signInView({ csrf: req.preCsrf, next: safeNext(req.query.get('next')) }));
});

export const signIn = dashboard({ auth: 'none', csrf: 'pre-session' }, async (req) => {
  const email = req.form.get('email') ?? '';
  const next = safeNext(req.form.get('next'));
  try {
    const { userId, orgId } = await passwordSignIn(req.platform, { email, password: req.form.get('password') ?? '', address: req.event.requestContext?.http?.sourceIp ?? 'unknown' });
    await startSession(req, userId, orgId);
    return redirect(next);
  } catch (error) {
    if (error instanceof Unauthorized || error instanceof TooManyAttempts) {
      const status = error instanceof TooManyAttempts ? 429 : 401;
      return page(signInView({ csrf: req.preCsrf, next, email, error: error.message }), status);
    }
    throw error;
  }
});

export const linkPage = dashboard({ auth: 'none' }, async (req) => page(linkView({ csrf: req.preCsrf, token: req.query.get('token') ?? '' })));

export const useLink = dashboard({ auth: 'none', csrf: 'pre-session' }, async (req) => {
  const token = req.form.get('token') ?? '';
  try {
    const { userId, orgId } = await consumeSignInLink(req.platform, token);
    if (req.member) await endSession(req.platform, req.member.token);
    await startSession(req, userId, orgId);
    return redirect('/dashboard');
  } catch (error) {
    if (error instanceof Unauthorized) return page(linkView({ csrf: req.preCsrf, token: '', error: String((error.body() as { detail: string }).detail) }), 401);
    throw error;
  }
});

export const signOut = dashboard({ auth: 'none', csrf: 'session' }, async (req) => {
  if (!req.member) return redirect('/dashboard/sign-in');
  await endSession(req.platform, req.member.token);
  setCookie(req, SESSION_COOKIE, '', 0);
  return redirect('/dashboard/sign-in');
});

export const switchOrganizationPost = dashboard({ auth: 'member', csrf: 'session' }, async (req) => {
  const orgId = req.form.get('org') ?? '';
  if (!req.member.memberships.some((m) => m.organization_id === orgId)) throw NotFound.of('Organization', orgId);
  await switchOrganization(req.platform, req.member.token, req.member.session, orgId);
  return redirect('/dashboard/runs?env=test');
});

export const accountPage = dashboard({ auth: 'member' }, async (req) => page(accountView(req, environmentOf(req))));

export const setPasswordPost = dashboard({ auth: 'member', csrf: 'session' }, async (req) => {
  const env = environmentOf(req);
  try {
    await setPassword(req.platform, req.member.user.id, req.form.get('password') ?? '');
  } catch (error) {
    if (error instanceof Invalid) return page(accountView(req, env, { error: `Password not set: ${error.issues[0]?.msg}` }), 422);
    throw error;
  }
  return page(accountView({ ...req, member: { ...req.member, user: { ...req.member.user, password_set_at: new Date().toISOString() } } }, env, { ok: 'Password set. Sign in with it next time.' }));
});
