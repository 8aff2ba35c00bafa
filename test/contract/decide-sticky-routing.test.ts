import { createHash } from 'node:crypto';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { createMerchant, createTestApp, decideBody, withKey, type TestApp } from '../helpers/test-app.js';

/*
 * Sticky routing on /decide-gateway (docs/sticky-routing.md). Without feedback both gateways score
 * 1.0 and the SR head is the first eligible one (stripe), so a decision for adyen can only come from
 * a pin. SR windows of 10 outcomes, no hedging (the test app's random never hedges either).
 */
describe('POST /decide-gateway with sticky routing', () => {
  let t: TestApp;
  let headers: Record<string, string>;
  let merchantId: string;
  let merchants = 0;
  let payments = 0;
  beforeAll(async () => {
    t = await createTestApp();
  }, 60_000);
  afterAll(async () => t.close());
  beforeEach(async () => {
    merchants += 1;
    merchantId = `sticky${merchants}`;
    headers = withKey((await createMerchant(t.app, merchantId)).apiKey);
    const created = await t.app.inject({
      method: 'POST',
      url: '/rule/create',
      headers,
      payload: { merchant_id: merchantId, config: { type: 'successRate', data: { defaultBucketSize: 10, defaultHedgingPercent: 0 } } },
    });
    expect(created.statusCode).toBe(200);
  }, 60_000);

  const nextPayment = () => {
    payments += 1;
    return `pay-${payments}`;
  };
  /** Decides one payment of `customerId` (paymentInfo fields in `info`, top-level fields in `top`) and returns its id and answer. */
  const decide = async (customerId: string | null, info: Record<string, unknown> = {}, top: Record<string, unknown> = {}) => {
    const paymentId = nextPayment();
    const body = decideBody(merchantId, paymentId, top);
    body['paymentInfo'] = { ...(body['paymentInfo'] as Record<string, unknown>), ...(customerId === null ? {} : { customerId }), ...info };
    const response = await t.app.inject({ method: 'POST', url: '/decide-gateway', headers, payload: body });
    expect(response.statusCode).toBe(200);
    return { paymentId, body: response.json() };
  };
  const feedback = async (paymentId: string, gateway: string, status: string) => {
    const response = await t.app.inject({ method: 'POST', url: '/update-gateway-score', headers, payload: { merchantId, gateway, paymentId, status } });
    expect(response.statusCode).toBe(200);
  };
  /** A paid payment of `customerId` on `gateway` (decided, then feedback), applied by the worker. */
  const paid = async (customerId: string, gateway: string, status = 'CHARGED', info: Record<string, unknown> = {}, top: Record<string, unknown> = {}) => {
    const { paymentId } = await decide(customerId, info, top);
    await feedback(paymentId, gateway, status);
    await t.worker.caughtUp();
  };
  const setFeature = async (enabled: boolean) => {
    const response = await t.app.inject({ method: 'POST', url: `/merchant-account/${merchantId}/features/sticky-routing`, headers, payload: { enabled } });
    expect(response.statusCode).toBe(200);
    return response.json();
  };
  const createdPayload = async (paymentId: string): Promise<Record<string, unknown>> => {
    await t.eventsCaughtUp();
    const event = t.events.find((e) => e.type === 'decision.created' && (e.payload as { paymentId: string }).paymentId === paymentId);
    if (event === undefined) throw new Error(`no decision.created for ${paymentId}`);
    return event.payload as unknown as Record<string, unknown>;
  };
  const decisionCounts = () => Object.fromEntries(t.stickyCounters.decisions());

  it('lists the sticky-routing feature off by default, and neither pins nor reads the counts while it is off', async () => {
    const listed = await t.app.inject({ method: 'GET', url: `/merchant-account/${merchantId}/features`, headers });
    expect(listed.json().features).toContainEqual({ feature: 'sticky-routing', enabled: false });
    const before = decisionCounts();
    await paid('cust-off', 'adyen');
    const { paymentId, body } = await decide('cust-off');
    expect(body).toMatchObject({ decided_gateway: 'stripe', routing_approach: 'SR_SELECTION_V3_ROUTING' });
    expect(await createdPayload(paymentId)).not.toHaveProperty('sticky');
    expect(decisionCounts()).toEqual(before);
  });

  it("carries the cost step's info when the pin agrees with its pick, and drops it when the pin moves the payment", async () => {
    await setFeature(true);
    // adyen is cheaper: with equal scores the cost step promotes it over the SR head (stripe).
    const rows = [
      { psp: 'stripe', interchange_bps: 290, scheme_bps: 0, markup_bps: 0, fixed: 0, is_default: true },
      { psp: 'adyen', interchange_bps: 150, scheme_bps: 0, markup_bps: 0, fixed: 0, is_default: true },
    ];
    const seeded = await t.app.inject({ method: 'PUT', url: `/merchant-account/${merchantId}/seed-costs`, headers, payload: { rows } });
    expect(seeded.statusCode).toBe(200);
    const costAware = { enableMultiObjective: true };
    await paid('cust-agrees', 'adyen', 'CHARGED', {}, costAware);
    await paid('cust-moves', 'stripe', 'CHARGED', {}, costAware);

    const agrees = await decide('cust-agrees', {}, costAware);
    expect(agrees.body).toMatchObject({
      decided_gateway: 'adyen',
      routing_approach: 'STICKY_ROUTING',
      multi_objective_info: { outcome: 'COST_WON', reason: "Promoted 'adyen' over 'stripe' on expected value — saves 140.00 bps for 0.00pp auth." },
    });
    expect(await createdPayload(agrees.paymentId)).toMatchObject({ multiObjective: { outcome: 'COST_WON', chosen: 'adyen' }, sticky: { outcome: 'pinned' } });

    const moves = await decide('cust-moves', {}, costAware);
    expect(moves.body).toMatchObject({
      decided_gateway: 'stripe',
      fallback_gateways: ['adyen'],
      routing_approach: 'STICKY_ROUTING',
      multi_objective_info: null,
    });
    const moved = await createdPayload(moves.paymentId);
    expect(moved).toMatchObject({ sticky: { outcome: 'pinned', srHead: 'adyen' } });
    expect(moved).not.toHaveProperty('multiObjective');
  });

  it('pins a customer to the connector it paid with, for that payment method and type only (STICKY_ROUTING)', async () => {
    const toggled = await setFeature(true);
    expect(toggled.features).toContainEqual({ feature: 'sticky-routing', enabled: true });
    const first = await decide('cust-42');
    expect(first.body).toMatchObject({ decided_gateway: 'stripe', routing_approach: 'SR_SELECTION_V3_ROUTING' });
    expect((await createdPayload(first.paymentId))['sticky']).toMatchObject({ outcome: 'no_state', srHead: null });
    // The customer completed the payment on adyen (a retry there, say): the habit follows the feedback's gateway.
    await feedback(first.paymentId, 'adyen', 'CHARGED');
    await t.worker.caughtUp();

    const pinnedBefore = t.stickyCounters.decisions().get('pinned') ?? 0;
    const second = await decide('cust-42');
    expect(second.body).toMatchObject({
      decided_gateway: 'adyen',
      fallback_gateways: ['stripe'],
      routing_approach: 'STICKY_ROUTING',
      gateway_priority_map: { stripe: 1, adyen: 1 },
    });
    const sticky = (await createdPayload(second.paymentId))['sticky'];
    expect(sticky).toEqual({
      customerKey: createHash('sha256').update('cust-42').digest('hex'),
      combo: 'CREDIT:CARD',
      outcome: 'pinned',
      srHead: 'stripe',
    });
    expect(JSON.stringify(t.events.filter((e) => e.type === 'decision.created'))).not.toContain('cust-42');
    expect(t.stickyCounters.decisions().get('pinned')).toBe(pinnedBefore + 1);

    // Another customer, and the same customer paying by another method, follow SR.
    expect((await decide('cust-43')).body).toMatchObject({ decided_gateway: 'stripe', routing_approach: 'SR_SELECTION_V3_ROUTING' });
    expect((await decide('cust-42', { paymentMethod: 'DEBIT' })).body).toMatchObject({ decided_gateway: 'stripe' });
    // Case and blanks around the customer id do not split its habit.
    expect((await decide(' cust-42 ', { paymentMethod: 'credit', paymentMethodType: 'card' })).body).toMatchObject({ decided_gateway: 'adyen' });
    // A payment without a customer is never looked up.
    expect((await decide(null)).body).toMatchObject({ decided_gateway: 'stripe' });
  });

  it('lets stickyRouting on the request switch the merchant feature either way', async () => {
    await paid('cust-switch', 'adyen', 'CHARGED', {}, { stickyRouting: true });
    expect((await decide('cust-switch', {}, { stickyRouting: true })).body).toMatchObject({ decided_gateway: 'adyen', routing_approach: 'STICKY_ROUTING' });
    expect((await decide('cust-switch')).body).toMatchObject({ decided_gateway: 'stripe', routing_approach: 'SR_SELECTION_V3_ROUTING' });
    await setFeature(true);
    expect((await decide('cust-switch')).body).toMatchObject({ decided_gateway: 'adyen', routing_approach: 'STICKY_ROUTING' });
    const optedOut = await decide('cust-switch', {}, { stickyRouting: false });
    expect(optedOut.body).toMatchObject({ decided_gateway: 'stripe', routing_approach: 'SR_SELECTION_V3_ROUTING' });
    expect(await createdPayload(optedOut.paymentId)).not.toHaveProperty('sticky');
  });

  it('pins the connector with the highest net count; gateway failures erode it until the pin moves or releases', async () => {
    await setFeature(true);
    await paid('cust-net', 'adyen');
    await paid('cust-net', 'adyen');
    await paid('cust-net', 'stripe');
    expect((await decide('cust-net')).body).toMatchObject({ decided_gateway: 'adyen', routing_approach: 'STICKY_ROUTING' });
    await paid('cust-net', 'adyen', 'AUTHORIZATION_FAILED');
    // 1 : 1 — equal counts and scores (stripe 1.0, adyen 0.9 after the failure): the higher score wins.
    expect((await decide('cust-net')).body).toMatchObject({ decided_gateway: 'stripe', routing_approach: 'STICKY_ROUTING' });
    await paid('cust-net', 'stripe', 'FAILURE');
    await paid('cust-net', 'adyen', 'FAILURE');
    const released = await decide('cust-net');
    expect(released.body.routing_approach).not.toBe('STICKY_ROUTING');
    expect((await createdPayload(released.paymentId))['sticky']).toMatchObject({ outcome: 'no_state' });
  });

  it('counts a feedback delivered twice once, and ignores pending and lifecycle statuses', async () => {
    await setFeature(true);
    const { paymentId } = await decide('cust-dup');
    await feedback(paymentId, 'adyen', 'CHARGED');
    await feedback(paymentId, 'adyen', 'CHARGED');
    await t.worker.caughtUp();
    expect((await decide('cust-dup')).body).toMatchObject({ decided_gateway: 'adyen', routing_approach: 'STICKY_ROUTING' });
    // One failure takes the one counted success away: a double-counted success would still pin.
    await paid('cust-dup', 'adyen', 'FAILURE');
    const released = await decide('cust-dup');
    expect((await createdPayload(released.paymentId))['sticky']).toMatchObject({ outcome: 'no_state' });
    // A void and a pending status move no count.
    await paid('cust-dup', 'stripe', 'VOIDED');
    await paid('cust-dup', 'stripe', 'PENDING_VBV');
    const still = await decide('cust-dup');
    expect((await createdPayload(still.paymentId))['sticky']).toMatchObject({ outcome: 'no_state' });
  });

  it('never pins a connector that is not eligible, eliminated, or scoring under half the top score (vetoed)', async () => {
    await setFeature(true);
    await paid('cust-veto', 'adyen');
    const absent = await decide('cust-veto', {}, { eligibleGatewayList: ['stripe', 'worldpay'] });
    expect(absent.body).toMatchObject({ decided_gateway: 'stripe', routing_approach: 'SR_SELECTION_V3_ROUTING' });
    expect((await createdPayload(absent.paymentId))['sticky']).toMatchObject({ outcome: 'vetoed' });

    // Other customers' failures drop adyen's window to 0.4: under half of stripe's 1.0.
    for (let i = 0; i < 6; i += 1) await paid(`other-${i}`, 'adyen', 'FAILURE', {}, { stickyRouting: false });
    const weak = await decide('cust-veto');
    expect(weak.body).toMatchObject({ decided_gateway: 'stripe', gateway_priority_map: { stripe: 1, adyen: 0.4 } });
    expect((await createdPayload(weak.paymentId))['sticky']).toMatchObject({ outcome: 'vetoed' });
    expect(t.stickyCounters.decisions().get('vetoed')).toBeGreaterThanOrEqual(2);
  });

  it('never pins a connector elimination found below its threshold', async () => {
    await setFeature(true);
    const threshold = await t.app.inject({
      method: 'POST',
      url: '/rule/create',
      headers,
      payload: { merchant_id: merchantId, config: { type: 'elimination', data: { threshold: 0.99 } } },
    });
    expect(threshold.statusCode).toBe(200);
    await paid('cust-elim', 'adyen', 'CHARGED', {}, { eliminationEnabled: true });
    expect((await decide('cust-elim', {}, { eliminationEnabled: true })).body).toMatchObject({ decided_gateway: 'adyen', routing_approach: 'STICKY_ROUTING' });
    // A pending penalty within the latency threshold: adyen's elimination score 0.95, under 0.99.
    await paid('cust-other', 'adyen', 'PENDING_VBV', {}, { eliminationEnabled: true, stickyRouting: false });
    const demoted = await decide('cust-elim', {}, { eliminationEnabled: true });
    expect(demoted.body).toMatchObject({ decided_gateway: 'stripe', routing_approach: 'SR_V3_DOWNTIME_ROUTING' });
    expect((await createdPayload(demoted.paymentId))['sticky']).toMatchObject({ outcome: 'vetoed' });
  });

  it('pins over priority logic without a routing rule (the list order), and learns from its payments', async () => {
    await setFeature(true);
    const { paymentId, body } = await decide('cust-pl', {}, { rankingAlgorithm: 'PL_BASED_ROUTING' });
    expect(body).toMatchObject({ decided_gateway: 'stripe', routing_approach: 'PRIORITY_LOGIC' });
    await feedback(paymentId, 'adyen', 'CHARGED');
    await t.worker.caughtUp();
    // Without a routing rule, priority logic is the list's default order: a pin may replace it.
    expect((await decide('cust-pl', {}, { rankingAlgorithm: 'PL_BASED_ROUTING' })).body).toMatchObject({
      decided_gateway: 'adyen',
      routing_approach: 'STICKY_ROUTING',
    });
    expect((await decide('cust-pl')).body).toMatchObject({ decided_gateway: 'adyen', routing_approach: 'STICKY_ROUTING' });
  });

  it('lists the sticky counters on GET /metrics', async () => {
    await setFeature(true);
    await paid('cust-metrics', 'adyen');
    await decide('cust-metrics');
    const metrics = await t.app.inject({ method: 'GET', url: '/metrics' });
    const pinned = Number(/switchyard_sticky_routing_decisions_total\{outcome="pinned"\} (\d+)/.exec(metrics.body)?.[1]);
    expect(pinned).toBe(t.stickyCounters.decisions().get('pinned'));
    expect(pinned).toBeGreaterThan(0);
    expect(metrics.body).toContain('switchyard_sticky_routing_decisions_total{outcome="store_timeout"} 0');
    expect(metrics.body).toMatch(/switchyard_sticky_routing_overrides_total \d+/);
  });

  it('answers 400 for a stickyRouting that is not a boolean', async () => {
    const body = decideBody(merchantId, nextPayment(), { stickyRouting: 'yes' });
    const response = await t.app.inject({ method: 'POST', url: '/decide-gateway', headers, payload: body });
    expect(response.statusCode).toBe(400);
  });
});
