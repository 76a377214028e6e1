/**
 * Member passwords: scrypt (node:crypto) with a random salt per password. Only the salt, the
 * parameters and the derived hash are stored, never the password.
 */
import { randomBytes, scrypt, timingSafeEqual, type ScryptOptions } from 'node:crypto';

export interface PasswordHash {
  algorithm: 'scrypt';
  N: number;
  r: number;
  p: number;
  salt: string;
  hash: string;
}

const PARAMS = { N: 16_384, r: 8, p: 1 };
const KEY_LENGTH = 32;
export const PASSWORD_MIN = 12;
export const PASSWORD_MAX = 200;

function derive(password: string, salt: Buffer, options: ScryptOptions): Promise<Buffer> {
  return new Promise((resolve, reject) =>
    scrypt(password.normalize('NFKC'), salt, KEY_LENGTH, { ...options, maxmem: 64 * 1024 * 1024 }, (error, key) => (error ? reject(error) : resolve(key))),
  );
}

export async function hashPassword(password: string): Promise<PasswordHash> {
  const salt = randomBytes(16);
  const hash = await derive(password, salt, PARAMS);
  return { algorithm: 'scrypt', ...PARAMS, salt: salt.toString('base64'), hash: hash.toString('base64') };
}

export async function verifyPassword(password: string, stored: PasswordHash): Promise<boolean> {
  const expected = Buffer.from(stored.hash, 'base64');
  const actual = await derive(password, Buffer.from(stored.salt, 'base64'), { N: stored.N, r: stored.r, p: stored.p });
  return actual.length === expected.length && timingSafeEqual(actual, expected);
}

/** Spends the time of one verification, so an unknown e-mail answers as slowly as a wrong password. */
export async function burnVerification(password: string): Promise<void> {
  await derive(password, Buffer.alloc(16), PARAMS);
}
