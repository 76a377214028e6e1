/**
 * The Events port (DESIGN §1, §4): `emit` records an event of one environment and, when that
 * environment's endpoint wants it, records a `pending` delivery and starts
 * statemachines/deliver-webhook.asl.json for it. Nothing here looks at any other environment: the
 * endpoint, the event, the delivery and the execution input are all keyed by the event's scope.
 */
import { getOrganization } from '../auth/service.ts';
import { NotFound } from '../platform/errors.ts';
import { timestamp } from '../platform/ids.ts';
import { logger } from '../platform/logger.ts';
import type { Platform } from '../platform/platform.ts';
import type { Events, Scope, WebhookEvent } from '../platform/ports.ts';
import type { EventBody } from './schema.ts';
import { DELIVERY_TYPE, EVENT_TYPE, readEndpoint, subscribes, type DeliveryData } from './service.ts';

export interface StoredEvent {
  id: string;
  type: string;
  created_at: string;
  /** The exact JSON body every attempt sends (retries resend the same bytes). */
  body: string;
}

/** What a deliver-webhook execution is given: ids only. */
export interface DeliveryRef {
  orgId: string;
  envId: string;
  id: string;
}

export async function environmentSlugOf(p: Platform, scope: Scope): Promise<'test' | 'production'> {
  const org = await getOrganization(p, scope.orgId);
  if (org.environments.production === scope.envId) return 'production';
  if (org.environments.test === scope.envId) return 'test';
  throw new Error(`Environment ${scope.envId} is not an environment of ${scope.orgId}`);
}

export async function emitEvent(p: Platform, scope: Scope, event: WebhookEvent): Promise<{ eventId: string; deliveryId: string | null }> {
  const id = p.ids.next('evt');
  const createdAt = timestamp(p.clock.now());
  const body: EventBody = {
    id,
    type: event.type,
    environment: await environmentSlugOf(p, scope),
    organization_id: scope.orgId,
    created_at: createdAt,
    data: event.data,
  };
  const stored: StoredEvent = { id, type: event.type, created_at: createdAt, body: JSON.stringify(body) };
  await p.store.putRecord<StoredEvent>(scope, { type: EVENT_TYPE, id, createdAt, attrs: { event_type: event.type }, data: stored });

  const endpoint = await readEndpoint(p, scope);
  // A test event is an explicit request: it goes to the endpoint whatever its filter says.
  const wanted = endpoint && (event.type === 'webhook.test' || (endpoint.enabled && subscribes(endpoint.events, event.type)));
  if (!endpoint || !wanted) return { eventId: id, deliveryId: null };

  return { eventId: id, deliveryId: await startDelivery(p, scope, stored, endpoint.url, createdAt) };
}

/** The Events port's adapter (handed to the platform by functions/wiring.ts). */
export const webhookEvents: Events = { emit: emitEvent };

/** Records a `pending` delivery of a stored event to `url` and starts its deliver-webhook execution. */
async function startDelivery(p: Platform, scope: Scope, event: StoredEvent, url: string, createdAt = timestamp(p.clock.now())): Promise<string> {
  const deliveryId = p.ids.next('whd');
  const delivery: DeliveryData = {
    id: deliveryId,
    event_id: event.id,
    event_type: event.type,
    url,
    status: 'pending',
    attempts: 0,
    last_status_code: null,
    last_error: null,
    next_attempt_at: createdAt,
    created_at: createdAt,
    _attempt_log: [],
  };
  await p.store.putRecord<DeliveryData>(scope, { type: DELIVERY_TYPE, id: deliveryId, createdAt, status: 'pending', attrs: { event_type: event.type }, data: delivery });
  const input: { delivery: DeliveryRef } = { delivery: { orgId: scope.orgId, envId: scope.envId, id: deliveryId } };
  try {
    await p.runner.start('deliver', { name: deliveryId, input });
  } catch (error) {
    // Nothing will deliver it: say so in the log rather than leaving it pending forever.
    logger.error('webhook delivery could not be started', { delivery_id: deliveryId, error: error as Error });
    await p.store.moveStatus<DeliveryData>(scope, DELIVERY_TYPE, deliveryId, ['pending'], 'failed', {
      status: 'failed',
      last_error: 'The delivery could not be started',
      next_attempt_at: null,
    });
  }
  return deliveryId;
}

/**
 * Sends an event again (the dashboard's *Resend*): a new delivery of the same stored body to the
 * environment's current endpoint, with its own attempts. 404 when the delivery or the endpoint is gone.
 */
export async function redeliver(p: Platform, scope: Scope, deliveryId: string): Promise<string> {
  const delivery = await p.store.getRecord<DeliveryData>(scope, DELIVERY_TYPE, deliveryId);
  if (!delivery) throw NotFound.of('Delivery', deliveryId);
  const event = await p.store.getRecord<StoredEvent>(scope, EVENT_TYPE, delivery.data.event_id);
  if (!event) throw NotFound.of('Event', delivery.data.event_id);
  const endpoint = await readEndpoint(p, scope);
  if (!endpoint) throw new NotFound('No webhook endpoint');
  return startDelivery(p, scope, event.data, endpoint.url);
}
