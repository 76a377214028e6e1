/**
 * Dashboard sign-in and sessions over HTTP against the real local cloud: one-time links (single
 * use, 15 minutes), passwords (scrypt, never in clear), the rate limit, cookies (HttpOnly,
 * SameSite=Strict, Secure on HTTPS), sign-out, CSRF, the Content-Security-Policy, and the wall
 * between sessions and API keys (a session never works on /v1, a key never on /dashboard).
 */
import { DynamoDBClient, ScanCommand } from '@aws-sdk/client-dynamodb';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { consumeSignInLink, SIGN_IN_LIMITS } from '../../../functions/members/members.ts';
import { createSession, readSession, SESSION_TTL_MS } from '../../../functions/dashboard/sessions.ts';
import { platform } from '../../../functions/platform/platform.ts';
import { startTestCloud, type TestCloud } from '../../support/cloud.ts';
import { cookieHeader, cookiesOf, csrfOf, dash, signIn, signInLink } from '../../support/dashboard.ts';

let cloud: TestCloud;
beforeAll(async () => {
  cloud = await startTestCloud();
});
afterAll(() => cloud?.close());

describe('one-time sign-in links', () => {
  it('sign in once: the session cookie is HttpOnly and SameSite=Strict, the pages carry a strict CSP', async () => {
    const { url, token } = await signInLink(cloud.url, cloud.orgId, 'first@example.com');
    const landing = await fetch(url, { headers: { accept: 'text/html' } });
    expect(landing.status).toBe(200);
    const csp = landing.headers.get('content-security-policy')!;
    expect(csp).toContain("default-src 'none'");
    expect(csp).toContain("script-src 'self'");
    expect(csp).not.toContain('unsafe-inline');
    expect(csp).toContain("frame-ancestors 'none'");
    expect(landing.headers.get('referrer-policy')).toBe('same-origin');
    const body = await landing.text();
    // Nothing inline: no <script> with code, no style attributes.
    expect(body).not.toMatch(/<script(?![^>]*\bsrc=)(?![^>]*application\/json)[^>]*>/);
    expect(body).not.toMatch(/\sstyle=/);
    const jar = cookiesOf(landing);

    const post = (cookies: Record<string, string>) =>
      fetch(`${cloud.url}/dashboard/sign-in/link`, {
        method: 'POST',
        headers: { 'content-type': 'application/x-www-form-urlencoded', cookie: cookieHeader(cookies), origin: cloud.url, accept: 'text/html' },
        body: new URLSearchParams({ csrf: csrfOf(body), token }),
        redirect: 'manual',
      });
    const used = await post(jar);
    expect(used.status).toBe(303);
    const setCookie = used.headers.getSetCookie().find((c) => c.startsWith('quire_session='))!;
    expect(setCookie).toMatch(/HttpOnly/);
    expect(setCookie).toMatch(/SameSite=Strict/);
    expect(setCookie).toMatch(/Max-Age=\d+/);
    expect(setCookie).not.toMatch(/Secure/); // plain HTTP locally
    const session = { ...jar, ...cookiesOf(used) };
    const runs = await fetch(`${cloud.url}/dashboard/keys?env=test`, { headers: { cookie: cookieHeader(session), accept: 'text/html' } });
    expect(runs.status).toBe(200);
    expect(await runs.text()).toContain('first@example.com');

    // The same link again: refused.
    const again = await post(jar);
    expect(again.status).toBe(401);
    expect(await again.text()).toContain('not valid');
  });

  it('a link expires after 15 minutes; an unknown token is refused', async () => {
    const { token } = await signInLink(cloud.url, cloud.orgId, 'late@example.com');
    const p = platform();
    const later = { ...p, clock: { now: () => new Date(Date.now() + 15 * 60_000 + 1000) } };
    await expect(consumeSignInLink(later, token)).rejects.toThrow(/not valid/);
    await expect(consumeSignInLink(p, 'x'.repeat(43))).rejects.toThrow(/not valid/);
  });

  it('a session expires after 12 hours', async () => {
    const p = platform();
    const { token } = await createSession(p, 'usr_01m7z0qenejn1pv4p44vpcbwww', cloud.orgId);
    expect(await readSession(p, token)).toBeDefined();
    const later = { ...p, clock: { now: () => new Date(Date.now() + SESSION_TTL_MS + 1000) } };
    expect(await readSession(later, token)).toBeUndefined();
  });

  it('on HTTPS the cookies are Secure with the __Host- prefix', async () => {
    const page = await fetch(`${cloud.url}/dashboard/sign-in`, { headers: { 'x-forwarded-proto': 'https', accept: 'text/html' } });
    const csrf = page.headers.getSetCookie().find((c) => c.startsWith('__Host-quire_csrf='))!;
    expect(csrf).toMatch(/; Secure/);
    expect(csrf).toMatch(/Path=\//);
    expect(csrf).toMatch(/HttpOnly/);
  });
});

describe('passwords and sessions', () => {
  it('a member sets a password (stored as scrypt, never in clear), signs in with it, signs out', async () => {
    const member = await signIn(cloud.url, cloud.orgId, 'pw@example.com');
    const password = 'correct horse battery staple';
    const set = await dash(cloud.url, member, 'POST', '/dashboard/account/password', { password });
    expect(set.status).toBe(200);
    expect(set.text).toContain('Password set');
    // A short password is refused.
    expect((await dash(cloud.url, member, 'POST', '/dashboard/account/password', { password: 'short' })).status).toBe(422);

    // Nowhere in the table in clear; the hash is scrypt.
    const client = new DynamoDBClient({ region: cloud.endpoints.region, endpoint: cloud.endpoints.dynamodb, credentials: { accessKeyId: 'x', secretAccessKey: 'x' } });
    const scan = await client.send(new ScanCommand({ TableName: cloud.endpoints.table }));
    const dump = JSON.stringify(scan.Items);
    expect(dump).not.toContain(password);
    expect(dump).toContain('"scrypt"');

    // Sign out: the session is gone.
    const out = await dash(cloud.url, member, 'POST', '/dashboard/sign-out');
    expect(out.status).toBe(303);
    expect((await dash(cloud.url, member, 'GET', '/dashboard/keys?env=test')).status).toBe(303);

    // Sign in with the password.
    const page = await fetch(`${cloud.url}/dashboard/sign-in`, { headers: { accept: 'text/html' } });
    const jar = cookiesOf(page);
    const signInWith = (pw: string) =>
      fetch(`${cloud.url}/dashboard/sign-in`, {
        method: 'POST',
        headers: { 'content-type': 'application/x-www-form-urlencoded', cookie: cookieHeader(jar), origin: cloud.url, accept: 'text/html' },
        body: new URLSearchParams({ csrf: jar.quire_csrf!, email: 'PW@example.com', password: pw, next: '/dashboard/keys?env=production' }),
        redirect: 'manual',
      });
    const wrong = await signInWith('not the password at all');
    expect(wrong.status).toBe(401);
    const right = await signInWith(password);
    expect(right.status).toBe(303);
    expect(right.headers.get('location')).toBe('/dashboard/keys?env=production');
    expect(cookiesOf(right).quire_session).toMatch(/^[A-Za-z0-9_-]{43}$/);
  });

  it(`rate limits password sign-in: after ${SIGN_IN_LIMITS.perEmail.max} failures even the right password is refused (429)`, async () => {
    const member = await signIn(cloud.url, cloud.orgId, 'limited@example.com');
    expect((await dash(cloud.url, member, 'POST', '/dashboard/account/password', { password: 'the right password!' })).status).toBe(200);
    const page = await fetch(`${cloud.url}/dashboard/sign-in`, { headers: { accept: 'text/html' } });
    const jar = cookiesOf(page);
    const attempt = (pw: string) =>
      fetch(`${cloud.url}/dashboard/sign-in`, {
        method: 'POST',
        headers: { 'content-type': 'application/x-www-form-urlencoded', cookie: cookieHeader(jar), origin: cloud.url, accept: 'text/html' },
        body: new URLSearchParams({ csrf: jar.quire_csrf!, email: 'limited@example.com', password: pw }),
        redirect: 'manual',
      });
    for (let i = 0; i < SIGN_IN_LIMITS.perEmail.max; i++) expect((await attempt(`wrong ${i}`)).status).toBe(401);
    const blocked = await attempt('the right password!');
    expect(blocked.status).toBe(429);
    expect(await blocked.text()).toContain('Too many sign-in attempts');
  });
});

describe('CSRF and origins', () => {
  it('refuses a state-changing request without the CSRF token, with a wrong one, or from another site', async () => {
    const member = await signIn(cloud.url, cloud.orgId, 'csrf@example.com', 'admin');
    const create = (form: Record<string, string>, headers: Record<string, string> = {}) => dash(cloud.url, member, 'POST', '/dashboard/keys', { env: 'test', name: 'x', role: 'viewer', ...form }, headers);
    expect((await create({ csrf: '' })).status).toBe(403);
    expect((await create({ csrf: 'A'.repeat(43) })).status).toBe(403);
    expect((await create({}, { origin: 'https://evil.example' })).status).toBe(403);
    expect((await create({}, { 'sec-fetch-site': 'cross-site' })).status).toBe(403);
    expect((await create({})).status).toBe(303); // created: on to the page that shows the key once
    // The pre-session forms too: signing in without the double-submit cookie's token.
    const noToken = await fetch(`${cloud.url}/dashboard/sign-in`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded', origin: cloud.url },
      body: new URLSearchParams({ email: 'csrf@example.com', password: 'whatever it is' }),
    });
    expect(noToken.status).toBe(403);
  });
});

describe('sessions and API keys stay apart', () => {
  it('a session cookie does not authenticate /v1; an API key does not sign in to /dashboard', async () => {
    const member = await signIn(cloud.url, cloud.orgId, 'apart@example.com');
    const v1 = await fetch(`${cloud.url}/v1/auth/status`, { headers: { cookie: member.cookie } });
    expect(v1.status).toBe(401);
    const files = await fetch(`${cloud.url}/v1/files`, { headers: { cookie: member.cookie } });
    expect(files.status).toBe(401);

    for (const key of [cloud.keys.test, cloud.keys.live]) {
      const page = await fetch(`${cloud.url}/dashboard/keys?env=test`, { headers: { authorization: `Bearer ${key}`, accept: 'text/html' }, redirect: 'manual' });
      expect(page.status).toBe(303);
      expect(page.headers.get('location')).toMatch(/^\/dashboard\/sign-in/);
      const json = await fetch(`${cloud.url}/dashboard/keys?env=test`, { headers: { authorization: `Bearer ${key}` } });
      expect(json.status).toBe(401);
      expect(((await json.json()) as { detail: string }).detail).toMatch(/Sign in/);
    }
    // A key in the sign-in form is not a password of anyone.
    const page = await fetch(`${cloud.url}/dashboard/sign-in`, { headers: { accept: 'text/html' } });
    const jar = cookiesOf(page);
    const tried = await fetch(`${cloud.url}/dashboard/sign-in`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded', cookie: cookieHeader(jar), origin: cloud.url, accept: 'text/html' },
      body: new URLSearchParams({ csrf: jar.quire_csrf!, email: 'apart@example.com', password: cloud.keys.test }),
      redirect: 'manual',
    });
    expect(tried.status).toBe(401);
  });
});
