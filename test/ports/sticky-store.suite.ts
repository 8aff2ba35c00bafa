import { randomUUID } from 'node:crypto';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { StickyAdjustment, StickyCustomer, StickyStore } from '../../src/ports/state-store.js';

/**
 * Two views of one sticky store (two workers or replicas), or the same store twice where the adapter
 * has no replicas of its own (embedded). An adapter whose expiry runs on a clock the test moves gives
 * `elapse`; one that expires on its server's time gives `ttlMsOf` instead.
 */
export interface StickyStoreFixture {
  readonly replicas: readonly [StickyStore, StickyStore];
  readonly elapse?: (ms: number) => void;
  readonly ttlMsOf?: (customer: StickyCustomer) => Promise<number>;
  dispose(): Promise<void>;
}

const combo = 'INTERAC:RTP';
const day = 24 * 60 * 60;

/** The StickyStore contract (src/ports/state/sticky-store.ts), run against the memory and Redis adapters. */
export function stickyStoreSuite(name: string, open: () => Promise<StickyStoreFixture>): void {
  describe(`StickyStore (${name})`, () => {
    let fixture: StickyStoreFixture;
    let customer: StickyCustomer;
    let marks = 0;
    const adjust = (connector: string, delta: 1 | -1, overrides: Partial<StickyAdjustment> = {}): StickyAdjustment => {
      marks += 1;
      return { customer, combo, connector, delta, ttlSeconds: 90 * day, maxEntries: 30, dedupeKey: `mark-${marks}`, dedupeTtlSeconds: 1800, ...overrides };
    };
    beforeEach(async () => {
      fixture = await open();
      customer = { merchantId: `m-${randomUUID()}`, customerKey: randomUUID().replaceAll('-', '') };
    });
    afterEach(async () => fixture.dispose());

    it('answers no counts for a customer never seen', async () => {
      expect(await fixture.replicas[0].read(customer, combo)).toEqual(new Map());
    });

    it('serves on one replica the net counts another wrote, per connector and only for the combination asked', async () => {
      const [a, b] = fixture.replicas;
      await a.adjust(adjust('loonio', 1));
      await a.adjust(adjust('loonio', 1));
      await b.adjust(adjust('gigadat', 1));
      await b.adjust(adjust('gigadat', 1, { combo: 'VISA:CARD' }));
      expect(await b.read(customer, combo)).toEqual(
        new Map([
          ['loonio', 2],
          ['gigadat', 1],
        ]),
      );
      expect(await a.read(customer, 'VISA:CARD')).toEqual(new Map([['gigadat', 1]]));
      expect(await a.read({ ...customer, merchantId: `${customer.merchantId}-other` }, combo)).toEqual(new Map());
    });

    it('subtracts a failure, removes a count at zero and never creates one from a failure', async () => {
      const [a, b] = fixture.replicas;
      expect(await a.adjust(adjust('loonio', -1))).toEqual({ applied: false, count: 0 });
      expect(await a.read(customer, combo)).toEqual(new Map());
      await a.adjust(adjust('loonio', 1));
      await a.adjust(adjust('loonio', 1));
      expect(await b.adjust(adjust('loonio', -1))).toEqual({ applied: true, count: 1 });
      expect(await b.adjust(adjust('loonio', -1))).toEqual({ applied: true, count: 0 });
      expect(await a.read(customer, combo)).toEqual(new Map());
      expect(await a.adjust(adjust('loonio', -1))).toEqual({ applied: false, count: 0 });
    });

    it('applies one dedupe key once, on whichever replica it arrives again', async () => {
      const [a, b] = fixture.replicas;
      const once = adjust('loonio', 1);
      expect(await a.adjust(once)).toEqual({ applied: true, count: 1 });
      expect(await b.adjust(once)).toEqual({ applied: false, count: 1 });
      expect(await a.read(customer, combo)).toEqual(new Map([['loonio', 1]]));
    });

    it('keeps a connector or combination name with separators apart from its neighbours', async () => {
      const [a] = fixture.replicas;
      await a.adjust(adjust('pay:pal', 1));
      await a.adjust(adjust('pal', 1, { combo: `${combo}:pay` }));
      expect(await a.read(customer, combo)).toEqual(new Map([['pay:pal', 1]]));
    });

    it('drops the lowest counts when a new count goes beyond the bound, never the new one', async () => {
      const [a] = fixture.replicas;
      for (const connector of ['a', 'a', 'a', 'b', 'c', 'c']) await a.adjust(adjust(connector, 1, { maxEntries: 3 }));
      await a.adjust(adjust('d', 1, { maxEntries: 3 }));
      expect(await a.read(customer, combo)).toEqual(
        new Map([
          ['a', 3],
          ['c', 2],
          ['d', 1],
        ]),
      );
    });

    it('keeps combinations apart when the first one empties, and bounds the counts across them', async () => {
      const [a, b] = fixture.replicas;
      const other = 'VISA:CARD';
      const third = 'MASTERCARD:CARD';
      await a.adjust(adjust('loonio', 1));
      await a.adjust(adjust('gigadat', 1, { combo: other }));
      await a.adjust(adjust('gigadat', 1, { combo: other }));
      await b.adjust(adjust('loonio', -1));
      await b.adjust(adjust('x', 1, { combo: third }));
      expect(await a.read(customer, combo)).toEqual(new Map());
      expect(await a.read(customer, other)).toEqual(new Map([['gigadat', 2]]));
      expect(await a.read(customer, third)).toEqual(new Map([['x', 1]]));
      // Three counts over two combinations against a bound of two: the lowest other count goes.
      await b.adjust(adjust('y', 1, { combo: other, maxEntries: 2 }));
      expect(await a.read(customer, other)).toEqual(
        new Map([
          ['gigadat', 2],
          ['y', 1],
        ]),
      );
      expect(await a.read(customer, third)).toEqual(new Map());
      expect(await a.adjust(adjust('x', -1, { combo: third }))).toEqual({ applied: false, count: 0 });
    });

    it('forgets a customer idle for longer than the TTL, which every success re-arms', async () => {
      const [a, b] = fixture.replicas;
      await a.adjust(adjust('loonio', 1, { ttlSeconds: 100 }));
      if (fixture.elapse !== undefined) {
        fixture.elapse(60_000);
        await a.adjust(adjust('loonio', 1, { ttlSeconds: 100 }));
        fixture.elapse(60_000);
        expect(await b.read(customer, combo)).toEqual(new Map([['loonio', 2]]));
        fixture.elapse(40_001);
        expect(await b.read(customer, combo)).toEqual(new Map());
      } else if (fixture.ttlMsOf !== undefined) {
        await a.adjust(adjust('loonio', 1, { ttlSeconds: 5000 }));
        const ttl = await fixture.ttlMsOf(customer);
        expect(ttl).toBeGreaterThan(4_000_000);
        expect(ttl).toBeLessThanOrEqual(5_000_000);
      } else {
        throw new Error('the fixture gives neither elapse nor ttlMsOf');
      }
    });
  });
}
