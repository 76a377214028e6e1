/**
 * Dashboard sessions: a random token in an HttpOnly, SameSite=Strict cookie (Secure on HTTPS);
 * only its SHA-256 is stored, with the member, the organization, the CSRF token of the session and
 * when it ends. Sessions are for people on /dashboard only: /v1 reads API keys and nothing else.
 */
import { createHash, randomBytes, timingSafeEqual } from 'node:crypto';
import { timestamp } from '../platform/ids.ts';
import type { Platform } from '../platform/platform.ts';

export interface Session {
  user_id: string;
  organization_id: string;
  /** The CSRF token every state-changing request of this session must carry. */
  csrf: string;
  created_at: string;
  expires_at: string;
}

export const SESSION_TTL_MS = 12 * 60 * 60_000;

const sessionKey = (token: string) => `dashsession#${createHash('sha256').update(token, 'utf8').digest('hex')}`;
const TOKEN = /^[A-Za-z0-9_-]{43}$/;

export function randomToken(): string {
  return randomBytes(32).toString('base64url');
}

export async function createSession(p: Platform, userId: string, orgId: string): Promise<{ token: string; session: Session }> {
  const token = randomToken();
  const now = p.clock.now();
  const session: Session = {
    user_id: userId,
    organization_id: orgId,
    csrf: randomToken(),
    created_at: timestamp(now),
    expires_at: timestamp(new Date(now.getTime() + SESSION_TTL_MS)),
  };
  await p.store.putItem(sessionKey(token), session);
  return { token, session };
}

/** The live session of a cookie value; undefined when unknown, ended or expired. */
export async function readSession(p: Platform, token: string | undefined): Promise<Session | undefined> {
  if (!token || !TOKEN.test(token)) return undefined;
  const session = await p.store.getItem<Session>(sessionKey(token));
  if (!session || Date.parse(session.expires_at) <= p.clock.now().getTime()) return undefined;
  return session;
}

export async function switchOrganization(p: Platform, token: string, session: Session, orgId: string): Promise<void> {
  await p.store.putItem(sessionKey(token), { ...session, organization_id: orgId });
}

export async function endSession(p: Platform, token: string | undefined): Promise<void> {
  if (token && TOKEN.test(token)) await p.store.deleteItem(sessionKey(token));
}

/** Where to go after signing in: a dashboard path of this site only. */
export function safeNext(next: string | null | undefined): string {
  return next && /^\/dashboard(\/[A-Za-z0-9/_-]*)?(\?[^\s]*)?$/.test(next) && !next.startsWith('//') ? next : '/dashboard';
}

/** Constant-time comparison of two tokens (CSRF). */
export function sameToken(a: string | undefined, b: string | undefined): boolean {
  if (!a || !b) return false;
  const x = Buffer.from(a);
  const y = Buffer.from(b);
  return x.length === y.length && timingSafeEqual(x, y);
}
