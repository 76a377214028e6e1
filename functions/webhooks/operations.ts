import { operation } from '../platform/operation.ts';
import { listEnvelope } from '../platform/schemas.ts';
import { Delivery, DeliveryIdParams, Endpoint, ListDeliveriesQuery, PutEndpointBody, RotateSecretBody, TestEventAccepted } from './schema.ts';

export const webhookOperations = {
  putEndpoint: operation({
    summary: "Create or replace this environment's webhook endpoint (the first answer carries signing_secret)",
    auth: 'api_key',
    body: PutEndpointBody,
    status: 200,
    response: Endpoint,
    tags: ['webhooks'],
  }),
  getEndpoint: operation({ summary: "This environment's webhook endpoint", auth: 'api_key', status: 200, response: Endpoint, tags: ['webhooks'] }),
  deleteEndpoint: operation({ summary: "Delete this environment's webhook endpoint", auth: 'api_key', status: 204, tags: ['webhooks'] }),
  rotateSecret: operation({
    summary: 'Rotate the signing secret; the old one keeps signing during the grace period',
    auth: 'api_key',
    body: RotateSecretBody,
    status: 200,
    response: Endpoint,
    tags: ['webhooks'],
  }),
  sendTest: operation({ summary: 'Send a webhook.test event', auth: 'api_key', status: 202, response: TestEventAccepted, tags: ['webhooks'] }),
  listDeliveries: operation({
    summary: "This environment's delivery log",
    auth: 'api_key',
    query: ListDeliveriesQuery,
    status: 200,
    response: listEnvelope(Delivery),
    tags: ['webhooks'],
  }),
  getDelivery: operation({ summary: 'One delivery', auth: 'api_key', params: DeliveryIdParams, status: 200, response: Delivery, tags: ['webhooks'] }),
};
