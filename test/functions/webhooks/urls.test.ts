/**
 * Webhook URL rules (API §12): https always; http and private/loopback addresses only where the
 * deployment allows them — off unless QUIRE_ALLOW_PRIVATE_URLS=true (set by the local runtime only).
 */
import { afterEach, describe, expect, it } from 'vitest';
import { config, resetConfig } from '../../../functions/platform/config.ts';
import { post } from '../../../functions/webhooks/post.ts';
import { isPrivateAddress, urlProblem } from '../../../functions/webhooks/urls.ts';
import { startReceiver } from '../../support/receiver.ts';

describe('where private URLs are not allowed (AWS default)', () => {
  it('accepts public https URLs', () => {
    for (const url of ['https://example.com/hooks', 'https://hooks.example.co.uk:8443/a?b=c', 'https://93.184.216.34/x', 'https://[2606:4700::1111]/x']) {
      expect(urlProblem(url, false), url).toBeUndefined();
    }
  });

  it('refuses http, loopback, private, link-local (metadata), internal names and IPv4-mapped tricks', () => {
    const refused = [
      'http://example.com/hooks',
      'https://127.0.0.1/x',
      'https://127.1.2.3/x',
      'https://10.0.0.5/x',
      'https://172.16.3.4/x',
      'https://192.168.1.1/x',
      'https://169.254.169.254/latest/meta-data',
      'https://100.64.0.1/x',
      'https://0.0.0.0/x',
      'https://[::1]/x',
      'https://[fd00::1]/x',
      'https://[fe80::1]/x',
      'https://[::ffff:127.0.0.1]/x',
      'https://[::ffff:10.0.0.1]/x',
      'https://localhost/x',
      'https://api.localhost/x',
      'https://db.internal/x',
      'https://printer.local/x',
      'https://intranet/x',
      'https://2130706433/x', // 127.0.0.1 as a number: URL normalizes it
      'https://0x7f.1/x',
    ];
    for (const url of refused) expect(urlProblem(url, false), url).toBeDefined();
  });

  it('refuses to connect where a host name resolves to a private address (checked on the address connected to)', async () => {
    const receiver = await startReceiver();
    try {
      const port = new URL(receiver.url).port;
      // "localhost" resolves to loopback: allowed only where private URLs are.
      expect(await post(`http://localhost:${port}/guarded`, {}, '{}', 2000, true)).toBe(200);
      await expect(post(`http://localhost:${port}/guarded`, {}, '{}', 2000, false)).rejects.toMatchObject({ code: 'EPRIVATE' });
      expect(receiver.received.filter((r) => r.path === '/guarded')).toHaveLength(1);
      await expect(post('https://no-such-host.invalid/x', {}, '{}', 2000, false)).rejects.toMatchObject({ code: expect.stringMatching(/ENOTFOUND|EAI_AGAIN/) });
    } finally {
      await receiver.close();
    }
  });

  it('classifies addresses', () => {
    expect(isPrivateAddress('8.8.8.8')).toBe(false);
    expect(isPrivateAddress('192.168.0.1')).toBe(true);
    expect(isPrivateAddress('::ffff:192.168.0.1')).toBe(true);
    expect(isPrivateAddress('2001:4860:4860::8888')).toBe(false);
  });
});

describe('where private URLs are allowed (local runtime)', () => {
  it('accepts loopback http, still refusing other schemes and credentials', () => {
    expect(urlProblem('http://127.0.0.1:8080/hook', true)).toBeUndefined();
    expect(urlProblem('http://localhost:8080/hook', true)).toBeUndefined();
    expect(urlProblem('ftp://127.0.0.1/hook', true)).toBeDefined();
    expect(urlProblem('http://u:p@127.0.0.1/hook', true)).toBeDefined();
    expect(urlProblem('javascript:alert(1)', true)).toBeDefined();
  });
});

describe('configuration', () => {
  const saved = { ...process.env };
  afterEach(() => {
    process.env = { ...saved };
    resetConfig();
  });

  it('private URLs are off unless QUIRE_ALLOW_PRIVATE_URLS is exactly "true"; the attempt timeout is 10 s and retries unscaled by default', () => {
    Object.assign(process.env, { QUIRE_TABLE: 't', QUIRE_BUCKET: 'b', QUIRE_KMS_KEY_ID: 'k', QUIRE_RUN_STATE_MACHINE_ARN: 'arn' });
    for (const [value, allowed] of [[undefined, false], ['false', false], ['1', false], ['true', true]] as const) {
      if (value === undefined) delete process.env.QUIRE_ALLOW_PRIVATE_URLS;
      else process.env.QUIRE_ALLOW_PRIVATE_URLS = value;
      delete process.env.QUIRE_WEBHOOK_TIMEOUT_MS;
      delete process.env.QUIRE_WEBHOOK_RETRY_SCALE;
      resetConfig();
      expect(config().allowPrivateUrls, String(value)).toBe(allowed);
      expect(config().webhookTimeoutMs).toBe(10_000);
      expect(config().webhookRetryScale).toBe(1);
    }
  });
});
