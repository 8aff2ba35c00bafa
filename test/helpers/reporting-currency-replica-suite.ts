import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createManualClock } from '../../src/time/clock.js';
import type { ReplicaStores } from './replica-suite.js';
import { createMerchant, createTestApp, withKey, type TestApp } from './test-app.js';

const merchant = 'reporting-replica-m1';

/**
 * The reporting currency across replicas: two real apps on one store (each may cache the merchant's
 * config documents in front of it). A setting saved or cleared on replica A must be what replica B
 * reads next, after B has read (and may have cached) the old one. Run on Redis behind the caching
 * decorator (test/integration/costs/), the composition that could serve a stale copy.
 */
export function reportingCurrencyReplicaSuite(label: string, openStores: () => Promise<ReplicaStores>): void {
  describe(`reporting currency across two API replicas (${label})`, () => {
    let stores: ReplicaStores;
    let a: TestApp;
    let b: TestApp;
    let key: Record<string, string>;

    beforeEach(async () => {
      stores = await openStores();
      const clock = createManualClock(Date.now());
      a = await createTestApp({ state: stores.a, clock });
      b = await createTestApp({ state: stores.b, clock });
      key = withKey((await createMerchant(a.app, merchant)).apiKey);
    });
    afterEach(async () => {
      await a.close();
      await b.close();
      await stores.dispose();
    });

    const url = `/merchant-account/${merchant}/reporting-currency`;
    const readOn = async (app: TestApp) => (await app.app.inject({ method: 'GET', url, headers: key })).json() as unknown;

    it('reads on B the setting saved on A, then its replacement, then none once cleared', async () => {
      expect(await readOn(b)).toEqual({ currency: null, rates: [] });
      const first = { currency: 'USD', rates: [{ currency: 'EUR', rate: 1.08, as_of: '2026-11-27' }] };
      expect((await a.app.inject({ method: 'PUT', url, headers: key, payload: first })).statusCode).toBe(200);
      expect(await readOn(b)).toEqual(first);
      const second = { currency: 'EUR', rates: [{ currency: 'USD', rate: 0.92, as_of: '2026-11-28' }] };
      expect((await a.app.inject({ method: 'PUT', url, headers: key, payload: second })).statusCode).toBe(200);
      expect(await readOn(b)).toEqual(second);
      expect((await a.app.inject({ method: 'DELETE', url, headers: key })).statusCode).toBe(200);
      expect(await readOn(b)).toEqual({ currency: null, rates: [] });
    });
  });
}
