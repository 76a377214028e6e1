/**
 * Dashboard test helpers: members signed in over plain HTTP (fetch), with their cookies kept by hand.
 */
import { addMember, issueSignInLink, type MemberRole } from '../../functions/members/members.ts';
import { platform } from '../../functions/platform/platform.ts';

export interface Member {
  userId: string;
  email: string;
  /** The Cookie header of this member's requests. */
  cookie: string;
  csrf: string;
}

/** name=value pairs of the response's Set-Cookie headers (a Max-Age=0 cookie is absent). */
export function cookiesOf(response: Response): Record<string, string> {
  const out: Record<string, string> = {};
  for (const line of response.headers.getSetCookie()) {
    const [pair] = line.split(';');
    const at = pair!.indexOf('=');
    out[pair!.slice(0, at)] = pair!.slice(at + 1);
  }
  return out;
}

export const cookieHeader = (cookies: Record<string, string>) =>
  Object.entries(cookies)
    .filter(([, v]) => v !== '')
    .map(([k, v]) => `${k}=${v}`)
    .join('; ');

/** The value of the first `name="csrf"` hidden field of a page. */
export function csrfOf(page: string): string {
  const match = /name="csrf" value="([^"]+)"/.exec(page);
  if (!match) throw new Error('no csrf field on the page');
  return match[1]!;
}

/** A one-time sign-in link for a (new or existing) member, as `quire members create` makes it. */
export async function signInLink(baseUrl: string, orgId: string, email: string, role?: MemberRole): Promise<{ url: string; token: string; userId: string }> {
  const p = platform();
  const { membership } = await addMember(p, { orgId, email, role });
  const { token } = await issueSignInLink(p, orgId, membership.user_id);
  return { url: `${baseUrl}/dashboard/sign-in/link?token=${token}`, token, userId: membership.user_id };
}

/** Signs a member in through the link flow over HTTP, as a browser would (GET the link page, POST its form). */
export async function signIn(baseUrl: string, orgId: string, email: string, role?: MemberRole): Promise<Member> {
  const { url, token, userId } = await signInLink(baseUrl, orgId, email, role);
  const landing = await fetch(url, { headers: { accept: 'text/html' } });
  const jar = cookiesOf(landing);
  const form = new URLSearchParams({ csrf: csrfOf(await landing.text()), token });
  const used = await fetch(`${baseUrl}/dashboard/sign-in/link`, {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded', cookie: cookieHeader(jar), origin: baseUrl, accept: 'text/html' },
    body: form,
    redirect: 'manual',
  });
  if (used.status !== 303) throw new Error(`sign-in failed: ${used.status} ${await used.text()}`);
  Object.assign(jar, cookiesOf(used));
  const cookie = cookieHeader(jar);
  const keys = await fetch(`${baseUrl}/dashboard/keys?env=test`, { headers: { cookie, accept: 'text/html' } });
  return { userId, email, cookie, csrf: csrfOf(await keys.text()) };
}

/** A dashboard request of a signed-in member: GET, or a form POST carrying the member's CSRF token. */
export async function dash(baseUrl: string, member: Member | null, method: 'GET' | 'POST', path: string, form: Record<string, string> = {}, headers: Record<string, string> = {}) {
  const init: RequestInit = { method, headers: { accept: 'text/html', ...(member ? { cookie: member.cookie } : {}), ...headers }, redirect: 'manual' };
  if (method === 'POST') {
    init.headers = { 'content-type': 'application/x-www-form-urlencoded', origin: baseUrl, ...init.headers };
    init.body = new URLSearchParams({ ...(member ? { csrf: member.csrf } : {}), ...form });
  }
  const response = await fetch(`${baseUrl}${path}`, init);
  return { status: response.status, headers: response.headers, text: await response.text(), response };
}
