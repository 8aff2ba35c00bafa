import { describe, expect, it } from 'vitest';
import { createMemoryStateStore } from '../../src/adapters/memory/memory-state-store.js';
import { createMemoryStickyStore } from '../../src/adapters/memory/memory-sticky-store.js';
import { silentLogger } from '../../src/logging/logger.js';
import { createManualClock } from '../../src/time/clock.js';
import { stickyStoreSuite } from './sticky-store.suite.js';

// Embedded replicas share one store object, so both views are the same store; expiry reads the store's clock.
stickyStoreSuite('memory', async () => {
  const clock = createManualClock();
  const state = createMemoryStateStore({ dataDir: undefined, logger: silentLogger, clock });
  return { replicas: [state.sticky, state.sticky], elapse: (ms) => clock.advance(ms), dispose: () => state.close() };
});

describe('memory StickyStore bound', () => {
  it('forgets the least recently seen customer beyond its bound', async () => {
    const store = createMemoryStickyStore({ clock: createManualClock(), maxCustomers: 2 });
    const customer = (key: string) => ({ merchantId: 'm', customerKey: key });
    const success = (key: string) => ({
      customer: customer(key),
      combo: 'VISA:CARD',
      connector: 'stripe',
      delta: 1 as const,
      ttlSeconds: 3600,
      maxEntries: 30,
      dedupeKey: `d-${key}`,
      dedupeTtlSeconds: 1800,
    });
    await store.adjust(success('a'));
    await store.adjust(success('b'));
    await store.read(customer('a'), 'VISA:CARD');
    await store.adjust(success('c'));
    expect(await store.read(customer('a'), 'VISA:CARD')).toEqual(new Map([['stripe', 1]]));
    expect(await store.read(customer('b'), 'VISA:CARD')).toEqual(new Map());
    expect(await store.read(customer('c'), 'VISA:CARD')).toEqual(new Map([['stripe', 1]]));
  });

  it('keeps customers of two merchants apart under one key, and evicts across merchants', async () => {
    const store = createMemoryStickyStore({ clock: createManualClock(), maxCustomers: 2 });
    let mark = 0;
    const success = (merchantId: string, connector: string) =>
      store.adjust({
        customer: { merchantId, customerKey: 'same' },
        combo: 'VISA:CARD',
        connector,
        delta: 1,
        ttlSeconds: 3600,
        maxEntries: 30,
        dedupeKey: `d-${++mark}`,
        dedupeTtlSeconds: 1800,
      });
    await success('m1', 'stripe');
    await success('m2', 'adyen');
    // The same key under m2 has m2's count only; reading it marks m2 seen.
    expect(store.readNow?.({ merchantId: 'm2', customerKey: 'same' }, 'VISA:CARD')).toEqual(new Map([['adyen', 1]]));
    // A third customer pushes out the oldest unseen one, m1's (m2's is spared once).
    await success('m3', 'checkout');
    expect(await store.read({ merchantId: 'm1', customerKey: 'same' }, 'VISA:CARD')).toEqual(new Map());
    expect(await store.read({ merchantId: 'm2', customerKey: 'same' }, 'VISA:CARD')).toEqual(new Map([['adyen', 1]]));
    expect(await store.read({ merchantId: 'm3', customerKey: 'same' }, 'VISA:CARD')).toEqual(new Map([['checkout', 1]]));
  });

  it('keeps its dedupe marks bounded, dropping the oldest first, and still dedupes the recent ones', async () => {
    const clock = createManualClock();
    const store = createMemoryStickyStore({ clock, maxCustomers: 10 });
    const success = (mark: number) => ({
      customer: { merchantId: 'm', customerKey: 'c' },
      combo: 'VISA:CARD',
      connector: 'stripe',
      delta: 1 as const,
      ttlSeconds: 3600,
      maxEntries: 30,
      dedupeKey: `mark-${mark}`,
      dedupeTtlSeconds: 1800,
    });
    for (let mark = 0; mark < 25; mark += 1) await store.adjust(success(mark));
    expect(await store.adjust(success(24))).toEqual({ applied: false, count: 25 });
    expect(await store.adjust(success(23))).toEqual({ applied: false, count: 25 });
    // The oldest marks made room for the newer ones: a redelivery that late counts again (the documented trade-off).
    expect(await store.adjust(success(0))).toEqual({ applied: true, count: 26 });
  });
});

describe('memory StickyStore synchronous read', () => {
  it('answers readNow with what read answers, decoding escaped connector names, for the combination asked only', async () => {
    const store = createMemoryStickyStore({ clock: createManualClock() });
    const customer = { merchantId: 'm', customerKey: 'k' };
    let mark = 0;
    const success = (combo: string, connector: string) =>
      store.adjust({ customer, combo, connector, delta: 1, ttlSeconds: 3600, maxEntries: 30, dedupeKey: `d-${++mark}`, dedupeTtlSeconds: 1800 });
    await success('CREDIT:CARD', 'stripe');
    await success('CREDIT:CARD', 'stripe');
    await success('CREDIT:CARD', 'adyen:eu 50%');
    await success('CREDIT:CARDS', 'checkout');
    await success('DEBIT:CARD', 'adyen');
    const expected = new Map([
      ['stripe', 2],
      ['adyen:eu 50%', 1],
    ]);
    expect(store.readNow?.(customer, 'CREDIT:CARD')).toEqual(expected);
    expect(await store.read(customer, 'CREDIT:CARD')).toEqual(expected);
    expect(store.readNow?.(customer, 'DEBIT:CARD')).toEqual(new Map([['adyen', 1]]));
    expect(store.readNow?.({ merchantId: 'other', customerKey: 'k' }, 'CREDIT:CARD')).toEqual(new Map());
  });
});
