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
