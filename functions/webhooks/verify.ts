/**
 * Webhook signatures (API §12), for Quire and for the people who receive its webhooks. This module
 * depends on nothing but node:crypto, so a receiver can import it alone:
 *
 *   import { verifyWebhook } from 'quire/webhooks/verify';   // or copy this file
 *   const event = verifyWebhook(rawBody, req.headers, process.env.QUIRE_WEBHOOK_SECRET_TEST!);
 *
 * Header: `X-Service-Signature: t=<unix seconds>,v1=<hex>[,v1=<hex>]`, each v1 being
 * HMAC-SHA256(key = a signing secret as UTF-8, message = "<t>.<raw body>") in lowercase hex — one per
 * signing secret currently valid (two during a rotation's grace period).
 */
import { createHmac, timingSafeEqual } from 'node:crypto';

export const SIGNATURE_HEADER = 'x-service-signature';
export const ENVIRONMENT_HEADER = 'x-service-environment';
export const DEFAULT_TOLERANCE_SECONDS = 300;

export class WebhookVerificationError extends Error {
  override name = 'WebhookVerificationError';
}

/** The v1 signature of one body at one timestamp under one secret. */
export function computeSignature(secret: string, timestampSeconds: number, rawBody: string | Uint8Array): string {
  const hmac = createHmac('sha256', Buffer.from(secret, 'utf8'));
  hmac.update(`${timestampSeconds}.`, 'utf8');
  hmac.update(typeof rawBody === 'string' ? Buffer.from(rawBody, 'utf8') : rawBody);
  return hmac.digest('hex');
}

/** The X-Service-Signature value for a body, signed with every given secret. */
export function signatureHeader(secrets: readonly string[], timestampSeconds: number, rawBody: string | Uint8Array): string {
  return [`t=${timestampSeconds}`, ...secrets.map((s) => `v1=${computeSignature(s, timestampSeconds, rawBody)}`)].join(',');
}

type HeaderBag = Headers | Record<string, string | string[] | undefined>;

function header(headers: HeaderBag, name: string): string | undefined {
  if (typeof (headers as Headers).get === 'function') return (headers as Headers).get(name) ?? undefined;
  for (const [key, value] of Object.entries(headers as Record<string, string | string[] | undefined>)) {
    if (key.toLowerCase() === name) return Array.isArray(value) ? value.join(',') : value;
  }
  return undefined;
}

export interface VerifyOptions {
  /** How far (seconds) the signed timestamp may be from now, either way. Default 300. */
  toleranceSeconds?: number;
  /** Unix seconds to check against (tests); default the current time. */
  now?: number;
}

/**
 * Checks a delivery and returns its parsed event; throws WebhookVerificationError saying why not.
 * `secret` is the signing secret of the environment named by X-Service-Environment (during your own
 * rotation you may pass several). Pass the body exactly as received, before any JSON parsing.
 */
export function verifyWebhook(
  rawBody: string | Uint8Array,
  headers: HeaderBag,
  secret: string | readonly string[],
  options: VerifyOptions = {},
): { id: string; type: string; environment: string; organization_id: string; created_at: string; data: unknown } {
  const tolerance = options.toleranceSeconds ?? DEFAULT_TOLERANCE_SECONDS;
  const secrets = (typeof secret === 'string' ? [secret] : [...secret]).filter((s) => s.length > 0);
  if (secrets.length === 0) throw new WebhookVerificationError('No signing secret given');
  const value = header(headers, SIGNATURE_HEADER);
  if (!value) throw new WebhookVerificationError('Missing X-Service-Signature header');

  let timestamp: number | undefined;
  const signatures: string[] = [];
  for (const part of value.split(',')) {
    const eq = part.indexOf('=');
    if (eq < 0) continue;
    const key = part.slice(0, eq).trim();
    const val = part.slice(eq + 1).trim();
    if (key === 't' && /^\d{1,12}$/.test(val)) timestamp = Number(val);
    else if (key === 'v1' && /^[0-9a-f]{64}$/.test(val)) signatures.push(val);
  }
  if (timestamp === undefined) throw new WebhookVerificationError('Malformed X-Service-Signature header: no timestamp t=');
  if (signatures.length === 0) throw new WebhookVerificationError('No v1 signature in X-Service-Signature header');

  const now = options.now ?? Math.floor(Date.now() / 1000);
  if (Math.abs(now - timestamp) > tolerance) throw new WebhookVerificationError('Timestamp outside the tolerance window');

  const matches = secrets.some((s) => {
    const expected = Buffer.from(computeSignature(s, timestamp!, rawBody), 'hex');
    return signatures.some((sig) => timingSafeEqual(expected, Buffer.from(sig, 'hex')));
  });
  if (!matches) throw new WebhookVerificationError('No signature matches the body for this secret');

  const text = typeof rawBody === 'string' ? rawBody : Buffer.from(rawBody).toString('utf8');
  let event: ReturnType<typeof verifyWebhook>;
  try {
    event = JSON.parse(text) as ReturnType<typeof verifyWebhook>;
  } catch {
    throw new WebhookVerificationError('The signed body is not JSON');
  }
  // Signed, so this is ours: still, a body for one environment must not arrive under the other's header.
  const environment = header(headers, ENVIRONMENT_HEADER);
  if (environment !== undefined && event.environment !== environment) {
    throw new WebhookVerificationError('X-Service-Environment does not match the event environment');
  }
  return event;
}
