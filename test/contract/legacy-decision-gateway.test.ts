import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { legacyDecisionBody } from '../helpers/legacy-decision-body.js';
import { createMerchant, createTestApp, decideBody, withKey, type TestApp } from '../helpers/test-app.js';

const chainNames = [
  'getFunctionalGateways',
  'filterFunctionalGatewaysForCurrency',
  'filterFunctionalGateways',
  'filterFunctionalGatewaysForBrand',
  'filterFunctionalGatewaysForAuthType',
  'filterFunctionalGatewaysForEmi',
  'filterFunctionalGatewaysForPaymentMethod',
  'filterFunctionalGatewaysForWallet',
  'filterFunctionalGatewaysForUpi',
  'filterFunctionalGatewaysForTxnType',
];

interface LegacyAnswer {
  decided_gateway: {
    decided_gateway: string;
    gateway_priority_map: Record<string, number>;
    filter_wise_gateways: Record<string, string[]>;
    routing_approach: string;
    latency: number;
  };
  filter_list: [string, string[]][];
  latency: number;
}

describe('POST /decision_gateway with the legacy Euler body', () => {
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

  const configure = (capability: Record<string, unknown>, merchantId = 'm1', as = headers) =>
    t.app.inject({ method: 'POST', url: `/merchant-account/${merchantId}/gateways`, headers: as, payload: capability });
  const legacy = (body: Record<string, unknown>) => t.app.inject({ method: 'POST', url: '/decision_gateway', headers, payload: body });
  const decided = async (body: Record<string, unknown>): Promise<LegacyAnswer> => {
    const response = await legacy(body);
    expect(response.statusCode, response.body).toBe(200);
    return response.json() as LegacyAnswer;
  };
  const removedBy = (answer: { filter_wise_gateways: Record<string, string[]> | null }) =>
    Object.fromEntries(Object.entries(answer.filter_wise_gateways ?? {}).filter(([, gateways]) => gateways.length > 0));

  describe('the answer', () => {
    beforeEach(async () => {
      for (const gateway of ['stripe', 'paypal', 'adyen']) expect((await configure({ gateway })).statusCode).toBe(200);
    });

    it('answers the postman example with {decided_gateway, filter_list, latency}', async () => {
      const answer = await decided(legacyDecisionBody('m1', 'pay_001'));
      expect(Object.keys(answer).sort()).toEqual(['decided_gateway', 'filter_list', 'latency']);
      expect(answer.filter_list.map(([name]) => name)).toEqual(chainNames);
      for (const [, gateways] of answer.filter_list) expect(gateways).toEqual(['stripe', 'paypal', 'adyen']);
      expect(answer.decided_gateway).toMatchObject({
        decided_gateway: 'stripe',
        fallback_gateways: ['paypal', 'adyen'],
        gateway_priority_map: { stripe: 1, paypal: 1, adyen: 1 },
        routing_approach: 'SR_SELECTION_V3_ROUTING',
        routing_dimension: 'ORDER_PAYMENT, CARD, CREDIT, CREDIT',
        is_rust_based_decider: true,
      });
      expect(Object.keys(answer.decided_gateway.filter_wise_gateways)).toEqual(chainNames);
      expect(removedBy(answer.decided_gateway)).toEqual({});
      expect(Number.isInteger(answer.latency) && answer.latency >= 0).toBe(true);
    });

    it('narrows to enforceGatewayList in its order, and scores every configured gateway without it', async () => {
      const enforced = await decided(legacyDecisionBody('m1', 'p1', {}, { enforceGatewayList: ['adyen', 'unknown', 'stripe', 'adyen'] }));
      expect(enforced.filter_list[0]).toEqual(['getFunctionalGateways', ['adyen', 'stripe']]);
      expect(enforced.decided_gateway.filter_wise_gateways['getFunctionalGateways']).toEqual(['unknown']);
      expect(enforced.decided_gateway.decided_gateway).toBe('adyen');
      const open = await decided(legacyDecisionBody('m1', 'p2', {}, { enforceGatewayList: null }));
      expect(open.filter_list[0]).toEqual(['getFunctionalGateways', ['stripe', 'paypal', 'adyen']]);
    });

    it('scores the survivors with the SR windows that feedback on the legacy payment moves', async () => {
      await decided(legacyDecisionBody('m1', 'p1'));
      const feedback = await t.app.inject({
        method: 'POST',
        url: '/update-gateway-score',
        headers,
        payload: { merchantId: 'm1', gateway: 'stripe', paymentId: 'p1', status: 'FAILURE' },
      });
      expect(feedback.statusCode).toBe(200);
      await t.worker.caughtUp();
      const next = await decided(legacyDecisionBody('m1', 'p2'));
      expect(next.decided_gateway.gateway_priority_map).toEqual({ stripe: 0.9, paypal: 1, adyen: 1 });
      expect(next.decided_gateway.decided_gateway).toBe('paypal');
      // The /decide-gateway path reads the same windows.
      const decide = await t.app.inject({
        method: 'POST',
        url: '/decide-gateway',
        headers,
        payload: decideBody('m1', 'p3', { eligibleGatewayList: ['stripe', 'adyen'] }),
      });
      expect(decide.json().gateway_priority_map).toEqual({ stripe: 0.9, adyen: 1 });
    });

    it('reads udfs in Euler object form for the configured SR dimensions', async () => {
      await t.app.inject({
        method: 'POST',
        url: '/config-sr-dimension',
        headers,
        payload: { merchant_id: 'm1', paymentInfo: { udfs: [1], fields: ['currency'] } },
      });
      await decided(legacyDecisionBody('m1', 'p1', { orderReference: { udfs: { udf1: 'a', udf2: 'web' } } }));
      await t.worker.caughtUp();
      const created = t.events.filter((event) => event.type === 'decision.created').at(-1);
      expect(created?.payload).toMatchObject({ paymentId: 'p1', windowDimension: 'gw_sr_v3_score_m1_ORDER_PAYMENT_CARD_CREDIT_USD_web' });
    });

    it('still answers the /decide-gateway body as /decide-gateway does', async () => {
      const response = await legacy(decideBody('m1', 'p1'));
      expect(response.statusCode).toBe(200);
      expect(response.json()).toMatchObject({ decided_gateway: 'stripe', routing_approach: 'SR_SELECTION_V3_ROUTING', filter_wise_gateways: null });
      expect(response.json().filter_list).toBeUndefined();
    });
  });

  describe('the filter chain against the configured capabilities', () => {
    it('removes gateways by currency, switch, brand, auth type and transaction type, and says which filter did', async () => {
      await configure({ gateway: 'stripe', currencies: ['USD', 'EUR'], card_brands: ['visa', 'MASTERCARD'], auth_types: ['THREE_DS'] });
      await configure({ gateway: 'paypal', currencies: ['EUR'] });
      await configure({ gateway: 'adyen', enabled: false });
      await configure({ gateway: 'checkout', card_brands: ['AMEX'] });
      await configure({ gateway: 'braintree', auth_types: ['NO_THREE_DS'] });
      await configure({ gateway: 'worldpay', txn_object_types: ['MANDATE_REGISTER'] });
      await configure({ gateway: 'razorpay', payment_method_types: ['UPI', 'card'] });
      const answer = await decided(legacyDecisionBody('m1', 'p1', {}, { enforceGatewayList: [] }));
      expect(removedBy(answer.decided_gateway)).toEqual({
        filterFunctionalGatewaysForCurrency: ['paypal'],
        filterFunctionalGateways: ['adyen'],
        filterFunctionalGatewaysForBrand: ['checkout'],
        filterFunctionalGatewaysForAuthType: ['braintree'],
        filterFunctionalGatewaysForTxnType: ['worldpay'],
      });
      expect(answer.filter_list.at(-1)).toEqual(['filterFunctionalGatewaysForTxnType', ['stripe', 'razorpay']]);
      expect(Object.keys(answer.decided_gateway.gateway_priority_map)).toEqual(['stripe', 'razorpay']);
    });

    it('keeps only EMI gateways for an EMI payment, matching bank and tenure', async () => {
      await configure({ gateway: 'stripe' });
      await configure({ gateway: 'paypal', emi: { supported: true, banks: ['HDFC'], tenures: [3, 6] } });
      await configure({ gateway: 'adyen', emi: { supported: true, banks: null, tenures: [12] } });
      await configure({ gateway: 'checkout', emi: { supported: false } });
      const emi = await decided(legacyDecisionBody('m1', 'p1', { txnDetail: { isEmi: true, emiBank: 'hdfc', emiTenure: 6 } }, { enforceGatewayList: null }));
      expect(emi.filter_list.find(([name]) => name === 'filterFunctionalGatewaysForEmi')).toEqual(['filterFunctionalGatewaysForEmi', ['paypal']]);
      expect(emi.decided_gateway.decided_gateway).toBe('paypal');
      const plain = await decided(legacyDecisionBody('m1', 'p2', {}, { enforceGatewayList: null }));
      expect(plain.filter_list.at(-1)?.[1]).toEqual(['stripe', 'paypal', 'adyen', 'checkout']);
    });

    it('matches wallets and UPI flows by the payment method', async () => {
      await configure({ gateway: 'paytm', payment_method_types: ['WALLET', 'UPI'], wallets: ['PAYTM'], upi_flows: ['UPI_COLLECT'] });
      await configure({ gateway: 'phonepe', payment_method_types: ['WALLET', 'UPI'], wallets: ['PHONEPE'], upi_flows: ['UPI_PAY', 'UPI_COLLECT'] });
      await configure({ gateway: 'stripe', payment_method_types: ['CARD'] });
      const wallet = await decided(
        legacyDecisionBody(
          'm1',
          'p1',
          { txnCardInfo: { paymentMethodType: 'WALLET', paymentMethod: 'paytm', authType: null, cardSwitchProvider: null, cardType: null } },
          { enforceGatewayList: null },
        ),
      );
      expect(removedBy(wallet.decided_gateway)).toEqual({
        filterFunctionalGatewaysForPaymentMethod: ['stripe'],
        filterFunctionalGatewaysForWallet: ['phonepe'],
      });
      expect(wallet.decided_gateway.decided_gateway).toBe('paytm');
      // No paymentMethod: txnDetail.sourceObject stands in.
      const upi = await decided(
        legacyDecisionBody(
          'm1',
          'p2',
          {
            txnDetail: { sourceObject: 'UPI_PAY' },
            txnCardInfo: { paymentMethodType: 'upi', paymentMethod: null, authType: null, cardSwitchProvider: null, cardType: null },
          },
          { enforceGatewayList: null },
        ),
      );
      expect(removedBy(upi.decided_gateway)).toEqual({ filterFunctionalGatewaysForPaymentMethod: ['stripe'], filterFunctionalGatewaysForUpi: ['paytm'] });
      expect(upi.decided_gateway.routing_approach).toBe('DEFAULT');
      expect(upi.decided_gateway.decided_gateway).toBe('phonepe');
    });
  });

  describe('errors', () => {
    it('answers GATEWAY_NOT_FOUND with filter_wise_gateways when the chain leaves nothing', async () => {
      await configure({ gateway: 'stripe', currencies: ['EUR'] });
      await configure({ gateway: 'paypal', card_brands: ['AMEX'] });
      const response = await legacy(legacyDecisionBody('m1', 'p1'));
      expect(response.statusCode).toBe(400);
      expect(response.json()).toMatchObject({
        status: 'Invalid Request',
        error_code: 'invalid_request_error',
        error_message: "Can't find a suitable gateway to process the transaction",
        routing_approach: 'NONE',
        error_info: { code: 'GATEWAY_NOT_FOUND' },
      });
      expect(removedBy(response.json())).toEqual({
        getFunctionalGateways: ['adyen'],
        filterFunctionalGatewaysForCurrency: ['stripe'],
        filterFunctionalGatewaysForBrand: ['paypal'],
      });
      await t.worker.caughtUp();
      expect(t.events.find((event) => event.type === 'decision.failed')?.payload).toMatchObject({ paymentId: 'p1', errorCode: 'gateway_not_found' });
    });

    it('answers GATEWAY_NOT_FOUND for a merchant without configured gateways', async () => {
      const response = await legacy(legacyDecisionBody('m1', 'p1'));
      expect(response.statusCode).toBe(400);
      expect(response.json().error_info.code).toBe('GATEWAY_NOT_FOUND');
      expect(response.json().filter_wise_gateways.getFunctionalGateways).toEqual(['stripe', 'paypal', 'adyen']);
    });

    it('answers a body that does not parse with "Error parsing request payload"', async () => {
      const missing = legacyDecisionBody('m1', 'p1');
      delete (missing['txnDetail'] as Record<string, unknown>)['txnUuid'];
      for (const response of [
        await legacy(missing),
        await legacy(legacyDecisionBody('m1', 'p1', { txnCardInfo: { authType: 'SOMETIMES' } })),
        await legacy({ txnDetail: { txnUuid: 'p1' } }),
        await t.app.inject({
          method: 'POST',
          url: '/decision_gateway',
          headers: { ...headers, 'content-type': 'application/json' },
          payload: '{"orderReference":',
        }),
      ]) {
        expect(response.statusCode).toBe(400);
        expect(response.json()).toMatchObject({
          status: '400',
          error_code: '400',
          error_message: 'Error parsing request payload',
          error_info: { code: 'INVALID_INPUT', user_message: 'Invalid request params. Please verify your input.' },
        });
      }
      const described = (await legacy(missing)).json().error_info.developer_message as string;
      expect(described).toContain('txnUuid');
      expect(described).not.toContain('then');
    });

    it('refuses a body naming another merchant anywhere, and answers an unknown merchant with MERCHANT_NOT_FOUND', async () => {
      await createMerchant(t.app, 'm2');
      const elsewhere = await legacy(legacyDecisionBody('m1', 'p1', { txnDetail: { merchantId: 'm2' } }));
      expect(elsewhere.statusCode).toBe(403);
      expect(elsewhere.body).toBe("Forbidden: this credential is for merchant 'm1', not 'm2'");
      const other = await legacy(legacyDecisionBody('m2', 'p1'));
      expect(other.statusCode).toBe(403);
      await t.app.inject({ method: 'DELETE', url: '/merchant-account/m1', headers });
      const gone = await legacy(legacyDecisionBody('m1', 'p1'));
      expect(gone.statusCode).toBe(400);
      expect(gone.json().error_info.code).toBe('MERCHANT_NOT_FOUND');
      expect(gone.json().filter_wise_gateways).toBeNull();
    });
  });
});

describe('/merchant-account/{merchant_id}/gateways', () => {
  let t: TestApp;
  let headers: Record<string, string>;
  beforeEach(async () => {
    t = await createTestApp();
    headers = withKey((await createMerchant(t.app, 'm1')).apiKey);
  });
  afterEach(async () => t.close());

  const url = '/merchant-account/m1/gateways';

  it('upserts by gateway name, lists in first-configured order and deletes', async () => {
    expect((await t.app.inject({ method: 'GET', url, headers })).json()).toEqual({ merchant_id: 'm1', gateways: [] });
    await t.app.inject({ method: 'POST', url, headers, payload: { gateway: 'stripe', currencies: ['USD'] } });
    const second = await t.app.inject({ method: 'POST', url, headers, payload: { gateway: 'adyen', emi: { supported: true } } });
    expect(second.statusCode).toBe(200);
    expect(second.json()).toEqual({
      merchant_id: 'm1',
      gateways: [
        { gateway: 'stripe', enabled: true, currencies: ['USD'] },
        { gateway: 'adyen', enabled: true, emi: { supported: true } },
      ],
    });
    await t.app.inject({ method: 'POST', url, headers, payload: { gateway: 'stripe', enabled: false } });
    expect((await t.app.inject({ method: 'GET', url, headers })).json().gateways).toEqual([
      { gateway: 'stripe', enabled: false },
      { gateway: 'adyen', enabled: true, emi: { supported: true } },
    ]);
    const deleted = await t.app.inject({ method: 'DELETE', url: `${url}/stripe`, headers });
    expect(deleted.statusCode).toBe(200);
    expect(deleted.json()).toEqual({ message: 'Gateway configuration deleted successfully', merchant_id: 'm1', gateway: 'stripe' });
    const again = await t.app.inject({ method: 'DELETE', url: `${url}/stripe`, headers });
    expect(again.statusCode).toBe(404);
    expect(again.json()).toEqual({ code: 'TE_04', message: 'Gateway configuration not found', data: null });
    await t.app.inject({ method: 'DELETE', url: `${url}/adyen`, headers });
    expect((await t.app.inject({ method: 'GET', url, headers })).json().gateways).toEqual([]);
  });

  it('validates the capabilities', async () => {
    for (const payload of [
      {},
      { gateway: '' },
      { gateway: 'a b' },
      { gateway: 'stripe', currencies: ['usd'] },
      { gateway: 'stripe', auth_types: ['SOMETIMES'] },
      { gateway: 'stripe', currency: ['USD'] },
      { gateway: 'stripe', emi: { banks: [] } },
    ]) {
      const response = await t.app.inject({ method: 'POST', url, headers, payload });
      expect(response.statusCode, JSON.stringify(payload)).toBe(422);
      expect(response.body).toMatch(/^Failed to deserialize the JSON body into the target type: /);
    }
  });

  it('answers 404 for an unknown merchant and 403 for another merchant', async () => {
    await t.app.inject({ method: 'DELETE', url: '/merchant-account/m1', headers });
    for (const request of [
      { method: 'GET' as const, url },
      { method: 'POST' as const, url, payload: { gateway: 'stripe' } },
      { method: 'DELETE' as const, url: `${url}/stripe` },
    ]) {
      const response = await t.app.inject({ ...request, headers });
      expect(response.statusCode).toBe(404);
      expect(response.json()).toEqual({ code: 'TE_04', message: 'MerchantId not found', data: null });
    }
    const other = withKey((await createMerchant(t.app, 'm2')).apiKey);
    expect((await t.app.inject({ method: 'GET', url: '/merchant-account/m2/gateways', headers })).statusCode).toBe(403);
    expect((await t.app.inject({ method: 'GET', url: '/merchant-account/m2/gateways', headers: other })).statusCode).toBe(200);
  });
});
