import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { windowKeyFor } from '../../src/decision/window-key.js';
import { createKeyFor, createMerchant, createTestApp, decideBody, withKey, type TestApp } from '../helpers/test-app.js';

describe('/config-sr-dimension', () => {
  let t: TestApp;
  let headers: Record<string, string>;
  beforeEach(async () => {
    t = await createTestApp();
    headers = withKey((await createMerchant(t.app, 'm1')).apiKey);
    await t.app.inject({
      method: 'POST',
      url: '/rule/create',
      headers,
      payload: { merchant_id: 'm1', config: { type: 'successRate', data: { defaultBucketSize: 10, defaultHedgingPercent: 0 } } },
    });
  });
  afterEach(async () => t.close());

  const configure = (paymentInfo: Record<string, unknown>, merchantId = 'm1', as = headers) =>
    t.app.inject({ method: 'POST', url: '/config-sr-dimension', headers: as, payload: { merchant_id: merchantId, paymentInfo } });
  const read = (merchantId = 'm1', as = headers) => t.app.inject({ method: 'GET', url: `/config-sr-dimension/${merchantId}`, headers: as });
  const decide = async (paymentId: string, paymentInfo: Record<string, unknown> = {}) => {
    const body = decideBody('m1', paymentId);
    const response = await t.app.inject({
      method: 'POST',
      url: '/decide-gateway',
      headers,
      payload: { ...body, paymentInfo: { ...(body['paymentInfo'] as Record<string, unknown>), ...paymentInfo } },
    });
    expect(response.statusCode, response.body).toBe(200);
    return response.json() as { decided_gateway: string; gateway_priority_map: Record<string, number> };
  };
  const windowDimensionOfLastDecision = async () => {
    await t.worker.caughtUp();
    const created = t.events.filter((event) => event.type === 'decision.created').at(-1);
    return (created!.payload as { windowDimension: string }).windowDimension;
  };

  describe('GET', () => {
    it('answers an empty configuration when none is stored', async () => {
      const response = await read();
      expect(response.statusCode).toBe(200);
      expect(response.json()).toEqual({ merchant_id: 'm1', paymentInfo: { udfs: [], fields: null } });
    });

    it('answers the stored configuration, and the last write wins', async () => {
      expect((await configure({ udfs: [1, 3], fields: ['currency', 'card_network'] })).statusCode).toBe(200);
      expect((await read()).json()).toEqual({ merchant_id: 'm1', paymentInfo: { udfs: [1, 3], fields: ['currency', 'card_network'] } });
      await configure({ udfs: [0] });
      expect((await read()).json()).toEqual({ merchant_id: 'm1', paymentInfo: { udfs: [0], fields: null } });
    });

    it('does not check that the merchant exists (like the POST)', async () => {
      const ghostKey = withKey(await createKeyFor(t.state, 'ghost'));
      expect((await configure({ udfs: [2], fields: ['country'] }, 'ghost', ghostKey)).statusCode).toBe(200);
      expect((await read('ghost', ghostKey)).json()).toEqual({ merchant_id: 'ghost', paymentInfo: { udfs: [2], fields: ['country'] } });
    });

    it("refuses another merchant's configuration", async () => {
      const other = withKey((await createMerchant(t.app, 'm2')).apiKey);
      const response = await read('m1', other);
      expect(response.statusCode).toBe(403);
    });
  });

  describe('POST', () => {
    it('answers the 1.4.x JSON string and refuses unknown dimensions with TE_04', async () => {
      const ok = await configure({ udfs: [], fields: ['auth_type'] });
      expect(ok.statusCode).toBe(200);
      expect(ok.json()).toBe('SR Dimension configuration updated successfully');
      const bad = await configure({ udfs: [], fields: ['currency', 'x'] });
      expect(bad.statusCode).toBe(400);
      expect(bad.json()).toEqual({
        code: 'TE_04',
        message: 'Invalid dimensions: ["x"]. Valid dimensions are: currency, country, auth_type, card_is_in, card_network',
        data: null,
      });
      expect((await read()).json()).toEqual({ merchant_id: 'm1', paymentInfo: { udfs: [], fields: ['auth_type'] } });
    });
  });

  describe('effect on decisions and feedback (§3.3)', () => {
    it('keys the SR windows by the configured fields in order and the udfs by index', async () => {
      await decide('p0');
      expect(await windowDimensionOfLastDecision()).toBe('gw_sr_v3_score_m1_ORDER_PAYMENT_CARD_CREDIT');
      await configure({ udfs: [1, 0], fields: ['card_network', 'currency', 'country'] });
      await decide('p1', { udfs: ['gold', 'web'] });
      expect(await windowDimensionOfLastDecision()).toBe('gw_sr_v3_score_m1_ORDER_PAYMENT_CARD_CREDIT_VISA_USD_US_web_gold');
      // A configured udf the payment lacks drops the whole udf suffix.
      await decide('p2', { udfs: ['gold'] });
      expect(await windowDimensionOfLastDecision()).toBe('gw_sr_v3_score_m1_ORDER_PAYMENT_CARD_CREDIT_VISA_USD_US');
    });

    it('lands feedback in the window of the decision, so only payments of that dimension see it', async () => {
      await configure({ udfs: [0], fields: ['currency'] });
      await decide('p1', { udfs: ['web'] });
      const dimension = await windowDimensionOfLastDecision();
      expect(dimension).toBe('gw_sr_v3_score_m1_ORDER_PAYMENT_CARD_CREDIT_USD_web');
      const feedback = await t.app.inject({
        method: 'POST',
        url: '/update-gateway-score',
        headers,
        payload: { merchantId: 'm1', gateway: 'stripe', paymentId: 'p1', status: 'FAILURE' },
      });
      expect(feedback.statusCode).toBe(200);
      await t.worker.caughtUp();
      const [window] = await t.state.scores.readWindows([windowKeyFor(dimension, 'stripe')], 10);
      expect(window).toEqual({ successes: 9, length: 10 });
      // Same dimension: the failure shows; another udf value: a fresh window at 1.0.
      expect((await decide('p2', { udfs: ['web'] })).gateway_priority_map).toEqual({ stripe: 0.9, adyen: 1 });
      expect((await decide('p3', { udfs: ['app'] })).gateway_priority_map).toEqual({ stripe: 1, adyen: 1 });
      expect((await decide('p4', { udfs: ['web'], currency: 'EUR' })).gateway_priority_map).toEqual({ stripe: 1, adyen: 1 });
    });
  });
});
