import { randomBytes } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { CredentialVault, parseKeyEncryptionKeys, SealedSecretError } from '../../../src/credentials/credential-vault.js';
import { MerchantProviderCredentials } from '../../../src/credentials/merchant-provider-credentials.js';
import type { ConfigStore } from '../../../src/ports/state-store.js';

const key = () => randomBytes(32).toString('base64');

describe('CredentialVault', () => {
  it('seals with a fresh data key each time and opens only for the same owner', () => {
    const vault = new CredentialVault(parseKeyEncryptionKeys(`k1:${key()}`));
    const first = vault.seal('sk-secret', 'provider-credential|m1|openai');
    const second = vault.seal('sk-secret', 'provider-credential|m1|openai');
    expect(first.kid).toBe('k1');
    expect(first.ciphertext).not.toBe(second.ciphertext);
    expect(first.wrappedKey).not.toBe(second.wrappedKey);
    expect(JSON.stringify(first)).not.toContain('sk-secret');
    expect(vault.open(first, 'provider-credential|m1|openai')).toBe('sk-secret');
    // A record copied to another merchant or provider does not open, nor does an altered one.
    expect(() => vault.open(first, 'provider-credential|m2|openai')).toThrow(SealedSecretError);
    expect(() => vault.open({ ...first, ciphertext: second.ciphertext }, 'provider-credential|m1|openai')).toThrow(SealedSecretError);
  });

  it('rotates: a new active key seals, the old one still opens, and reseal moves a record to the new key', () => {
    const old = key();
    const before = new CredentialVault(parseKeyEncryptionKeys(`2026-01:${old}`));
    const sealed = before.seal('sk-rotate-me', 'ctx');
    const after = new CredentialVault(parseKeyEncryptionKeys(`2026-11:${key()},2026-01:${old}`));
    expect(after.activeKeyId).toBe('2026-11');
    expect(after.open(sealed, 'ctx')).toBe('sk-rotate-me');
    const moved = after.reseal(sealed, 'ctx');
    expect(moved.kid).toBe('2026-11');
    expect(after.reseal(moved, 'ctx')).toBe(moved);
    // Once the old key is dropped, only the resealed record opens.
    const dropped = new CredentialVault(parseKeyEncryptionKeys(`2026-11:${key()}`));
    expect(() => dropped.open(sealed, 'ctx')).toThrow(/no longer lists/);
  });

  it('refuses malformed key lists naming the entry, never the key', () => {
    expect(() => parseKeyEncryptionKeys('nokey')).toThrow(/entry 1/);
    expect(() => parseKeyEncryptionKeys(`k1:${randomBytes(16).toString('base64')}`)).toThrow(/32 bytes/);
    expect(() => parseKeyEncryptionKeys(`k1:${key()},k1:${key()}`)).toThrow(/twice/);
  });
});

describe('MerchantProviderCredentials rotation', () => {
  it('reseals every stored credential of a merchant under the active key, and the calls still get the same variables', async () => {
    const stored = new Map<string, unknown>();
    const configs = {
      get: async (merchantId: string, name: string) => stored.get(`${merchantId}/${name}`),
      put: async (merchantId: string, name: string, value: unknown) => {
        stored.set(`${merchantId}/${name}`, value);
        return 'ok';
      },
    } as unknown as Pick<ConfigStore, 'get' | 'put'>;
    const old = key();
    const before = new MerchantProviderCredentials({ configs, vault: new CredentialVault(parseKeyEncryptionKeys(`a:${old}`)), now: () => 1 });
    await before.put('m1', 'openai', { OPENAI_API_KEY: 'sk-aaaaaaaaaaaa' });
    await before.put('m1', 'anthropic', { ANTHROPIC_API_KEY: 'sk-ant-bbbbbbbbbbbb' });
    const after = new MerchantProviderCredentials({ configs, vault: new CredentialVault(parseKeyEncryptionKeys(`b:${key()},a:${old}`)), now: () => 2 });
    expect(await after.rotate('m1')).toBe(2);
    expect(await after.rotate('m1')).toBe(0);
    expect((await after.list('m1')).credentials.map((credential) => credential.keyId)).toEqual(['b', 'b']);
    expect((await after.envOf('m1'))?.variables).toEqual({ OPENAI_API_KEY: 'sk-aaaaaaaaaaaa', ANTHROPIC_API_KEY: 'sk-ant-bbbbbbbbbbbb' });
  });
});
