/**
 * The exported verifier (API §12), in the style of Stripe's webhook signature tests: every way a
 * delivery can be forged, stale or mangled must be refused, and a genuine one — also during a
 * rotation — accepted. Imported through the package export a receiver would use.
 */
import { execFile } from 'node:child_process';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';
import { computeSignature, signatureHeader, verifyWebhook, WebhookVerificationError } from 'quire/webhooks/verify';

const TEST_SECRET = 'whsec_test_environment_secret_000000';
const LIVE_SECRET = 'whsec_live_environment_secret_111111';
const NOW = 1_795_000_000;
const body = JSON.stringify({ id: 'evt_01', type: 'parse.completed', environment: 'test', organization_id: 'org_1', created_at: '2026-11-21T10:00:00.000Z', data: { id: 'prs_1' } });

function headers(signature: string, environment = 'test') {
  return { 'X-Service-Signature': signature, 'X-Service-Environment': environment, 'Content-Type': 'application/json' };
}
const signed = (secrets: string[] = [TEST_SECRET], t = NOW, raw: string = body) => headers(signatureHeader(secrets, t, raw));
function refuse(fn: () => unknown, reason: RegExp): void {
  expect(fn).toThrow(WebhookVerificationError);
  expect(fn).toThrow(reason);
}

describe('verifyWebhook', () => {
  it('accepts a genuine delivery and returns the parsed event', () => {
    const event = verifyWebhook(body, signed(), TEST_SECRET, { toleranceSeconds: 300, now: NOW });
    expect(event).toEqual(JSON.parse(body));
    // Buffers, Headers objects and any header case work too.
    expect(verifyWebhook(Buffer.from(body), new Headers(signed()), TEST_SECRET, { now: NOW + 10 }).id).toBe('evt_01');
  });

  it('follows the signature scheme of API §12 exactly: HMAC-SHA256 of "<t>.<body>" keyed by the secret, lowercase hex', async () => {
    const { createHmac } = await import('node:crypto');
    const expected = createHmac('sha256', TEST_SECRET).update(`${NOW}.${body}`).digest('hex');
    expect(computeSignature(TEST_SECRET, NOW, body)).toBe(expected);
    expect(signatureHeader([TEST_SECRET], NOW, body)).toBe(`t=${NOW},v1=${expected}`);
  });

  it('accepts any of several v1 signatures (rotation grace), with either the old or the new secret', () => {
    const h = signed([LIVE_SECRET, TEST_SECRET]);
    expect(h['X-Service-Signature'].match(/v1=/g)).toHaveLength(2);
    expect(verifyWebhook(body, h, TEST_SECRET, { now: NOW }).id).toBe('evt_01');
    expect(verifyWebhook(body, h, LIVE_SECRET, { now: NOW }).id).toBe('evt_01');
    // A receiver mid-rotation of its own config may pass both.
    expect(verifyWebhook(body, signed([TEST_SECRET]), ['whsec_other', TEST_SECRET], { now: NOW }).id).toBe('evt_01');
  });

  it('refuses a missing, empty or malformed header', () => {
    refuse(() => verifyWebhook(body, {}, TEST_SECRET, { now: NOW }), /Missing/);
    refuse(() => verifyWebhook(body, headers(''), TEST_SECRET, { now: NOW }), /Missing/);
    refuse(() => verifyWebhook(body, headers('garbage'), TEST_SECRET, { now: NOW }), /timestamp/);
    refuse(() => verifyWebhook(body, headers(`v1=${computeSignature(TEST_SECRET, NOW, body)}`), TEST_SECRET, { now: NOW }), /timestamp/);
    refuse(() => verifyWebhook(body, headers(`t=${NOW}`), TEST_SECRET, { now: NOW }), /No v1/);
    refuse(() => verifyWebhook(body, headers(`t=${NOW},v1=zz`), TEST_SECRET, { now: NOW }), /No v1/);
    refuse(() => verifyWebhook(body, headers(`t=soon,v1=${computeSignature(TEST_SECRET, NOW, body)}`), TEST_SECRET, { now: NOW }), /timestamp/);
  });

  it('refuses a header with only another scheme', () => {
    const sig = computeSignature(TEST_SECRET, NOW, body);
    refuse(() => verifyWebhook(body, headers(`t=${NOW},v0=${sig}`), TEST_SECRET, { now: NOW }), /No v1/);
    refuse(() => verifyWebhook(body, headers(`t=${NOW},v2=${sig}`), TEST_SECRET, { now: NOW }), /No v1/);
  });

  it('refuses a wrong secret, the other environment\'s secret, and no secret', () => {
    refuse(() => verifyWebhook(body, signed(), 'whsec_wrong', { now: NOW }), /No signature matches/);
    refuse(() => verifyWebhook(body, signed([TEST_SECRET]), LIVE_SECRET, { now: NOW }), /No signature matches/);
    refuse(() => verifyWebhook(body, signed(), '', { now: NOW }), /No signing secret/);
    refuse(() => verifyWebhook(body, signed(), [], { now: NOW }), /No signing secret/);
  });

  it('refuses a timestamp too old or too far in the future, at the tolerance boundary exactly', () => {
    expect(verifyWebhook(body, signed(), TEST_SECRET, { now: NOW + 300 }).id).toBe('evt_01');
    expect(verifyWebhook(body, signed(), TEST_SECRET, { now: NOW - 300 }).id).toBe('evt_01');
    refuse(() => verifyWebhook(body, signed(), TEST_SECRET, { now: NOW + 301 }), /tolerance/);
    refuse(() => verifyWebhook(body, signed(), TEST_SECRET, { now: NOW - 301 }), /tolerance/);
    refuse(() => verifyWebhook(body, signed(), TEST_SECRET, { toleranceSeconds: 10, now: NOW + 11 }), /tolerance/);
    // The default window is 300 s around the current time.
    refuse(() => verifyWebhook(body, signed(), TEST_SECRET), /tolerance/);
    expect(verifyWebhook(body, signed([TEST_SECRET], Math.floor(Date.now() / 1000) - 200), TEST_SECRET).id).toBe('evt_01');
  });

  it('refuses a body altered by one byte, anywhere', () => {
    const h = signed();
    for (const at of [0, Math.floor(body.length / 2), body.length - 1]) {
      const bytes = Buffer.from(body);
      bytes[at] = bytes[at]! ^ 1;
      refuse(() => verifyWebhook(bytes, h, TEST_SECRET, { now: NOW }), /No signature matches/);
    }
    refuse(() => verifyWebhook(`${body} `, h, TEST_SECRET, { now: NOW }), /No signature matches/);
    // Re-serialized JSON is not the raw body.
    refuse(() => verifyWebhook(JSON.stringify(JSON.parse(body), null, 1), h, TEST_SECRET, { now: NOW }), /No signature matches/);
  });

  it('refuses a replayed body under a new timestamp (the old signature does not cover it)', () => {
    const old = signed([TEST_SECRET], NOW - 3600)['X-Service-Signature'];
    const v1 = old.split(',')[1]!;
    refuse(() => verifyWebhook(body, headers(`t=${NOW},${v1}`), TEST_SECRET, { now: NOW }), /No signature matches/);
    // And as sent, it is too old.
    refuse(() => verifyWebhook(body, headers(old), TEST_SECRET, { now: NOW }), /tolerance/);
  });

  it("refuses a genuine body under the other environment's header", () => {
    refuse(() => verifyWebhook(body, headers(signatureHeader([TEST_SECRET], NOW, body), 'production'), TEST_SECRET, { now: NOW }), /does not match/);
  });
});

describe('npm run quire -- webhooks verify', () => {
  const run = promisify(execFile);
  const cli = (args: string[]) =>
    run(process.execPath, ['--import', 'tsx', 'bin/quire.ts', 'webhooks', 'verify', ...args], { cwd: join(import.meta.dirname, '../../..') }).then(
      (r) => ({ code: 0, ...r }),
      (e: { code: number; stdout: string; stderr: string }) => ({ code: e.code, stdout: e.stdout, stderr: e.stderr }),
    );

  it('prints the event and exits 0 for a genuine delivery; exits 1 saying why for a forged one', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'quire-verify-'));
    const file = join(dir, 'body.json');
    writeFileSync(file, body);
    const t = Math.floor(Date.now() / 1000);
    const good = await cli(['--secret', TEST_SECRET, '--signature', signatureHeader([TEST_SECRET], t, body), '--environment', 'test', '--body-file', file, '--json']);
    expect(good.code).toBe(0);
    expect(JSON.parse(good.stdout)).toEqual({ valid: true, event: JSON.parse(body) });
    const bad = await cli(['--secret', LIVE_SECRET, '--signature', signatureHeader([TEST_SECRET], t, body), '--body-file', file]);
    expect(bad.code).toBe(1);
    expect(bad.stdout).toContain('Invalid: No signature matches');
  });
});
