/**
 * A local AWS KMS endpoint (DESIGN.md §5).
 *
 * It speaks the wire protocol of `@aws-sdk/client-kms` (awsJson1_1: `POST /`,
 * `X-Amz-Target: TrentService.<Op>`, blobs as base64 strings, errors as `{"__type", "message"}`)
 * for GenerateDataKey, Encrypt and Decrypt, with one symmetric key.
 *
 * The key material is a 32-byte master key kept in a file, so ciphertexts written before a restart
 * still decrypt after it. A CiphertextBlob is our own format:
 *
 *   version (1 byte, = 1) | IV (12 bytes) | GCM tag (16 bytes) | AES-256-GCM ciphertext
 *
 * with the canonical JSON of the EncryptionContext as additional authenticated data, so decrypting
 * under another context fails with InvalidCiphertextException, as on KMS.
 */
import { createCipheriv, createDecipheriv, randomBytes } from 'node:crypto';
import { mkdir, readFile, writeFile } from 'node:fs/promises';
import { dirname } from 'node:path';
import { ApiError, startAwsJsonEndpoint, type AwsJsonOperation } from './aws-json-endpoint.ts';

export interface LocalKmsOptions {
  host?: string; // default '127.0.0.1'
  port?: number; // default 0 (ephemeral)
  region?: string; // default 'us-east-1'
  /** Where the master key lives; created (mode 0600) if missing. */
  masterKeyFile: string;
}

export interface LocalKms {
  endpoint: string; // http://127.0.0.1:<port>
  /** The key's ARN: arn:aws:kms:<region>:000000000000:key/quire-local */
  keyId: string;
  close(): Promise<void>;
}

const ACCOUNT_ID = '000000000000';
const KEY_NAME = 'quire-local';
const MASTER_KEY_BYTES = 32;
const BLOB_VERSION = 1;
const IV_BYTES = 12;
const TAG_BYTES = 16;
/** KMS's limit on Encrypt's Plaintext. */
const MAX_PLAINTEXT_BYTES = 4096;
const MAX_REQUEST_BYTES = 64 * 1024;
const KEY_SPEC_BYTES: Record<string, number> = { AES_256: 32, AES_128: 16 };

export async function startLocalKms(options: LocalKmsOptions): Promise<LocalKms> {
  const region = options.region ?? 'us-east-1';
  const masterKey = await loadOrCreateMasterKey(options.masterKeyFile);
  const keyArn = `arn:aws:kms:${region}:${ACCOUNT_ID}:key/${KEY_NAME}`;
  const service = new KmsService(masterKey, keyArn, [
    keyArn,
    KEY_NAME,
    `alias/${KEY_NAME}`,
    `arn:aws:kms:${region}:${ACCOUNT_ID}:alias/${KEY_NAME}`,
  ]);

  const endpoint = await startAwsJsonEndpoint({
    host: options.host ?? '127.0.0.1',
    port: options.port ?? 0,
    targetPrefix: 'TrentService.',
    contentType: 'application/x-amz-json-1.1',
    maxRequestBytes: MAX_REQUEST_BYTES,
    unknownOperationType: 'UnsupportedOperationException',
    internalErrorType: 'KMSInternalException',
    operations: service.operations,
  });
  return { endpoint: endpoint.endpoint, keyId: keyArn, close: () => endpoint.close() };
}

// ---------------------------------------------------------------------------------------------
// The service

class KmsService {
  constructor(
    private readonly masterKey: Buffer,
    private readonly keyArn: string,
    /** Every spelling of the one key: ARN, bare id, alias, alias ARN. */
    private readonly keyNames: string[],
  ) {}

  readonly operations: Record<string, AwsJsonOperation> = {
    GenerateDataKey: (body) => this.generateDataKey(body),
    Encrypt: (body) => this.encrypt(body),
    Decrypt: (body) => this.decrypt(body),
  };

  private generateDataKey(body: Record<string, unknown>) {
    this.requireKey(body.KeyId);
    const size = dataKeySize(body.KeySpec, body.NumberOfBytes);
    const plaintext = randomBytes(size);
    const context = encryptionContext(body.EncryptionContext);
    return {
      KeyId: this.keyArn,
      Plaintext: plaintext.toString('base64'),
      CiphertextBlob: seal(this.masterKey, plaintext, context).toString('base64'),
    };
  }

  private encrypt(body: Record<string, unknown>) {
    this.requireKey(body.KeyId);
    const plaintext = requireBlob(body.Plaintext, 'Plaintext');
    if (plaintext.length < 1 || plaintext.length > MAX_PLAINTEXT_BYTES) {
      throw new ApiError('ValidationException', `Plaintext must be 1 to ${MAX_PLAINTEXT_BYTES} bytes`);
    }
    const context = encryptionContext(body.EncryptionContext);
    return {
      KeyId: this.keyArn,
      CiphertextBlob: seal(this.masterKey, plaintext, context).toString('base64'),
      EncryptionAlgorithm: 'SYMMETRIC_DEFAULT',
    };
  }

  private decrypt(body: Record<string, unknown>) {
    // KeyId is optional for symmetric keys (the blob names its key); if given, it must be ours.
    if (body.KeyId !== undefined && body.KeyId !== null) this.requireKey(body.KeyId);
    const blob = requireBlob(body.CiphertextBlob, 'CiphertextBlob');
    const context = encryptionContext(body.EncryptionContext);
    return {
      KeyId: this.keyArn,
      Plaintext: open(this.masterKey, blob, context).toString('base64'),
      EncryptionAlgorithm: 'SYMMETRIC_DEFAULT',
    };
  }

  private requireKey(keyId: unknown): void {
    if (typeof keyId !== 'string' || keyId === '') throw new ApiError('ValidationException', 'KeyId is required');
    if (!this.keyNames.includes(keyId)) throw new ApiError('NotFoundException', `Key '${keyId}' does not exist`);
  }
}

// ---------------------------------------------------------------------------------------------
// Ciphertext blobs

function seal(masterKey: Buffer, plaintext: Buffer, context: string): Buffer {
  const iv = randomBytes(IV_BYTES);
  const cipher = createCipheriv('aes-256-gcm', masterKey, iv);
  cipher.setAAD(Buffer.from(context, 'utf8'));
  const ciphertext = Buffer.concat([cipher.update(plaintext), cipher.final()]);
  return Buffer.concat([Buffer.from([BLOB_VERSION]), iv, cipher.getAuthTag(), ciphertext]);
}

function open(masterKey: Buffer, blob: Buffer, context: string): Buffer {
  const headerBytes = 1 + IV_BYTES + TAG_BYTES;
  if (blob.length <= headerBytes || blob[0] !== BLOB_VERSION) {
    throw new ApiError('InvalidCiphertextException', 'The ciphertext is not a local KMS ciphertext');
  }
  const iv = blob.subarray(1, 1 + IV_BYTES);
  const tag = blob.subarray(1 + IV_BYTES, headerBytes);
  const decipher = createDecipheriv('aes-256-gcm', masterKey, iv);
  decipher.setAAD(Buffer.from(context, 'utf8'));
  decipher.setAuthTag(tag);
  try {
    return Buffer.concat([decipher.update(blob.subarray(headerBytes)), decipher.final()]);
  } catch {
    // Wrong encryption context, another master key, or a tampered blob: KMS does not say which.
    throw new ApiError('InvalidCiphertextException', 'The ciphertext or its encryption context is invalid');
  }
}

/**
 * The EncryptionContext as canonical JSON (keys sorted), so the same pairs in another order still
 * authenticate. A missing context is the empty one.
 */
function encryptionContext(value: unknown): string {
  if (value === undefined || value === null) return '{}';
  if (typeof value !== 'object' || Array.isArray(value)) {
    throw new ApiError('ValidationException', 'EncryptionContext must be a map of strings');
  }
  const entries = Object.entries(value as Record<string, unknown>);
  for (const [, v] of entries) {
    if (typeof v !== 'string') throw new ApiError('ValidationException', 'EncryptionContext values must be strings');
  }
  entries.sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
  return JSON.stringify(Object.fromEntries(entries));
}

function dataKeySize(keySpec: unknown, numberOfBytes: unknown): number {
  if (keySpec !== undefined && numberOfBytes !== undefined) {
    throw new ApiError('ValidationException', 'Specify either KeySpec or NumberOfBytes, not both');
  }
  if (keySpec !== undefined) {
    const size = typeof keySpec === 'string' ? KEY_SPEC_BYTES[keySpec] : undefined;
    if (size === undefined) throw new ApiError('ValidationException', `Unsupported KeySpec: ${String(keySpec)}`);
    return size;
  }
  if (typeof numberOfBytes === 'number' && Number.isInteger(numberOfBytes) && numberOfBytes >= 1 && numberOfBytes <= 1024) {
    return numberOfBytes;
  }
  throw new ApiError('ValidationException', 'Specify KeySpec or NumberOfBytes (1 to 1024)');
}

function requireBlob(value: unknown, name: string): Buffer {
  if (typeof value !== 'string' || value === '') throw new ApiError('ValidationException', `${name} is required`);
  return Buffer.from(value, 'base64');
}

// ---------------------------------------------------------------------------------------------
// The master key file

async function loadOrCreateMasterKey(file: string): Promise<Buffer> {
  const existing = await readMasterKey(file);
  if (existing) return existing;
  await mkdir(dirname(file), { recursive: true });
  try {
    // 'wx': never overwrite a key another process has just written; its ciphertexts would be lost.
    await writeFile(file, randomBytes(MASTER_KEY_BYTES), { mode: 0o600, flag: 'wx' });
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
  }
  const created = await readMasterKey(file);
  if (!created) throw new Error(`Could not create the local KMS master key at ${file}`);
  return created;
}

async function readMasterKey(file: string): Promise<Buffer | undefined> {
  let key: Buffer;
  try {
    key = await readFile(file);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    throw error;
  }
  if (key.length !== MASTER_KEY_BYTES) {
    // Refuse to guess: replacing it would make every stored data key undecryptable.
    throw new Error(`${file} is not a local KMS master key (expected ${MASTER_KEY_BYTES} bytes, found ${key.length})`);
  }
  return key;
}
