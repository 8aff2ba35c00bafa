import { randomUUID } from 'node:crypto';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { CacheAffinityKey, CacheAffinityStore } from '../../src/ports/state-store.js';

/**
 * Two views of one affinity store (two replicas of the service), or the same store twice where the
 * adapter has no replicas of its own (embedded). An adapter whose expiry runs on a clock the test
 * moves gives `elapse`; one that expires on its server's time gives `ttlMsOf` instead.
 */
export interface CacheAffinityFixture {
  readonly replicas: readonly [CacheAffinityStore, CacheAffinityStore];
  readonly elapse?: (ms: number) => void;
  readonly ttlMsOf?: (key: CacheAffinityKey) => Promise<number>;
  dispose(): Promise<void>;
}

/** The CacheAffinityStore contract (src/ports/state/cache-affinity-store.ts), run against the memory and Redis adapters. */
export function cacheAffinityStoreSuite(name: string, open: () => Promise<CacheAffinityFixture>): void {
  describe(`CacheAffinityStore (${name})`, () => {
    let fixture: CacheAffinityFixture;
    let merchantId: string;
    const key = (label: string, routeGroup = 'agents'): CacheAffinityKey => ({ merchantId, routeGroup, key: `${label}-${randomUUID().replaceAll('-', '')}` });
    beforeEach(async () => {
      fixture = await open();
      merchantId = `m-${randomUUID()}`;
    });
    afterEach(async () => fixture.dispose());

    it('answers undefined for a conversation never stored', async () => {
      expect(await fixture.replicas[0].get(key('none'))).toBeUndefined();
    });

    it('serves on one replica the holder another stored, and the newest holder after a second set', async () => {
      const [a, b] = fixture.replicas;
      const conversation = key('round-trip');
      await a.set(conversation, { candidate: 'anthropic/claude-sonnet-4-5', cachedTokens: 4096 }, 300);
      expect(await b.get(conversation)).toEqual({ candidate: 'anthropic/claude-sonnet-4-5', cachedTokens: 4096 });
      await b.set(conversation, { candidate: 'bedrock/claude-sonnet-4-5', cachedTokens: 5120 }, 300);
      expect(await a.get(conversation)).toEqual({ candidate: 'bedrock/claude-sonnet-4-5', cachedTokens: 5120 });
    });

    it('keeps merchants and route groups apart', async () => {
      const [a, b] = fixture.replicas;
      const conversation = key('shared');
      await a.set(conversation, { candidate: 'openai/gpt-5', cachedTokens: 2048 }, 300);
      expect(await b.get({ ...conversation, merchantId: `${merchantId}-other` })).toBeUndefined();
      expect(await b.get({ ...conversation, routeGroup: 'other-group' })).toBeUndefined();
      // Parts that would run together if the key layout did not keep them apart.
      await a.set({ merchantId: 'shop:a', routeGroup: 'g', key: `b:${conversation.key}` }, { candidate: 'openai/gpt-5', cachedTokens: 1 }, 300);
      expect(await b.get({ merchantId: 'shop', routeGroup: 'a:g', key: `b:${conversation.key}` })).toBeUndefined();
      expect(await b.get({ merchantId: 'shop:a', routeGroup: 'g:b', key: conversation.key })).toBeUndefined();
    });

    it('forgets a holder at its TTL, and a second set refreshes it', async () => {
      const [a, b] = fixture.replicas;
      const conversation = key('ttl');
      await a.set(conversation, { candidate: 'openai/gpt-5', cachedTokens: 2048 }, 300);
      if (fixture.elapse === undefined) {
        await a.set(conversation, { candidate: 'openai/gpt-5', cachedTokens: 2048 }, 3600);
        const ttlMs = await fixture.ttlMsOf!(conversation);
        expect(ttlMs).toBeGreaterThan(3_590_000);
        expect(ttlMs).toBeLessThanOrEqual(3_600_000);
        return;
      }
      fixture.elapse(299_000);
      expect(await b.get(conversation)).toEqual({ candidate: 'openai/gpt-5', cachedTokens: 2048 });
      await b.set(conversation, { candidate: 'openai/gpt-5', cachedTokens: 3000 }, 300);
      fixture.elapse(299_000);
      expect(await a.get(conversation)).toEqual({ candidate: 'openai/gpt-5', cachedTokens: 3000 });
      fixture.elapse(1000);
      expect(await a.get(conversation)).toBeUndefined();
    });
  });
}
