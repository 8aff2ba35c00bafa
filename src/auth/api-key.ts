import { hash, randomBytes } from 'node:crypto';

/** What every key starts with (and no JWT does). */
export const apiKeyPrefix = 'DE_';

/** `DE_` + 64 lowercase hex characters: decision-engine's key format (67 characters), kept for wire compatibility. */
const apiKeyPattern = /^DE_[0-9a-f]{64}$/;

/** `DE_` + the first 8 hex characters: what listings show so operators can tell keys apart. */
const displayPrefixLength = 3 + 8;

/** 32 bytes = 256 bits from the CSPRNG; hex-encoded that is exactly the 64 characters of the format. */
const keyEntropyBytes = 32;

export interface GeneratedApiKey {
  /** The raw key: shown to the caller once, at creation, and never stored. */
  readonly raw: string;
  /** SHA-256 hex of `raw`: the only form that is stored and looked up. */
  readonly hash: string;
  readonly prefix: string;
}

/**
 * Mints a new API key. Keys are random (not derived from ids) so knowing a key id, a prefix or
 * another key says nothing about a key. A fast hash is enough for storage because a 256-bit random
 * key cannot be guessed; slow password hashing would only slow every authenticated request.
 *
 * @param random byte source, injectable so tests can pin a key; production uses `crypto.randomBytes`.
 */
export function generateApiKey(random: (size: number) => Buffer = randomBytes): GeneratedApiKey {
  const raw = `DE_${random(keyEntropyBytes).toString('hex')}`;
  if (!isApiKeyFormat(raw)) {
    throw new RangeError(`random byte source returned a key of the wrong length`);
  }
  return { raw, hash: hashApiKey(raw), prefix: raw.slice(0, displayPrefixLength) };
}

/**
 * SHA-256 hex of the whole raw key (prefix included), the same digest decision-engine stores, so
 * keys minted by either system hash identically.
 */
export function hashApiKey(raw: string): string {
  // One-shot crypto.hash: several times cheaper than createHash() on this per-request path.
  return hash('sha256', raw, 'hex');
}

/**
 * True when `value` has the shape of an API key. Checked before hashing so that junk headers are
 * turned away without a store lookup; it reveals nothing, since the format is public.
 */
export function isApiKeyFormat(value: string): boolean {
  return apiKeyPattern.test(value);
}
