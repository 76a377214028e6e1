/**
 * The KeyRing port (KMS envelope encryption) against the local KMS endpoint: a fresh data key and IV
 * per seal, nothing in plaintext, and the encryption context binds the ciphertext to where it belongs.
 */
import { afterAll, beforeAll, expect, it } from 'vitest';
import { platform } from '../../../functions/platform/platform.ts';
import { startTestCloud, type TestCloud } from '../../support/cloud.ts';

let cloud: TestCloud;
beforeAll(async () => {
  cloud = await startTestCloud();
});
afterAll(() => cloud?.close());

const context = { organization: 'org_a', environment: 'env_test', name: 'CRM_TOKEN' };

it('seals and opens a value; two seals of one value share nothing', async () => {
  const p = platform();
  const value = 'super-secret-value-ü-🔑';
  const a = await p.keyRing.seal(value, context);
  const b = await p.keyRing.seal(value, context);
  expect(await p.keyRing.open(a, context)).toBe(value);
  expect(a.ciphertext).not.toBe(b.ciphertext);
  expect(a.iv).not.toBe(b.iv);
  expect(a.encryptedKey).not.toBe(b.encryptedKey);
  const stored = JSON.stringify(a);
  expect(stored).not.toContain(value);
  expect(stored).not.toContain(Buffer.from(value).toString('base64'));
});

it('refuses to open a ciphertext under another environment, organization or name', async () => {
  const p = platform();
  const sealed = await p.keyRing.seal('v', context);
  for (const other of [
    { ...context, environment: 'env_prod' },
    { ...context, organization: 'org_b' },
    { ...context, name: 'OTHER' },
  ]) {
    await expect(p.keyRing.open(sealed, other)).rejects.toThrow();
  }
});

it('detects a tampered ciphertext', async () => {
  const p = platform();
  const sealed = await p.keyRing.seal('value', context);
  const bytes = Buffer.from(sealed.ciphertext, 'base64');
  bytes[0] = bytes[0]! ^ 1;
  await expect(p.keyRing.open({ ...sealed, ciphertext: bytes.toString('base64') }, context)).rejects.toThrow();
});
