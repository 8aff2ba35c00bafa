import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createSequenceRandom } from '../../src/decision/random-source.js';
import { createKeyFor, createMerchant, createTestApp, decideBody, withKey, type TestApp } from '../helpers/test-app.js';

const coBadged = (overrides: Record<string, unknown> = {}) =>
  JSON.stringify({
    merchant_category_code: 'merchant_category_code_0001',
    acquirer_country: 'US',
    co_badged_card_data: {
      co_badged_card_networks: ['VISA', 'NYCE', 'PULSE', 'STAR'],
      issuer_country: 'US',
      is_regulated: false,
      regulated_name: null,
      card_type: 'debit',
      ...overrides,
    },
  });

describe('POST /decide-gateway', () => {
  let t: TestApp;
  let apiKey: string;
  beforeEach(async () => {
    t = await createTestApp();
    ({ apiKey } = await createMerchant(t.app, 'm1'));
  });
  afterEach(async () => t.close());

  const decide = (payload: unknown, url = '/decide-gateway', key = apiKey) =>
    t.app.inject({ method: 'POST', url, headers: withKey(key), payload: payload as Record<string, unknown> });

  it('answers an SR decision with every 1.4.x response key', async () => {
    const response = await decide(decideBody('m1', 'p1'));
    expect(response.statusCode).toBe(200);
    const body = response.json();
    expect(Object.keys(body).sort()).toEqual([
      'debit_routing_output',
      'decided_gateway',
      'fallback_gateways',
      'filter_wise_gateways',
      'gateway_before_evaluation',
      'gateway_mga_id_map',
      'gateway_priority_map',
      'is_dynamic_mga_enabled',
      'is_rust_based_decider',
      'is_scheduled_outage',
      'latency',
      'multi_objective_info',
      'priority_logic_output',
      'priority_logic_tag',
      'reset_approach',
      'routing_approach',
      'routing_dimension',
      'routing_dimension_level',
    ]);
    expect(body).toMatchObject({
      decided_gateway: 'stripe',
      fallback_gateways: ['adyen'],
      gateway_priority_map: { stripe: 1, adyen: 1 },
      routing_approach: 'SR_SELECTION_V3_ROUTING',
      reset_approach: 'NO_RESET',
      routing_dimension: 'ORDER_PAYMENT, CARD, CREDIT, CREDIT',
      routing_dimension_level: 'CARD_LEVEL',
      is_scheduled_outage: false,
      is_rust_based_decider: true,
    });
    expect(Number.isInteger(body.latency)).toBe(true);
  });

  it('answers the same on the compatibility route /decision_gateway', async () => {
    const response = await decide(decideBody('m1', 'p1'), '/decision_gateway');
    expect(response.statusCode).toBe(200);
    expect(response.json()).toMatchObject({ decided_gateway: 'stripe', routing_approach: 'SR_SELECTION_V3_ROUTING' });
  });

  it('answers DEFAULT for a single gateway and PRIORITY_LOGIC without an algorithm', async () => {
    expect((await decide(decideBody('m1', 'p1', { eligibleGatewayList: ['adyen'] }))).json()).toMatchObject({
      decided_gateway: 'adyen',
      routing_approach: 'DEFAULT',
    });
    const pl = (await decide(decideBody('m1', 'p2', { rankingAlgorithm: undefined }))).json();
    expect(pl.routing_approach).toBe('PRIORITY_LOGIC');
    expect(pl.gateway_priority_map).toEqual({ stripe: 1, adyen: 1 });
  });

  it('hedges when the injected random draw falls under the hedging percent', async () => {
    await t.close();
    t = await createTestApp({ random: createSequenceRandom([0.01]) });
    ({ apiKey } = await createMerchant(t.app, 'm1'));
    const body = (await decide(decideBody('m1', 'p1'))).json();
    expect(body.routing_approach).toBe('SR_V3_HEDGING');
    expect(body.gateway_priority_map).toEqual({ stripe: 0.5, adyen: 1 });
    expect(body.decided_gateway).toBe('adyen');
  });

  it('publishes a versioned decision event', async () => {
    await decide(decideBody('m1', 'p1'));
    await t.worker.caughtUp();
    const event = t.events.find((e) => e.type === 'decision.created');
    expect(event).toMatchObject({ type: 'decision.created', version: 1, merchantId: 'm1', payload: { paymentId: 'p1', gateway: 'stripe' } });
    expect(event?.id).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-7/);
  });

  describe('bad input answers 400 with the decider envelope naming the problem', () => {
    it('when a required field is missing', async () => {
      const body = decideBody('m1', 'p1');
      delete (body['paymentInfo'] as Record<string, unknown>)['paymentId'];
      const response = await decide(body);
      expect(response.statusCode).toBe(400);
      expect(response.json()).toMatchObject({
        status: '400',
        error_code: '400',
        error_message: 'Error parsing request',
        error_info: { code: 'INVALID_INPUT', user_message: 'Invalid request params. Please verify your input.' },
        priority_logic_tag: null,
        routing_approach: null,
        filter_wise_gateways: null,
        priority_logic_output: null,
        is_dynamic_mga_enabled: false,
      });
      expect(response.json().error_info.developer_message).toContain('paymentId');
    });

    it('when the ranking algorithm is unknown', async () => {
      const response = await decide(decideBody('m1', 'p1', { rankingAlgorithm: 'SrBasedRouting' }));
      expect(response.statusCode).toBe(400);
      expect(response.json().error_info).toMatchObject({ code: 'INVALID_INPUT' });
      expect(response.json().error_info.developer_message).toContain('rankingAlgorithm');
    });

    it('when the body is not JSON, whatever the content type', async () => {
      const response = await t.app.inject({
        method: 'POST',
        url: '/decide-gateway',
        headers: { 'content-type': 'text/plain', ...withKey(apiKey) },
        payload: '{"merchantId":',
      });
      expect(response.statusCode).toBe(400);
      expect(response.json().error_info.code).toBe('INVALID_INPUT');
    });

    it('when the gateway list is empty', async () => {
      const response = await decide(decideBody('m1', 'p1', { eligibleGatewayList: [] }));
      expect(response.statusCode).toBe(400);
      expect(response.json()).toMatchObject({
        status: 'Invalid Request',
        error_code: 'invalid_request_error',
        error_message: "Can't find a suitable gateway to process the transaction",
        routing_approach: 'NONE',
        error_info: { code: 'GATEWAY_NOT_FOUND' },
      });
    });

    it('when the merchant is unknown', async () => {
      const response = await decide(decideBody('ghost', 'p1'), '/decide-gateway', await createKeyFor(t.state, 'ghost'));
      expect(response.statusCode).toBe(400);
      expect(response.json()).toMatchObject({
        status: 'Invalid Request',
        error_code: 'invalid_request_error',
        error_message: 'Merchant not found',
        error_info: { code: 'MERCHANT_NOT_FOUND', user_message: 'Merchant not found' },
      });
    });

    it('when debit routing is not enabled for network routing', async () => {
      const response = await decide(decideBody('m1', 'p1', { rankingAlgorithm: 'NTW_BASED_ROUTING' }));
      expect(response.statusCode).toBe(400);
      expect(response.json()).toMatchObject({
        status: 'Forbidden',
        error_code: 'debit_routing_not_enabled',
        error_message: 'Debit routing is not enabled for merchant: m1',
        error_info: { code: 'TE_05' },
      });
    });

    it('when the metadata is malformed', async () => {
      await t.app.inject({ method: 'POST', url: '/merchant-account/m1/debit-routing', headers: withKey(apiKey), payload: { enabled: true } });
      for (const metadata of [
        '{not json',
        JSON.stringify({ merchant_category_code: 'merchant_category_code_0001', acquirer_country: 'US' }),
        coBadged({ co_badged_card_networks: ['AMEX', 'DINERS'] }),
      ]) {
        const body = decideBody('m1', 'p1', { rankingAlgorithm: 'NTW_BASED_ROUTING' });
        (body['paymentInfo'] as Record<string, unknown>)['metadata'] = metadata;
        const response = await decide(body);
        expect(response.statusCode).toBe(400);
        expect(response.json()).toMatchObject({ error_message: "Can't find the co-badged card network", error_info: { code: 'CO_BADGED_NETWORK_NOT_FOUND' } });
        expect(response.json().error_info.developer_message.length).toBeGreaterThan(10);
      }
    });
  });

  describe('network routing', () => {
    beforeEach(async () => {
      await t.app.inject({ method: 'POST', url: '/merchant-account/m1/debit-routing', headers: withKey(apiKey), payload: { enabled: true } });
    });

    it('ranks co-badged networks by fee with the reference numbers', async () => {
      const body = decideBody('m1', 'p1', { rankingAlgorithm: 'NTW_BASED_ROUTING' });
      Object.assign(body['paymentInfo'] as Record<string, unknown>, { amount: 1000, metadata: coBadged() });
      const response = await decide(body);
      expect(response.statusCode).toBe(200);
      expect(response.json()).toMatchObject({
        decided_gateway: 'stripe',
        routing_approach: 'NTW_BASED_ROUTING',
        gateway_priority_map: null,
        latency: null,
        debit_routing_output: {
          co_badged_card_networks_info: [
            { network: 'STAR', saving_percentage: 0.11 },
            { network: 'VISA', saving_percentage: 0 },
            { network: 'PULSE', saving_percentage: 0 },
            { network: 'NYCE', saving_percentage: 0 },
          ],
          issuer_country: 'US',
          is_regulated: false,
          regulated_name: null,
          card_type: 'debit',
        },
      });
    });

    it('combines SR scoring with the network ranking in hybrid mode', async () => {
      const body = decideBody('m1', 'p1', { rankingAlgorithm: 'NTW_SR_HYBRID_ROUTING' });
      Object.assign(body['paymentInfo'] as Record<string, unknown>, {
        amount: 100,
        metadata: coBadged({ is_regulated: true, regulated_name: 'GOVERNMENT NON-EXEMPT INTERCHANGE FEE (WITH FRAUD)' }),
      });
      const json = (await decide(body)).json();
      expect(json.routing_approach).toBe('SR_SELECTION_V3_ROUTING');
      expect(json.debit_routing_output.co_badged_card_networks_info).toEqual([
        { network: 'NYCE', saving_percentage: 0.54 },
        { network: 'STAR', saving_percentage: 0.54 },
        { network: 'VISA', saving_percentage: 0 },
        { network: 'PULSE', saving_percentage: 0 },
      ]);
    });

    it('keeps the SR decision with a null debit output when hybrid metadata is unusable', async () => {
      const body = decideBody('m1', 'p1', { rankingAlgorithm: 'NTW_SR_HYBRID_ROUTING' });
      (body['paymentInfo'] as Record<string, unknown>)['metadata'] = 'nope';
      const json = (await decide(body)).json();
      expect(json.routing_approach).toBe('SR_SELECTION_V3_ROUTING');
      expect(json.debit_routing_output).toBeNull();
    });
  });
});
