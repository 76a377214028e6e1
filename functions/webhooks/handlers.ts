import { NotFound } from '../platform/errors.ts';
import { api } from '../platform/http.ts';
import { emitEvent } from './events.ts';
import { webhookOperations as ops } from './operations.ts';
import { deleteEndpoint as remove, getDelivery as readDelivery, getEndpoint as read, listDeliveries as list, putEndpoint as put, readEndpoint, rotateSecret as rotate } from './service.ts';

export const putEndpoint = api(ops.putEndpoint, ({ platform, caller, body }) => put(platform, caller, body));

export const getEndpoint = api(ops.getEndpoint, ({ platform, caller }) => read(platform, caller));

export const deleteEndpoint = api(ops.deleteEndpoint, ({ platform, caller }) => remove(platform, caller));

export const rotateSecret = api(ops.rotateSecret, ({ platform, caller, body }) => rotate(platform, caller, body.grace_period_seconds));

export const sendTestEvent = api(ops.sendTest, async ({ platform, caller }) => {
  if (!(await readEndpoint(platform, caller))) throw new NotFound('No webhook endpoint');
  const { eventId } = await emitEvent(platform, caller, { type: 'webhook.test', data: { message: 'This is a test event from Quire.' } });
  return { event_id: eventId };
});

export const listDeliveries = api(ops.listDeliveries, ({ platform, caller, query }) => list(platform, caller, query));

export const getDelivery = api(ops.getDelivery, ({ platform, caller, params }) => readDelivery(platform, caller, params.delivery_id));
