/**
 * The task handler of statemachines/deliver-webhook.asl.json: one attempt at delivering one event.
 *   attempt — POSTs the event to the environment's endpoint (API §12 headers, signed with every
 *             signing secret valid now, 10 s timeout, redirects not followed: only a 2xx succeeds;
 *             the address actually connected to is checked against the URL rules),
 *             logs the attempt on the delivery, and tells the state machine whether to wait and retry
 *             (until `nextAttemptAt`: the backoff of API §12, scaled by config) or stop. A timestamp
 *             rather than seconds, because a scaled-down wait is a fraction of a second.
 *   give_up — the attempt step itself crashed: the delivery is marked failed.
 */
import { logger } from '../platform/logger.ts';
import { timestamp } from '../platform/ids.ts';
import { platform } from '../platform/platform.ts';
import type { Scope } from '../platform/ports.ts';
import { environmentSlugOf, type DeliveryRef, type StoredEvent } from './events.ts';
import { DELIVERY_TYPE, EVENT_TYPE, readEndpoint, validSigningSecrets, type DeliveryData } from './service.ts';
import { post } from './post.ts';
import { urlProblem } from './urls.ts';
import { signatureHeader } from './verify.ts';

/** API §12: waits before each retry, in seconds. */
export const RETRY_SCHEDULE = {
  production: [30, 120, 600, 3600, 21_600, 86_400],
  test: [30, 300, 1800],
} as const;

export type DeliverTaskInput = { step: 'attempt'; delivery: DeliveryRef } | { step: 'give_up'; delivery: DeliveryRef; error?: unknown };
export type AttemptResult = { outcome: 'succeeded' | 'failed' | 'done' } | { outcome: 'retry'; nextAttemptAt: string };

function describeFailure(error: unknown, timeoutMs: number): string {
  const e = error as { name?: string; code?: string; message?: string };
  if (e?.name === 'TimeoutError') return `Timed out after ${timeoutMs} ms`;
  if (e?.code === 'EPRIVATE') return `URL refused: ${e.message}`;
  if (e?.code) return `Connection failed (${e.code})`;
  return 'Connection failed';
}

export async function handler(input: DeliverTaskInput): Promise<AttemptResult> {
  const p = platform();
  const scope: Scope = { orgId: input.delivery.orgId, envId: input.delivery.envId };
  const id = input.delivery.id;
  const record = await p.store.getRecord<DeliveryData>(scope, DELIVERY_TYPE, id);
  if (!record || record.data.status === 'succeeded' || record.data.status === 'failed') return { outcome: 'done' };
  const delivery = record.data;

  if (input.step === 'give_up') {
    await p.store.updateRecord<DeliveryData>(scope, DELIVERY_TYPE, id, { status: 'failed', last_error: 'Internal error while delivering', next_attempt_at: null }, { status: 'failed' });
    return { outcome: 'failed' };
  }

  const started = Date.now();
  const attempts = delivery.attempts + 1;
  const timeoutMs = p.config.webhookTimeoutMs;
  let statusCode: number | null = null;
  let error: string | null = null;
  let url = delivery.url;
  const environment = await environmentSlugOf(p, scope);

  const endpoint = await readEndpoint(p, scope);
  const event = (await p.store.getRecord<StoredEvent>(scope, EVENT_TYPE, delivery.event_id))?.data;
  if (!endpoint) error = 'The webhook endpoint was deleted';
  else if (!event) error = 'The event no longer exists';
  else {
    url = endpoint.url;
    const problem = urlProblem(url, p.config.allowPrivateUrls);
    if (problem) error = `URL refused: ${problem}`;
    else {
      const secrets = await validSigningSecrets(p, scope, endpoint);
      const t = Math.floor(p.clock.now().getTime() / 1000);
      const headers = {
        'content-type': 'application/json',
        'user-agent': 'Quire-Webhooks/1',
        'x-service-environment': environment,
        'x-service-signature': signatureHeader(secrets, t, event.body),
      };
      try {
        statusCode = await post(url, headers, event.body, timeoutMs, p.config.allowPrivateUrls);
        if (statusCode < 200 || statusCode > 299) error = statusCode >= 300 && statusCode < 400 ? `Redirect (HTTP ${statusCode}) not followed` : `HTTP ${statusCode}`;
      } catch (failure) {
        error = describeFailure(failure, timeoutMs);
      }
    }
  }

  const ms = Date.now() - started;
  const now = p.clock.now();
  const log = [...delivery._attempt_log, { at: timestamp(now), status_code: statusCode, error, ms }];
  const schedule = RETRY_SCHEDULE[environment];
  // The endpoint is gone: retrying cannot help.
  const retry = error !== null && endpoint !== undefined && event !== undefined && attempts <= schedule.length;
  const waitSeconds = retry ? schedule[attempts - 1]! * p.config.webhookRetryScale : 0;
  const nextAttemptAt = retry ? timestamp(new Date(now.getTime() + waitSeconds * 1000)) : null;
  const status = error === null ? 'succeeded' : retry ? 'retrying' : 'failed';
  await p.store.updateRecord<DeliveryData>(
    scope,
    DELIVERY_TYPE,
    id,
    {
      status,
      url,
      attempts,
      last_status_code: statusCode,
      last_error: error,
      next_attempt_at: nextAttemptAt,
      _attempt_log: log,
    },
    { status },
  );
  logger.info('webhook attempt', { delivery_id: id, event_type: delivery.event_type, attempt: attempts, status_code: statusCode, outcome: status, ms });
  return nextAttemptAt ? { outcome: 'retry', nextAttemptAt } : { outcome: status === 'succeeded' ? 'succeeded' : 'failed' };
}
