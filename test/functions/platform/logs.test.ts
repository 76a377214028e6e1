/**
 * Logs (DESIGN §8): one JSON line per request with request id, route, org and env — never an API key
 * or a document's content, whatever the outcome.
 */
import { afterAll, beforeAll, expect, it, vi } from 'vitest';
import { logger } from '../../../functions/platform/logger.ts';
import { dataUrl, startTestCloud, type TestCloud } from '../../support/cloud.ts';

let cloud: TestCloud;
beforeAll(async () => {
  cloud = await startTestCloud();
});
afterAll(() => cloud?.close());

it('logs requests as JSON with their context and no keys or document content', async () => {
  const lines: string[] = [];
  const capture = (chunk: unknown) => {
    lines.push(String(chunk));
    return true;
  };
  logger.setLogLevel('INFO');
  const out = vi.spyOn(process.stdout, 'write').mockImplementation(capture);
  const err = vi.spyOn(process.stderr, 'write').mockImplementation(capture);
  const secretText = 'TOP-SECRET-CONTENT-4242';
  try {
    await cloud.api('GET', '/v1/auth/status');
    await cloud.api('GET', '/v1/auth/status', { key: 'rt_test_notarealkeynotarealkey00' });
    await cloud.api('POST', '/v1/files', { body: { document: { filename: 'secret.txt', url: dataUrl('text/plain', secretText) } } });
    await cloud.api('POST', '/v1/files', { body: { document: { filename: 'bad.bin', url: 'data:text/plain;base64,@@@' } } });
  } finally {
    out.mockRestore();
    err.mockRestore();
    logger.setLogLevel('ERROR');
  }
  const all = lines.join('');
  const records = all.split('\n').filter((l) => l.startsWith('{')).map((l) => JSON.parse(l) as Record<string, unknown>);
  const requests = records.filter((r) => r.message === 'request');
  expect(requests.length).toBe(4);
  expect(requests[0]).toMatchObject({ level: 'INFO', route: 'GET /v1/auth/status', env: 'test', status: 200 });
  expect(requests[0]!.request_id).toMatch(/^req_/);
  expect(requests[1]).toMatchObject({ route: 'GET /v1/auth/status', status: 401 });
  expect(requests[2]).toMatchObject({ route: 'POST /v1/files', status: 201, org: cloud.orgId });
  expect(requests[3]).toMatchObject({ status: 422 });
  for (const secret of [cloud.keys.test, 'rt_test_notarealkeynotarealkey00', secretText, Buffer.from(secretText).toString('base64')]) {
    expect(all).not.toContain(secret);
  }
});
