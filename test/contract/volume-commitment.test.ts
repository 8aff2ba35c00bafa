import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RandomSource } from '../../src/decision/random-source.js';
import { createManualClock } from '../../src/time/clock.js';
import { openChdbAnalytics, type ChdbAnalyticsUnderTest } from '../helpers/chdb-analytics.js';
import { createMerchant, createTestApp, decideBody, withKey, type TestApp } from '../helpers/test-app.js';

/**
 * Volume commitments on the embedded spine (decision-engine #367, #375, #404, #411): the
 * `volume_contract` document on /routing/*, the forecast reading the decisions the analytics sink
 * wrote to chDB, decide-time steering on the payments wire, and the read-only views.
 */
const noon = Date.UTC(2026, 2, 10, 12, 0, 0);
const merchant = 'vc-m1';
const other = 'vc-m2';

/** Decisions of 100 USD (10,000 minor units); adyen is owed 2,000,000 this month with 21.5 days left. */
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

/** A random source the test sets: 0.99 never hedges and never wins a steering roll; 0.05 wins any rate above 5 %. */
function settableRandom(): RandomSource & { value: number } {
  return {
    value: 0.99,
    next() {
      return this.value;
    },
  };
}

describe('volume commitments', () => {
  let t: TestApp;
  let analytics: ChdbAnalyticsUnderTest;
  let key: Record<string, string>;
  let otherKey: Record<string, string>;
  let ruleId: string;
  const clock = createManualClock(noon);
  const random = settableRandom();
  let payment = 0;

  // biome-ignore lint/suspicious/noExplicitAny: the tests walk JSON answers
  const json = (response: { body: string }): any => JSON.parse(response.body);
  const post = (url: string, payload?: unknown, headers = key) =>
    t.app.inject({ method: 'POST', url, headers, ...(payload === undefined ? {} : { payload: payload as Record<string, unknown> }) });
  const get = (url: string, headers = key) => t.app.inject({ method: 'GET', url, headers });
  const decide = async () => {
    payment += 1;
    clock.advance(1000);
    const response = await post('/decide-gateway', decideBody(merchant, `vc-pay-${payment}`));
    expect(response.statusCode, response.body).toBe(200);
    return json(response);
  };
  const feature = async (enabled: boolean) => expect((await post(`/merchant-account/${merchant}/features/volume-contracts`, { enabled })).statusCode).toBe(200);

  beforeAll(async () => {
    analytics = await openChdbAnalytics('volume-commitment');
    t = await createTestApp({ clock, analytics: analytics.store, random });
    await analytics.startSink(t.bus, clock);
    key = withKey((await createMerchant(t.app, merchant)).apiKey);
    otherKey = withKey((await createMerchant(t.app, other)).apiKey);
  }, 120_000);

  afterAll(async () => {
    await analytics?.close(t);
  });

  describe('the volume_contract document', () => {
    it('answers 400 TE_04 naming every problem of a document that means something invalid', async () => {
      const bad = { ...contract, tolerance_bps: 2500, volume_contracts: [{ ...contract.volume_contracts[0], connector: 'Adyen!' }] };
      const response = await post('/routing/create', { name: 'bad', created_by: merchant, algorithm: { type: 'volume_contract', data: bad } });
      expect(response.statusCode).toBe(400);
      const body = json(response);
      expect(body.code).toBe('TE_04');
      expect(body.message).toMatch(/^Field validation failed: /u);
      expect(body.message).toContain('data.tolerance_bps: out_of_range: tolerance 2500 bps exceeds the maximum of 2000 bps (20pp)');
      expect(body.message).toContain("data.volume_contracts[0].connector: invalid_value: connector 'Adyen!' must match [a-z][a-z0-9_]{0,63}");
    });

    it('answers 400 "Invalid routing rule configuration" for a body that is not a document, naming the unknown field', async () => {
      const response = await post('/routing/create', {
        name: 'bad',
        created_by: merchant,
        algorithm: { type: 'volume_contract', data: { ...contract, surprise: 1 } },
      });
      expect(response.statusCode).toBe(400);
      expect(json(response).message).toMatch(
        /^Invalid routing rule configuration: data: invalid_shape: unknown field\(s\) in volume contract document: surprise/u,
      );
    });

    it('keeps a contract out of the payment slot and a routing rule out of the volume_commitment slot', async () => {
      const contractAsPayment = await post('/routing/create', {
        name: 'c',
        created_by: merchant,
        algorithm_for: 'payment',
        algorithm: { type: 'volume_contract', data: contract },
      });
      expect(contractAsPayment.statusCode).toBe(400);
      expect(json(contractAsPayment).message).toContain("a volume_contract is activated under 'volume_commitment'");
      const ruleAsContract = await post('/routing/create', {
        name: 'r',
        created_by: merchant,
        algorithm_for: 'volume_commitment',
        algorithm: { type: 'single', data: { gateway_name: 'stripe', gateway_id: null } },
      });
      expect(ruleAsContract.statusCode).toBe(400);
    });

    it('stores a valid document canonically and activates it in its own slot, beside the routing rule', async () => {
      const rule = json(
        await post('/routing/create', {
          name: 'priority',
          created_by: merchant,
          algorithm: {
            type: 'priority',
            data: [
              { gateway_name: 'stripe', gateway_id: null },
              { gateway_name: 'adyen', gateway_id: null },
            ],
          },
        }),
      );
      const created = await post('/routing/create', {
        name: 'march',
        created_by: merchant,
        algorithm: { type: 'volume_contract', data: { ...contract, tolerance_bps: '5pp' } },
      });
      expect(created.statusCode, created.body).toBe(200);
      ruleId = json(created).rule_id;
      expect((await post('/routing/activate', { created_by: merchant, routing_algorithm_id: rule.rule_id })).statusCode).toBe(200);
      expect((await post('/routing/activate', { created_by: merchant, routing_algorithm_id: ruleId })).statusCode).toBe(200);
      const active = json(await post(`/routing/list/active/${merchant}`)) as {
        id: string;
        algorithm_for: string;
        algorithm_data: { type: string; data: Record<string, unknown> };
      }[];
      expect(active.map((entry) => [entry.id, entry.algorithm_for])).toEqual([
        [rule.rule_id, 'payment'],
        [ruleId, 'volume_commitment'],
      ]);
      expect(active[1]?.algorithm_data.data).toMatchObject({ tolerance_bps: 500, currency: { denomination: 'USD', amount_units: 'minor' }, schema_version: 1 });
      // The rule keeps routing: /routing/evaluate still answers from it.
      const evaluated = await post('/routing/evaluate', { created_by: merchant, parameters: {} });
      expect(json(evaluated).evaluated_output).toEqual([
        { gateway_name: 'stripe', gateway_id: null },
        { gateway_name: 'adyen', gateway_id: null },
      ]);
      expect((await post('/routing/deactivate', { created_by: merchant, routing_algorithm_id: rule.rule_id })).statusCode).toBe(200);
    });
  });

  describe('forecast and steering', () => {
    it('decides without steering or volume_steer_info while the feature is off', async () => {
      for (let index = 0; index < 5; index++) {
        const decision = await decide();
        expect(decision.decided_gateway).toBe('stripe');
        expect(decision.routing_approach).toBe('SR_SELECTION_V3_ROUTING');
        expect(decision.volume_steer_info).toBeUndefined();
      }
    });

    it('skips a merchant whose feature is off, then publishes a plan steering toward the PSP behind pace', async () => {
      const skipped = json(await post(`/volume-commitment/run-forecast?merchant_id=${merchant}`));
      expect(skipped).toEqual({ merchantsProcessed: 0, merchantsSkipped: 1, merchantsFailed: 0, nextRunInSecs: 300, merchants: [] });
      await feature(true);
      await analytics.caughtUp();
      const run = await post(`/volume-commitment/run-forecast?merchant_id=${merchant}`);
      expect(run.statusCode, run.body).toBe(200);
      expect(json(run)).toEqual({
        merchantsProcessed: 1,
        merchantsSkipped: 0,
        merchantsFailed: 0,
        nextRunInSecs: 300,
        merchants: [{ merchantId: merchant, pspsTracked: 1, pspsSteering: 1, pspsDropped: 0, nextRunInSecs: 300 }],
      });
      const plan = await t.state.configs.get(merchant, 'volumeCommitmentPlan');
      // 2,000,000 owed over 21.5 days = 93,023 a day; half the contract day left of 1,000,000 a day: 18.6 %.
      expect(plan?.psps[0]?.steerRate).toBeCloseTo(2_000_000 / 21.5 / 500_000, 3);
      expect(plan?.runId).toBe(`vcr_${Date.UTC(2026, 2, 1)}`);
    });

    it('steers a payment whose roll lands under the rate, stamping SR_SELECTION_VOLUME_COMMITMENT', async () => {
      random.value = 0.05;
      const decision = await decide();
      random.value = 0.99;
      expect(decision.decided_gateway).toBe('adyen');
      expect(decision.routing_approach).toBe('SR_SELECTION_VOLUME_COMMITMENT');
      expect(decision.fallback_gateways).toEqual(['stripe']);
      expect(decision.volume_steer_info).toMatchObject({
        outcome: 'STEERED',
        srHead: 'stripe',
        chosen: 'adyen',
        srGapConceded: 0,
        steeringCount: 1,
        runId: `vcr_${Date.UTC(2026, 2, 1)}`,
      });
      expect(decision.volume_steer_info.steerRate).toBeCloseTo(0.186, 3);
    });

    it('leaves a payment whose roll misses with normal routing, saying why', async () => {
      const decision = await decide();
      expect(decision.decided_gateway).toBe('stripe');
      expect(decision.routing_approach).toBe('SR_SELECTION_V3_ROUTING');
      expect(decision.volume_steer_info).toMatchObject({
        outcome: 'SR_PREVAILED',
        srHead: 'stripe',
        chosen: 'stripe',
        srGapConceded: null,
        steerRate: null,
        steeringCount: 1,
      });
    });

    it('counts the steered payment toward the goal on the dashboard and the impact', async () => {
      await analytics.caughtUp();
      const dashboard = await get(`/merchant-account/${merchant}/volume-commitment/dashboard`);
      expect(dashboard.statusCode, dashboard.body).toBe(200);
      const body = json(dashboard);
      expect(body.pacing).toMatchObject({
        merchantId: merchant,
        active: true,
        contractConfigured: true,
        featureEnabled: true,
        ruleId,
        tolerance: 0.05,
        currency: 'USD',
        daysTotal: 31,
        daySecs: 86_400,
        measurementAvailable: true,
      });
      expect(body.pacing.psps).toHaveLength(1);
      expect(body.pacing.psps[0]).toMatchObject({
        connector: 'adyen',
        goal: 2_000_000,
        achieved: 10_000,
        steeredToday: 10_000,
        steering: true,
        reward: 50_000,
      });
      expect(body.series.connectors[0]).toMatchObject({
        connector: 'adyen',
        rewardNote: 'lump sum',
        cycleStart: '2026-03-01T00:00:00.000Z',
        cycleEnd: '2026-04-01T00:00:00.000Z',
        daysTotal: 31,
      });
      expect(body.series.connectors[0].points).toEqual([{ connector: 'adyen', dayIndex: 9, day: 9, total: 10_000, steered: 10_000 }]);
      expect(body.audit.runs).toEqual([
        expect.objectContaining({ runId: `vcr_${Date.UTC(2026, 2, 1)}`, forecasts: 1, steers: 1, eliminations: 0, isCurrent: true }),
      ]);

      const impact = json(await get(`/merchant-account/${merchant}/volume-commitment/impact`));
      expect(impact.cycle).toEqual({ startMs: Date.UTC(2026, 2, 1), endMs: Date.UTC(2026, 3, 1) });
      expect(impact.baseline).toEqual({ startMs: Date.UTC(2026, 1, 1) - 3 * 86_400_000, endMs: Date.UTC(2026, 2, 1) });
      expect(impact.connectors[0]).toMatchObject({
        connector: 'adyen',
        steering: true,
        withContract: { payments: 1, volume: 10_000 },
        steered: { payments: 1, volume: 10_000 },
        unaided: { payments: 0, volume: 0 },
        before: { payments: 0, volume: 0 },
      });
    });

    it('projects a plan without storing one, and serves the samples', async () => {
      const before = await t.state.configs.get(merchant, 'volumeCommitmentPlan');
      const projection = json(await get(`/merchant-account/${merchant}/volume-commitment/projection`));
      expect(projection).toMatchObject({
        active: true,
        featureEnabled: true,
        psps: [expect.objectContaining({ connector: 'adyen', achieved: 10_000, steering: true })],
      });
      expect(await t.state.configs.get(merchant, 'volumeCommitmentPlan')).toEqual(before);
      const samples = json(await get(`/merchant-account/${merchant}/volume-commitment/samples`));
      expect(samples.merchantId).toBe(merchant);
      expect(samples.samples.map((sample: { id: string }) => sample.id)).toEqual(['lumpsum_monthly', 'tiered_quarterly', 'test_cycle']);
      for (const sample of samples.samples) {
        const created = await post('/routing/create', {
          name: sample.name,
          created_by: merchant,
          algorithm: { type: 'volume_contract', data: sample.contract },
        });
        expect(created.statusCode, created.body).toBe(200);
      }
    });

    it('stops steering once the feature is off, and answers the views as configured but inert', async () => {
      await feature(false);
      random.value = 0.05;
      const decision = await decide();
      random.value = 0.99;
      expect(decision.decided_gateway).toBe('stripe');
      expect(decision.volume_steer_info).toBeUndefined();
      const pacing = json(await get(`/merchant-account/${merchant}/volume-commitment/dashboard`)).pacing;
      expect(pacing).toMatchObject({ active: false, contractConfigured: true, featureEnabled: false, psps: [] });
      const impact = await get(`/merchant-account/${merchant}/volume-commitment/impact`);
      expect(impact.statusCode).toBe(404);
      expect(json(impact)).toMatchObject({ code: 'TE_04', message: `no active volume contract for merchant ${merchant}` });
    });
  });

  describe('who may read and run what', () => {
    it("refuses another merchant's views and runs, and the sweep to a merchant credential", async () => {
      expect((await get(`/merchant-account/${merchant}/volume-commitment/dashboard`, otherKey)).statusCode).toBe(403);
      expect((await post(`/volume-commitment/run-forecast?merchant_id=${merchant}`, undefined, otherKey)).statusCode).toBe(403);
      const sweep = await post('/volume-commitment/run-forecast');
      expect(sweep.statusCode).toBe(403);
      expect(sweep.body).toContain('running a forecast for every merchant needs the admin secret');
      expect((await t.app.inject({ method: 'GET', url: `/merchant-account/${merchant}/volume-commitment/samples` })).statusCode).toBe(401);
    });

    it('documents the routes in the OpenAPI document with their response schemas', async () => {
      const document = json(await t.app.inject({ method: 'GET', url: '/openapi.json' })) as {
        paths: Record<string, Record<string, { responses: Record<string, unknown> }>>;
      };
      for (const view of ['', '/dashboard', '/projection', '/impact', '/samples']) {
        expect(document.paths[`/merchant-account/{merchantId}/volume-commitment${view}`]?.get?.responses['200'], view).toBeDefined();
      }
      expect(document.paths['/volume-commitment/run-forecast']?.post?.responses['200']).toBeDefined();
    });

    it('answers an unconfigured merchant with the inactive card', async () => {
      const pacing = json(await get(`/merchant-account/${other}/volume-commitment/dashboard`, otherKey));
      expect(pacing).toEqual({
        pacing: expect.objectContaining({
          merchantId: other,
          active: false,
          contractConfigured: false,
          featureEnabled: false,
          rewardAtStake: 0,
          psps: [],
          eliminated: [],
        }),
        series: { merchantId: other, currency: null, daySecs: null, connectors: [] },
        audit: { merchantId: other, runs: [], events: [] },
      });
    });
  });
});
