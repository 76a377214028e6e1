/**
 * The KeyRing port: KMS envelope encryption. A fresh data key (GenerateDataKey, bound to the
 * encryption context) and a fresh IV per seal; the value is encrypted locally with AES-256-GCM and
 * only the ciphertext and the KMS-encrypted data key are kept. The context is also the GCM
 * additional data, so a ciphertext moved to another (org, env, name) fails twice over.
 */
import { createCipheriv, createDecipheriv, randomBytes } from 'node:crypto';
import { DecryptCommand, GenerateDataKeyCommand, type KMSClient } from '@aws-sdk/client-kms';
import type { KeyRing, Sealed } from './ports.ts';

function canonical(context: Record<string, string>): Buffer {
  const sorted = Object.fromEntries(Object.entries(context).sort(([a], [b]) => a.localeCompare(b)));
  return Buffer.from(JSON.stringify(sorted), 'utf8');
}

export function kmsKeyRing(client: KMSClient, keyId: string): KeyRing {
  return {
    async seal(plaintext, context) {
      const dataKey = await client.send(new GenerateDataKeyCommand({ KeyId: keyId, KeySpec: 'AES_256', EncryptionContext: context }));
      if (!dataKey.Plaintext || !dataKey.CiphertextBlob) throw new Error('KMS returned no data key');
      const key = Buffer.from(dataKey.Plaintext);
      const iv = randomBytes(12);
      const cipher = createCipheriv('aes-256-gcm', key, iv);
      cipher.setAAD(canonical(context));
      const ciphertext = Buffer.concat([cipher.update(plaintext, 'utf8'), cipher.final()]);
      key.fill(0);
      return {
        ciphertext: ciphertext.toString('base64'),
        encryptedKey: Buffer.from(dataKey.CiphertextBlob).toString('base64'),
        iv: iv.toString('base64'),
        tag: cipher.getAuthTag().toString('base64'),
      };
    },

    async open(sealed: Sealed, context) {
      const dataKey = await client.send(
        new DecryptCommand({ KeyId: keyId, CiphertextBlob: Buffer.from(sealed.encryptedKey, 'base64'), EncryptionContext: context }),
      );
      if (!dataKey.Plaintext) throw new Error('KMS returned no plaintext key');
      const key = Buffer.from(dataKey.Plaintext);
      const decipher = createDecipheriv('aes-256-gcm', key, Buffer.from(sealed.iv, 'base64'));
      decipher.setAAD(canonical(context));
      decipher.setAuthTag(Buffer.from(sealed.tag, 'base64'));
      const plaintext = Buffer.concat([decipher.update(Buffer.from(sealed.ciphertext, 'base64')), decipher.final()]);
      key.fill(0);
      return plaintext.toString('utf8');
    },
  };
}
