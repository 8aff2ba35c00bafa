import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { adminSecret, createKeyFor, createMerchant, createTestApp, decideBody, withKey, type TestApp } from '../helpers/test-app.js';

describe('merchant account routes', () => {
  let t: TestApp;
  beforeEach(async () => {
    t = await createTestApp();
  });
  afterEach(async () => t.close());

  it('creates a merchant with a default API key when the admin secret matches', async () => {
    const response = await t.app.inject({
      method: 'POST',
      url: '/merchant-account/create',
      headers: { 'x-admin-secret': adminSecret },
      payload: { merchant_id: 'm1' },
    });
    expect(response.statusCode).toBe(200);
    const body = response.json();
    expect(body).toMatchObject({ message: 'Merchant account created successfully', merchant_id: 'm1', gateway_success_rate_based_decider_input: null });
    expect(body.api_key).toMatch(/^DE_[0-9a-f]{64}$/);
    const keys = await t.state.apiKeys.listByMerchant('m1');
    expect(keys).toHaveLength(1);
    expect(keys[0]).toMatchObject({ description: 'Default API key', isActive: true, keyPrefix: body.api_key.slice(0, 11) });
    expect(JSON.stringify(keys)).not.toContain(body.api_key);
  });

  it('refuses a missing or wrong admin secret with the 1.4.x envelope', async () => {
    for (const headers of [{}, { 'x-admin-secret': 'wrong' }]) {
      const response = await t.app.inject({ method: 'POST', url: '/merchant-account/create', headers, payload: { merchant_id: 'm1' } });
      expect(response.statusCode).toBe(401);
      expect(response.json()).toEqual({ code: 'TE_04', message: 'Invalid or missing x-admin-secret header', data: null });
    }
  });

  it('refuses a duplicate merchant id', async () => {
    await createMerchant(t.app, 'm1');
    const response = await t.app.inject({
      method: 'POST',
      url: '/merchant-account/create',
      headers: { 'x-admin-secret': adminSecret },
      payload: { merchant_id: 'm1' },
    });
    expect(response.statusCode).toBe(400);
    expect(response.json()).toEqual({ code: 'TE_04', message: 'Merchant account already exists', data: null });
  });

  it('answers 422 naming the field when the body has the wrong shape', async () => {
    const response = await t.app.inject({
      method: 'POST',
      url: '/merchant-account/create',
      headers: { 'x-admin-secret': adminSecret },
      payload: { merchantId: 'm1' },
    });
    expect(response.statusCode).toBe(422);
    expect(response.body).toContain('Failed to deserialize the JSON body into the target type');
    expect(response.body).toContain('merchant_id');
  });

  it('answers 400 on malformed JSON and 415 on a non-JSON content type', async () => {
    const bad = await t.app.inject({
      method: 'POST',
      url: '/merchant-account/create',
      headers: { 'x-admin-secret': adminSecret, 'content-type': 'application/json' },
      payload: '{"merchant_id":',
    });
    expect(bad.statusCode).toBe(400);
    expect(bad.json()).toMatchObject({ code: 'TE_03', message: expect.stringContaining('Failed to parse the request body as JSON') });
    const text = await t.app.inject({
      method: 'POST',
      url: '/merchant-account/create',
      headers: { 'x-admin-secret': adminSecret, 'content-type': 'text/plain' },
      payload: 'merchant',
    });
    expect(text.statusCode).toBe(415);
    expect(text.json()).toEqual({ code: 'TE_03', message: 'Expected request with `Content-Type: application/json`', data: null });
  });

  it('reads a merchant, with "" as the decider input until an elimination config exists', async () => {
    const headers = withKey((await createMerchant(t.app, 'm1')).apiKey);
    expect((await t.app.inject({ method: 'GET', url: '/merchant-account/m1', headers })).json()).toEqual({
      merchant_id: 'm1',
      gateway_success_rate_based_decider_input: '',
    });
    await t.app.inject({
      method: 'POST',
      url: '/rule/create',
      headers,
      payload: { merchant_id: 'm1', config: { type: 'elimination', data: { threshold: 0.35, txnLatency: { gatewayLatency: 5000 } } } },
    });
    const input = JSON.parse((await t.app.inject({ method: 'GET', url: '/merchant-account/m1', headers })).json().gateway_success_rate_based_decider_input);
    expect(input).toMatchObject({ defaultEliminationThreshold: 0.35, defaultEliminationLevel: 'PAYMENT_METHOD', txnLatency: { gatewayLatency: 5000 } });
  });

  it('answers 404 for an unknown merchant', async () => {
    const response = await t.app.inject({ method: 'GET', url: '/merchant-account/ghost', headers: withKey(await createKeyFor(t.state, 'ghost')) });
    expect(response.statusCode).toBe(404);
    expect(response.json()).toEqual({ code: 'TE_04', message: 'MerchantId not found', data: null });
  });

  it('deletes a merchant so that the very next decision no longer finds it', async () => {
    const headers = withKey((await createMerchant(t.app, 'm1')).apiKey);
    expect((await t.app.inject({ method: 'POST', url: '/decide-gateway', headers, payload: decideBody('m1', 'p1') })).statusCode).toBe(200);
    const deleted = await t.app.inject({ method: 'DELETE', url: '/merchant-account/m1', headers });
    expect(deleted.json()).toEqual({ message: 'Merchant account deleted successfully', merchant_id: 'm1' });
    const decision = await t.app.inject({ method: 'POST', url: '/decide-gateway', headers, payload: decideBody('m1', 'p2') });
    expect(decision.statusCode).toBe(400);
    expect(decision.json().error_info.code).toBe('MERCHANT_NOT_FOUND');
    expect((await t.app.inject({ method: 'DELETE', url: '/merchant-account/m1', headers })).statusCode).toBe(404);
  });

  it('toggles debit routing and reads it back', async () => {
    const headers = withKey((await createMerchant(t.app, 'm1')).apiKey);
    expect((await t.app.inject({ method: 'GET', url: '/merchant-account/m1/debit-routing', headers })).json()).toEqual({
      merchant_id: 'm1',
      debit_routing_enabled: false,
    });
    const set = await t.app.inject({ method: 'POST', url: '/merchant-account/m1/debit-routing', headers, payload: { enabled: true } });
    expect(set.json()).toEqual({ merchant_id: 'm1', debit_routing_enabled: true });
    expect((await t.app.inject({ method: 'GET', url: '/merchant-account/m1/debit-routing', headers })).json().debit_routing_enabled).toBe(true);
    expect(
      (await t.app.inject({ method: 'GET', url: '/merchant-account/ghost/debit-routing', headers: withKey(await createKeyFor(t.state, 'ghost')) })).statusCode,
    ).toBe(404);
    expect((await t.app.inject({ method: 'POST', url: '/merchant-account/m1/debit-routing', headers, payload: { enabled: 'yes' } })).statusCode).toBe(422);
  });
});
