import { mkdtemp, rm, stat } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import {
  DecryptCommand,
  EncryptCommand,
  GenerateDataKeyCommand,
  InvalidCiphertextException,
  KMSClient,
  NotFoundException,
} from '@aws-sdk/client-kms';
import { startLocalKms, type LocalKms } from '../../../lib/local/kms.ts';

let dir: string;
const opened: { kms: LocalKms; client: KMSClient }[] = [];

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'quire-kms-'));
});

afterEach(async () => {
  for (const { kms, client } of opened.splice(0)) {
    client.destroy();
    await kms.close();
  }
});

afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

async function open(masterKeyFile = join(dir, 'master.key')) {
  const kms = await startLocalKms({ masterKeyFile });
  const client = new KMSClient({
    endpoint: kms.endpoint,
    region: 'us-east-1',
    credentials: { accessKeyId: 'x', secretAccessKey: 'x' },
  });
  opened.push({ kms, client });
  return { kms, client };
}

const context = { org: 'org_1', purpose: 'document' };

describe('local KMS endpoint', () => {
  it('generates a data key whose ciphertext decrypts back to it under the same context', async () => {
    const { kms, client } = await open();
    expect(kms.keyId).toBe('arn:aws:kms:us-east-1:000000000000:key/quire-local');

    const dataKey = await client.send(
      new GenerateDataKeyCommand({ KeyId: kms.keyId, KeySpec: 'AES_256', EncryptionContext: context }),
    );
    expect(dataKey.KeyId).toBe(kms.keyId);
    expect(dataKey.Plaintext).toBeInstanceOf(Uint8Array);
    expect(dataKey.Plaintext).toHaveLength(32);

    // Context keys in another order are the same context.
    const decrypted = await client.send(
      new DecryptCommand({
        CiphertextBlob: dataKey.CiphertextBlob,
        EncryptionContext: { purpose: 'document', org: 'org_1' },
      }),
    );
    expect(Buffer.from(decrypted.Plaintext!)).toEqual(Buffer.from(dataKey.Plaintext!));
    expect(decrypted.KeyId).toBe(kms.keyId);
    expect(decrypted.EncryptionAlgorithm).toBe('SYMMETRIC_DEFAULT');
  });

  it('encrypts and decrypts with NumberOfBytes and every spelling of the key id', async () => {
    const { kms, client } = await open();
    for (const keyId of ['quire-local', 'alias/quire-local', kms.keyId]) {
      const dataKey = await client.send(new GenerateDataKeyCommand({ KeyId: keyId, NumberOfBytes: 16 }));
      expect(dataKey.Plaintext).toHaveLength(16);
      const plain = await client.send(new DecryptCommand({ KeyId: keyId, CiphertextBlob: dataKey.CiphertextBlob }));
      expect(Buffer.from(plain.Plaintext!)).toEqual(Buffer.from(dataKey.Plaintext!));
    }

    const secret = Buffer.from('a webhook signing secret');
    const encrypted = await client.send(
      new EncryptCommand({ KeyId: 'alias/quire-local', Plaintext: secret, EncryptionContext: context }),
    );
    expect(encrypted.KeyId).toBe(kms.keyId);
    const decrypted = await client.send(
      new DecryptCommand({ CiphertextBlob: encrypted.CiphertextBlob, EncryptionContext: context }),
    );
    expect(Buffer.from(decrypted.Plaintext!).toString()).toBe('a webhook signing secret');
  });

  it('refuses to decrypt under another (or no) encryption context, or a tampered blob', async () => {
    const { kms, client } = await open();
    const { CiphertextBlob } = await client.send(
      new GenerateDataKeyCommand({ KeyId: kms.keyId, KeySpec: 'AES_256', EncryptionContext: context }),
    );
    const decryptWith = (blob: Uint8Array, encryptionContext?: Record<string, string>) =>
      client.send(new DecryptCommand({ CiphertextBlob: blob, EncryptionContext: encryptionContext }));

    await expect(decryptWith(CiphertextBlob!, { ...context, org: 'org_2' })).rejects.toBeInstanceOf(
      InvalidCiphertextException,
    );
    await expect(decryptWith(CiphertextBlob!)).rejects.toMatchObject({
      name: 'InvalidCiphertextException',
      $metadata: { httpStatusCode: 400 },
    });
    const tampered = Buffer.from(CiphertextBlob!);
    tampered[tampered.length - 1]! ^= 1;
    await expect(decryptWith(tampered, context)).rejects.toBeInstanceOf(InvalidCiphertextException);
    await expect(decryptWith(Buffer.from('not a blob'), context)).rejects.toBeInstanceOf(InvalidCiphertextException);
  });

  it('keeps its master key across restarts (mode 0600), so old ciphertexts still decrypt', async () => {
    const file = join(dir, 'restart', 'master.key');
    const first = await open(file);
    const dataKey = await first.client.send(
      new GenerateDataKeyCommand({ KeyId: first.kms.keyId, KeySpec: 'AES_256', EncryptionContext: context }),
    );
    first.client.destroy();
    await first.kms.close();
    expect((await stat(file)).mode & 0o777).toBe(0o600);

    const second = await open(file);
    const decrypted = await second.client.send(
      new DecryptCommand({ CiphertextBlob: dataKey.CiphertextBlob, EncryptionContext: context }),
    );
    expect(Buffer.from(decrypted.Plaintext!)).toEqual(Buffer.from(dataKey.Plaintext!));

    // Another master key cannot read it.
    const other = await open(join(dir, 'other', 'master.key'));
    await expect(
      other.client.send(new DecryptCommand({ CiphertextBlob: dataKey.CiphertextBlob, EncryptionContext: context })),
    ).rejects.toBeInstanceOf(InvalidCiphertextException);
  });

  it('answers NotFoundException for an unknown key id', async () => {
    const { kms, client } = await open();
    await expect(
      client.send(new GenerateDataKeyCommand({ KeyId: 'alias/someone-else', KeySpec: 'AES_256' })),
    ).rejects.toBeInstanceOf(NotFoundException);
    await expect(
      client.send(new EncryptCommand({ KeyId: 'arn:aws:kms:us-east-1:000000000000:key/nope', Plaintext: Buffer.from('x') })),
    ).rejects.toMatchObject({ name: 'NotFoundException', $metadata: { httpStatusCode: 400 } });

    const { CiphertextBlob } = await client.send(new GenerateDataKeyCommand({ KeyId: kms.keyId, NumberOfBytes: 8 }));
    await expect(
      client.send(new DecryptCommand({ KeyId: 'alias/someone-else', CiphertextBlob })),
    ).rejects.toBeInstanceOf(NotFoundException);
  });

  it('releases its port on close', async () => {
    const { kms, client } = await open();
    await client.send(new GenerateDataKeyCommand({ KeyId: kms.keyId, NumberOfBytes: 8 })); // a keep-alive socket
    client.destroy();
    await kms.close();
    opened.length = 0;
    const port = Number(new URL(kms.endpoint).port);
    const again = await startLocalKms({ masterKeyFile: join(dir, 'master.key'), port });
    expect(again.endpoint).toBe(kms.endpoint);
    await again.close();
  });
});
