/**
 * The admin commands of `quire`, standing in for a dashboard: organizations and API keys.
 * They talk to the table directly, never through the HTTP API.
 */
import { existsSync, readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { createApiKey, createOrganization, listApiKeys, revokeApiKey } from '../../functions/auth/service.ts';
import { addMember, isMemberRole, issueSignInLink, listMembers, MEMBER_ROLES } from '../../functions/members/members.ts';
import { EnvironmentSlug, Role } from '../../functions/auth/schema.ts';
import { dynamoStore } from '../../functions/platform/dynamo-store.ts';
import { sdkCalls } from '../../functions/platform/dynamo-calls.ts';
import { AppError } from '../../functions/platform/errors.ts';
import { randomIds, systemClock } from '../../functions/platform/ids.ts';
import type { Platform } from '../../functions/platform/platform.ts';
import { UsageError } from './output.ts';
import { ADMIN_HELP } from './admin-help.ts';

process.env.AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED ??= 'true';



interface Target {
  platform: Platform;
  defaultOrg?: string;
  /** The local stack's URL (endpoints.json), for sign-in links. */
  baseUrl?: string;
}

function connect(values: { table?: string; region?: string }): Target {
  const dataDir = resolve(process.env.QUIRE_DATA_DIR ?? '.quire');
  if (values.table) {
    const client = new DynamoDBClient({ region: values.region ?? process.env.AWS_REGION });
    return { platform: adminPlatform(client, values.table) };
  }
  const endpointsFile = join(dataDir, 'endpoints.json');
  if (!existsSync(endpointsFile)) {
    throw new UsageError(`No local stack found (${endpointsFile} is missing): run npm start first, or pass --table and --region for a deployed stack`);
  }
  const endpoints = JSON.parse(readFileSync(endpointsFile, 'utf8')) as { api?: string; dynamodb: string; region: string; table: string };
  const client = new DynamoDBClient({ region: endpoints.region, endpoint: endpoints.dynamodb, credentials: { accessKeyId: 'local', secretAccessKey: 'local' } });
  const bootstrapFile = join(dataDir, 'bootstrap.json');
  const defaultOrg = existsSync(bootstrapFile) ? (JSON.parse(readFileSync(bootstrapFile, 'utf8')) as { organization_id: string }).organization_id : undefined;
  return { platform: adminPlatform(client, endpoints.table), defaultOrg, baseUrl: endpoints.api };
}

/** Key administration needs only the table; the other ports are not wired here. */
function adminPlatform(client: DynamoDBClient, table: string): Platform {
  const unavailable = new Proxy({}, { get: () => () => Promise.reject(new Error('not available in the admin CLI')) });
  return {
    config: undefined as never,
    store: dynamoStore(sdkCalls(client), table),
    blobs: unavailable as never,
    keyRing: unavailable as never,
    runner: unavailable as never,
    runEnds: unavailable as never,
    clock: systemClock,
    ids: randomIds(systemClock),
    ledger: unavailable as never,
    events: unavailable as never,
  };
}

function orgOf(values: { org?: string }, target: Target): string {
  const org = values.org ?? target.defaultOrg;
  if (!org) throw new UsageError('--org is required (no local bootstrap organization found)');
  return org;
}

function print(json: boolean, object: unknown, text: string) {
  console.log(json ? JSON.stringify(object) : text);
}

/** Runs one admin command (`orgs …`, `keys …`). */
export async function runAdmin(argv: string[]): Promise<void> {
  const { values, positionals } = parseArgs({
    args: argv,
    allowPositionals: true,
    options: {
      name: { type: 'string' },
      env: { type: 'string' },
      role: { type: 'string' },
      email: { type: 'string' },
      'base-url': { type: 'string' },
      org: { type: 'string' },
      legacy: { type: 'boolean', default: false },
      json: { type: 'boolean', default: false },
      table: { type: 'string' },
      region: { type: 'string' },
      help: { type: 'boolean', short: 'h', default: false },
    },
  });
  const [group, action, arg] = positionals;
  if (values.help || !group) {
    console.log(ADMIN_HELP);
    return;
  }
  const command = `${group} ${action ?? ''}`.trim();
  switch (command) {
    case 'orgs create': {
      if (!values.name) throw new UsageError('orgs create needs --name');
      const org = await createOrganization(connect(values).platform, values.name);
      print(values.json, { id: org.id, name: org.name, environments: org.environments }, `Created organization ${org.id} (${org.name})`);
      return;
    }
    case 'keys create': {
      const env = EnvironmentSlug.safeParse(values.env);
      if (!env.success) throw new UsageError('keys create needs --env test or --env production');
      const role = Role.safeParse(values.role ?? 'admin');
      if (!role.success) throw new UsageError('--role must be admin, operator or viewer');
      if (!values.name) throw new UsageError('keys create needs --name');
      const target = connect(values);
      const { key, item } = await createApiKey(target.platform, { orgId: orgOf(values, target), environment: env.data, name: values.name, role: role.data, legacy: values.legacy });
      print(
        values.json,
        { id: item.id, key, name: item.name, environment: item.environment_slug, organization_id: item.organization_id, role: item.role, legacy: item.legacy },
        `Created ${item.environment_slug} key ${item.id} (${item.role}). It is shown only now:\n${key}`,
      );
      return;
    }
    case 'keys list': {
      const target = connect(values);
      const keys = await listApiKeys(target.platform, orgOf(values, target));
      const rows = keys.map(({ hash: _hash, ...k }) => k);
      const text = rows
        .map((k) => `${k.id}  ${k.environment_slug.padEnd(10)} ${k.prefix}…${k.last4}  ${k.role.padEnd(8)} ${k.name}${k.legacy ? '  [legacy]' : ''}${k.revoked_at ? `  (revoked ${k.revoked_at})` : ''}`)
        .join('\n');
      print(values.json, { data: rows }, text || 'No keys.');
      return;
    }
    case 'keys revoke': {
      if (!arg) throw new UsageError('keys revoke needs a KEY_ID');
      const target = connect(values);
      const revoked = await revokeApiKey(target.platform, orgOf(values, target), arg);
      print(values.json, { id: revoked.id, revoked_at: revoked.revoked_at }, `Revoked ${revoked.id} at ${revoked.revoked_at}`);
      return;
    }
    case 'members create': {
      if (!values.email) throw new UsageError('members create needs --email');
      if (values.role !== undefined && !isMemberRole(values.role)) throw new UsageError(`--role must be one of ${MEMBER_ROLES.join(', ')}`);
      const target = connect(values);
      const baseUrl = (values['base-url'] ?? target.baseUrl)?.replace(/\/+$/, '');
      if (!baseUrl) throw new UsageError('--base-url is required for a deployed stack (the Url output of the stack)');
      const orgId = orgOf(values, target);
      const { membership, created } = await addMember(target.platform, { orgId, email: values.email, role: values.role });
      const link = await issueSignInLink(target.platform, orgId, membership.user_id);
      const url = `${baseUrl}/dashboard/sign-in/link?token=${link.token}`;
      print(
        values.json,
        { user_id: membership.user_id, email: membership.email, organization_id: orgId, role: membership.role, created, sign_in_url: url, expires_at: link.expiresAt },
        `${created ? 'Added' : 'Already a member:'} ${membership.email} (${membership.role}) in ${orgId}.\nOne-time sign-in URL (single use, expires ${link.expiresAt}):\n${url}`,
      );
      return;
    }
    case 'members list': {
      const target = connect(values);
      const members = await listMembers(target.platform, orgOf(values, target));
      print(values.json, { data: members }, members.map((m) => `${m.user_id}  ${m.role.padEnd(10)} ${m.email}`).join('\n') || 'No members.');
      return;
    }
    default:
      throw new UsageError(`Unknown admin command "${command}"\n\n${ADMIN_HELP}`);
  }
}

