/** Wire types of webhooks (API §12). */
import * as z from 'zod';
import { ListQueryParams } from '../platform/schemas.ts';

export const MAX_GRACE_SECONDS = 604_800;
export const DEFAULT_GRACE_SECONDS = 86_400;

/** An event type, `*`, or a family such as `parse.*`. */
const EventPattern = z
  .string()
  .min(1)
  .max(100)
  .regex(/^(\*|[a-z_]+(\.[a-z_]+)*(\.\*)?)$/, 'must be an event type (e.g. parse.completed), a family (parse.*) or *');

export const PutEndpointBody = z.object({
  url: z.string().min(1).max(2048),
  events: z.array(EventPattern).min(1).max(100).default(['*']),
  enabled: z.boolean().default(true),
});

export const Endpoint = z
  .object({
    url: z.string(),
    events: z.array(z.string()),
    enabled: z.boolean(),
    secret_last4: z.string(),
    created_at: z.string(),
    updated_at: z.string(),
    signing_secret: z.string().optional().describe('whsec_...: only in the answer to the first PUT and to a rotation'),
  })
  .meta({ id: 'WebhookEndpoint' });
export type Endpoint = z.infer<typeof Endpoint>;

export const RotateSecretBody = z
  .object({ grace_period_seconds: z.number().int().min(0).max(MAX_GRACE_SECONDS).default(DEFAULT_GRACE_SECONDS) })
  .default({ grace_period_seconds: DEFAULT_GRACE_SECONDS });

export const TestEventAccepted = z.object({ event_id: z.string() });

export const DeliveryStatus = z.enum(['pending', 'succeeded', 'retrying', 'failed']);
export type DeliveryStatus = z.infer<typeof DeliveryStatus>;

export const Delivery = z
  .object({
    id: z.string(),
    event_id: z.string(),
    event_type: z.string(),
    url: z.string(),
    status: DeliveryStatus,
    attempts: z.number().int(),
    last_status_code: z.number().int().nullable(),
    last_error: z.string().nullable(),
    next_attempt_at: z.string().nullable(),
    created_at: z.string(),
  })
  .meta({ id: 'WebhookDelivery' });
export type Delivery = z.infer<typeof Delivery>;

export const ListDeliveriesQuery = ListQueryParams.extend({ status: DeliveryStatus.optional(), event_type: z.string().min(1).optional() });
export const DeliveryIdParams = z.object({ delivery_id: z.string() });

/** The body of every delivery (API §12). */
export interface EventBody {
  id: string;
  type: string;
  environment: 'test' | 'production';
  organization_id: string;
  created_at: string;
  data: unknown;
}
