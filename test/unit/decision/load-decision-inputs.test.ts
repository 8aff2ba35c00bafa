import { describe, expect, it } from 'vitest';
import { createCachedStateStore } from '../../../src/adapters/cache/cached-state-store.js';
import { createMemoryStateStore } from '../../../src/adapters/memory/memory-state-store.js';
import { createDecisionInputsLoader, loadDecisionInputs } from '../../../src/decision/inputs/load-decision-inputs.js';
import { activateRoutingAlgorithm, createRoutingAlgorithm, deactivateRoutingAlgorithm } from '../../../src/routing-rules/manage-routing-algorithms.js';
import { silentLogger } from '../../../src/logging/logger.js';
import { createManualClock } from '../../../src/time/clock.js';

/** The merchant m1 with an SR config and a flag, on the store given. */
async function seed(store: ReturnType<typeof createMemoryStateStore>) {
  await store.merchants.create({ merchantId: 'm1', merchantName: null, deciderInput: null, createdAt: 1 });
  await store.configs.put('m1', 'successRate', { defaultBucketSize: 7 }, 'upsert');
  await store.configs.put('m1', 'features', { 'sticky-routing': true }, 'upsert');
}

/** The replica cache (60 s copies, a manual clock at 0) in front of an embedded store holding m1. */
async function seededReplicaCache() {
  const clock = createManualClock(0);
  const inner = createMemoryStateStore({ dataDir: undefined, logger: silentLogger, clock });
  await seed(inner);
  return { clock, store: createCachedStateStore(inner, { logger: silentLogger, clock, ttlMs: 60_000 }) };
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
    const { clock, store } = await seededReplicaCache();
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

  describe('createDecisionInputsLoader', () => {
    it("builds a merchant's inputs once on the embedded store, and again after any merchant, config or routing-rule write", async () => {
      const clock = createManualClock(1_700_000_000_000);
      const store = createMemoryStateStore({ dataDir: undefined, logger: silentLogger, clock });
      await seed(store);
      const load = createDecisionInputsLoader(store);
      const first = load('m1');
      expect(first).not.toBeInstanceOf(Promise);
      expect(load('m1')).toBe(first);
      expect(first).toEqual(loadDecisionInputs(store, 'm1'));

      await store.configs.put('m1', 'successRate', { defaultBucketSize: 9 }, 'upsert');
      const afterConfig = load('m1');
      expect(afterConfig).not.toBe(first);
      expect(afterConfig).toMatchObject({ successRate: { defaultBucketSize: 9 } });
      expect(load('m1')).toBe(afterConfig);

      const deps = { state: store, clock };
      await createRoutingAlgorithm(deps, {
        rule_id: 'r1',
        name: 'one',
        created_by: 'm1',
        algorithm: { type: 'single', data: { gateway_name: 'stripe', gateway_id: null } },
      });
      await activateRoutingAlgorithm(deps, 'm1', 'r1');
      expect(load('m1')).toMatchObject({ activeRules: [{ id: 'r1' }] });
      await deactivateRoutingAlgorithm(deps, 'm1', 'r1');
      expect(load('m1')).toMatchObject({ activeRules: [] });

      await store.configs.delete('m1', 'features');
      expect(load('m1')).not.toHaveProperty('features');
      await store.merchants.delete('m1');
      expect(load('m1')).toMatchObject({ merchant: undefined });
      await store.merchants.create({ merchantId: 'm1', merchantName: 'again', deciderInput: null, createdAt: 2 });
      expect(load('m1')).toMatchObject({ merchant: { merchantName: 'again' } });
      await store.close();
    });

    it('keeps nothing from a store that does not version what it holds (the replica cache)', async () => {
      const { clock, store } = await seededReplicaCache();
      const load = createDecisionInputsLoader(store);
      const read = await load('m1');
      const cached = load('m1');
      expect(cached).not.toBeInstanceOf(Promise);
      expect(cached).not.toBe(read);
      expect(cached).toEqual(read);
      // The copies go stale on the replica's timer, not by a write here: the loader reads again.
      clock.advance(60_000);
      expect(load('m1')).toBeInstanceOf(Promise);
      await store.close();
    });
  });
});
