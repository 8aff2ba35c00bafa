import { describe, expect, it } from 'vitest';
import { matchesAdminSecret } from '../../../src/auth/admin-secret.js';
import { digestsEqual, safeEqual } from '../../../src/auth/constant-time.js';

describe('safeEqual', () => {
  it('returns true when the strings are equal', () => {
    expect(safeEqual('s3cret-value', 's3cret-value')).toBe(true);
  });

  it('returns false when the strings differ in one character', () => {
    expect(safeEqual('s3cret-value', 's3cret-valuf')).toBe(false);
  });

  it('returns false without throwing when the lengths differ', () => {
    expect(safeEqual('short', 'a much longer secret value')).toBe(false);
    expect(safeEqual('', 'x')).toBe(false);
  });

  it('compares multi-byte characters by their UTF-8 bytes', () => {
    expect(safeEqual('pässwörd', 'pässwörd')).toBe(true);
    expect(safeEqual('pässwörd', 'passwORD')).toBe(false);
  });
});

describe('digestsEqual', () => {
  const digest = 'a'.repeat(63) + 'b';

  it('returns true for equal digests and false when any one character differs, first, middle or last', () => {
    expect(digestsEqual(digest, `${digest}`)).toBe(true);
    for (const at of [0, 31, 63]) {
      const other = `${digest.slice(0, at)}${digest[at] === 'c' ? 'd' : 'c'}${digest.slice(at + 1)}`;
      expect(digestsEqual(digest, other), `differs at ${at}`).toBe(false);
    }
  });

  it('returns false when the lengths differ, a prefix included', () => {
    expect(digestsEqual(digest, digest.slice(0, 63))).toBe(false);
    expect(digestsEqual('', digest)).toBe(false);
  });
});

describe('matchesAdminSecret', () => {
  it('accepts the configured secret', () => {
    expect(matchesAdminSecret('test_admin', 'test_admin')).toBe(true);
  });

  it('rejects a wrong, missing or empty secret', () => {
    expect(matchesAdminSecret('test_admim', 'test_admin')).toBe(false);
    expect(matchesAdminSecret(undefined, 'test_admin')).toBe(false);
    expect(matchesAdminSecret('', 'test_admin')).toBe(false);
  });

  it('rejects everything when no secret is configured', () => {
    expect(matchesAdminSecret('', '')).toBe(false);
  });
});
