import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { merchantScoreSelection } from '../../src/feedback/reset-gateway-scores.js';
import type { StateStore } from '../../src/ports/state-store.js';

export interface ScoreResetFixture {
  readonly store: StateStore;
  dispose(): Promise<void>;
}

const window = (merchant: string, gateway: string, orderType = 'ORDER_PAYMENT') => `gw_sr_v3_score_${merchant}_${orderType}_CARD_CREDIT_${gateway}`;
const elimination = (merchant: string, gateway: string) => `gw_score_${merchant}_ORDER_PAYMENT_${gateway}_CARD_CREDIT_CREDIT`;

/** ScoreStore.deleteScores, run against every adapter (memory and Redis). */
export function scoreResetSuite(adapterName: string, open: () => Promise<ScoreResetFixture>): void {
  describe(`ScoreStore.deleteScores (${adapterName})`, () => {
    let fixture: ScoreResetFixture;
    beforeEach(async () => {
      fixture = await open();
    });
    afterEach(async () => fixture.dispose());

    const record = (windowKey: string, dedupeKey: string) =>
      fixture.store.scores.recordOutcome({ windowKey, outcome: 0, bucketSize: 10, dedupeKey, dedupeTtlSeconds: 600, windowTtlSeconds: 600 });
    const eliminate = (key: string, dedupeKey: string) =>
      fixture.store.scores.applyElimination({ key, factor: 0.5, countsTransaction: true, nowMs: 1, ttlMs: 600_000, dedupeKey, dedupeTtlSeconds: 600 });

    it("deletes one merchant's windows and elimination scores, across many keys, and nobody else's", async () => {
      const gateways = Array.from({ length: 150 }, (_, index) => `gw${index}`);
      await Promise.all(gateways.map((gateway) => record(window('m', gateway), `d-${gateway}`)));
      await Promise.all(gateways.slice(0, 20).map((gateway) => eliminate(elimination('m', gateway), `e-${gateway}`)));
      await record(window('m', 'mandate', 'MANDATE_PAYMENT'), 'd-mandate');
      // Neighbours: an id that extends "m", another merchant, a model route-group window.
      await record(window('m_1', 'gw0'), 'n1');
      await eliminate(elimination('m_1', 'gw0'), 'n2');
      await record(window('other', 'gw0'), 'n3');
      await record('llm:m:group:openai/gpt-4o', 'n4');

      expect(await fixture.store.scores.deleteScores(merchantScoreSelection('m'))).toBe(150 + 20 + 1);

      expect(await fixture.store.scores.readWindows([window('m', 'gw0'), window('m', 'gw149'), window('m', 'mandate', 'MANDATE_PAYMENT')], 10)).toEqual([
        undefined,
        undefined,
        undefined,
      ]);
      expect(await fixture.store.scores.readEliminations([elimination('m', 'gw0')])).toEqual([undefined]);
      const kept = await fixture.store.scores.readWindows([window('m_1', 'gw0'), window('other', 'gw0'), 'llm:m:group:openai/gpt-4o'], 10);
      expect(kept.map((read) => read?.length)).toEqual([10, 10, 10]);
      expect((await fixture.store.scores.readEliminations([elimination('m_1', 'gw0')]))[0]?.score).toBe(0.5);
      expect(await fixture.store.scores.deleteScores(merchantScoreSelection('m'))).toBe(0);
    });

    it('keeps dedupe markers, so feedback applied before the reset is not counted again', async () => {
      await record(window('m', 'stripe'), 'same-feedback');
      await fixture.store.scores.deleteScores(merchantScoreSelection('m'));
      expect((await record(window('m', 'stripe'), 'same-feedback')).applied).toBe(false);
      expect((await record(window('m', 'stripe'), 'new-feedback')).applied).toBe(true);
    });
  });
}
