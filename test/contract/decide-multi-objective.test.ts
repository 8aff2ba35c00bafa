import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { createSequenceRandom } from '../../src/decision/random-source.js';
import { createMerchant, createTestApp, decideBody, withKey, type TestApp } from '../helpers/test-app.js';

/*
 * The cost-aware post-step on /decide-gateway. Without feedback both gateways score 1.0, the SR head
 * is the first eligible one, and the default seed table prices a 100 USD Visa credit card at 320 bps
 * on stripe (2.9 % + 0.30) and 218 bps on adyen (1.94 % + 0.24).
 */
describe('POST /decide-gateway with multi-objective routing', () => {
  let t: TestApp;
  let headers: Record<string, string>;
  let merchantId: string;
  let merchants = 0;
  // Building the app is slow on a loaded machine: more than the default hook timeout.
  beforeAll(async () => {
    t = await createTestApp();
  }, 60_000);
  afterAll(async () => t.close());
  beforeEach(async () => {
    merchants += 1;
    merchantId = `mo${merchants}`;
    headers = withKey((await createMerchant(t.app, merchantId)).apiKey);
  }, 60_000);

  const decide = async (paymentId: string, overrides: Record<string, unknown> = {}) => {
    const response = await t.app.inject({ method: 'POST', url: '/decide-gateway', headers, payload: decideBody(merchantId, paymentId, overrides) });
    expect(response.statusCode).toBe(200);
    return response.json();
  };
  /** The decision.created payload of one payment, once the recorder has caught up. */
  const createdPayload = async (paymentId: string): Promise<Record<string, unknown>> => {
    await t.eventsCaughtUp();
    const event = t.events.find((e) => e.type === 'decision.created' && (e.payload as { paymentId: string }).paymentId === paymentId);
    if (event === undefined) throw new Error(`no decision.created for ${paymentId}`);
    return event.payload as unknown as Record<string, unknown>;
  };
  const setFlag = (enabled: boolean) =>
    t.app.inject({ method: 'POST', url: `/merchant-account/${merchantId}/features/multi-objective-routing`, headers, payload: { enabled } });

  it('leaves the decision alone (multi_objective_info null) while switched off', async () => {
    const body = await decide('p-off');
    expect(body).toMatchObject({ decided_gateway: 'stripe', routing_approach: 'SR_SELECTION_V3_ROUTING', multi_objective_info: null });
  });

  it('promotes the cheaper gateway on a strictly higher expected value (COST_WON) when the request asks for it', async () => {
    const body = await decide('p-cost', { enableMultiObjective: true });
    expect(body).toMatchObject({
      decided_gateway: 'adyen',
      fallback_gateways: ['stripe'],
      gateway_priority_map: { stripe: 1, adyen: 1 },
      routing_approach: 'SR_SELECTION_MULTI_OBJECTIVE',
      gateway_before_evaluation: 'stripe',
    });
    const info = body.multi_objective_info;
    expect(info).toMatchObject({
      outcome: 'COST_WON',
      srHead: { psp: 'stripe', authRate: 1 },
      chosen: { psp: 'adyen', authRate: 1 },
      qualifiedCount: 2,
      margin: 1,
    });
    expect(info.srHead.costBps).toBeCloseTo(320, 9);
    expect(info.chosen.costBps).toBeCloseTo(218, 9);
    expect(info.costSavedBps).toBeCloseTo(102, 9);
    expect(info.evGapTop2).toBeCloseTo(0.0102, 12);
    expect(info.reason).toBe("Promoted 'adyen' over 'stripe' on expected value — saves 102.00 bps for 0.00pp auth.");

    const payload = await createdPayload('p-cost');
    expect(payload['gateway']).toBe('adyen');
    const mark = payload['multiObjective'] as Record<string, number | string>;
    expect(mark).toMatchObject({ outcome: 'COST_WON', srHead: 'stripe', chosen: 'adyen' });
    expect(mark['costSavedBps']).toBeCloseTo(102, 9);
    expect(mark['savedValue']).toBeCloseTo(1.02, 9);
    // Both scores at 1: no approval is expected to be lost, so the net saving is the whole saving.
    expect(mark['netValue']).toBeCloseTo(1.02, 9);
    expect(mark['approvalsLost']).toBe(0);
  });

  it('keeps the SR head (AUTH_WON) when it already has the highest expected value, with the margin of the SR config', async () => {
    await setFlag(true);
    const created = await t.app.inject({
      method: 'POST',
      url: '/rule/create',
      headers,
      payload: { merchant_id: merchantId, config: { type: 'successRate', data: { defaultBucketSize: 20, margin: 0.2 } } },
    });
    expect(created.statusCode).toBe(200);
    const body = await decide('p-auth', { eligibleGatewayList: ['adyen', 'stripe'] });
    expect(body).toMatchObject({ decided_gateway: 'adyen', fallback_gateways: ['stripe'], routing_approach: 'SR_SELECTION_V3_ROUTING' });
    expect(body.multi_objective_info).toMatchObject({
      outcome: 'AUTH_WON',
      reason: 'SR head retained — it is the highest expected-value PSP (2 ranked on EV).',
      costSavedBps: null,
      qualifiedCount: 2,
      margin: 0.2,
    });
    expect(body.multi_objective_info.chosen).toEqual(body.multi_objective_info.srHead);
    expect((await createdPayload('p-auth'))['multiObjective']).toMatchObject({
      outcome: 'AUTH_WON',
      costSavedBps: null,
      savedValue: 0,
      netValue: 0,
      approvalsLost: 0,
    });
  });

  it('keeps the SR order when the head has no fee data, and never promotes a gateway without it', async () => {
    await setFlag(true);
    const body = await decide('p-nofee', { eligibleGatewayList: ['worldpay', 'stripe', 'adyen'] });
    expect(body).toMatchObject({ decided_gateway: 'worldpay', fallback_gateways: ['stripe', 'adyen'], routing_approach: 'SR_SELECTION_V3_ROUTING' });
    expect(body.multi_objective_info).toMatchObject({ outcome: 'AUTH_WON', qualifiedCount: 0, evGapTop2: null, srHead: { psp: 'worldpay', costBps: null } });
    const tail = await decide('p-nofee-tail', { eligibleGatewayList: ['stripe', 'worldpay', 'adyen'] });
    // adyen wins on cost; worldpay, without fee data, follows the priced gateways.
    expect(tail).toMatchObject({ decided_gateway: 'adyen', fallback_gateways: ['stripe', 'worldpay'] });
  });

  it('lets enableMultiObjective: false switch the merchant flag off for one request', async () => {
    await setFlag(true);
    const body = await decide('p-forced-off', { enableMultiObjective: false });
    expect(body).toMatchObject({ decided_gateway: 'stripe', multi_objective_info: null });
    expect(await createdPayload('p-forced-off')).not.toHaveProperty('multiObjective');
  });

  it('prices with the merchant seed table once it saves one', async () => {
    const saved = await t.app.inject({
      method: 'PUT',
      url: `/merchant-account/${merchantId}/seed-costs`,
      headers,
      payload: {
        rows: [
          { psp: 'stripe', interchange_bps: 100, scheme_bps: 0, markup_bps: 0, fixed: 0, is_default: true },
          { psp: 'adyen', interchange_bps: 150, scheme_bps: 0, markup_bps: 0, fixed: 0, is_default: true },
        ],
      },
    });
    expect(saved.statusCode).toBe(200);
    const body = await decide('p-own-table', { enableMultiObjective: true });
    expect(body).toMatchObject({ decided_gateway: 'stripe', multi_objective_info: { outcome: 'AUTH_WON', srHead: { psp: 'stripe', costBps: 100 } } });
  });

  it('skips the step while hedging', async () => {
    const hedging = await createTestApp({ random: createSequenceRandom([0.01]) });
    try {
      const key = withKey((await createMerchant(hedging.app, 'mh')).apiKey);
      const response = await hedging.app.inject({
        method: 'POST',
        url: '/decide-gateway',
        headers: key,
        payload: decideBody('mh', 'p-hedge', { enableMultiObjective: true }),
      });
      expect(response.json()).toMatchObject({ routing_approach: 'SR_V3_HEDGING', multi_objective_info: null });
    } finally {
      await hedging.close();
    }
  }, 60_000);
});
