import { createCipheriv, createDecipheriv, randomBytes } from 'node:crypto';
import type { SealedSecret } from '../ports/state/provider-credentials.js';

export type { SealedSecret };

/**
 * Envelope encryption of merchant secrets at rest (issue 39): each secret is sealed with a fresh
 * data key (AES-256-GCM), and the data key with the operator's key encryption key (AES-256-GCM),
 * whose id is recorded beside it. The associated data binds a sealed secret to where it belongs
 * (`merchant|provider`): a record copied to another merchant or provider does not open.
 *
 * Rotation: the operator adds a new key and makes it the active one (`PROVIDER_CREDENTIAL_KEYS`
 * lists `id:base64key` pairs, the first active); records sealed with an older key still open, and
 * `reseal` moves one to the active key. Once no record names the old id it can be dropped.
 */
export interface KeyEncryptionKeys {
  /** The id new secrets are sealed with. */
  readonly active: string;
  readonly keys: ReadonlyMap<string, Buffer>;
}

const keyIdPattern = /^[A-Za-z0-9._-]{1,64}$/;

/**
 * Reads `id:base64key[,id:base64key…]` (each key 32 bytes, base64): the first is the active one.
 * Throws naming the bad entry, never echoing a key.
 */
export function parseKeyEncryptionKeys(text: string): KeyEncryptionKeys {
  const keys = new Map<string, Buffer>();
  let active: string | undefined;
  for (const [index, entry] of text.split(',').entries()) {
    const separator = entry.indexOf(':');
    const id = entry.slice(0, Math.max(separator, 0)).trim();
    if (separator < 0 || !keyIdPattern.test(id))
      throw new Error(`PROVIDER_CREDENTIAL_KEYS entry ${index + 1} must be <id>:<base64 32-byte key> (id: letters, digits, . _ -)`);
    const key = Buffer.from(entry.slice(separator + 1).trim(), 'base64');
    if (key.length !== 32) throw new Error(`PROVIDER_CREDENTIAL_KEYS key "${id}" must be 32 bytes, base64-encoded (openssl rand -base64 32)`);
    if (keys.has(id)) throw new Error(`PROVIDER_CREDENTIAL_KEYS names key "${id}" twice`);
    keys.set(id, key);
    active ??= id;
  }
  if (active === undefined) throw new Error('PROVIDER_CREDENTIAL_KEYS names no key');
  return { active, keys };
}

/** Thrown when a sealed secret does not open: an unknown key id, a wrong key, or tampered data. */
export class SealedSecretError extends Error {}

function encrypt(key: Buffer, plaintext: Buffer, aad: Buffer): { iv: string; tag: string; ciphertext: string } {
  const iv = randomBytes(12);
  const cipher = createCipheriv('aes-256-gcm', key, iv);
  cipher.setAAD(aad);
  const ciphertext = Buffer.concat([cipher.update(plaintext), cipher.final()]);
  return { iv: iv.toString('base64'), tag: cipher.getAuthTag().toString('base64'), ciphertext: ciphertext.toString('base64') };
}

function decrypt(key: Buffer, sealed: { iv: string; tag: string; ciphertext: string }, aad: Buffer): Buffer {
  const decipher = createDecipheriv('aes-256-gcm', key, Buffer.from(sealed.iv, 'base64'));
  decipher.setAAD(aad);
  decipher.setAuthTag(Buffer.from(sealed.tag, 'base64'));
  return Buffer.concat([decipher.update(Buffer.from(sealed.ciphertext, 'base64')), decipher.final()]);
}

export class CredentialVault {
  readonly #keys: KeyEncryptionKeys;

  constructor(keys: KeyEncryptionKeys) {
    this.#keys = keys;
  }

  get activeKeyId(): string {
    return this.#keys.active;
  }

  /** Seals `plaintext` for `context` (e.g. `merchant|provider`) under the active key. */
  seal(plaintext: string, context: string): SealedSecret {
    const aad = Buffer.from(context, 'utf8');
    const dataKey = randomBytes(32);
    try {
      const data = encrypt(dataKey, Buffer.from(plaintext, 'utf8'), aad);
      const wrapped = encrypt(this.#keys.keys.get(this.#keys.active) as Buffer, dataKey, aad);
      return { kid: this.#keys.active, wrappedKey: wrapped.ciphertext, wrapIv: wrapped.iv, wrapTag: wrapped.tag, ...data };
    } finally {
      dataKey.fill(0);
    }
  }

  /** The plaintext of a secret sealed for `context`. @throws SealedSecretError */
  open(sealed: SealedSecret, context: string): string {
    const kek = this.#keys.keys.get(sealed.kid);
    if (kek === undefined) throw new SealedSecretError(`sealed with key "${sealed.kid}", which PROVIDER_CREDENTIAL_KEYS no longer lists`);
    const aad = Buffer.from(context, 'utf8');
    let dataKey: Buffer | undefined;
    try {
      dataKey = decrypt(kek, { iv: sealed.wrapIv, tag: sealed.wrapTag, ciphertext: sealed.wrappedKey }, aad);
      return decrypt(dataKey, sealed, aad).toString('utf8');
    } catch (error) {
      if (error instanceof SealedSecretError) throw error;
      throw new SealedSecretError('the sealed secret does not open: a wrong key, another owner, or altered data');
    } finally {
      dataKey?.fill(0);
    }
  }

  /** The secret sealed again under the active key (rotation); the same object when it already is. */
  reseal(sealed: SealedSecret, context: string): SealedSecret {
    return sealed.kid === this.#keys.active ? sealed : this.seal(this.open(sealed, context), context);
  }
}
