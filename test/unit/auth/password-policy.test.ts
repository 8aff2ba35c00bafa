import { describe, expect, it } from 'vitest';
import { checkPassword, passwordMaxLength, passwordMinLength } from '../../../src/auth/password-policy.js';

const email = 'operator@example.com';

describe('checkPassword', () => {
  it('rejects 9 characters and names the length rule', () => {
    const result = checkPassword('zq8#vmt2k', email);
    expect(result).toEqual({ ok: false, reason: 'too_short', message: 'Password must be at least 10 characters long' });
  });

  it('accepts exactly 10 characters', () => {
    expect(checkPassword('zq8#vmt2kw', email)).toEqual({ ok: true });
  });

  it('accepts exactly 128 characters', () => {
    expect(checkPassword('tq'.repeat(64), email)).toEqual({ ok: true });
  });

  it('rejects 129 characters and names the length rule', () => {
    const result = checkPassword(`${'tq'.repeat(64)}x`, email);
    expect(result).toEqual({ ok: false, reason: 'too_long', message: 'Password must be at most 128 characters long' });
  });

  it('counts code points, not UTF-16 units, when measuring length', () => {
    expect(checkPassword('🦊'.repeat(passwordMinLength), email)).toEqual({ ok: true });
    expect(checkPassword('🦊'.repeat(passwordMaxLength + 1), email)).toMatchObject({ ok: false, reason: 'too_long' });
  });

  it('rejects a common password of policy length, whatever its case', () => {
    for (const password of ['qwertyuiop', '1234567890', 'Password123', 'BASKETBALL']) {
      const result = checkPassword(password, email);
      expect(result).toMatchObject({ ok: false, reason: 'common' });
      if (!result.ok) expect(result.message).toMatch(/common/);
    }
  });

  it('rejects a password containing the email local part, case-insensitively', () => {
    const result = checkPassword('my-OPERATOR-pass-2024', email);
    expect(result).toMatchObject({ ok: false, reason: 'contains_email' });
    if (!result.ok) expect(result.message).toMatch(/email/);
  });

  it('ignores local parts shorter than 3 characters', () => {
    expect(checkPassword('blue-jo-harbour-lamp', 'jo@example.com')).toEqual({ ok: true });
  });

  it('accepts a long passphrase', () => {
    expect(checkPassword('the quiet river keeps its own counsel at dusk', email)).toEqual({ ok: true });
  });

  it('accepts lowercase letters and spaces only because there are no composition rules', () => {
    expect(checkPassword('correct horse battery staple', email)).toEqual({ ok: true });
    expect(checkPassword('zebrasaurusflight', email)).toEqual({ ok: true });
  });
});
