import { Ajv } from 'ajv';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { httpSchemas } from '../../api/http-schemas.js';
import type { RandomSource } from '../../src/decision/random-source.js';
import { createManualClock } from '../../src/time/clock.js';
import { openChdbAnalytics, type ChdbAnalyticsUnderTest } from '../helpers/chdb-analytics.js';
import { createMerchant, createTestApp, decideBody, withKey, type TestApp } from '../helpers/test-app.js';

/**
 * POST /analytics/counterfactual with `candidate: without_volume_commitment` on the embedded spine:
 * a volume contract steers real /decide-gateway payments from the SR head (stripe) to adyen, their
 * feedback goes through the sink into chDB, and the route prices the steering on the logged
 * decisions: each steered payment is worth stripe's success rate on the payments left alone minus
 * its own outcome. A second merchant prices real sticky pins the same way (`without_sticky_routing`).
 */
const noon = Date.UTC(2026, 2, 10, 12, 0, 0);
const merchant = 'm-post-step-a';
const other = 'm-post-step-b';

const contract = {
  routing_mode: 'pace_guarded',
  tolerance_bps: 500,
  currency: { denomination: 'USD' },
  expected_daily_traffic: 1_000_000,
  volume_contracts: [
    {
      id: 'adyen_march',
      connector: 'adyen',
      billing_cycle: { type: 'calendar_month', anchor: 1, timezone: 'UTC' },
      archetype: 'lumpsum',
      terms: { target: 2_000_000, reward: { kind: 'flat', value: { flat_amount: 50_000 } } },
    },
  ],
};

/** 0.99 never hedges and never wins a steering roll; 0.05 wins the ~18.6 % steering rate without hedging (5 %). */
function settableRandom(): RandomSource & { value: number } {
  return {
    value: 0.99,
    next() {
      return this.value;
    },
  };
}

describe('POST /analytics/counterfactual pricing volume-commitment steering and sticky routing', () => {
  let t: TestApp;
  let analytics: ChdbAnalyticsUnderTest;
  let key: Record<string, string>;
  let otherKey: Record<string, string>;
  const clock = createManualClock(noon);
  const random = settableRandom();
  const ajv = new Ajv({ strict: false });
  for (const schema of httpSchemas) ajv.addSchema(schema);
  let payment = 0;
  const decided: { paymentId: string; gateway: string; approach: string }[] = [];

  // biome-ignore lint/suspicious/noExplicitAny: the tests walk JSON answers checked against their schema
  const json = (response: { body: string }): any => JSON.parse(response.body);
  const post = (url: string, payload?: unknown, headers = key) =>
    t.app.inject({ method: 'POST', url, headers, ...(payload === undefined ? {} : { payload: payload as Record<string, unknown> }) });
  const decide = async () => {
    payment += 1;
    clock.advance(1000);
    const paymentId = `ps-pay-${payment}`;
    const response = await post('/decide-gateway', decideBody(merchant, paymentId));
    expect(response.statusCode, response.body).toBe(200);
    const body = json(response);
    decided.push({ paymentId, gateway: body.decided_gateway, approach: body.routing_approach });
    return body;
  };
  const feedback = async (paymentId: string, gateway: string, status: 'CHARGED' | 'FAILURE') => {
    const response = await post('/update-gateway-score', { merchantId: merchant, gateway, paymentId, status });
    expect(response.statusCode, response.body).toBe(200);
  };
  const range = { start_ms: noon, end_ms: noon + 3_600_000 };

  beforeAll(async () => {
    analytics = await openChdbAnalytics('post-step-price');
    t = await createTestApp({ clock, analytics: analytics.store, random });
    await analytics.startSink(t.bus, clock);
    key = withKey((await createMerchant(t.app, merchant)).apiKey);
    otherKey = withKey((await createMerchant(t.app, other)).apiKey);
    const created = await post('/routing/create', { name: 'march', created_by: merchant, algorithm: { type: 'volume_contract', data: contract } });
    expect(created.statusCode, created.body).toBe(200);
    expect((await post('/routing/activate', { created_by: merchant, routing_algorithm_id: json(created).rule_id })).statusCode).toBe(200);
    expect((await post(`/merchant-account/${merchant}/features/volume-contracts`, { enabled: true })).statusCode).toBe(200);
    // Five payments before any plan: normal routing (stripe, the first of two equal scores).
    for (let index = 0; index < 5; index++) await decide();
    await t.eventsCaughtUp();
    await analytics.caughtUp();
    expect((await post(`/volume-commitment/run-forecast?merchant_id=${merchant}`)).statusCode).toBe(200);
    // Six steered to adyen, fourteen left with stripe; outcomes only afterwards, so no score moves the head meanwhile.
    random.value = 0.05;
    for (let index = 0; index < 6; index++) expect((await decide()).routing_approach).toBe('SR_SELECTION_VOLUME_COMMITMENT');
    random.value = 0.99;
    for (let index = 0; index < 14; index++) expect((await decide()).decided_gateway).toBe('stripe');
    // Steered: 2 of 6 approved on adyen. Left alone: 17 of 19 approved on stripe.
    let steered = 0;
    let kept = 0;
    for (const { paymentId, gateway, approach } of decided) {
      const success = approach === 'SR_SELECTION_VOLUME_COMMITMENT' ? steered++ < 2 : kept++ < 17;
      await feedback(paymentId, gateway, success ? 'CHARGED' : 'FAILURE');
    }
    clock.advance(60_000);
    await t.eventsCaughtUp();
    await analytics.caughtUp();
  }, 120_000);

  afterAll(async () => {
    await analytics?.close(t);
  });

  it('estimates the authorisation rate steering gave up, with its interval', async () => {
    const response = await post('/analytics/counterfactual', { ...range, candidate: 'without_volume_commitment' });
    expect(response.statusCode, response.body).toBe(200);
    const body = json(response);
    expect(ajv.validate('PostStepPriceReport', body), JSON.stringify(ajv.errors)).toBe(true);
    expect(body).toMatchObject({
      merchant_id: merchant,
      candidate: 'without_volume_commitment',
      decisions: 25,
      labelled: 25,
      moved: 6,
      moved_labelled: 6,
      supported: true,
      reason: null,
      truncated: false,
      logged_success_rate: 0.76,
      score_gap_at_decision: 0,
    });
    // stripe on the payments left alone: (17 + 1) / (19 + 2); each steered payment: that minus its outcome.
    const stripeRate = 18 / 21;
    const givenUp = (6 * stripeRate - 2) / 25;
    expect(body.rate_given_up.value).toBeCloseTo(givenUp, 5);
    const variance = 6 * (1 / 3) * (2 / 3) + 36 * ((stripeRate * (1 - stripeRate)) / 21);
    const half = (1.959964 * Math.sqrt(variance)) / 25;
    expect(body.rate_given_up.ci95_low).toBeCloseTo(givenUp - half, 5);
    expect(body.rate_given_up.ci95_high).toBeCloseTo(givenUp + half, 5);
    expect(body.rate_given_up.ci95_low).toBeGreaterThan(0);
    expect(body.candidate_success_rate.value).toBeCloseTo(0.76 + givenUp, 5);
  });

  it('prices sticky routing at zero where nothing was pinned', async () => {
    const body = json(await post('/analytics/counterfactual', { ...range, candidate: 'without_sticky_routing' }));
    expect(body).toMatchObject({ candidate: 'without_sticky_routing', moved: 0, supported: true, rate_given_up: { value: 0, ci95_low: 0, ci95_high: 0 } });
    expect(body.candidate_success_rate.value).toBeCloseTo(0.76, 6);
  });

  it('prices real sticky pins, here a gain: the pinned customer approves where routing’s pick often fails', async () => {
    const sticky = 'm-post-step-sticky';
    const headers = withKey((await createMerchant(t.app, sticky)).apiKey);
    expect((await post(`/merchant-account/${sticky}/features/sticky-routing`, { enabled: true }, headers)).statusCode).toBe(200);
    const start = clock.now();
    const decideFor = async (customerId: string) => {
      payment += 1;
      clock.advance(1000);
      const paymentId = `ps-sticky-${payment}`;
      const body = decideBody(sticky, paymentId);
      body['paymentInfo'] = { ...(body['paymentInfo'] as Record<string, unknown>), customerId };
      const response = await post('/decide-gateway', body, headers);
      expect(response.statusCode, response.body).toBe(200);
      return { paymentId, answer: json(response) as { decided_gateway: string; routing_approach: string } };
    };
    const outcome = async (paymentId: string, gateway: string, status: 'CHARGED' | 'FAILURE') => {
      const response = await post('/update-gateway-score', { merchantId: sticky, gateway, paymentId, status }, headers);
      expect(response.statusCode, response.body).toBe(200);
    };
    // The loyal customer paid on adyen once (routing had picked stripe): its next payments are pinned to adyen.
    const first = await decideFor('loyal');
    await outcome(first.paymentId, 'adyen', 'CHARGED');
    await t.worker.caughtUp();
    const pinned = [];
    for (let index = 0; index < 4; index++) {
      const { paymentId, answer } = await decideFor('loyal');
      expect(answer).toMatchObject({ decided_gateway: 'adyen', routing_approach: 'STICKY_ROUTING' });
      pinned.push(paymentId);
    }
    const others = [];
    for (let index = 0; index < 6; index++) others.push((await decideFor(`walk-in-${index}`)).paymentId);
    // Pinned: 3 of 4 approved on adyen. Routing's pick for everyone else: 3 of 6 on stripe.
    for (const [index, paymentId] of pinned.entries()) await outcome(paymentId, 'adyen', index < 3 ? 'CHARGED' : 'FAILURE');
    for (const [index, paymentId] of others.entries()) await outcome(paymentId, 'stripe', index < 3 ? 'CHARGED' : 'FAILURE');
    clock.advance(60_000);
    await t.eventsCaughtUp();
    await analytics.caughtUp();

    const body = json(await post('/analytics/counterfactual', { start_ms: start, end_ms: clock.now(), candidate: 'without_sticky_routing' }, headers));
    expect(ajv.validate('PostStepPriceReport', body), JSON.stringify(ajv.errors)).toBe(true);
    // The first payment's outcome is for adyen, not the decided stripe: no outcome for the decision.
    expect(body).toMatchObject({ merchant_id: sticky, decisions: 11, labelled: 10, moved: 4, moved_labelled: 4, supported: true, logged_success_rate: 0.6 });
    // stripe on the payments left alone: (3 + 1) / (6 + 2) = 0.5; the pins: 4 × 0.5 − 3 approved, over 10.
    expect(body.rate_given_up.value).toBeCloseTo(-0.1, 6);
    expect(body.rate_given_up.ci95_low).toBeLessThan(-0.1);
    expect(body.candidate_success_rate.value).toBeCloseTo(0.5, 6);
  });

  it('says plainly when there is nothing to price, and refuses a candidate mixed with configuration knobs', async () => {
    const empty = json(await post('/analytics/counterfactual', { ...range, candidate: 'without_volume_commitment' }, otherKey));
    expect(empty).toMatchObject({ merchant_id: other, supported: false, reason: 'no_logged_decisions', rate_given_up: null });
    const mixed = await post('/analytics/counterfactual', { ...range, candidate: 'without_volume_commitment', hedging_percent: 0 });
    expect(mixed.statusCode).toBe(400);
    expect(json(mixed).message).toContain('hedging_percent');
    const unknown = await post('/analytics/counterfactual', { ...range, candidate: 'without_everything' });
    expect([400, 422]).toContain(unknown.statusCode);
  });
});
