import { randomBytes } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { providerDefinitions } from '../../../src/adapters/llm/provider-registry.js';
import { CredentialVault, parseKeyEncryptionKeys, type SealedSecret } from '../../../src/credentials/credential-vault.js';
import { MerchantProviderCredentials } from '../../../src/credentials/merchant-provider-credentials.js';
import { MerchantCatalogs } from '../../../src/toolkit/merchant-catalogs.js';
import { createManualClock } from '../../../src/time/clock.js';
import { memoryStateStore } from '../../helpers/memory-state-store.js';

/** A vault that counts what it decrypts. */
class CountingVault extends CredentialVault {
  opened = 0;
  override open(sealed: SealedSecret, context: string): string {
    this.opened += 1;
    return super.open(sealed, context);
  }
}

function credentialsOverMemory(): { credentials: MerchantProviderCredentials; vault: CountingVault } {
  const { configs } = memoryStateStore(createManualClock(0));
  const vault = new CountingVault(parseKeyEncryptionKeys(`k1:${randomBytes(32).toString('base64')}`));
  return { credentials: new MerchantProviderCredentials({ configs, vault, now: () => 1 }), vault };
}

describe('MerchantCatalogs over the credentials cache', () => {
  it('decrypts and builds once while the credentials are unchanged, and once again after each change', async () => {
    const { credentials, vault } = credentialsOverMemory();
    const catalogs = new MerchantCatalogs(
      (merchantId) => credentials.envOf(merchantId),
      { OPENAI_API_KEY: 'sk-operator-000000' },
      { definitions: providerDefinitions },
    );
    expect(await catalogs.scopeOf('m1')).toBeUndefined();

    await credentials.put('m1', 'openai', { OPENAI_API_KEY: 'sk-first-aaaaaaaa' });
    const first = await catalogs.scopeOf('m1');
    expect(first?.ownProviders).toEqual(['openai']);
    expect(await catalogs.scopeOf('m1')).toBe(first);
    expect(vault.opened).toBe(1);

    await credentials.put('m1', 'openai', { OPENAI_API_KEY: 'sk-second-bbbbbbb' }, 'backup');
    const second = await catalogs.scopeOf('m1');
    expect(second).not.toBe(first);
    expect(second?.credentialCatalog?.('openai', 'backup')).toBeDefined();
    expect(await catalogs.scopeOf('m1')).toBe(second);
    expect(vault.opened).toBe(3);

    await credentials.setOperatorFallback('m1', false);
    const third = await catalogs.scopeOf('m1');
    expect(third).not.toBe(second);
    expect(await catalogs.scopeOf('m1')).toBe(third);

    await credentials.remove('m1', 'openai');
    await credentials.remove('m1', 'openai', 'backup');
    await credentials.setOperatorFallback('m1', true);
    expect(await catalogs.scopeOf('m1')).toBeUndefined();
  });
});
