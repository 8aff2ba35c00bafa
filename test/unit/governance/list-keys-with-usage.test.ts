import { describe, expect, it } from 'vitest';
import { listKeysWithUsage } from '../../../src/governance/list-keys-with-usage.js';
import type { ApiKeyRecord } from '../../../src/ports/state-store.js';
import { createManualClock } from '../../../src/time/clock.js';
import { memoryStateStore } from '../../helpers/memory-state-store.js';

const key = (keyId: string, extra: Partial<ApiKeyRecord> = {}): ApiKeyRecord => ({
  keyId,
  merchantId: 'm1',
  keyHash: `hash-${keyId}`,
  keyPrefix: 'DE_0000',
  description: null,
  isActive: true,
  createdAt: 0,
  ...extra,
});

describe('listKeysWithUsage', () => {
  it('gives each key its policy over the merchant defaults, field by field, and its usage in that budget period', async () => {
    const clock = createManualClock(1_700_000_000_000);
    const state = memoryStateStore(clock);
    await state.apiKeys.create(key('own', { policy: { limits: { rpm: 5, budget: { amountUsd: 10, period: 'month' } } } }));
    await state.apiKeys.create(key('plain'));
    await state.configs.put('m1', 'apiKeyDefaults', { limits: { rpm: 50, tpm: 1_000 } }, 'upsert');
    await state.usage.recordSpend('own', { eventId: 'e1', tokens: 30, costUsd: 0.25, atMs: clock.now() });

    const keys = await listKeysWithUsage({ state, now: () => clock.now() }, 'm1');
    const byId = new Map(keys.map((entry) => [entry.record.keyId, entry]));
    expect(byId.get('own')).toMatchObject({ effective: { limits: { rpm: 5, tpm: 1_000, budget: { amountUsd: 10, period: 'month' } } }, period: 'month' });
    expect(byId.get('own')?.usage).toMatchObject({ tokensThisMinute: 30, spendThisPeriodUsd: 0.25 });
    expect(byId.get('plain')).toMatchObject({ effective: { limits: { rpm: 50, tpm: 1_000 } }, period: 'day', usage: { spendThisPeriodUsd: 0, inFlight: 0 } });
    expect(await listKeysWithUsage({ state, now: () => clock.now() }, 'm2')).toEqual([]);
  });
});
