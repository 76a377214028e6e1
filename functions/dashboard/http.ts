/**
 * The dashboard's HTTP plumbing: cookies, the signed-in member of a request, CSRF, security headers
 * and error pages. Dashboard handlers are `dashboard(options, async (req) => reply)`.
 *
 * - Authentication is the session cookie only: an `Authorization` header is never looked at, so an
 *   API key cannot sign in here (and /v1 never reads the cookie).
 * - Every request that is not GET must come from a page of this origin (Origin / Sec-Fetch-Site)
 *   and carry the CSRF token: the session's, or before sign-in the double-submit cookie's.
 * - Pages answer with a strict Content-Security-Policy (scripts and styles of this origin only, no
 *   inline code), no framing, referrers only within this origin, no caching.
 * - A request without a session is sent to the sign-in page when it is a page view, and answered
 *   401 JSON otherwise (the page scripts' own calls, programs).
 */
import type { APIGatewayProxyEventV2, APIGatewayProxyStructuredResultV2 } from 'aws-lambda';
import { getOrganization, type Organization } from '../auth/service.ts';
import { AppError, Forbidden, Invalid, isServiceBusy } from '../platform/errors.ts';
import { ulidBody } from '../platform/ids.ts';
import { logger } from '../platform/logger.ts';
import { isMultipart, parseMultipart, type FormFile } from '../platform/multipart.ts';
import { platform, type Platform } from '../platform/platform.ts';
import type { Scope } from '../platform/ports.ts';
import { html, type Html } from './html.ts';
import { getMembership, getUser, membershipsOf, TooManyAttempts, type Membership, type User } from '../members/members.ts';
import { randomToken, readSession, sameToken, type Session } from './sessions.ts';

export const ENVIRONMENTS = ['test', 'production'] as const;
export type Environment = (typeof ENVIRONMENTS)[number];

export const CONTENT_SECURITY_POLICY = [
  "default-src 'none'",
  "script-src 'self'",
  "style-src 'self'",
  "img-src 'self' blob: data:",
  "connect-src 'self'",
  "worker-src 'self'",
  "font-src 'self' data:",
  "form-action 'self'",
  "frame-ancestors 'none'",
  "base-uri 'none'",
].join('; ');

const PAGE_HEADERS = {
  'content-security-policy': CONTENT_SECURITY_POLICY,
  'x-content-type-options': 'nosniff',
  'x-frame-options': 'DENY',
  // same-origin, not no-referrer: with no-referrer browsers send `Origin: null` on form posts, which the origin check refuses.
  'referrer-policy': 'same-origin',
  'cache-control': 'no-store',
  'cross-origin-opener-policy': 'same-origin',
};

export interface Reply {
  status: number;
  body: string | Buffer;
  contentType: string;
  headers?: Record<string, string>;
  cookies?: string[];
}

export interface SignedIn {
  token: string;
  session: Session;
  user: User;
  membership: Membership;
  org: Organization;
  memberships: Membership[];
}

export interface DashRequest {
  event: APIGatewayProxyEventV2;
  platform: Platform;
  requestId: string;
  query: URLSearchParams;
  /** The text fields of a POSTed form, url-encoded or multipart (empty otherwise). */
  form: URLSearchParams;
  /** The file fields of a multipart form. */
  files: Record<string, FormFile>;
  cookies: Record<string, string>;
  /** Served over HTTPS (API Gateway): cookies get Secure and the __Host- prefix. */
  secure: boolean;
  /** The pre-session CSRF token (double-submit cookie), set on this response when new. */
  preCsrf: string;
  member?: SignedIn;
  /** Cookies this response sets (sign-in, sign-out, the pre-session token). */
  setCookies: string[];
}

export type MemberRequest = DashRequest & { member: SignedIn };

export function page(body: Html | string, status = 200): Reply {
  return { status, body: String(body), contentType: 'text/html; charset=utf-8' };
}
export function redirect(location: string): Reply {
  return { status: 303, body: '', contentType: 'text/plain', headers: { location } };
}
export function jsonReply(value: unknown, status = 200): Reply {
  return { status, body: JSON.stringify(value), contentType: 'application/json' };
}

export function cookieName(base: string, secure: boolean): string {
  // __Host-: only sent to this host, over HTTPS, for path / (browsers enforce it).
  return secure ? `__Host-${base}` : base;
}

export function setCookie(req: DashRequest, base: string, value: string, maxAgeSeconds: number): void {
  const parts = [`${cookieName(base, req.secure)}=${value}`, 'Path=/', 'HttpOnly', 'SameSite=Strict', `Max-Age=${maxAgeSeconds}`];
  if (req.secure) parts.push('Secure');
  req.setCookies.push(parts.join('; '));
}

export const SESSION_COOKIE = 'quire_session';
const CSRF_COOKIE = 'quire_csrf';

function parseCookies(event: APIGatewayProxyEventV2): Record<string, string> {
  const out: Record<string, string> = {};
  const pieces = [...(event.cookies ?? []), ...(event.headers?.cookie ?? '').split(';')];
  for (const piece of pieces) {
    const at = piece.indexOf('=');
    if (at <= 0) continue;
    const name = piece.slice(0, at).trim();
    if (!Object.hasOwn(out, name)) out[name] = piece.slice(at + 1).trim();
  }
  return out;
}

function bodyText(event: APIGatewayProxyEventV2): string {
  if (!event.body) return '';
  return event.isBase64Encoded ? Buffer.from(event.body, 'base64').toString('utf8') : event.body;
}

function wantsHtml(event: APIGatewayProxyEventV2): boolean {
  return /text\/html/.test(event.headers?.accept ?? '');
}

/** Requests that change state come from this origin's own pages. */
function checkSameOrigin(event: APIGatewayProxyEventV2): void {
  const site = event.headers?.['sec-fetch-site'];
  if (site && site !== 'same-origin') throw new Forbidden('Cross-site request refused');
  const origin = event.headers?.origin;
  if (origin !== undefined) {
    let host: string;
    try {
      host = new URL(origin).host;
    } catch {
      throw new Forbidden('Cross-site request refused');
    }
    if (host !== event.headers?.host) throw new Forbidden('Cross-site request refused');
  }
}

export function environmentOf(req: DashRequest): Environment {
  const value = req.form.get('env') ?? req.query.get('env') ?? 'test';
  if (!(ENVIRONMENTS as readonly string[]).includes(value)) throw Invalid.at(['query', 'env'], 'env must be test or production');
  return value as Environment;
}

export function scopeOf(req: MemberRequest, env: Environment): Scope {
  return { orgId: req.member.org.id, envId: req.member.org.environments[env] };
}

async function signedIn(p: Platform, token: string | undefined): Promise<SignedIn | undefined> {
  const session = await readSession(p, token);
  if (!session || !token) return undefined;
  const [user, membership] = await Promise.all([getUser(p, session.user_id), getMembership(p, session.organization_id, session.user_id)]);
  // A member removed from the organization is signed out of it at once.
  if (!user || !membership) return undefined;
  const [org, memberships] = await Promise.all([getOrganization(p, session.organization_id), membershipsOf(p, user.id)]);
  return { token, session, user, membership, org, memberships };
}

export class NotSignedIn extends Error {
  override name = 'NotSignedIn';
}

type Result = APIGatewayProxyStructuredResultV2;

export interface DashboardOptions {
  /** `member`: a signed-in member is required. */
  auth: 'none' | 'member';
  /** For POST routes: which CSRF token the form must carry. */
  csrf?: 'session' | 'pre-session';
  /** Static files: no cookie is read or set (their answers may be cached). */
  static?: boolean;
}

/** Renders an error for the person (a page) or the page scripts (JSON). */
export type ErrorPage = (req: DashRequest | undefined, status: number, message: string) => Html;

let errorPage: ErrorPage = (_req, status, message) => html`<!doctype html><title>${status}</title><p>${message}</p>`;
export function setErrorPage(render: ErrorPage): void {
  errorPage = render;
}

function messageOf(error: AppError): string {
  const body = error.body() as { detail?: unknown };
  if (typeof body.detail === 'string') return body.detail;
  if (Array.isArray(body.detail)) return body.detail.map((issue: { loc?: unknown[]; msg?: string }) => `${(issue.loc ?? []).slice(1).join('.') || 'request'}: ${issue.msg}`).join('; ');
  return error.message;
}

export function dashboard(options: DashboardOptions, fn: (req: MemberRequest) => Promise<Reply>): (event: APIGatewayProxyEventV2) => Promise<Result>;
export function dashboard(options: DashboardOptions, fn: (req: DashRequest) => Promise<Reply>): (event: APIGatewayProxyEventV2) => Promise<Result>;
export function dashboard(options: DashboardOptions, fn: (req: never) => Promise<Reply>) {
  return async (event: APIGatewayProxyEventV2): Promise<Result> => {
    const started = Date.now();
    const requestId = `req_${ulidBody(started)}`;
    const method = event.requestContext?.http?.method ?? 'GET';
    let req: DashRequest | undefined;
    let reply: Reply;
    try {
      const p = platform();
      const cookies = parseCookies(event);
      const secure = (event.headers?.['x-forwarded-proto'] ?? '').toLowerCase() === 'https';
      const contentType = event.headers?.['content-type'] ?? '';
      const isForm = /application\/x-www-form-urlencoded/i.test(contentType);
      const form = new URLSearchParams();
      const files: Record<string, FormFile> = {};
      if (method !== 'GET' && isForm) new URLSearchParams(bodyText(event)).forEach((value, key) => form.append(key, value));
      if (method !== 'GET' && isMultipart(contentType) && event.body) {
        const raw = event.isBase64Encoded ? Buffer.from(event.body, 'base64') : Buffer.from(event.body, 'utf8');
        for (const [name, value] of Object.entries(parseMultipart(raw, contentType))) {
          if (typeof value === 'string') form.append(name, value);
          else files[name] = value;
        }
      }
      req = {
        event,
        platform: p,
        requestId,
        query: new URLSearchParams(event.rawQueryString ?? ''),
        form,
        files,
        cookies,
        secure,
        preCsrf: cookies[cookieName(CSRF_COOKIE, secure)] ?? '',
        setCookies: [],
      };
      if (options.static) {
        reply = await fn(req as never);
        return finish(event, req, reply, requestId, started);
      }
      if (!/^[A-Za-z0-9_-]{43}$/.test(req.preCsrf)) {
        req.preCsrf = randomToken();
        setCookie(req, CSRF_COOKIE, req.preCsrf, 24 * 60 * 60);
      }
      if (method !== 'GET') checkSameOrigin(event);
      const token = cookies[cookieName(SESSION_COOKIE, secure)];
      req.member = token ? await signedIn(p, token) : undefined;
      if (options.auth === 'member' && !req.member) throw new NotSignedIn('Sign in to the dashboard first');
      // A session-bound form without a session (signing out twice) has nothing to protect: the handler decides.
      if (method !== 'GET' && options.csrf && !(options.csrf === 'session' && !req.member)) {
        const sent = req.form.get('csrf') ?? event.headers?.['x-csrf-token'];
        const expected = options.csrf === 'session' ? req.member?.session.csrf : cookies[cookieName(CSRF_COOKIE, secure)];
        if (!sameToken(sent ?? undefined, expected)) throw new Forbidden('Missing or wrong CSRF token: reload the page and try again');
      }
      reply = await fn(req as never);
    } catch (error) {
      reply = errorReply(event, req, error);
    }
    return finish(event, req, reply, requestId, started);
  };
}

function finish(event: APIGatewayProxyEventV2, req: DashRequest | undefined, reply: Reply, requestId: string, started: number): Result {
  logger.info('request', { route: event.routeKey, status: reply.status, ms: Date.now() - started, request_id: requestId, org: req?.member?.org.id });
  const isBinary = Buffer.isBuffer(reply.body);
  return {
    statusCode: reply.status,
    headers: { ...PAGE_HEADERS, 'content-type': reply.contentType, 'x-request-id': requestId, ...reply.headers },
    cookies: [...(req?.setCookies ?? []), ...(reply.cookies ?? [])],
    body: isBinary ? (reply.body as Buffer).toString('base64') : (reply.body as string),
    isBase64Encoded: isBinary,
  };
}

function errorReply(event: APIGatewayProxyEventV2, req: DashRequest | undefined, error: unknown): Reply {
  const html = wantsHtml(event);
  if (error instanceof NotSignedIn) {
    if (html && (event.requestContext?.http?.method ?? 'GET') === 'GET') {
      const next = `${event.rawPath}${event.rawQueryString ? `?${event.rawQueryString}` : ''}`;
      return redirect(`/dashboard/sign-in?next=${encodeURIComponent(next)}`);
    }
    return html ? page(errorPage(req, 401, error.message), 401) : jsonReply({ detail: error.message }, 401);
  }
  let status: number;
  let message: string;
  if (error instanceof AppError) {
    status = error.status;
    message = messageOf(error);
  } else if (error instanceof TooManyAttempts) {
    status = 429;
    message = error.message;
  } else if (isServiceBusy(error)) {
    status = 503;
    message = 'The service is busy, retry shortly';
  } else {
    logger.error('Unhandled error', { error: error as Error });
    status = 500;
    message = 'Internal error';
  }
  if (!html) return jsonReply({ detail: message }, status);
  return page(errorPage(req?.member ? req : undefined, status, message), status);
}
