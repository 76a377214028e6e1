import { randomBytes } from 'node:crypto';
import type { Clock, Ids } from './ports.ts';

/** Crockford base32, lowercase (API §0.1: ids are a prefix plus a time-sortable random part). */
const ALPHABET = '0123456789abcdefghjkmnpqrstvwxyz';

/** A ULID-like body: 10 characters of milliseconds then 16 random characters. */
export function ulidBody(timeMs: number, random: Uint8Array = randomBytes(10)): string {
  let time = '';
  let t = timeMs;
  for (let i = 0; i < 10; i++) {
    time = ALPHABET[t % 32] + time;
    t = Math.floor(t / 32);
  }
  let rand = '';
  // 10 bytes = 80 bits = 16 base32 characters.
  let bits = 0;
  let value = 0;
  for (const byte of random) {
    value = (value << 8) | byte;
    bits += 8;
    while (bits >= 5) {
      rand += ALPHABET[(value >>> (bits - 5)) & 31];
      bits -= 5;
    }
    value &= (1 << bits) - 1;
  }
  return time + rand;
}

export const ID_PATTERN = /^[a-z]+_[0-9a-hjkmnp-tv-z]{26}$/;

export function randomIds(clock: Clock): Ids {
  return { next: (prefix) => `${prefix}_${ulidBody(clock.now().getTime())}` };
}

export const systemClock: Clock = { now: () => new Date() };

/** RFC 3339 UTC with milliseconds. */
export function timestamp(date: Date): string {
  return date.toISOString();
}
