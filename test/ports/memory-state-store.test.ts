import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { createMemoryStateStore } from '../../src/adapters/memory/memory-state-store.js';
import { silentLogger } from '../../src/logging/logger.js';
import { configInvalidationKey } from '../../src/ports/state/config-store.js';
import { createManualClock } from '../../src/time/clock.js';
import { stateStoreSuite } from './state-store.suite.js';

stateStoreSuite('memory', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'sy-state-'));
  const store = createMemoryStateStore({ dataDir: dir, logger: silentLogger });
  return {
    store,
    now: () => Date.now(),
    openPeer: async () => store,
    async dispose() {
      await store.close();
      rmSync(dir, { recursive: true, force: true });
    },
  };
});

describe('memory state store persistence', () => {
  it('keeps merchants, configs, credentials and windows across a reopen, but not ephemeral state', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'sy-state-'));
    const clock = createManualClock(1_700_000_000_000);
    const first = createMemoryStateStore({ dataDir: dir, logger: silentLogger, clock });
    await first.merchants.create({ merchantId: 'm1', merchantName: null, deciderInput: null, createdAt: 1 });
    await first.configs.put('m1', 'successRate', { defaultBucketSize: 7 }, 'create');
    await first.scores.recordOutcome({ windowKey: 'w', outcome: 0, bucketSize: 4, dedupeKey: 'd', dedupeTtlSeconds: 60, windowTtlSeconds: 3600 });
    await first.sessions.revokeToken('jti-1', clock.now() + 60_000);
    await first.configs.delete('m1', 'successRate');
    await first.configs.put('m1', 'successRate', { defaultBucketSize: 9 }, 'create');
    await first.close();

    const second = createMemoryStateStore({ dataDir: dir, logger: silentLogger, clock });
    expect(await second.merchants.get('m1')).toMatchObject({ merchantId: 'm1' });
    expect(await second.configs.get('m1', 'successRate')).toEqual({ defaultBucketSize: 9 });
    expect(await second.scores.readWindows(['w'], 4)).toEqual([{ successes: 3, length: 4 }]);
    expect(await second.sessions.isTokenRevoked('jti-1')).toBe(true);
    clock.advance(61_000);
    expect(await second.sessions.isTokenRevoked('jti-1')).toBe(false);
    await second.close();
    rmSync(dir, { recursive: true, force: true });
  });
});

describe('memory state store bounds', () => {
  it('keeps at most maxDecisionContexts decision contexts, dropping the oldest first', async () => {
    const store = createMemoryStateStore({ dataDir: undefined, logger: silentLogger, maxDecisionContexts: 3 });
    const context = (paymentId: string) => ({
      merchantId: 'm1',
      paymentId,
      decidedAt: 1,
      decisionEventId: `e-${paymentId}`,
      windowDimension: null,
      eliminationDimension: 'd',
      eliminationEnabled: true,
      routingApproach: 'SR_SELECTION_V3_ROUTING',
      orderType: 'ORDER_PAYMENT',
      payment: { paymentMethodType: 'CARD', paymentMethod: 'CREDIT', currency: 'USD' },
    });
    for (const paymentId of ['p1', 'p2', 'p3', 'p4']) await store.scores.putDecisionContext(context(paymentId) as never, 1800);
    expect(await store.scores.getDecisionContext('m1', 'p1')).toBeUndefined();
    for (const paymentId of ['p2', 'p3', 'p4']) expect(await store.scores.getDecisionContext('m1', paymentId)).toMatchObject({ paymentId });
    await store.close();
  });
});

describe('memory state store config invalidations', () => {
  it('announces a written or deleted config document on the invalidation channel, as the caching decorator does', async () => {
    const store = createMemoryStateStore({ dataDir: undefined, logger: silentLogger });
    const keys: string[] = [];
    store.onInvalidation((key) => keys.push(key));
    await store.configs.put('m1', 'successRate', { defaultBucketSize: 7 }, 'upsert');
    expect(await store.configs.put('m1', 'successRate', { defaultBucketSize: 8 }, 'create')).toBe('exists');
    await store.configs.delete('m1', 'successRate');
    await store.configs.delete('m1', 'successRate');
    expect(keys).toEqual([configInvalidationKey('m1', 'successRate'), configInvalidationKey('m1', 'successRate')]);
    await store.close();
  });
});
