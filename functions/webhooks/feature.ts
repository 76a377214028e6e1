/** Webhooks: the endpoint, signed deliveries with retries, and their log. */
import type { Feature } from '../feature.ts';
import { routesOf } from '../platform/route.ts';
import { webhookOperations as ops } from './operations.ts';
import { DELIVERY_ACTIVE, DELIVERY_TYPE } from './service.ts';

export const webhooksFeature: Feature = {
  name: 'webhooks',
  routes: routesOf('webhooks', [
    { method: 'PUT', path: '/v1/webhooks/endpoint', handler: 'putEndpoint', size: 'small', op: ops.putEndpoint },
    { method: 'GET', path: '/v1/webhooks/endpoint', handler: 'getEndpoint', size: 'small', op: ops.getEndpoint },
    { method: 'DELETE', path: '/v1/webhooks/endpoint', handler: 'deleteEndpoint', size: 'small', op: ops.deleteEndpoint },
    { method: 'POST', path: '/v1/webhooks/endpoint/rotate-secret', handler: 'rotateSecret', size: 'small', op: ops.rotateSecret },
    { method: 'POST', path: '/v1/webhooks/test', handler: 'sendTestEvent', size: 'small', op: ops.sendTest },
    { method: 'GET', path: '/v1/webhooks/deliveries', handler: 'listDeliveries', size: 'small', op: ops.listDeliveries },
    { method: 'GET', path: '/v1/webhooks/deliveries/{delivery_id}', handler: 'getDelivery', size: 'small', op: ops.getDelivery },
  ]),
  machines: {
    deliver: {
      definition: 'statemachines/deliver-webhook.asl.json',
      tasks: { DeliverWebhookFunctionArn: { module: 'webhooks/task.ts', handler: 'handler', memoryMb: 256, timeoutSeconds: 30, documents: false } },
    },
  },
  swept: [
    {
      type: DELIVERY_TYPE,
      machine: 'deliver',
      active: DELIVERY_ACTIVE,
      end: async (p, ref) => (await import('./service.ts')).endLostDelivery(p, ref.scope, ref.id),
    },
  ],
};
