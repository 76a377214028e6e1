/**
 * Thin handlers of the dashboard's routes: read the form or query, call the services (members,
 * sessions, keys, runs — the auth and run services underneath), render a view.
 */
import { Role } from '../auth/schema.ts';
import { Forbidden, Invalid, NotFound, Unauthorized } from '../platform/errors.ts';
import { ASSETS, readAsset } from './assets.ts';
import { dashboard, environmentOf, jsonReply, page, redirect, scopeOf, SESSION_COOKIE, setCookie, setErrorPage, type DashRequest, type MemberRequest, type Reply } from './http.ts';
import { canManageKeys, createKey, listKeys, revokeKey } from './keys.ts';
import { addMember, changeRole, consumeSignInLink, isMemberRole, issueSignInLink, listMembers, passwordSignIn, removeMember, setPassword, TooManyAttempts } from './members.ts';
import { membersView } from './views/members.ts';
import { newRunView } from './views/new-run.ts';
import { startRun } from './create.ts';
import { canManageSecrets, removeSecret, secretsOf, setSecret, usageByDay } from './settings.ts';
import { secretsView, usageView } from './views/settings.ts';
import { canManageWebhooks, saveEndpoint, webhookAction, webhookState } from './webhooks.ts';
import { webhooksView } from './views/webhooks.ts';
import { tablesOf, workflowsOf } from './workspace.ts';
import { tablesView, workflowsView } from './views/workspace.ts';
import { changeRun, listAllRuns, previewBytes, runView } from './runs.ts';
import { createSession, endSession, SESSION_TTL_MS, switchOrganization } from './sessions.ts';
import { accountView } from './views/account.ts';
import { keysView } from './views/keys.ts';
import { errorView, withEnv } from './views/layout.ts';
import { runPageView, runsView } from './views/runs.ts';
import { linkView, signInView } from './views/sign-in.ts';

setErrorPage(errorView);

/** Where to go after signing in: a dashboard path of this site only. */
function safeNext(next: string | null | undefined): string {
  return next && /^\/dashboard(\/[A-Za-z0-9/_-]*)?(\?[^\s]*)?$/.test(next) && !next.startsWith('//') ? next : '/dashboard';
}

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

export const runsPage = dashboard({ auth: 'member' }, async (req) => {
  const env = environmentOf(req);
  const filter = {
    kind: req.query.get('kind') || undefined,
    status: req.query.get('status') || undefined,
    search: req.query.get('q')?.trim() || undefined,
    before: req.query.get('before') || undefined,
    limit: 50,
  };
  const { rows, next } = await listAllRuns(req.platform, scopeOf(req, env), filter);
  return page(runsView(req, { env, filter, rows, next }));
});

export const runPage = dashboard({ auth: 'member' }, async (req) => {
  const env = environmentOf(req);
  const view = await runView(req.platform, scopeOf(req, env), req.query.get('kind'), req.query.get('id') ?? '');
  // The page's own status poll (app.js) asks for JSON.
  if (/application\/json/.test(req.event.headers?.accept ?? '')) return jsonReply({ id: view.run.id, status: view.run.status });
  return page(runPageView(req, env, view));
});

export const changeRunPost = dashboard({ auth: 'member', csrf: 'session' }, async (req) => {
  const env = environmentOf(req);
  const kind = req.form.get('kind');
  const id = req.form.get('id') ?? '';
  const action = req.form.get('action') ?? '';
  await changeRun(req.platform, req.member.membership, scopeOf(req, env), { kind, id, action });
  return redirect(action === 'delete' ? withEnv('/dashboard/runs', env) : withEnv('/dashboard/run', env, { kind: kind ?? '', id }));
});

export const file = dashboard({ auth: 'member' }, async (req) => {
  const env = environmentOf(req);
  const { file: found, bytes } = await previewBytes(req.platform, scopeOf(req, env), req.query.get('id') ?? '');
  return {
    status: 200,
    body: Buffer.from(bytes),
    contentType: found.mime_type,
    // User content on the dashboard's origin: never rendered as a page of its own, never sniffed.
    headers: { 'content-disposition': 'attachment', 'content-security-policy': "default-src 'none'; sandbox", 'cache-control': 'private, max-age=300' },
  };
});

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

const canRun = (req: MemberRequest) => req.member.membership.role !== 'viewer';

export const newRunPage = dashboard({ auth: 'member' }, async (req) => {
  if (!canRun(req)) throw new Forbidden('A viewer cannot start runs');
  return page(newRunView(req, { env: environmentOf(req), kind: req.query.get('kind') ?? undefined }));
});

export const newRunPost = dashboard({ auth: 'member', csrf: 'session' }, async (req) => {
  const env = environmentOf(req);
  if (!canRun(req)) throw new Forbidden('A viewer cannot start runs');
  const upload = req.files.file;
  const form = { kind: req.form.get('kind') ?? '', names: req.form.get('names') ?? undefined };
  try {
    const started = await startRun(req.platform, scopeOf(req, env), { ...form, filename: upload?.filename ?? '', mimeType: upload?.contentType ?? '', bytes: upload?.bytes ?? Buffer.alloc(0) });
    return redirect(withEnv('/dashboard/run', env, { kind: started.kind, id: started.id }));
  } catch (error) {
    if (!(error instanceof Invalid)) throw error;
    const message = error.issues.map((i) => `${i.loc.slice(1).join('.') || 'form'}: ${i.msg}`).join('; ');
    return page(newRunView(req, { env, ...form, error: `Not started: ${message}` }), 422);
  }
});

async function secretsPageOf(req: MemberRequest, extra: { notice?: string; error?: string } = {}, status = 200): Promise<Reply> {
  const env = environmentOf(req);
  const secrets = await secretsOf(req.platform, scopeOf(req, env));
  return page(secretsView(req, { env, secrets, canManage: canManageSecrets(req.member.membership, env), ...extra }), status);
}

export const secretsPage = dashboard({ auth: 'member' }, async (req) => secretsPageOf(req));

export const setSecretPost = dashboard({ auth: 'member', csrf: 'session' }, async (req) => {
  const env = environmentOf(req);
  try {
    const secret = await setSecret(req.platform, req.member.membership, env, scopeOf(req, env), { name: req.form.get('name') ?? '', value: req.form.get('value') ?? '' });
    return secretsPageOf(req, { notice: `Secret ${secret.name} set.` });
  } catch (error) {
    if (error instanceof Invalid) return secretsPageOf(req, { error: `Not set: ${error.issues.map((i) => `${i.loc.slice(1).join('.')}: ${i.msg}`).join('; ')}` }, 422);
    throw error;
  }
});

export const deleteSecretPost = dashboard({ auth: 'member', csrf: 'session' }, async (req) => {
  const env = environmentOf(req);
  await removeSecret(req.platform, req.member.membership, env, scopeOf(req, env), req.form.get('name') ?? '');
  return redirect(withEnv('/dashboard/secrets', env));
});

export const usagePage = dashboard({ auth: 'member' }, async (req) => {
  const env = environmentOf(req);
  const [test, production] = await Promise.all([usageByDay(req.platform, scopeOf(req, 'test'), 30), usageByDay(req.platform, scopeOf(req, 'production'), 30)]);
  return page(usageView(req, { env, days: { test: test!, production: production! } }));
});

async function webhooksPageOf(req: MemberRequest, extra: { secret?: string; notice?: string; error?: string } = {}, status = 200): Promise<Reply> {
  const env = environmentOf(req);
  const state = await webhookState(req.platform, scopeOf(req, env));
  return page(webhooksView(req, { env, ...state, canManage: canManageWebhooks(req.member.membership, env), ...extra }), status);
}

export const webhooksPage = dashboard({ auth: 'member' }, async (req) => webhooksPageOf(req));

export const saveEndpointPost = dashboard({ auth: 'member', csrf: 'session' }, async (req) => {
  const env = environmentOf(req);
  const events = (req.form.get('events') ?? '').split(',').map((e) => e.trim()).filter(Boolean);
  try {
    const saved = await saveEndpoint(req.platform, req.member.membership, env, scopeOf(req, env), { url: (req.form.get('url') ?? '').trim(), events, enabled: req.form.get('enabled') === '1' });
    return webhooksPageOf(req, saved.signing_secret ? { secret: saved.signing_secret, notice: 'Endpoint created. Its signing secret (reveal it again here when needed):' } : { notice: 'Endpoint saved.' });
  } catch (error) {
    if (error instanceof Invalid) return webhooksPageOf(req, { error: `Not saved: ${error.issues.map((i) => i.msg).join('; ')}` }, 422);
    throw error;
  }
});

export const webhookActionPost = dashboard({ auth: 'member', csrf: 'session' }, async (req) => {
  const env = environmentOf(req);
  const done = await webhookAction(req.platform, req.member.membership, env, scopeOf(req, env), req.form.get('action') ?? '', req.form.get('delivery_id') ?? '');
  return webhooksPageOf(req, done);
});

export const tablesPage = dashboard({ auth: 'member' }, async (req) => {
  const env = environmentOf(req);
  return page(tablesView(req, { env, tables: await tablesOf(req.platform, scopeOf(req, env)) }));
});

export const workflowsPage = dashboard({ auth: 'member' }, async (req) => {
  const env = environmentOf(req);
  return page(workflowsView(req, { env, ...(await workflowsOf(req.platform, scopeOf(req, env))) }));
});
