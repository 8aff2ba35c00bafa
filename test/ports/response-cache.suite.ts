import { randomUUID } from 'node:crypto';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { CachedCompletion } from '../../src/ports/state/response-cache.js';
import type { ResponseCache, ResponseCacheKey } from '../../src/ports/state-store.js';

/**
 * Two views of one response cache (two replicas of the service), or the same cache twice where
 * the adapter has no replicas of its own (embedded). An adapter whose expiry runs on a clock the
 * test moves gives `elapse`; one that expires on its server's time gives `ttlMsOf` instead.
 */
export interface ResponseCacheFixture {
  readonly replicas: readonly [ResponseCache, ResponseCache];
  readonly elapse?: (ms: number) => void;
  readonly ttlMsOf?: (key: ResponseCacheKey) => Promise<number>;
  dispose(): Promise<void>;
}

const answer: CachedCompletion = {
  provider: 'openai',
  model: 'gpt-4o-mini',
  content: 'Grüße, 世界 — "quoted" \\ back\nline',
  toolCalls: [{ id: 'call_1', type: 'function', function: { name: 'get_weather', arguments: '{"city":"Paris"}' } }],
  finishReason: 'tool_calls',
  usage: { inputTokens: 12, outputTokens: 5, totalTokens: 17 },
};

/** The ResponseCache contract (src/ports/state-store.ts), run against the memory and Redis adapters. */
export function responseCacheSuite(name: string, open: () => Promise<ResponseCacheFixture>): void {
  describe(`ResponseCache (${name})`, () => {
    let fixture: ResponseCacheFixture;
    let merchantId: string;
    const hash = (label: string) => `${label}-${randomUUID().replaceAll('-', '')}`;
    beforeEach(async () => {
      fixture = await open();
      merchantId = `m-${randomUUID()}`;
    });
    afterEach(async () => fixture.dispose());

    it('answers undefined for an entry never stored', async () => {
      expect(await fixture.replicas[0].get({ merchantId, requestHash: hash('none') })).toBeUndefined();
    });

    it('serves on one replica what another stored, whole (text, tool calls, usage), and replaces it on a second set', async () => {
      const [a, b] = fixture.replicas;
      const key = { merchantId, requestHash: hash('round-trip') };
      await a.set(key, answer, 300);
      expect(await b.get(key)).toEqual(answer);
      const replaced = { ...answer, content: 'second', toolCalls: [], finishReason: 'stop' as const };
      await b.set(key, replaced, 300);
      expect(await a.get(key)).toEqual(replaced);
    });

    it('keeps merchants apart: the same request hash under another merchant is not found', async () => {
      const [a, b] = fixture.replicas;
      const requestHash = hash('shared');
      await a.set({ merchantId, requestHash }, answer, 300);
      expect(await b.get({ merchantId: `${merchantId}-other`, requestHash })).toBeUndefined();
      // Ids that would run together if the key layout did not keep its parts apart.
      await a.set({ merchantId: 'shop:a', requestHash: `b${requestHash}` }, answer, 300);
      expect(await b.get({ merchantId: 'shop:ab', requestHash })).toBeUndefined();
      expect(await b.get({ merchantId: 'shop{x}', requestHash })).toBeUndefined();
    });

    it('expires an entry at its TTL: on the clock the test moves, or as the server is told to', async () => {
      const [a, b] = fixture.replicas;
      const key = { merchantId, requestHash: hash('ttl') };
      await a.set(key, answer, 60);
      if (fixture.elapse === undefined) {
        const ttlMs = await fixture.ttlMsOf!(key);
        expect(ttlMs).toBeGreaterThan(55_000);
        expect(ttlMs).toBeLessThanOrEqual(60_000);
        return;
      }
      fixture.elapse(59_999);
      expect(await b.get(key)).toEqual(answer);
      fixture.elapse(1);
      expect(await b.get(key)).toBeUndefined();
    });
  });
}
