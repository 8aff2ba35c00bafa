import { createHash, randomBytes } from 'node:crypto';

/** 32 random bytes, base64url: what a mailed link carries. Only its SHA-256 is ever stored. */
export function generateOneTimeToken(): string {
  return randomBytes(32).toString('base64url');
}

/** The stored form of a one-time token: hex SHA-256 (a random 256-bit token needs no salt nor slow hash). */
export function hashOneTimeToken(token: string): string {
  return createHash('sha256').update(token, 'utf8').digest('hex');
}
