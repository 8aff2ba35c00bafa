import { describe, expect, it } from 'vitest';
import { SwitchyardError } from '../../../src/errors/switchyard-error.js';
import { defaultScryptParams, hashPassword, needsRehash, verifyPassword } from '../../../src/auth/password-hash.js';

/** Low cost so the suite stays fast; production uses defaultScryptParams. */
const fast = { logN: 8, r: 8, p: 1 };

describe('hashPassword and verifyPassword', () => {
  it('verifies the password that was hashed', async () => {
    const encoded = await hashPassword('correct horse battery staple', fast);
    await expect(verifyPassword('correct horse battery staple', encoded)).resolves.toBe(true);
  });

  it('refuses a wrong password', async () => {
    const encoded = await hashPassword('correct horse battery staple', fast);
    await expect(verifyPassword('correct horse battery stapler', encoded)).resolves.toBe(false);
    await expect(verifyPassword('', encoded)).resolves.toBe(false);
  });

  it('encodes parameters, salt and hash so parameters can change later', async () => {
    const encoded = await hashPassword('a password', fast);
    expect(encoded).toMatch(/^\$scrypt\$ln=8,r=8,p=1\$[A-Za-z0-9+/]{22}\$[A-Za-z0-9+/]{43}$/);
  });

  it('salts each hash differently', async () => {
    const [first, second] = await Promise.all([hashPassword('same input', fast), hashPassword('same input', fast)]);
    expect(first).not.toBe(second);
  });

  it('verifies a hash made with other parameters than the current ones', async () => {
    const encoded = await hashPassword('unicode pässwörd ✓', { logN: 6, r: 4, p: 2 });
    await expect(verifyPassword('unicode pässwörd ✓', encoded)).resolves.toBe(true);
  });

  it('uses N=2^15, r=8, p=1 by default', () => {
    expect(defaultScryptParams).toEqual({ logN: 15, r: 8, p: 1 });
  });

  it('throws a SwitchyardError when the stored value is not a scrypt hash', async () => {
    await expect(verifyPassword('x', '$2b$12$notabcrypthashatall')).rejects.toSatisfy(SwitchyardError.isInstance);
  });

  it('throws when stored parameters exceed the memory bound', async () => {
    await expect(verifyPassword('x', '$scrypt$ln=30,r=8,p=1$c2FsdHNhbHRzYWx0$aGFzaGhhc2hoYXNoaGFzaA')).rejects.toThrow(/out of range/);
  });

  it('refuses out-of-range parameters when hashing', async () => {
    await expect(hashPassword('x', { logN: 0, r: 8, p: 1 })).rejects.toThrow(/out of range/);
  });
});

describe('needsRehash', () => {
  it('is true only when the stored parameters differ from the wanted ones', async () => {
    const encoded = await hashPassword('a password', fast);
    expect(needsRehash(encoded, fast)).toBe(false);
    expect(needsRehash(encoded, defaultScryptParams)).toBe(true);
  });
});
