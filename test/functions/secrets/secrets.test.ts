/**
 * Secrets (API §11) against the real local cloud (dynalite, s3rver, local KMS): every promise of the
 * issue is tried from the side that could break it.
 */
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { DynamoDBClient, ScanCommand } from '@aws-sdk/client-dynamodb';
import { GenerateDataKeyCommand, KMSClient } from '@aws-sdk/client-kms';
import { mockClient } from 'aws-sdk-client-mock';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { kmsKeyRing } from '../../../functions/platform/kms-keyring.ts';
import { logger } from '../../../functions/platform/logger.ts';
import { platform, setPlatform, type Platform } from '../../../functions/platform/platform.ts';
import { startTestCloud, type TestCloud } from '../../support/cloud.ts';

let cloud: TestCloud;
beforeAll(async () => {
  cloud = await startTestCloud();
});
afterAll(() => cloud?.close());

const unique = () => `S${Math.random().toString(36).slice(2, 10)}`;

/** Every file under a directory, as raw bytes. */
function rawFiles(dir: string): Buffer[] {
  const out: Buffer[] = [];
  for (const name of readdirSync(dir)) {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) out.push(...rawFiles(path));
    else out.push(readFileSync(path));
  }
  return out;
}

/** The forms a plaintext could take at rest: itself, and base64 at each of the three alignments. */
function plaintextForms(value: string): string[] {
  const forms = [value];
  for (let shift = 0; shift < 3; shift++) {
    const b64 = Buffer.from('x'.repeat(shift) + value).toString('base64');
    // Drop the characters that depend on the neighbours.
    forms.push(b64.slice(Math.ceil((shift * 4) / 3) + 1, -4));
  }
  return forms;
}

describe('the API', () => {
  it('creates, rotates, reads, lists and deletes; PUT never returns the value', async () => {
    const name = `API_TOKEN_${unique()}`;
    const put = await cloud.api('PUT', `/v1/secrets/${name}`, { body: { value: 'first-value-123' } });
    expect(put.status).toBe(200);
    expect(put.text).not.toContain('first-value-123');
    const keyId = (await cloud.api('GET', '/v1/auth/status')).body.key.id;
    expect(put.body).toEqual({ secret: { name, created_at: expect.any(String), updated_at: expect.any(String), created_by: keyId, updated_by: keyId } });

    await new Promise((r) => setTimeout(r, 5));
    const rotated = await cloud.api('PUT', `/v1/secrets/${name}`, { key: cloud.keys.test, body: { value: 'second-value-456' } });
    expect(rotated.status).toBe(200);
    expect(rotated.text).not.toContain('second-value-456');
    expect(rotated.body.secret.created_at).toBe(put.body.secret.created_at);
    expect(rotated.body.secret.updated_at > put.body.secret.updated_at).toBe(true);

    const value = await cloud.api('GET', `/v1/secrets/${name}/value`);
    expect(value.body).toEqual({ secret: { name, value: 'second-value-456', updated_at: rotated.body.secret.updated_at } });
    const meta = await cloud.api('GET', `/v1/secrets/${name}`);
    expect(meta.body).toEqual(rotated.body);
    const list = await cloud.api('GET', '/v1/secrets');
    expect(list.status).toBe(200);
    expect(list.body.secrets).toContainEqual(rotated.body.secret);
    expect(list.text).not.toContain('second-value-456');

    expect((await cloud.api('DELETE', `/v1/secrets/${name}`)).status).toBe(204);
    const gone = await cloud.api('GET', `/v1/secrets/${name}/value`);
    expect(gone.status).toBe(404);
    expect(gone.body).toEqual({ detail: `Secret ${name} not found` });
    expect((await cloud.api('DELETE', `/v1/secrets/${name}`)).status).toBe(404);
  });

  it('POST creates (201) and refuses an existing name (409) without changing it', async () => {
    const name = `DB_PASSWORD_${unique()}`;
    const created = await cloud.api('POST', '/v1/secrets', { body: { name, value: 'pw-1' } });
    expect(created.status).toBe(201);
    expect(created.text).not.toContain('pw-1');
    const again = await cloud.api('POST', '/v1/secrets', { body: { name, value: 'pw-2' } });
    expect(again.status).toBe(409);
    expect((await cloud.api('GET', `/v1/secrets/${name}/value`)).body.secret.value).toBe('pw-1');
  });

  it('refuses bad names, empty values and values over 64 KiB with 422, storing nothing', async () => {
    for (const bad of ['1abc', 'has-dash', 'sp ace', 'é', 'a'.repeat(129)]) {
      const r = await cloud.api('PUT', `/v1/secrets/${encodeURIComponent(bad)}`, { body: { value: 'v' } });
      expect(r.status, bad).toBe(422);
      expect(r.body.detail[0].loc).toEqual(['path', 'name']);
      const c = await cloud.api('POST', '/v1/secrets', { body: { name: bad, value: 'v' } });
      expect(c.status, bad).toBe(422);
      expect(c.body.detail[0].loc).toEqual(['body', 'name']);
    }
    const name = `BIG_${unique()}`;
    for (const value of ['', 'x'.repeat(65_537), 42, null]) {
      const r = await cloud.api('PUT', `/v1/secrets/${name}`, { body: { value } });
      expect(r.status).toBe(422);
      expect(r.body.detail[0].loc).toEqual(['body', 'value']);
    }
    expect((await cloud.api('GET', `/v1/secrets/${name}`)).status).toBe(404);
    // The largest allowed value round-trips.
    const max = 'y'.repeat(65_536);
    expect((await cloud.api('PUT', `/v1/secrets/${name}`, { body: { value: max } })).status).toBe(200);
    expect((await cloud.api('GET', `/v1/secrets/${name}/value`)).body.secret.value).toBe(max);
  });

  it("keeps environments apart: the other environment's or organization's secret is 404, and same names do not collide", async () => {
    const name = `SHARED_${unique()}`;
    await cloud.api('PUT', `/v1/secrets/${name}`, { key: cloud.keys.test, body: { value: 'test-value' } });
    for (const key of [cloud.keys.live, cloud.keys.otherOrgTest, cloud.keys.otherOrgLive]) {
      for (const path of [`/v1/secrets/${name}`, `/v1/secrets/${name}/value`]) {
        const r = await cloud.api('GET', path, { key });
        expect(r.status).toBe(404);
        expect(r.body).toEqual({ detail: `Secret ${name} not found` });
      }
      expect((await cloud.api('DELETE', `/v1/secrets/${name}`, { key })).status).toBe(404);
      expect((await cloud.api('GET', '/v1/secrets', { key })).body.secrets.map((s: { name: string }) => s.name)).not.toContain(name);
    }
    await cloud.api('PUT', `/v1/secrets/${name}`, { key: cloud.keys.live, body: { value: 'live-value' } });
    expect((await cloud.api('GET', `/v1/secrets/${name}/value`, { key: cloud.keys.test })).body.secret.value).toBe('test-value');
    expect((await cloud.api('GET', `/v1/secrets/${name}/value`, { key: cloud.keys.live })).body.secret.value).toBe('live-value');
  });
});

describe('at rest', () => {
  it('neither the DynamoDB table nor the S3 bucket holds a plaintext value (raw files and a logical scan)', async () => {
    const values = [`plain-${unique()}-needle`, `sk_live_${unique()}${unique()}`, `multi\nline ${unique()} \u00e9\u4e2d`];
    for (const [i, value] of values.entries()) {
      expect((await cloud.api('PUT', `/v1/secrets/AT_REST_${i}_${unique()}`, { body: { value } })).status).toBe(200);
    }
    // Through the emulator: every attribute of every item.
    const client = new DynamoDBClient({ region: cloud.endpoints.region, endpoint: cloud.endpoints.dynamodb, credentials: { accessKeyId: 'x', secretAccessKey: 'x' } });
    const items = JSON.stringify((await client.send(new ScanCommand({ TableName: cloud.endpoints.table }))).Items);
    client.destroy();
    expect(items).toContain('AT_REST_0_'); // the scan does see the secrets' items
    // And the raw bytes the emulators keep on disk.
    const raw = [...rawFiles(join(cloud.dataDir, 'dynamodb')), ...rawFiles(join(cloud.dataDir, 's3'))];
    for (const value of values) {
      for (const form of plaintextForms(value)) {
        expect(items.includes(form), form).toBe(false);
        for (const bytes of raw) {
          expect(bytes.includes(Buffer.from(form, 'utf8')), form).toBe(false);
          expect(bytes.includes(Buffer.from(form, 'utf16le')), form).toBe(false);
        }
      }
    }
  });

  it("a ciphertext copied onto another environment's or another name's item does not decrypt", async () => {
    const p = platform();
    const caller = (await import('../../../functions/auth/service.ts')).resolveCaller;
    const test = await caller(p, cloud.keys.test);
    const live = await caller(p, cloud.keys.live);
    const name = `COPIED_${unique()}`;
    await cloud.api('PUT', `/v1/secrets/${name}`, { key: cloud.keys.test, body: { value: 'do-not-move-me' } });
    const stored = (await p.store.getRecord<Record<string, unknown>>(test, 'secret', name))!;
    // Onto the same name in production, and onto another name in test.
    await p.store.putRecord(live, { ...stored, data: { ...stored.data } });
    const other = `OTHER_${unique()}`;
    await p.store.putRecord(test, { ...stored, id: other, data: { ...stored.data, name: other } });
    for (const [key, path] of [[cloud.keys.live, `/v1/secrets/${name}/value`], [cloud.keys.test, `/v1/secrets/${other}/value`]] as const) {
      const r = await cloud.api('GET', path, { key });
      expect(r.status).toBe(500);
      expect(r.text).not.toContain('do-not-move-me');
      expect(r.body).toEqual({ detail: 'Internal error', request_id: r.headers.get('x-request-id') });
    }
    expect((await cloud.api('GET', `/v1/secrets/${name}/value`, { key: cloud.keys.test })).body.secret.value).toBe('do-not-move-me');
  });
});

it('never writes a value to the logs, whatever the outcome', async () => {
  const lines: string[] = [];
  const capture = (chunk: unknown) => {
    lines.push(String(chunk));
    return true;
  };
  logger.setLogLevel('DEBUG');
  const out = vi.spyOn(process.stdout, 'write').mockImplementation(capture);
  const err = vi.spyOn(process.stderr, 'write').mockImplementation(capture);
  const value = `log-needle-${unique()}`;
  const name = `LOGGED_${unique()}`;
  try {
    await cloud.api('PUT', `/v1/secrets/${name}`, { body: { value } });
    await cloud.api('POST', '/v1/secrets', { body: { name, value } }); // 409
    await cloud.api('GET', `/v1/secrets/${name}/value`);
    await cloud.api('PUT', '/v1/secrets/9bad', { body: { value } }); // 422
    await cloud.api('PUT', `/v1/secrets/${name}`, { body: { value: value + 'x'.repeat(65_536) } }); // 422, too long
  } finally {
    out.mockRestore();
    err.mockRestore();
    logger.setLogLevel('ERROR');
  }
  const all = lines.join('');
  expect(all).toContain('"message":"request"'); // the capture did see the request logs
  for (const form of plaintextForms(value)) expect(all).not.toContain(form);
});

describe('the AWS KMS adapter', () => {
  it('asks KMS for a fresh data key bound to {organization, environment, name} for every write', async () => {
    const kms = mockClient(KMSClient);
    let n = 0;
    kms.on(GenerateDataKeyCommand).callsFake(() => ({ Plaintext: Buffer.alloc(32, ++n), CiphertextBlob: Buffer.from(`blob-${n}`) }));
    const ring = kmsKeyRing(new KMSClient({ region: 'us-east-1' }), 'arn:aws:kms:us-east-1:1:key/k');
    const context = { organization: 'org_1', environment: 'env_1', name: 'TOKEN' };
    const a = await ring.seal('same value', context);
    const b = await ring.seal('same value', context);
    const calls = kms.commandCalls(GenerateDataKeyCommand);
    expect(calls).toHaveLength(2);
    expect(calls[0]!.args[0].input).toEqual({ KeyId: 'arn:aws:kms:us-east-1:1:key/k', KeySpec: 'AES_256', EncryptionContext: context });
    expect(a.iv).not.toBe(b.iv);
    expect(a.encryptedKey).not.toBe(b.encryptedKey);
    expect(a.ciphertext).not.toBe(b.ciphertext);
    expect(Buffer.from(a.iv, 'base64')).toHaveLength(12);
    kms.restore();
  });

  it('a KMS failure answers 500 with no secret in the body, and stores nothing', async () => {
    const kms = mockClient(KMSClient);
    kms.on(GenerateDataKeyCommand).rejects(Object.assign(new Error('KMS is unavailable'), { name: 'KMSInternalException' }));
    const real = platform();
    const broken: Platform = { ...real, keyRing: kmsKeyRing(new KMSClient({ region: 'us-east-1' }), 'arn:aws:kms:us-east-1:1:key/k') };
    setPlatform(broken);
    const name = `KMS_DOWN_${unique()}`;
    try {
      for (const [method, path, body] of [['PUT', `/v1/secrets/${name}`, { value: 'kms-down-value' }], ['POST', '/v1/secrets', { name, value: 'kms-down-value' }]] as const) {
        const r = await cloud.api(method, path, { body });
        expect(r.status).toBe(500);
        expect(r.body).toEqual({ detail: 'Internal error', request_id: r.headers.get('x-request-id') });
        expect(r.text).not.toContain('kms-down-value');
      }
    } finally {
      setPlatform(real);
      kms.restore();
    }
    expect((await cloud.api('GET', `/v1/secrets/${name}`)).status).toBe(404);
    expect((await cloud.api('GET', '/v1/secrets')).body.secrets.map((s: { name: string }) => s.name)).not.toContain(name);
  });
});
