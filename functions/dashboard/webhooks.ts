/**
 * The webhook endpoint and deliveries of one environment as the dashboard shows them, through the
 * webhooks service: save the endpoint, reveal the current signing secret on demand, rotate it (the
 * previous one valid for a day, as the API's default), send a test event, delete; the deliveries log
 * with attempts, and a resend of any delivery. Managing follows the keys' rule (owners/admins both environments, developers test).
 */
import { Forbidden, NotFound } from '../platform/errors.ts';
import type { Platform } from '../platform/platform.ts';
import type { Scope } from '../platform/ports.ts';
import { emitEvent, redeliver } from '../webhooks/events.ts';
import { DEFAULT_GRACE_SECONDS, type Delivery, type Endpoint } from '../webhooks/schema.ts';
import { deleteEndpoint, getEndpoint, listDeliveries, putEndpoint, readEndpoint, rotateSecret, validSigningSecrets } from '../webhooks/service.ts';
import type { Environment } from './http.ts';
import { canManageKeys } from './keys.ts';
import type { Membership } from '../members/members.ts';

export const canManageWebhooks = canManageKeys;

function assertCanManage(membership: Membership, env: Environment): void {
  if (!canManageWebhooks(membership, env)) throw new Forbidden(`A ${membership.role} cannot change webhooks of the ${env} environment`);
}

export async function webhookState(p: Platform, scope: Scope): Promise<{ endpoint: Endpoint | null; deliveries: Delivery[] }> {
  const [endpoint, deliveries] = await Promise.all([getEndpoint(p, scope).catch((error) => (error instanceof NotFound ? null : Promise.reject(error))), listDeliveries(p, scope, { limit: 50, order: 'desc' })]);
  return { endpoint, deliveries: deliveries.data };
}

export async function saveEndpoint(p: Platform, membership: Membership, env: Environment, scope: Scope, input: { url: string; events: string[]; enabled: boolean }): Promise<Endpoint> {
  assertCanManage(membership, env);
  return putEndpoint(p, scope, { ...input, events: input.events.length ? input.events : ['*'] });
}

/** What the endpoint page's buttons do; a signing secret comes back only from reveal and rotate. */
export async function webhookAction(p: Platform, membership: Membership, env: Environment, scope: Scope, action: string, deliveryId = ''): Promise<{ secret?: string; notice: string }> {
  assertCanManage(membership, env);
  const endpoint = await readEndpoint(p, scope);
  if (!endpoint) throw new NotFound('No webhook endpoint');
  switch (action) {
    case 'reveal':
      return { secret: (await validSigningSecrets(p, scope, endpoint))[0], notice: 'The current signing secret:' };
    case 'rotate': {
      const rotated = await rotateSecret(p, scope, DEFAULT_GRACE_SECONDS);
      return { secret: rotated.signing_secret, notice: 'New signing secret (the previous one stays valid for 24 hours):' };
    }
    case 'test': {
      const { eventId } = await emitEvent(p, scope, { type: 'webhook.test', data: { message: 'This is a test event from Quire.' } });
      return { notice: `Test event ${eventId} sent.` };
    }
    case 'resend': {
      const resent = await redeliver(p, scope, deliveryId);
      return { notice: `Sent again as delivery ${resent}.` };
    }
    case 'delete':
      await deleteEndpoint(p, scope);
      return { notice: 'Endpoint deleted.' };
    default:
      throw new NotFound(`Unknown action ${action}`);
  }
}
