import { createHash } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { generateApiKey, hashApiKey, isApiKeyFormat } from '../../../src/auth/api-key.js';

describe('generateApiKey', () => {
  it('makes DE_ followed by 64 lowercase hex characters', () => {
    const { raw } = generateApiKey();
    expect(raw).toMatch(/^DE_[0-9a-f]{64}$/);
    expect(raw).toHaveLength(67);
  });

  it('returns the SHA-256 hex of the whole raw key as the hash', () => {
    const key = generateApiKey();
    expect(key.hash).toBe(createHash('sha256').update(key.raw).digest('hex'));
    expect(key.hash).toMatch(/^[0-9a-f]{64}$/);
  });

  it('returns DE_ and the first 8 hex characters as the display prefix', () => {
    const key = generateApiKey(() => Buffer.alloc(32, 0xab));
    expect(key.prefix).toBe('DE_abababab');
    expect(key.raw.startsWith(key.prefix)).toBe(true);
  });

  it('draws a different key each time from the random source', () => {
    const keys = new Set(Array.from({ length: 50 }, () => generateApiKey().raw));
    expect(keys.size).toBe(50);
  });

  it('throws when the random source returns the wrong number of bytes', () => {
    expect(() => generateApiKey(() => Buffer.alloc(16))).toThrow(RangeError);
  });
});

describe('hashApiKey', () => {
  it('hashes the same key to the same digest', () => {
    const raw = `DE_${'0123456789abcdef'.repeat(4)}`;
    expect(hashApiKey(raw)).toBe(hashApiKey(raw));
    expect(hashApiKey(raw)).not.toBe(hashApiKey(raw.replace(/f$/, 'e')));
  });
});

describe('isApiKeyFormat', () => {
  it('accepts a generated key and a decision-engine key', () => {
    expect(isApiKeyFormat(generateApiKey().raw)).toBe(true);
    // decision-engine concatenates two UUID v4 byte strings: still 64 lowercase hex.
    expect(isApiKeyFormat('DE_3f1c2a7b9d0e4f61a2b3c4d5e6f70819a1b2c3d4e5f64718993a4b5c6d7e8f90')).toBe(true);
  });

  it('rejects a wrong prefix, uppercase hex, wrong length or extra characters', () => {
    const hex = 'a'.repeat(64);
    expect(isApiKeyFormat(`de_${hex}`)).toBe(false);
    expect(isApiKeyFormat(`DE_${'A'.repeat(64)}`)).toBe(false);
    expect(isApiKeyFormat(`DE_${hex.slice(1)}`)).toBe(false);
    expect(isApiKeyFormat(`DE_${hex}0`)).toBe(false);
    expect(isApiKeyFormat(` DE_${hex}`)).toBe(false);
    expect(isApiKeyFormat(`DE_${hex}\n`)).toBe(false);
    expect(isApiKeyFormat('')).toBe(false);
  });
});
