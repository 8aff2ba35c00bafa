import { describe, expect, it } from 'vitest';
import { hashApiKey } from '../../../src/auth/api-key.js';
import { createMerchantAccount } from '../../../src/auth/create-merchant-account.js';
import { createManualClock } from '../../../src/time/clock.js';
import { memoryStateStore } from '../../helpers/memory-state-store.js';

describe('createMerchantAccount', () => {
  it('creates the account and its default key, whose raw value is returned once', async () => {
    const clock = createManualClock(1_700_000_000_000);
    const state = memoryStateStore(clock);
    const created = await createMerchantAccount({ state, now: () => clock.now(), newKeyId: () => 'key-1' }, { merchantId: 'm1', deciderInput: 'raw' });
    expect(created).toMatchObject({ merchantId: 'm1', deciderInput: 'raw' });
    expect(await state.merchants.get('m1')).toEqual({ merchantId: 'm1', merchantName: null, deciderInput: 'raw', createdAt: 1_700_000_000_000 });
    const key = await state.apiKeys.findById('key-1');
    expect(key).toMatchObject({
      merchantId: 'm1',
      description: 'Default API key',
      isActive: true,
      createdAt: 1_700_000_000_000,
      keyHash: hashApiKey(created.rawApiKey),
    });
  });

  it('refuses a taken id and the reserved one', async () => {
    const clock = createManualClock();
    const state = memoryStateStore(clock);
    const deps = { state, now: () => clock.now() };
    await createMerchantAccount(deps, { merchantId: 'm1', deciderInput: null });
    await expect(createMerchantAccount(deps, { merchantId: 'm1', deciderInput: null })).rejects.toMatchObject({ code: 'SY_MERCHANT_EXISTS' });
    await expect(createMerchantAccount(deps, { merchantId: '_unattributed', deciderInput: null })).rejects.toMatchObject({ code: 'SY_REQUEST_INVALID' });
    expect(await state.merchants.get('_unattributed')).toBeUndefined();
  });
});
