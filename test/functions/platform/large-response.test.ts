/**
 * A response over the 6 MB Lambda ceiling is answered 303 See Other with a presigned URL of the same
 * JSON (API §0.1); HTTP clients follow it transparently.
 */
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { bigOperation } from '../../support/big-handlers.ts';
import { startTestCloud, type TestCloud } from '../../support/cloud.ts';

const module = fileURLToPath(new URL('../../support/big-handlers.ts', import.meta.url));
let cloud: TestCloud;
beforeAll(async () => {
  cloud = await startTestCloud({ extraRoutes: [{ method: 'GET', path: '/v1/big', module, handler: 'big', size: 'small', op: bigOperation }] });
});
afterAll(() => cloud?.close());

it('answers 303 with a presigned URL of the JSON, which fetch follows to the full body', async () => {
  const raw = await cloud.api('GET', '/v1/big');
  expect(raw.status).toBe(303);
  const location = raw.headers.get('location')!;
  expect(location).toContain('/responses/req_');
  expect(location).toContain('X-Amz-Expires=900');
  const followed = await fetch(`${cloud.url}/v1/big`, { headers: { authorization: `Bearer ${cloud.keys.test}` } });
  expect(followed.status).toBe(200);
  const body = (await followed.json()) as { filler: string };
  expect(body.filler.length).toBe(7 * 1024 * 1024);
});

it('answers a response under the ceiling directly', async () => {
  const small = await cloud.api('GET', '/v1/big?mb=1');
  expect(small.status).toBe(200);
  expect(small.body.filler.length).toBe(1024 * 1024);
});
