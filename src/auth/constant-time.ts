import { createHash, timingSafeEqual } from 'node:crypto';

/**
 * Compares two secrets (an admin secret, a stored key hash) without leaking through timing how
 * much of them matched or how long the expected one is.
 *
 * Both sides are reduced to SHA-256 digests first, so `timingSafeEqual` always sees two 32-byte
 * buffers: it throws on unequal lengths, and an early length check would itself leak the length.
 * Equal digests imply equal inputs (a collision would have to be found first).
 */
export function safeEqual(a: string, b: string): boolean {
  return timingSafeEqual(digest(a), digest(b));
}

function digest(value: string): Buffer {
  return createHash('sha256').update(value, 'utf8').digest();
}

/**
 * Compares two digests of one public length (an API key's stored and computed SHA-256 hex) without
 * stopping at the first differing character: every character pair is folded into one difference.
 * Unequal lengths answer false at once, since a digest's length tells nothing secret.
 *
 * Why not {@link safeEqual} here: it digests both sides again with OpenSSL, which cost about 8 µs of
 * main-thread CPU per API-key request under load (bench/README.md, "Sticky routing without OpenSSL,
 * and API-key requests").
 */
export function digestsEqual(a: string, b: string): boolean {
  if (a.length !== b.length) return false;
  let difference = 0;
  for (let i = 0; i < a.length; i++) difference |= a.charCodeAt(i) ^ b.charCodeAt(i);
  return difference === 0;
}
