import { randomBytes, scrypt, timingSafeEqual, type ScryptOptions } from 'node:crypto';
import { SwitchyardError } from '../errors/switchyard-error.js';

/**
 * scrypt cost parameters. Memory use is about 128 · 2^logN · r bytes per hash.
 * Stored with every hash, so they can be raised later without breaking existing passwords.
 */
export interface ScryptParams {
  /** log2 of the CPU/memory cost N (N must be a power of two, so it is stored as its exponent). */
  readonly logN: number;
  /** Block size. */
  readonly r: number;
  /** Parallelisation. */
  readonly p: number;
}

/**
 * N = 2^15, r = 8, p = 1: OWASP's Password Storage Cheat Sheet minimum for scrypt (32 MiB, tens of
 * milliseconds per hash on a server core). Tests inject a lower logN rather than branching here.
 */
export const defaultScryptParams: ScryptParams = Object.freeze({ logN: 15, r: 8, p: 1 });

/** 16-byte salt and 32-byte derived key: the sizes OWASP and RFC 7914 examples use. */
const saltBytes = 16;
const keyBytes = 32;

/**
 * Upper bounds accepted when reading a stored hash, so a corrupted or planted row cannot make one
 * login allocate gigabytes (2^20 · 8 · 128 B = 1 GiB is already far above any sane setting).
 */
const limits = { logN: 20, r: 32, p: 16, keyBytes: 128 } as const;

const phcPattern = /^\$scrypt\$ln=(\d{1,2}),r=(\d{1,2}),p=(\d{1,2})\$([A-Za-z0-9+/]+)\$([A-Za-z0-9+/]+)$/;

/**
 * Hashes a password with scrypt (memory-hard, in Node's standard library) and a fresh random salt.
 * The result is a PHC-style string: `$scrypt$ln=15,r=8,p=1$<salt base64>$<hash base64>`.
 *
 * @remarks Passwords are hashed as given (UTF-8); no Unicode normalisation, which would make the
 * same typed password hash differently across versions of the normaliser.
 */
export async function hashPassword(password: string, params: ScryptParams = defaultScryptParams): Promise<string> {
  assertParams(params, 'hashing');
  const salt = randomBytes(saltBytes);
  const hash = await deriveKey(password, salt, keyBytes, params);
  return `$scrypt$ln=${params.logN},r=${params.r},p=${params.p}$${toB64(salt)}$${toB64(hash)}`;
}

/**
 * Re-derives the key with the salt and parameters stored in `encoded` and compares in constant
 * time. A wrong password is `false`; a stored value that is not one of our hashes throws, because
 * that is corruption, not a failed login.
 */
export async function verifyPassword(password: string, encoded: string): Promise<boolean> {
  const stored = parseEncoded(encoded);
  const candidate = await deriveKey(password, stored.salt, stored.hash.length, stored.params);
  return timingSafeEqual(candidate, stored.hash);
}

/** True when `encoded` was made with other parameters than `params`: rehash after the next successful login. */
export function needsRehash(encoded: string, params: ScryptParams = defaultScryptParams): boolean {
  const stored = parseEncoded(encoded);
  return stored.params.logN !== params.logN || stored.params.r !== params.r || stored.params.p !== params.p;
}

interface StoredHash {
  readonly params: ScryptParams;
  readonly salt: Buffer;
  readonly hash: Buffer;
}

function parseEncoded(encoded: string): StoredHash {
  const match = phcPattern.exec(encoded);
  if (!match) throw malformed('not a $scrypt$ string');
  const params: ScryptParams = { logN: Number(match[1]), r: Number(match[2]), p: Number(match[3]) };
  assertParams(params, 'stored hash');
  const salt = Buffer.from(match[4] ?? '', 'base64');
  const hash = Buffer.from(match[5] ?? '', 'base64');
  if (salt.length < 8 || hash.length < 16 || hash.length > limits.keyBytes) throw malformed('salt or hash length out of range');
  return { params, salt, hash };
}

function assertParams(params: ScryptParams, where: string): void {
  const ok =
    Number.isInteger(params.logN) &&
    params.logN >= 1 &&
    params.logN <= limits.logN &&
    Number.isInteger(params.r) &&
    params.r >= 1 &&
    params.r <= limits.r &&
    Number.isInteger(params.p) &&
    params.p >= 1 &&
    params.p <= limits.p;
  if (!ok) throw malformed(`scrypt parameters out of range in ${where}`);
}

function deriveKey(password: string, salt: Buffer, length: number, params: ScryptParams): Promise<Buffer> {
  const cost = 2 ** params.logN;
  const options: ScryptOptions = {
    N: cost,
    r: params.r,
    p: params.p,
    // Node refuses when 128·N·r exceeds maxmem (default 32 MiB, which N=2^15,r=8 already reaches);
    // twice the need leaves room for the p lanes' buffers.
    maxmem: 2 * 128 * cost * params.r * params.p + 1024 * 1024,
  };
  return new Promise((resolve, reject) => {
    scrypt(password, salt, length, options, (error, key) => {
      if (error) reject(new SwitchyardError('SY_INTERNAL', { message: 'password hashing failed', cause: error }));
      else resolve(key);
    });
  });
}

function toB64(bytes: Buffer): string {
  return bytes.toString('base64').replace(/=+$/, '');
}

function malformed(why: string): SwitchyardError {
  return new SwitchyardError('SY_INTERNAL', { message: `stored password hash is malformed: ${why}` });
}
