/**
 * Members of organizations (people, not programs): a user is one e-mail address with an optional
 * password; a membership gives a user a role in one organization (owner, admin, developer, viewer).
 * Membership is global to the organization: both environments, chosen per view.
 *
 * Items (unscoped, DESIGN §3):
 *   user#<user_id>                   the user (password as a scrypt hash, never in clear)
 *   useremail#<email>                e-mail → user id, written once (conditional)
 *   member#<org_id>#<user_id>        the membership, listed through `<org_id>#members`
 *   memberof#<user_id>#<org_id>      the same, listed through `<user_id>#memberships`
 *   signinlink#<sha256(token)>       a one-time sign-in link (15 minutes); its use is
 *   signinlinkused#<sha256(token)>   written once (conditional), so a link signs in at most once
 */
import { createHash, randomBytes } from 'node:crypto';
import { getOrganization } from '../auth/service.ts';
import { Conflict, Forbidden, Invalid, NotFound, Unauthorized } from '../platform/errors.ts';
import { timestamp } from '../platform/ids.ts';
import type { Platform } from '../platform/platform.ts';
import { burnVerification, hashPassword, PASSWORD_MAX, PASSWORD_MIN, verifyPassword, type PasswordHash } from './passwords.ts';
import { claimAttempt, hasRoom, type Window } from './rate-limit.ts';

export const MEMBER_ROLES = ['owner', 'admin', 'developer', 'viewer'] as const;
export type MemberRole = (typeof MEMBER_ROLES)[number];

export interface User {
  id: string;
  email: string;
  created_at: string;
  password: PasswordHash | null;
  password_set_at: string | null;
}

export interface Membership {
  organization_id: string;
  user_id: string;
  email: string;
  role: MemberRole;
  created_at: string;
}

interface SignInLink {
  user_id: string;
  organization_id: string;
  created_at: string;
  expires_at: string;
}

export const SIGN_IN_LINK_TTL_MS = 15 * 60_000;
/** Failed password sign-ins allowed per e-mail address and per client address, per window. */
export const SIGN_IN_LIMITS: { perEmail: Window; perAddress: Window } = {
  perEmail: { max: 10, windowMs: 15 * 60_000 },
  perAddress: { max: 50, windowMs: 15 * 60_000 },
};

const userKey = (id: string) => `user#${id}`;
const emailKey = (email: string) => `useremail#${email}`;
const memberKey = (orgId: string, userId: string) => `member#${orgId}#${userId}`;
const membersIndex = (orgId: string) => `${orgId}#members`;
const memberOfKey = (userId: string, orgId: string) => `memberof#${userId}#${orgId}`;
const membershipsIndex = (userId: string) => `${userId}#memberships`;
const sha256 = (value: string) => createHash('sha256').update(value, 'utf8').digest('hex');

const EMAIL = /^[^\s@]{1,64}@[^\s@]{1,255}$/;

export function normalizeEmail(email: string): string {
  const normalized = email.trim().toLowerCase();
  if (!EMAIL.test(normalized)) throw Invalid.at(['email'], 'not an e-mail address', 'value_error');
  return normalized;
}

export function isMemberRole(value: unknown): value is MemberRole {
  return typeof value === 'string' && (MEMBER_ROLES as readonly string[]).includes(value);
}

export async function getUser(p: Platform, userId: string): Promise<User | undefined> {
  return p.store.getItem<User>(userKey(userId));
}

async function userByEmail(p: Platform, email: string): Promise<User | undefined> {
  const lookup = await p.store.getItem<{ user_id: string }>(emailKey(email));
  return lookup ? getUser(p, lookup.user_id) : undefined;
}

/** The user of this e-mail address, created on first use (two concurrent calls end with one user). */
async function ensureUser(p: Platform, email: string): Promise<User> {
  const existing = await userByEmail(p, email);
  if (existing) return existing;
  const user: User = { id: p.ids.next('usr'), email, created_at: timestamp(p.clock.now()), password: null, password_set_at: null };
  await p.store.putItem(userKey(user.id), user);
  if (await p.store.putItem(emailKey(email), { user_id: user.id }, { ifAbsent: true })) return user;
  await p.store.deleteItem(userKey(user.id));
  const winner = await userByEmail(p, email);
  if (!winner) throw new Conflict('The user is being created by another request; try again');
  return winner;
}

export async function getMembership(p: Platform, orgId: string, userId: string): Promise<Membership | undefined> {
  return p.store.getItem<Membership>(memberKey(orgId, userId));
}

export async function listMembers(p: Platform, orgId: string): Promise<Membership[]> {
  const members = await p.store.listItems<Membership>(membersIndex(orgId));
  return members.sort((a, b) => a.created_at.localeCompare(b.created_at));
}

export async function membershipsOf(p: Platform, userId: string): Promise<Membership[]> {
  const refs = await p.store.listItems<{ organization_id: string }>(membershipsIndex(userId));
  const found = await Promise.all(refs.map((ref) => getMembership(p, ref.organization_id, userId)));
  return found.filter((m): m is Membership => m !== undefined).sort((a, b) => a.created_at.localeCompare(b.created_at));
}

async function putMembership(p: Platform, membership: Membership): Promise<void> {
  await p.store.putIndexedItem(memberKey(membership.organization_id, membership.user_id), membersIndex(membership.organization_id), membership);
  await p.store.putIndexedItem(memberOfKey(membership.user_id, membership.organization_id), membershipsIndex(membership.user_id), { organization_id: membership.organization_id });
}

/**
 * Adds the person with this e-mail to the organization. An existing member keeps the membership
 * (and its role unless `role` is given). Without a role, the first member of an organization is
 * its owner and later ones are developers.
 */
export async function addMember(p: Platform, input: { orgId: string; email: string; role?: MemberRole }): Promise<{ membership: Membership; user: User; created: boolean }> {
  const org = await getOrganization(p, input.orgId);
  const email = normalizeEmail(input.email);
  const user = await ensureUser(p, email);
  const existing = await getMembership(p, org.id, user.id);
  if (existing) {
    if (input.role && input.role !== existing.role) {
      const changed = { ...existing, role: input.role };
      await putMembership(p, changed);
      return { membership: changed, user, created: false };
    }
    return { membership: existing, user, created: false };
  }
  const role = input.role ?? ((await listMembers(p, org.id)).length === 0 ? 'owner' : 'developer');
  const membership: Membership = { organization_id: org.id, user_id: user.id, email, role, created_at: timestamp(p.clock.now()) };
  await putMembership(p, membership);
  return { membership, user, created: true };
}

/** Changes a member's role; only an owner gives or takes the owner role, and an organization keeps an owner. */
export async function changeRole(p: Platform, actor: Membership, userId: string, role: MemberRole): Promise<Membership> {
  const target = await getMembership(p, actor.organization_id, userId);
  if (!target) throw NotFound.of('Member', userId);
  if ((role === 'owner' || target.role === 'owner') && actor.role !== 'owner') throw new Forbidden('Only an owner can give or take the owner role');
  if (target.role === 'owner' && role !== 'owner') await keepAnOwner(p, actor.organization_id, userId);
  const changed = { ...target, role };
  await putMembership(p, changed);
  return changed;
}

export async function removeMember(p: Platform, actor: Membership, userId: string): Promise<void> {
  const target = await getMembership(p, actor.organization_id, userId);
  if (!target) throw NotFound.of('Member', userId);
  if (target.role === 'owner' && actor.role !== 'owner') throw new Forbidden('Only an owner can remove an owner');
  if (target.role === 'owner') await keepAnOwner(p, actor.organization_id, userId);
  await p.store.deleteItem(memberKey(actor.organization_id, userId));
  await p.store.deleteItem(memberOfKey(userId, actor.organization_id));
}

async function keepAnOwner(p: Platform, orgId: string, leavingUserId: string): Promise<void> {
  const owners = (await listMembers(p, orgId)).filter((m) => m.role === 'owner' && m.user_id !== leavingUserId);
  if (owners.length === 0) throw new Conflict('An organization keeps at least one owner');
}

export async function setPassword(p: Platform, userId: string, password: string): Promise<void> {
  if (password.length < PASSWORD_MIN || password.length > PASSWORD_MAX) {
    throw Invalid.at(['password'], `a password has ${PASSWORD_MIN} to ${PASSWORD_MAX} characters`, 'value_error');
  }
  const user = await getUser(p, userId);
  if (!user) throw NotFound.of('User', userId);
  await p.store.putItem(userKey(user.id), { ...user, password: await hashPassword(password), password_set_at: timestamp(p.clock.now()) });
}

/** A one-time sign-in link token for a member (valid 15 minutes, single use). */
export async function issueSignInLink(p: Platform, orgId: string, userId: string): Promise<{ token: string; expiresAt: string }> {
  if (!(await getMembership(p, orgId, userId))) throw NotFound.of('Member', userId);
  const token = randomBytes(32).toString('base64url');
  const now = p.clock.now();
  const link: SignInLink = { user_id: userId, organization_id: orgId, created_at: timestamp(now), expires_at: timestamp(new Date(now.getTime() + SIGN_IN_LINK_TTL_MS)) };
  await p.store.putItem(`signinlink#${sha256(token)}`, link);
  return { token, expiresAt: link.expires_at };
}

const LINK_FAILURE = 'This sign-in link is not valid: it was used already, has expired, or was never issued. Ask for a new one.';

/** Uses a sign-in link: the member it signs in, or 401. A link works once. */
export async function consumeSignInLink(p: Platform, token: string): Promise<{ userId: string; orgId: string }> {
  if (!/^[A-Za-z0-9_-]{43}$/.test(token)) throw new Unauthorized(LINK_FAILURE);
  const hash = sha256(token);
  const link = await p.store.getItem<SignInLink>(`signinlink#${hash}`);
  if (!link) throw new Unauthorized(LINK_FAILURE);
  if (!(await p.store.putItem(`signinlinkused#${hash}`, { used_at: timestamp(p.clock.now()) }, { ifAbsent: true }))) throw new Unauthorized(LINK_FAILURE);
  await p.store.deleteItem(`signinlink#${hash}`);
  if (Date.parse(link.expires_at) <= p.clock.now().getTime()) throw new Unauthorized(LINK_FAILURE);
  if (!(await getMembership(p, link.organization_id, link.user_id))) throw new Unauthorized(LINK_FAILURE);
  return { userId: link.user_id, orgId: link.organization_id };
}

export class TooManyAttempts extends Error {
  override name = 'TooManyAttempts';
}

/**
 * Password sign-in, rate limited: failed attempts are counted per e-mail address and per client
 * address; once either is spent, every attempt is refused until the window ends (right password
 * or not). Signs in to the member's first organization.
 */
export async function passwordSignIn(p: Platform, input: { email: string; password: string; address: string }): Promise<{ userId: string; orgId: string }> {
  const email = input.email.trim().toLowerCase();
  const buckets: Array<[string, Window]> = [
    [`signin-email#${sha256(email)}`, SIGN_IN_LIMITS.perEmail],
    [`signin-address#${sha256(input.address)}`, SIGN_IN_LIMITS.perAddress],
  ];
  for (const [bucket, limit] of buckets) if (!(await hasRoom(p, bucket, limit))) throw new TooManyAttempts('Too many sign-in attempts: wait a few minutes and try again');
  const user = EMAIL.test(email) ? await userByEmail(p, email) : undefined;
  const ok = user?.password ? await verifyPassword(input.password, user.password) : (await burnVerification(input.password), false);
  const memberships = ok && user ? await membershipsOf(p, user.id) : [];
  if (!ok || !user || memberships.length === 0) {
    for (const [bucket, limit] of buckets) await claimAttempt(p, bucket, limit);
    throw new Unauthorized('Wrong e-mail address or password');
  }
  return { userId: user.id, orgId: memberships[0]!.organization_id };
}
