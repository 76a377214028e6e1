/**
 * Webhook endpoints and the delivery log (API §12). Each environment has at most one endpoint, kept
 * as a singleton record in the environment's scope, with its signing secrets sealed by the KeyRing:
 * the plaintext `whsec_` secret is shown once (first PUT, rotation) and otherwise only opened to sign
 * a delivery. Rotation keeps the previous secret valid until its grace period ends, so deliveries
 * carry both signatures meanwhile.
 */
import { randomBytes } from 'node:crypto';
import { Conflict, Invalid, NotFound } from '../platform/errors.ts';
import { timestamp } from '../platform/ids.ts';
import { listEnvelopeOf, toListQuery, type ListParams } from '../platform/pagination.ts';
import type { Platform } from '../platform/platform.ts';
import type { Scope, Sealed } from '../platform/ports.ts';
import type { Delivery, DeliveryStatus, Endpoint } from './schema.ts';
import { urlProblem } from './urls.ts';

export const ENDPOINT_TYPE = 'webhook_endpoint';
/** The one endpoint of an environment is stored under this id. */
export const ENDPOINT_ID = 'endpoint';
export const DELIVERY_TYPE = 'webhook_delivery';
export const EVENT_TYPE = 'webhook_event';
/** A delivery waits in these statuses for its deliver-webhook execution. */
export const DELIVERY_ACTIVE = ['pending', 'retrying'] as const;

export interface SigningSecret {
  sealed: Sealed;
  last4: string;
  created_at: string;
  /** null for the current secret; the end of the grace period for a rotated one. */
  expires_at: string | null;
}

export interface EndpointData {
  url: string;
  events: string[];
  enabled: boolean;
  secret_last4: string;
  created_at: string;
  updated_at: string;
  /** Newest first. Never on the wire. */
  _secrets: SigningSecret[];
}

export interface DeliveryData extends Delivery {
  /** Every attempt, for operators (never on the wire). */
  _attempt_log: Array<{ at: string; status_code: number | null; error: string | null; ms: number }>;
}

const NO_ENDPOINT = 'No webhook endpoint';

function signingContext(scope: Scope): Record<string, string> {
  return { organization: scope.orgId, environment: scope.envId, name: 'webhook_signing_secret' };
}

function newSigningSecret(): string {
  return `whsec_${randomBytes(24).toString('base64url')}`;
}

function toWire(data: EndpointData, signingSecret?: string): Endpoint {
  const wire: Endpoint = {
    url: data.url,
    events: data.events,
    enabled: data.enabled,
    secret_last4: data.secret_last4,
    created_at: data.created_at,
    updated_at: data.updated_at,
  };
  if (signingSecret !== undefined) wire.signing_secret = signingSecret;
  return wire;
}

async function sealSecret(p: Platform, scope: Scope, secret: string, now: string): Promise<SigningSecret> {
  return { sealed: await p.keyRing.seal(secret, signingContext(scope)), last4: secret.slice(-4), created_at: now, expires_at: null };
}

export async function readEndpoint(p: Platform, scope: Scope): Promise<EndpointData | undefined> {
  return (await p.store.getRecord<EndpointData>(scope, ENDPOINT_TYPE, ENDPOINT_ID))?.data;
}

/** Creates the endpoint (answering with its signing secret, once) or replaces its url/events/enabled. */
export async function putEndpoint(p: Platform, scope: Scope, input: { url: string; events: string[]; enabled: boolean }): Promise<Endpoint> {
  const problem = urlProblem(input.url, p.config.allowPrivateUrls);
  if (problem) throw Invalid.at(['body', 'url'], `Invalid webhook URL: ${problem}`, 'value_error', input.url);
  const now = timestamp(p.clock.now());
  const events = [...new Set(input.events)];
  const existing = await readEndpoint(p, scope);
  if (existing) {
    const data: EndpointData = { ...existing, url: input.url, events, enabled: input.enabled, updated_at: now };
    await p.store.putRecord<EndpointData>(scope, { type: ENDPOINT_TYPE, id: ENDPOINT_ID, createdAt: existing.created_at, data });
    return toWire(data);
  }
  const secret = newSigningSecret();
  const sealed = await sealSecret(p, scope, secret, now);
  const data: EndpointData = { url: input.url, events, enabled: input.enabled, secret_last4: sealed.last4, created_at: now, updated_at: now, _secrets: [sealed] };
  try {
    await p.store.putRecord<EndpointData>(scope, { type: ENDPOINT_TYPE, id: ENDPOINT_ID, createdAt: now, data }, { ifAbsent: true });
  } catch (error) {
    // Two first PUTs at once: the other one created it (and showed its secret); this one updates.
    if (error instanceof Conflict) return putEndpoint(p, scope, input);
    throw error;
  }
  return toWire(data, secret);
}

export async function getEndpoint(p: Platform, scope: Scope): Promise<Endpoint> {
  const data = await readEndpoint(p, scope);
  if (!data) throw new NotFound(NO_ENDPOINT);
  return toWire(data);
}

export async function deleteEndpoint(p: Platform, scope: Scope): Promise<void> {
  if (!(await p.store.deleteRecord(scope, ENDPOINT_TYPE, ENDPOINT_ID))) throw new NotFound(NO_ENDPOINT);
}

/** A new current secret; the previous one stays valid for `graceSeconds` (0: it stops at once). */
export async function rotateSecret(p: Platform, scope: Scope, graceSeconds: number): Promise<Endpoint> {
  const existing = await readEndpoint(p, scope);
  if (!existing) throw new NotFound(NO_ENDPOINT);
  const nowDate = p.clock.now();
  const now = timestamp(nowDate);
  const secret = newSigningSecret();
  const sealed = await sealSecret(p, scope, secret, now);
  const graceEnd = timestamp(new Date(nowDate.getTime() + graceSeconds * 1000));
  const previous =
    graceSeconds === 0
      ? []
      : existing._secrets
          .filter((s) => s.expires_at === null || s.expires_at > now)
          // A secret already in its grace keeps its own (earlier) end.
          .map((s) => ({ ...s, expires_at: s.expires_at === null || s.expires_at > graceEnd ? graceEnd : s.expires_at }));
  const data: EndpointData = { ...existing, secret_last4: sealed.last4, updated_at: now, _secrets: [sealed, ...previous] };
  await p.store.putRecord<EndpointData>(scope, { type: ENDPOINT_TYPE, id: ENDPOINT_ID, createdAt: existing.created_at, data });
  return toWire(data, secret);
}

/** The signing secrets valid now (current first), opened for one delivery attempt. */
export async function validSigningSecrets(p: Platform, scope: Scope, endpoint: EndpointData): Promise<string[]> {
  const now = timestamp(p.clock.now());
  const valid = endpoint._secrets.filter((s) => s.expires_at === null || s.expires_at > now);
  return Promise.all(valid.map((s) => p.keyRing.open(s.sealed, signingContext(scope))));
}

/** Whether an endpoint subscribed to an event type (`*`, the exact type, or its family `parse.*`). */
export function subscribes(events: readonly string[], type: string): boolean {
  return events.some((pattern) => pattern === '*' || pattern === type || (pattern.endsWith('.*') && type.startsWith(pattern.slice(0, -1))));
}

function deliveryToWire(data: DeliveryData): Delivery {
  const { _attempt_log: _log, ...wire } = data;
  return wire;
}

export async function listDeliveries(p: Platform, scope: Scope, query: ListParams & { status?: DeliveryStatus; event_type?: string }) {
  const page = await p.store.listRecords<DeliveryData>(scope, DELIVERY_TYPE, toListQuery(query, { event_type: query.event_type }));
  return listEnvelopeOf(page, deliveryToWire);
}

export async function getDelivery(p: Platform, scope: Scope, id: string): Promise<Delivery> {
  const record = await p.store.getRecord<DeliveryData>(scope, DELIVERY_TYPE, id);
  if (!record) throw NotFound.of('Delivery', id);
  return deliveryToWire(record.data);
}

/** A delivery whose deliver-webhook execution ended without settling it (the sweeper): failed, as the give_up step would. */
export async function endLostDelivery(p: Platform, scope: Scope, id: string): Promise<boolean> {
  const moved = await p.store.moveStatus<DeliveryData>(scope, DELIVERY_TYPE, id, DELIVERY_ACTIVE, 'failed', {
    status: 'failed',
    last_error: 'Internal error while delivering',
    next_attempt_at: null,
  });
  return moved !== undefined;
}
