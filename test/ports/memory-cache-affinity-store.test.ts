import { describe, expect, it } from 'vitest';
import { createMemoryCacheAffinityStore } from '../../src/adapters/memory/memory-cache-affinity-store.js';
import { createMemoryStateStore } from '../../src/adapters/memory/memory-state-store.js';
import { silentLogger } from '../../src/logging/logger.js';
import { createManualClock } from '../../src/time/clock.js';
import { cacheAffinityStoreSuite } from './cache-affinity-store.suite.js';

// Embedded replicas share one store object, so both views are the same store; expiry reads the store's clock.
cacheAffinityStoreSuite('memory', async () => {
  const clock = createManualClock();
  const state = createMemoryStateStore({ dataDir: undefined, logger: silentLogger, clock });
  return { replicas: [state.cacheAffinity, state.cacheAffinity], elapse: (ms) => clock.advance(ms), dispose: () => state.close() };
});

describe('memory CacheAffinityStore bound', () => {
  it('evicts the least recently used conversation beyond its bound', async () => {
    const store = createMemoryCacheAffinityStore({ clock: createManualClock(), maxEntries: 2 });
    const key = (id: string) => ({ merchantId: 'm', routeGroup: 'g', key: id });
    const holder = { candidate: 'openai/gpt-5', cachedTokens: 2048 };
    await store.set(key('a'), holder, 300);
    await store.set(key('b'), holder, 300);
    await store.get(key('a'));
    await store.set(key('c'), holder, 300);
    expect(await store.get(key('a'))).toEqual(holder);
    expect(await store.get(key('b'))).toBeUndefined();
    expect(await store.get(key('c'))).toEqual(holder);
  });
});
