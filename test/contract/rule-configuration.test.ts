import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createKeyFor, createMerchant, createTestApp, decideBody, withKey, type TestApp } from '../helpers/test-app.js';

describe('rule configuration routes', () => {
  let t: TestApp;
  let headers: Record<string, string>;
  beforeEach(async () => {
    t = await createTestApp();
    headers = withKey((await createMerchant(t.app, 'm1')).apiKey);
  });
  afterEach(async () => t.close());

  const post = (url: string, payload: unknown, as = headers) => t.app.inject({ method: 'POST', url, headers: as, payload: payload as Record<string, unknown> });
  const sr = { type: 'successRate', data: { defaultBucketSize: 10, defaultHedgingPercent: 0, defaultLatencyThreshold: 90 } };

  it('creates, reads, updates and deletes a success-rate config with the 1.4.x messages', async () => {
    const created = await post('/rule/create', { merchant_id: 'm1', config: sr });
    expect(created.statusCode).toBe(200);
    expect(created.json()).toEqual({ message: 'Success Rate Configuration created successfully', merchant_id: 'm1', config: sr });
    expect((await post('/rule/get', { merchant_id: 'm1', algorithm: 'successRate' })).json()).toEqual({ merchant_id: 'm1', config: sr });
    const next = { type: 'successRate', data: { defaultBucketSize: 20 } };
    const updated = await post('/rule/update', { merchant_id: 'm1', config: next });
    expect(updated.json()).toEqual({ message: 'Success Rate Configuration updated successfully', merchant_id: 'm1', config: next });
    expect((await post('/rule/get', { merchant_id: 'm1', algorithm: 'successRate' })).json().config.data).toEqual({ defaultBucketSize: 20 });
    const deleted = await post('/rule/delete', { merchant_id: 'm1', algorithm: 'successRate' });
    expect(deleted.json()).toEqual({ message: 'Success Rate Configuration deleted successfully', merchant_id: 'm1' });
    expect((await post('/rule/get', { merchant_id: 'm1', algorithm: 'successRate' })).statusCode).toBe(404);
  });

  it('refuses a second create, an update of nothing and a get or delete of nothing', async () => {
    await post('/rule/create', { merchant_id: 'm1', config: sr });
    const again = await post('/rule/create', { merchant_id: 'm1', config: sr });
    expect(again.statusCode).toBe(400);
    expect(again.json()).toEqual({ code: 'TE_04', message: 'Rule configuration already exists', data: null });
    const missing = await post('/rule/update', {
      merchant_id: 'm1',
      config: { type: 'debitRouting', data: { merchant_category_code: '5411', acquirer_country: 'US' } },
    });
    expect(missing.statusCode).toBe(404);
    expect(missing.json()).toEqual({ code: 'TE_04', message: 'Rule configuration not found', data: null });
    expect((await post('/rule/get', { merchant_id: 'm1', algorithm: 'elimination' })).statusCode).toBe(404);
    expect((await post('/rule/delete', { merchant_id: 'm1', algorithm: 'debitRouting' })).statusCode).toBe(404);
  });

  it('lets elimination create and update overwrite', async () => {
    const first = await post('/rule/create', { merchant_id: 'm1', config: { type: 'elimination', data: { threshold: 0.3 } } });
    expect(first.json().message).toBe('Elimination Configuration created successfully');
    const second = await post('/rule/create', { merchant_id: 'm1', config: { type: 'elimination', data: { threshold: 0.4 } } });
    expect(second.statusCode).toBe(200);
    const updated = await post('/rule/update', { merchant_id: 'm1', config: { type: 'elimination', data: { threshold: 0.5 } } });
    expect(updated.json().message).toBe('Elimination Configuration updated successfully');
    expect((await post('/rule/get', { merchant_id: 'm1', algorithm: 'elimination' })).json().config.data).toEqual({ threshold: 0.5 });
  });

  it('stores debit routing configs', async () => {
    const config = { type: 'debitRouting', data: { merchant_category_code: '5411', acquirer_country: 'US' } };
    expect((await post('/rule/create', { merchant_id: 'm1', config })).json().message).toBe('Debit Routing Configuration created successfully');
    expect((await post('/rule/get', { merchant_id: 'm1', algorithm: 'debitRouting' })).json().config).toEqual(config);
  });

  it('answers 404 MerchantId not found for an unknown merchant on every operation', async () => {
    const ghost = withKey(await createKeyFor(t.state, 'ghost'));
    for (const [url, payload] of [
      ['/rule/create', { merchant_id: 'ghost', config: sr }],
      ['/rule/update', { merchant_id: 'ghost', config: sr }],
      ['/rule/get', { merchant_id: 'ghost', algorithm: 'successRate' }],
      ['/rule/delete', { merchant_id: 'ghost', algorithm: 'successRate' }],
    ] as const) {
      const response = await post(url, payload, ghost);
      expect(response.statusCode).toBe(404);
      expect(response.json()).toEqual({ code: 'TE_04', message: 'MerchantId not found', data: null });
    }
  });

  it('answers 422 naming the problem for an unknown type or a bad value', async () => {
    const unknownType = await post('/rule/create', { merchant_id: 'm1', config: { type: 'SrBasedRouting', data: {} } });
    expect(unknownType.statusCode).toBe(422);
    const badBucket = await post('/rule/create', { merchant_id: 'm1', config: { type: 'successRate', data: { defaultBucketSize: -3 } } });
    expect(badBucket.statusCode).toBe(422);
    const badAlgorithm = await post('/rule/get', { merchant_id: 'm1', algorithm: 'volume' });
    expect(badAlgorithm.statusCode).toBe(422);
    expect(badAlgorithm.body).toContain('algorithm');
  });

  it('makes an update visible to the very next decision', async () => {
    await post('/rule/create', { merchant_id: 'm1', config: { type: 'successRate', data: { defaultBucketSize: 10, defaultHedgingPercent: 0 } } });
    // One failure on stripe with B=10 → 0.9.
    await t.app.inject({ method: 'POST', url: '/decide-gateway', headers, payload: decideBody('m1', 'p1') });
    await t.app.inject({
      method: 'POST',
      url: '/update-gateway-score',
      headers,
      payload: { merchantId: 'm1', gateway: 'stripe', paymentId: 'p1', status: 'FAILURE' },
    });
    await t.worker.caughtUp();
    const before = (await t.app.inject({ method: 'POST', url: '/decide-gateway', headers, payload: decideBody('m1', 'p2') })).json();
    expect(before.gateway_priority_map.stripe).toBeCloseTo(0.9, 10);
    await post('/rule/update', { merchant_id: 'm1', config: { type: 'successRate', data: { defaultBucketSize: 5, defaultHedgingPercent: 0 } } });
    const after = (await t.app.inject({ method: 'POST', url: '/decide-gateway', headers, payload: decideBody('m1', 'p3') })).json();
    // The same window read over the last 5 outcomes: one failure in five.
    expect(after.gateway_priority_map.stripe).toBeCloseTo(0.8, 10);
  });
});
