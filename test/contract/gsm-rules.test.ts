import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createKeyFor, createMerchant, createTestApp, withKey, type TestApp } from '../helpers/test-app.js';

describe('gateway status map routes', () => {
  let t: TestApp;
  let headers: Record<string, string>;
  let otherHeaders: Record<string, string>;

  beforeAll(async () => {
    t = await createTestApp();
    await t.app.ready();
    headers = withKey((await createMerchant(t.app, 'gsm-a')).apiKey);
    otherHeaders = withKey((await createMerchant(t.app, 'gsm-b')).apiKey);
  }, 60_000);
  afterAll(async () => t?.close());

  describe('GET /gsm/options', () => {
    it("lists the shipped map in decision-engine's row shape", async () => {
      const response = await t.app.inject({ method: 'GET', url: '/gsm/options', headers });
      expect(response.statusCode).toBe(200);
      const { rules } = response.json() as { rules: Record<string, unknown>[] };
      expect(rules.length).toBeGreaterThan(2000);
      expect(rules).toContainEqual({
        connector: 'adyen',
        flow: 'Payment',
        subFlow: 'Authorize',
        errorCode: '2',
        errorMessage: 'Refused',
        unifiedCode: 'UE_3000',
        unifiedMessage: 'Technical issue with PSP',
        decision: 'retry',
      });
      expect(new Set(rules.map((rule) => rule.connector))).toEqual(new Set(['adyen', 'stripe', 'cybersource']));
    });

    it('needs a credential and refuses to act for another merchant', async () => {
      expect((await t.app.inject({ method: 'GET', url: '/gsm/options' })).statusCode).toBe(401);
      expect((await t.app.inject({ method: 'GET', url: '/gsm/options', headers, query: { merchant_id: 'gsm-b' } })).statusCode).toBe(403);
    });
  });

  describe('/merchant-account/{merchantId}/gsm-rules', () => {
    const url = '/merchant-account/gsm-a/gsm-rules';

    it('answers no overrides and the default excused class before any write', async () => {
      const response = await t.app.inject({ method: 'GET', url: '/merchant-account/gsm-b/gsm-rules', headers: otherHeaders });
      expect(response.statusCode).toBe(200);
      expect(response.json()).toEqual({ merchant_id: 'gsm-b', rules: [], excusedClasses: ['UE_1000', 'UE_2000', 'UE_4000'] });
    });

    it('replaces, reads back and drops the overrides', async () => {
      const rules = [
        { connector: 'stripe', errorCode: 'do_not_honor', unifiedCode: 'UE_1000' },
        { issuerErrorCode: '05', cardNetwork: 'Visa', unifiedCode: 'UE_1000', stepUpPossible: false },
      ];
      const put = await t.app.inject({ method: 'PUT', url, headers, payload: { rules, excusedClasses: ['UE_1000', 'UE_2000'] } });
      expect(put.statusCode).toBe(200);
      expect(put.json()).toEqual({ merchant_id: 'gsm-a', rules, excusedClasses: ['UE_1000', 'UE_2000'] });
      expect((await t.app.inject({ method: 'GET', url, headers })).json()).toEqual(put.json());
      // Without excusedClasses the default applies again.
      const second = await t.app.inject({ method: 'PUT', url, headers, payload: { rules: rules.slice(0, 1) } });
      expect(second.json()).toEqual({ merchant_id: 'gsm-a', rules: rules.slice(0, 1), excusedClasses: ['UE_1000', 'UE_2000', 'UE_4000'] });
      const dropped = await t.app.inject({ method: 'DELETE', url, headers });
      expect(dropped.statusCode).toBe(200);
      expect(dropped.json()).toEqual({ merchant_id: 'gsm-a', rules: [], excusedClasses: ['UE_1000', 'UE_2000', 'UE_4000'] });
      expect((await t.app.inject({ method: 'GET', url, headers })).json()).toEqual(dropped.json());
    });

    it('refuses a rule that matches nothing in particular, an unknown class and unknown fields with a 4xx naming them', async () => {
      const catchAll = await t.app.inject({ method: 'PUT', url, headers, payload: { rules: [{ connector: 'stripe', unifiedCode: 'UE_1000' }] } });
      expect(catchAll.statusCode).toBe(400);
      expect(catchAll.body).toContain('rules[0] must set errorCode, errorMessage or issuerErrorCode');
      const badClass = await t.app.inject({ method: 'PUT', url, headers, payload: { rules: [{ errorCode: 'x', unifiedCode: 'UE_5000' }] } });
      // Shape errors answer 422 with decision-engine's text, as every JSON body on these routes does.
      expect(badClass.statusCode).toBe(422);
      expect(badClass.body).toContain('unifiedCode');
      const extra = await t.app.inject({ method: 'PUT', url, headers, payload: { rules: [{ errorCode: 'x', unifiedCode: 'UE_1000', blame: 'psp' }] } });
      expect(extra.statusCode).toBe(422);
      const missing = await t.app.inject({ method: 'PUT', url, headers, payload: {} });
      expect(missing.statusCode).toBe(422);
      expect(missing.body).toContain('rules');
      expect((await t.app.inject({ method: 'GET', url, headers })).json().rules).toEqual([]);
    });

    it("answers 403 for another merchant's rules and 404 for a merchant that does not exist", async () => {
      for (const method of ['GET', 'PUT', 'DELETE'] as const) {
        const response = await t.app.inject({ method, url, headers: otherHeaders, ...(method === 'PUT' ? { payload: { rules: [] } } : {}) });
        expect(response.statusCode, method).toBe(403);
      }
      const ghost = withKey(await createKeyFor(t.state, 'gsm-ghost'));
      const response = await t.app.inject({ method: 'GET', url: '/merchant-account/gsm-ghost/gsm-rules', headers: ghost });
      expect(response.statusCode).toBe(404);
    });
  });
});
