import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { EventEnvelope } from '../../src/events/event-envelope.js';
import { createMerchant, createTestApp, decideBody, withKey, type TestApp } from '../helpers/test-app.js';

/*
 * Fair feedback (issue 24): with the merchant's gsm-scoring-filter on, failures the gateway status
 * map puts on the issuer or customer leave the gateway's score and ranking alone; PSP-side failures
 * still lower it; with the filter off, every failure lowers it. All through the HTTP API.
 */

const issuerSide = { errorCode: 'insufficient_funds' } as const; // stripe, UE_1000 in the shipped map
const pspSide = { errorCode: 'processing_error' } as const; // stripe, UE_3000
const failures = 3;

describe('gsm scoring filter', () => {
  // One app for the file (each test has a merchant of its own): apps are slow to build on a busy machine.
  let t: TestApp;
  let headers: Record<string, string>;
  let merchant = '';
  let merchants = 0;
  let payments = 0;

  beforeAll(async () => {
    t = await createTestApp();
    await t.app.ready();
  }, 60_000);
  afterAll(async () => t?.close());

  beforeEach(async () => {
    merchant = `gsm-m${++merchants}`;
    headers = withKey((await createMerchant(t.app, merchant)).apiKey);
    const rule = await t.app.inject({
      method: 'POST',
      url: '/rule/create',
      headers,
      payload: { merchant_id: merchant, config: { type: 'successRate', data: { defaultBucketSize: 10, defaultHedgingPercent: 0 } } },
    });
    expect(rule.statusCode).toBe(200);
  });

  const setFilter = async (enabled: boolean) => {
    const response = await t.app.inject({ method: 'POST', url: `/merchant-account/${merchant}/features/gsm-scoring-filter`, headers, payload: { enabled } });
    expect(response.statusCode).toBe(200);
  };
  const decide = async () => {
    const response = await t.app.inject({ method: 'POST', url: '/decide-gateway', headers, payload: decideBody(merchant, `p${++payments}`) });
    expect(response.statusCode).toBe(200);
    return response.json() as { decided_gateway: string; gateway_priority_map: Record<string, number> };
  };
  /** Decides a payment, then reports it failed on stripe with the given PSP error; answers the feedback's body. */
  const failOnStripe = async (errorInfo: Record<string, unknown> | undefined, status = 'AUTHORIZATION_FAILED') => {
    await decide();
    const response = await t.app.inject({
      method: 'POST',
      url: '/update-gateway-score',
      headers,
      payload: { merchantId: merchant, gateway: 'stripe', paymentId: `p${payments}`, status, ...(errorInfo === undefined ? {} : { errorInfo }) },
    });
    expect(response.statusCode).toBe(200);
    return response.json() as Record<string, unknown>;
  };
  const failTimes = async (errorInfo: Record<string, unknown> | undefined) => {
    for (let i = 0; i < failures; i++) await failOnStripe(errorInfo);
    await t.worker.caughtUp();
  };

  it('leaves the score and ranking alone after issuer-side declines when the filter is on', async () => {
    await setFilter(true);
    const before = await decide();
    expect(before.gateway_priority_map.stripe).toBe(1);
    await failTimes(issuerSide);
    const after = await decide();
    expect(after.gateway_priority_map).toEqual(before.gateway_priority_map);
    expect(after.decided_gateway).toBe(before.decided_gateway);
  });

  it('lowers the score after PSP-side failures when the filter is on', async () => {
    await setFilter(true);
    await failTimes(pspSide);
    const after = await decide();
    expect(after.gateway_priority_map.stripe).toBeCloseTo(0.7, 10);
    expect(after.decided_gateway).toBe('adyen');
  });

  it('lowers the score after issuer-side declines and PSP-side failures alike when the filter is off', async () => {
    await failTimes(issuerSide);
    expect((await decide()).gateway_priority_map.stripe).toBeCloseTo(0.7, 10);
    await failTimes(pspSide);
    const after = await decide();
    expect(after.gateway_priority_map.stripe).toBeCloseTo(0.4, 10);
    expect(after.decided_gateway).toBe('adyen');
  });

  it('counts an unmapped error and an error-less failure against the gateway (the documented default)', async () => {
    await setFilter(true);
    await failOnStripe({ errorCode: 'no_such_code_anywhere' });
    await failOnStripe(undefined);
    await t.worker.caughtUp();
    expect((await decide()).gateway_priority_map.stripe).toBeCloseTo(0.8, 10);
  });

  it('excuses a step-up and issuer codes, and still rewards a success that carries an error', async () => {
    await setFilter(true);
    await failOnStripe({ cardNetwork: 'VISA', issuerErrorCode: '51', errorCode: 'card_declined' });
    await failOnStripe({ errorCode: 'insufficient_funds' }, 'FAILURE');
    await t.worker.caughtUp();
    expect((await decide()).gateway_priority_map.stripe).toBe(1);
    await failOnStripe(pspSide);
    await failOnStripe(issuerSide, 'CHARGED');
    await t.worker.caughtUp();
    // 10 seeded, one 0 pushed, one 1 pushed: 9 of the last 10.
    expect((await decide()).gateway_priority_map.stripe).toBeCloseTo(0.9, 10);
  });

  it('classifies with the merchant override rules and excused classes', async () => {
    await setFilter(true);
    const put = await t.app.inject({
      method: 'PUT',
      url: `/merchant-account/${merchant}/gsm-rules`,
      headers,
      payload: { rules: [{ connector: 'STRIPE', errorCode: 'processing_error', unifiedCode: 'UE_1000' }], excusedClasses: ['UE_1000', 'UE_4000'] },
    });
    expect(put.statusCode).toBe(200);
    const answer = await failOnStripe(pspSide);
    expect(answer.gsm_info).toMatchObject({ unifiedCode: 'UE_1000', ruleSource: 'merchant_rule' });
    await failOnStripe({ errorCode: 'my_integration_bug' });
    await t.worker.caughtUp();
    // The override excused the first; the unmapped second counts.
    expect((await decide()).gateway_priority_map.stripe).toBeCloseTo(0.9, 10);
  });

  it('answers gsm_info for a matched error only and records the class on the feedback event', async () => {
    await setFilter(true);
    const matched = await failOnStripe(issuerSide);
    expect(matched).toMatchObject({
      message: 'Gateway score updated successfully',
      gsm_info: { decision: 'do_default', unifiedCode: 'UE_1000', unifiedMessage: 'Issue with Payment Method details', stepUpPossible: false },
    });
    const unmapped = await failOnStripe({ errorCode: 'no_such_code_anywhere' });
    expect(unmapped).not.toHaveProperty('gsm_info');
    await t.eventsCaughtUp();
    const feedback = t.events.filter(
      (event): event is EventEnvelope<'feedback.received'> => event.type === 'feedback.received' && event.merchantId === merchant,
    );
    expect(feedback.map((event) => event.payload.gsm)).toEqual([
      {
        errorCode: 'insufficient_funds',
        errorMessage: null,
        unifiedCode: 'UE_1000',
        unifiedMessage: 'Issue with Payment Method details',
        stepUpPossible: false,
        ruleSource: 'default_map',
        gatewayFault: false,
        scoringFilter: true,
      },
      {
        errorCode: 'no_such_code_anywhere',
        errorMessage: null,
        unifiedCode: null,
        unifiedMessage: null,
        stepUpPossible: false,
        ruleSource: 'unmapped',
        gatewayFault: true,
        scoringFilter: true,
      },
    ]);
  });

  it('honours error_info on the legacy /update-score', async () => {
    await setFilter(true);
    for (const [index, errorInfo] of [issuerSide, pspSide].entries()) {
      await decide();
      const response = await t.app.inject({
        method: 'POST',
        url: '/update-score',
        headers,
        payload: {
          txn_detail: { merchantId: merchant, gateway: 'stripe', status: 'AUTHORIZATION_FAILED', txnUuid: `p${payments}` },
          txn_card_info: {},
          error_info: errorInfo,
        },
      });
      expect(response.statusCode, `legacy feedback ${index}`).toBe(200);
    }
    await t.worker.caughtUp();
    expect((await decide()).gateway_priority_map.stripe).toBeCloseTo(0.9, 10);
  });

  it('rejects a malformed errorInfo with the decider envelope', async () => {
    await decide();
    const response = await t.app.inject({
      method: 'POST',
      url: '/update-gateway-score',
      headers,
      payload: { merchantId: merchant, gateway: 'stripe', paymentId: `p${payments}`, status: 'FAILURE', errorInfo: { errorCode: 42 } },
    });
    expect(response.statusCode).toBe(400);
    expect(response.json()).toMatchObject({ error_message: 'Error parsing request', error_info: { code: 'INVALID_INPUT' } });
  });
});
