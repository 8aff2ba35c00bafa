import { randomUUID } from 'node:crypto';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { ResponseStore, StoredResponse } from '../../src/ports/state-store.js';

/**
 * Two views of one response store (two replicas of the service), or the same store twice where
 * the adapter has no replicas of its own (embedded). An adapter whose expiry runs on a clock the
 * test moves gives `elapse`; one that expires on its server's time gives `ttlMsOf` instead.
 */
export interface ResponseStoreFixture {
  readonly replicas: readonly [ResponseStore, ResponseStore];
  readonly elapse?: (ms: number) => void;
  readonly ttlMsOf?: (merchantId: string, id: string) => Promise<number>;
  dispose(): Promise<void>;
}

function recordOf(merchantId: string, id: string): StoredResponse {
  return {
    id,
    merchantId,
    createdAt: 1_790_000_000,
    provider: 'openai',
    model: 'gpt-4o-mini',
    request: { instructions: 'be brief', metadata: { order: '42' }, tools: [] },
    context: [{ id: 'msg_prev', type: 'message', role: 'user', content: [{ type: 'input_text', text: 'earlier' }] }],
    input: [{ id: 'msg_in', type: 'message', role: 'user', content: [{ type: 'input_text', text: 'Grüße, 世界 — "quoted" \\ back\nline' }] }],
    output: [{ id: 'fc_1', type: 'function_call', call_id: 'call_1', name: 'get_weather', arguments: '{"city":"Paris"}', status: 'completed' }],
    finishReason: 'tool_calls',
    usage: { inputTokens: 12, outputTokens: 5, totalTokens: 17 },
  };
}

/** The ResponseStore contract (src/ports/state/response-store.ts), run against the memory and Redis adapters. */
export function responseStoreSuite(name: string, open: () => Promise<ResponseStoreFixture>): void {
  describe(`ResponseStore (${name})`, () => {
    let fixture: ResponseStoreFixture;
    let merchantId: string;
    const newId = () => `resp_${randomUUID().replaceAll('-', '')}`;
    beforeEach(async () => {
      fixture = await open();
      merchantId = `m-${randomUUID()}`;
    });
    afterEach(async () => fixture.dispose());

    it('answers undefined for a response never stored, and false when deleting it', async () => {
      const id = newId();
      expect(await fixture.replicas[0].get(merchantId, id)).toBeUndefined();
      expect(await fixture.replicas[0].delete(merchantId, id)).toBe(false);
    });

    it('serves on one replica, whole, what another stored', async () => {
      const [a, b] = fixture.replicas;
      const record = recordOf(merchantId, newId());
      await a.put(record, 300);
      expect(await b.get(merchantId, record.id)).toEqual(record);
    });

    it('keeps merchants apart: the same id under another merchant is neither found nor deleted', async () => {
      const [a, b] = fixture.replicas;
      const record = recordOf(merchantId, newId());
      await a.put(record, 300);
      expect(await b.get(`${merchantId}-other`, record.id)).toBeUndefined();
      expect(await b.delete(`${merchantId}-other`, record.id)).toBe(false);
      expect(await b.get(merchantId, record.id)).toEqual(record);
      // Ids that would run together if the key layout did not keep its parts apart.
      await a.put(recordOf('shop:a', `b${record.id}`), 300);
      expect(await b.get('shop:ab', record.id)).toBeUndefined();
    });

    it('deletes once: gone for every replica, and a second delete finds nothing', async () => {
      const [a, b] = fixture.replicas;
      const record = recordOf(merchantId, newId());
      await a.put(record, 300);
      expect(await b.delete(merchantId, record.id)).toBe(true);
      expect(await a.get(merchantId, record.id)).toBeUndefined();
      expect(await a.delete(merchantId, record.id)).toBe(false);
    });

    it('expires a response at its TTL: on the clock the test moves, or as the server is told to', async () => {
      const [a, b] = fixture.replicas;
      const record = recordOf(merchantId, newId());
      const thirtyDaysS = 30 * 86_400;
      await a.put(record, thirtyDaysS);
      if (fixture.elapse === undefined) {
        const ttlMs = await fixture.ttlMsOf!(merchantId, record.id);
        expect(ttlMs).toBeGreaterThan(thirtyDaysS * 1000 - 5_000);
        expect(ttlMs).toBeLessThanOrEqual(thirtyDaysS * 1000);
        return;
      }
      fixture.elapse(thirtyDaysS * 1000 - 1);
      expect(await b.get(merchantId, record.id)).toEqual(record);
      fixture.elapse(1);
      expect(await b.get(merchantId, record.id)).toBeUndefined();
      expect(await b.delete(merchantId, record.id)).toBe(false);
    });
  });
}
