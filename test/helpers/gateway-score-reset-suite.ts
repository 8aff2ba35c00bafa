import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { StateStore } from '../../src/ports/state-store.js';
import { createKeyFor, createMerchant, createTestApp, decideBody, withKey, type TestApp } from './test-app.js';

/** A state store for one run of the suite, and how to drop it afterwards. */
export interface ResetSuiteStore {
  readonly state: StateStore;
  /** Every Redis key of the store that is a window or elimination score (undefined on the embedded store). */
  scoreKeys?(): Promise<readonly string[]>;
  dispose(): Promise<void>;
}

const subLevels = [
  { paymentMethodType: 'CARD', bucketSize: 20, source: 'autopilot' },
  { paymentMethodType: 'UPI', bucketSize: 30 },
  { paymentMethodType: 'WALLET', hedgingPercent: 5, source: 'autopilot' },
  { paymentMethodType: 'NB', bucketSize: 40, source: 'ops-team' },
];

/**
 * POST /gateway-score/reset through the HTTP API on a given state store (embedded in the contract
 * tests, Redis in the integration tests): what it deletes, what it keeps, and its refusals.
 */
export function gatewayScoreResetSuite(label: string, open: () => Promise<ResetSuiteStore>): void {
  describe(`POST /gateway-score/reset (${label})`, () => {
    let store: ResetSuiteStore;
    let t: TestApp;
    const keys: Record<string, Record<string, string>> = {};
    let payments = 0;

    beforeAll(async () => {
      store = await open();
      t = await createTestApp({ state: store.state });
      await t.app.ready();
      // `rs_m` and `rs_m_1`: the second's score keys start with the first's prefix.
      for (const merchant of ['rs_m', 'rs_m_1', 'rs_other']) {
        keys[merchant] = withKey((await createMerchant(t.app, merchant)).apiKey);
        const created = await t.app.inject({
          method: 'POST',
          url: '/rule/create',
          headers: keys[merchant],
          payload: {
            merchant_id: merchant,
            config: { type: 'successRate', data: { defaultBucketSize: 10, defaultHedgingPercent: 0, subLevelInputConfig: subLevels } },
          },
        });
        expect(created.statusCode).toBe(200);
      }
    }, 60_000);
    afterAll(async () => {
      await t?.close();
      await store?.dispose();
    });

    const decide = async (merchant: string) => {
      const response = await t.app.inject({
        method: 'POST',
        url: '/decide-gateway',
        headers: keys[merchant]!,
        payload: decideBody(merchant, `rs-p${++payments}`, { eliminationEnabled: true }),
      });
      expect(response.statusCode).toBe(200);
      return response.json() as { gateway_priority_map: Record<string, number> };
    };
    /** One payment failed on stripe (window) and one charged on adyen (window and elimination score). */
    const learn = async (merchant: string) => {
      for (const [gateway, status] of [
        ['stripe', 'AUTHORIZATION_FAILED'],
        ['adyen', 'CHARGED'],
      ] as const) {
        await decide(merchant);
        const response = await t.app.inject({
          method: 'POST',
          url: '/update-gateway-score',
          headers: keys[merchant]!,
          payload: { merchantId: merchant, gateway, paymentId: `rs-p${payments}`, status },
        });
        expect(response.statusCode).toBe(200);
      }
      await t.worker.caughtUp();
    };
    const reset = (merchant: string | undefined, headers = keys['rs_m']!) =>
      t.app.inject({ method: 'POST', url: '/gateway-score/reset', headers, payload: merchant === undefined ? {} : { merchant_id: merchant } });
    const subLevelsOf = async (merchant: string) => {
      const response = await t.app.inject({
        method: 'POST',
        url: '/rule/get',
        headers: keys[merchant]!,
        payload: { merchant_id: merchant, algorithm: 'successRate' },
      });
      return (response.json() as { config: { data: { subLevelInputConfig: unknown[] } } }).config.data.subLevelInputConfig;
    };

    it("deletes the merchant's windows and elimination scores and autopilot's sub-level entries, and nothing else", async () => {
      await learn('rs_m');
      await learn('rs_m_1');
      // The autopilot CARD entry sets a bucket of 20: one failure in 20.
      expect((await decide('rs_m')).gateway_priority_map.stripe).toBeCloseTo(0.95, 10);
      const before = await store.scoreKeys?.();

      const response = await reset('rs_m');
      expect(response.statusCode).toBe(200);
      // Two windows (stripe, adyen) and one elimination score (adyen's reward).
      expect(response.json()).toEqual({ merchant_id: 'rs_m', deleted_keys: 3, removed_overrides: 2 });

      expect((await decide('rs_m')).gateway_priority_map.stripe).toBe(1);
      expect((await decide('rs_m_1')).gateway_priority_map.stripe).toBeCloseTo(0.95, 10);
      expect(await subLevelsOf('rs_m')).toEqual([subLevels[1], subLevels[3]]);
      expect(await subLevelsOf('rs_m_1')).toEqual(subLevels);
      if (before !== undefined) {
        const after = await store.scoreKeys!();
        expect(before.length - after.length).toBe(3);
        expect(after.every((key) => before.includes(key))).toBe(true);
      }
    });

    it('deletes nothing more the second time', async () => {
      const response = await reset('rs_m');
      expect(response.json()).toEqual({ merchant_id: 'rs_m', deleted_keys: 0, removed_overrides: 0 });
    });

    it('answers 400 without a merchant_id, 403 for another merchant and 404 for an unknown one', async () => {
      const missing = await reset(undefined);
      expect(missing.statusCode).toBe(400);
      expect(missing.json()).toMatchObject({ code: 'TE_03', message: expect.stringContaining('Missing required field: merchant_id') });
      const cross = await reset('rs_other');
      expect(cross.statusCode).toBe(403);
      expect((await decide('rs_other')).gateway_priority_map.stripe).toBe(1);
      const ghost = await reset('rs_ghost', withKey(await createKeyFor(t.state, 'rs_ghost')));
      expect(ghost.statusCode).toBe(404);
    });
  });
}
