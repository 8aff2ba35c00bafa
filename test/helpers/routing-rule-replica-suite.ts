import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createManualClock } from '../../src/time/clock.js';
import type { ReplicaStores } from './replica-suite.js';
import { createMerchant, createTestApp, decideBody, withKey, type TestApp } from './test-app.js';

const merchant = 'rules-replica-m1';
const stripe = { gateway_name: 'stripe', gateway_id: null };
const adyen = { gateway_name: 'adyen', gateway_id: null };

/**
 * Routing rules across replicas: two real apps on one store (each may cache the active rules in
 * front of it). An activation, update or deactivation on replica A must decide replica B's very next
 * evaluation and decision. Run against the embedded store (contract) and Redis (integration).
 */
export function routingRuleReplicaSuite(label: string, openStores: () => Promise<ReplicaStores>): void {
  describe(`routing rules across two API replicas (${label})`, () => {
    let stores: ReplicaStores;
    let a: TestApp;
    let b: TestApp;
    let key: string;

    beforeEach(async () => {
      stores = await openStores();
      const clock = createManualClock(Date.now());
      a = await createTestApp({ state: stores.a, clock });
      b = await createTestApp({ state: stores.b, clock });
      key = (await createMerchant(a.app, merchant)).apiKey;
    });
    afterEach(async () => {
      await a.close();
      await b.close();
      await stores.dispose();
    });

    const post = (app: TestApp, url: string, payload: Record<string, unknown>) => app.app.inject({ method: 'POST', url, headers: withKey(key), payload });
    const create = async (data: unknown) =>
      ((await post(a, '/routing/create', { name: 'r', created_by: merchant, algorithm: { type: 'single', data } })).json() as { rule_id: string }).rule_id;
    const evaluateOn = async (app: TestApp) => post(app, '/routing/evaluate', { created_by: merchant, parameters: {} });
    const decidedOn = async (app: TestApp) =>
      (await post(app, '/decide-gateway', decideBody(merchant, 'p1'))).json() as { decided_gateway: string; priority_logic_tag: string | null };

    it('evaluates on B the algorithm activated on A, then the one that replaced it', async () => {
      const first = await create(stripe);
      const second = await create(adyen);
      expect((await evaluateOn(b)).statusCode).toBe(400); // B has now read (and may cache) "none active"
      expect((await post(a, '/routing/activate', { created_by: merchant, routing_algorithm_id: first })).statusCode).toBe(200);
      expect((await evaluateOn(b)).json()).toMatchObject({ evaluated_output: [stripe] });
      expect(await decidedOn(b)).toMatchObject({ decided_gateway: 'stripe', priority_logic_tag: 'straight_through_rule' });
      expect((await post(a, '/routing/activate', { created_by: merchant, routing_algorithm_id: second })).statusCode).toBe(200);
      expect((await evaluateOn(b)).json()).toMatchObject({ evaluated_output: [adyen] });
      expect((await decidedOn(b)).decided_gateway).toBe('adyen');
    });

    it('stops using on B an algorithm deactivated on A', async () => {
      const id = await create(adyen);
      expect((await post(a, '/routing/activate', { created_by: merchant, routing_algorithm_id: id })).statusCode).toBe(200);
      expect((await evaluateOn(b)).statusCode).toBe(200);
      expect((await post(a, '/routing/deactivate', { created_by: merchant, routing_algorithm_id: id })).statusCode).toBe(200);
      const refused = await evaluateOn(b);
      expect(refused.statusCode).toBe(400);
      expect(refused.json()).toEqual({ code: 'TE_04', message: `No active routing algorithm found for the created_by entity : ${merchant}`, data: null });
      expect((await decidedOn(b)).priority_logic_tag).toBeNull();
    });

    it('evaluates on B an algorithm updated on A after re-activation', async () => {
      const id = await create(stripe);
      expect((await post(a, '/routing/activate', { created_by: merchant, routing_algorithm_id: id })).statusCode).toBe(200);
      expect((await evaluateOn(b)).json()).toMatchObject({ evaluated_output: [stripe] });
      expect((await post(a, '/routing/deactivate', { created_by: merchant, routing_algorithm_id: id })).statusCode).toBe(200);
      const updated = await post(a, '/routing/update', { created_by: merchant, routing_algorithm_id: id, algorithm: { type: 'single', data: adyen } });
      expect(updated.statusCode, updated.body).toBe(200);
      expect((await post(a, '/routing/activate', { created_by: merchant, routing_algorithm_id: id })).statusCode).toBe(200);
      expect((await evaluateOn(b)).json()).toMatchObject({ evaluated_output: [adyen] });
    });
  });
}
