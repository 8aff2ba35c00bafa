import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createManualClock } from '../../src/time/clock.js';
import type { StateStore } from '../../src/ports/state-store.js';
import { createMerchant, createTestApp, decideBody, signUp, withKey, withToken, type TestApp } from './test-app.js';

/** Two API replicas' views of one state store (each may put its own cache in front). */
export interface ReplicaStores {
  readonly a: StateStore;
  readonly b: StateStore;
  dispose(): Promise<void>;
}

/**
 * Revocation across replicas: two real apps (buildApp) on one store, so a logout or a key revoked
 * on replica A must be refused by replica B on the very next request, with no waiting.
 * Run against the embedded store (contract) and Redis (integration).
 */
export function replicaSuite(label: string, openStores: () => Promise<ReplicaStores>): void {
  describe(`revocation across two API replicas (${label})`, () => {
    let stores: ReplicaStores;
    let a: TestApp;
    let b: TestApp;
    let merchantKey: string;

    beforeEach(async () => {
      stores = await openStores();
      const clock = createManualClock(Date.now());
      a = await createTestApp({ state: stores.a, clock });
      b = await createTestApp({ state: stores.b, clock });
      merchantKey = (await createMerchant(a.app, 'replica-m1')).apiKey;
    });
    afterEach(async () => {
      await a.close();
      await b.close();
      await stores.dispose();
    });

    const me = (app: TestApp, token: string) => app.app.inject({ method: 'GET', url: '/auth/me', headers: withToken(token) });
    const decide = (app: TestApp, apiKey: string) =>
      app.app.inject({ method: 'POST', url: '/decide-gateway', headers: withKey(apiKey), payload: decideBody('replica-m1', 'p1') });

    it('refuses on replica B a token logged out on replica A', async () => {
      const { token } = await signUp(a.app, 'replica@example.com', 'replica-m1');
      expect((await me(b, token)).statusCode).toBe(200);
      expect((await a.app.inject({ method: 'POST', url: '/auth/logout', headers: withToken(token) })).statusCode).toBe(200);
      const refused = await me(b, token);
      expect(refused.statusCode).toBe(401);
      expect(refused.body).toBe('Invalid or expired token');
    });

    it('refuses on replica B an API key revoked on replica A, after B has used it', async () => {
      const created = (
        await a.app.inject({ method: 'POST', url: '/api-key/create', headers: withKey(merchantKey), payload: { merchant_id: 'replica-m1' } })
      ).json() as { key_id: string; api_key: string };
      expect((await decide(b, created.api_key)).statusCode).toBe(200);
      expect((await a.app.inject({ method: 'DELETE', url: `/api-key/${created.key_id}`, headers: withKey(merchantKey) })).statusCode).toBe(200);
      const refused = await decide(b, created.api_key);
      expect(refused.statusCode).toBe(401);
      expect(refused.body).toBe('API key is revoked');
      expect((await decide(b, merchantKey)).statusCode).toBe(200);
    });

    it('accepts on replica B a key created on replica A', async () => {
      const created = (
        await a.app.inject({ method: 'POST', url: '/api-key/create', headers: withKey(merchantKey), payload: { merchant_id: 'replica-m1' } })
      ).json() as { api_key: string };
      expect((await decide(b, created.api_key)).statusCode).toBe(200);
    });
  });
}
