import { describe, expect, it } from 'vitest';
import { createCachedStateStore } from '../../../src/adapters/cache/cached-state-store.js';
import { createMemoryStateStore } from '../../../src/adapters/memory/memory-state-store.js';
import { loadDecisionInputs } from '../../../src/decision/inputs/load-decision-inputs.js';
import { silentLogger } from '../../../src/logging/logger.js';
import { createManualClock } from '../../../src/time/clock.js';

/** The merchant m1 with an SR config and a flag, on the store given. */
async function seed(store: ReturnType<typeof createMemoryStateStore>) {
  await store.merchants.create({ merchantId: 'm1', merchantName: null, deciderInput: null, createdAt: 1 });
  await store.configs.put('m1', 'successRate', { defaultBucketSize: 7 }, 'upsert');
  await store.configs.put('m1', 'features', { 'sticky-routing': true }, 'upsert');
}

describe('loadDecisionInputs', () => {
  it('answers without a promise from the embedded store, the same inputs the stores read, and sees the next write', async () => {
    const store = createMemoryStateStore({ dataDir: undefined, logger: silentLogger });
    await seed(store);
    const held = loadDecisionInputs(store, 'm1');
    expect(held).not.toBeInstanceOf(Promise);
    const { held: _merchantHeld, ...merchantsOnlyAsync } = store.merchants;
    const read = loadDecisionInputs({ ...store, merchants: merchantsOnlyAsync }, 'm1');
    expect(read).toBeInstanceOf(Promise);
    expect(held).toEqual(await read);
    expect(held).toMatchObject({
      merchant: { merchantId: 'm1' },
      successRate: { defaultBucketSize: 7 },
      features: { 'sticky-routing': true },
      activeRules: [],
    });
    await store.configs.put('m1', 'successRate', { defaultBucketSize: 9 }, 'upsert');
    expect(loadDecisionInputs(store, 'm1')).toMatchObject({ successRate: { defaultBucketSize: 9 } });
    expect(loadDecisionInputs(store, 'nobody')).toMatchObject({ merchant: undefined });
    await store.close();
  });

  it('answers from the replica cache synchronously only while every input is cached and fresh', async () => {
    const clock = createManualClock(0);
    const inner = createMemoryStateStore({ dataDir: undefined, logger: silentLogger, clock });
    await seed(inner);
    const store = createCachedStateStore(inner, { logger: silentLogger, clock, ttlMs: 60_000 });
    const first = loadDecisionInputs(store, 'm1');
    expect(first).toBeInstanceOf(Promise);
    const read = await first;
    const cached = loadDecisionInputs(store, 'm1');
    expect(cached).not.toBeInstanceOf(Promise);
    expect(cached).toEqual(read);
    // A write through the cache drops that document: the next decision reads it again, and sees it.
    await store.configs.put('m1', 'successRate', { defaultBucketSize: 11 }, 'upsert');
    const afterWrite = loadDecisionInputs(store, 'm1');
    expect(afterWrite).toBeInstanceOf(Promise);
    expect(await afterWrite).toMatchObject({ successRate: { defaultBucketSize: 11 } });
    expect(loadDecisionInputs(store, 'm1')).not.toBeInstanceOf(Promise);
    clock.advance(60_000);
    expect(loadDecisionInputs(store, 'm1')).toBeInstanceOf(Promise);
    await store.close();
  });
});
