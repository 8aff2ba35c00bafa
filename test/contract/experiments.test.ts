import { Ajv } from 'ajv';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { httpSchemas } from '../../api/http-schemas.js';
import { setMerchantFeature } from '../../src/decision/features/merchant-features.js';
import { assignArm } from '../../src/experiments/assign-arm.js';
import { runGuardrailChecks } from '../../src/experiments/run-guardrail-checks.js';
import { silentLogger } from '../../src/logging/logger.js';
import { createManualClock } from '../../src/time/clock.js';
import { abTestRule } from '../helpers/ab-test-rule.js';
import { openChdbAnalytics, type ChdbAnalyticsUnderTest } from '../helpers/chdb-analytics.js';
import { createMerchant, createTestApp, decideBody, withKey, type TestApp } from '../helpers/test-app.js';

/**
 * A/B experiments (docs/experiments.md): `ab_test` on /routing/create with its checks, activation
 * and the inactive-only edit rule; sticky per-payment arms on /decide-gateway behind the
 * `ab-test-real-payments` feature; results and transactions over the embedded analytics store
 * (chDB, through the real analytics sink); the guardrail stopping the experiment.
 */

const now = Date.UTC(2026, 2, 10, 12, 0, 0);
const merchantA = 'm-exp-a';
const merchantB = 'm-exp-b';

const abTest = (data: Record<string, unknown>) => abTestRule(merchantA, { name: 'cost-vs-auth-test', description: 'A/B test' }, data);

describe('A/B experiments', () => {
  let t: TestApp;
  let analytics: ChdbAnalyticsUnderTest;
  let keyA: Record<string, string>;
  let keyB: Record<string, string>;
  const ajv = new Ajv({ strict: false });
  for (const schema of httpSchemas) ajv.addSchema(schema);

  beforeAll(async () => {
    analytics = await openChdbAnalytics('experiments');
    t = await createTestApp({ clock: createManualClock(now), analytics: analytics.store });
    await analytics.startSink(t.bus, t.clock);
    keyA = withKey((await createMerchant(t.app, merchantA)).apiKey);
    keyB = withKey((await createMerchant(t.app, merchantB)).apiKey);
  }, 60_000);

  afterAll(async () => {
    await analytics?.close(t);
  });

  const post = (url: string, payload: Record<string, unknown>, headers = keyA) => t.app.inject({ method: 'POST', url, headers, payload });
  const create = async (body: Record<string, unknown>, headers = keyA) => post('/routing/create', body, headers);
  const createOk = async (body: Record<string, unknown>, headers = keyA): Promise<string> => {
    const response = await create(body, headers);
    expect(response.statusCode, response.body).toBe(200);
    return (response.json() as { rule_id: string }).rule_id;
  };
  const priority = (createdBy: string, gateways: string[]) => ({
    name: `priority-${gateways.join('-')}`,
    created_by: createdBy,
    algorithm: { type: 'priority', data: gateways.map((gateway_name) => ({ gateway_name, gateway_id: null })) },
  });
  const refusal = async (body: Record<string, unknown>) => {
    const response = await create(body);
    expect(response.statusCode, response.body).toBe(400);
    return (response.json() as { message: string }).message;
  };
  const activate = async (id: string) => {
    const response = await post('/routing/activate', { created_by: merchantA, routing_algorithm_id: id });
    expect(response.statusCode, response.body).toBe(200);
  };
  const deactivate = async (id: string) => {
    const response = await post('/routing/deactivate', { created_by: merchantA, routing_algorithm_id: id });
    expect(response.statusCode, response.body).toBe(200);
  };
  const decide = async (paymentId: string) => {
    const response = await post('/decide-gateway', decideBody(merchantA, paymentId));
    expect(response.statusCode, response.body).toBe(200);
    return response.json() as { decided_gateway: string; routing_approach: string };
  };
  /** The `experiment` field of the last decision.created of a payment. */
  const experimentOfLastDecision = async (paymentId: string) => {
    await t.eventsCaughtUp();
    const decisions = t.events.filter((event) => event.type === 'decision.created' && (event.payload as { paymentId: string }).paymentId === paymentId);
    const last = decisions.at(-1);
    if (last === undefined) throw new Error(`no decision.created for ${paymentId}`);
    return (last.payload as { experiment?: { experimentId: string; experimentArm: string; guardrailTripped: boolean } }).experiment;
  };
  const get = async (url: string, headers = keyA) => {
    const response = await t.app.inject({ method: 'GET', url, headers });
    return { status: response.statusCode, body: response.json() as Record<string, unknown> };
  };

  describe('creating', () => {
    it('stores an ab_test algorithm and answers the standard create response', async () => {
      const response = await create(abTest({}));
      expect(response.statusCode, response.body).toBe(200);
      expect(response.json()).toMatchObject({ name: 'cost-vs-auth-test', rule_id: expect.stringMatching(/^routing_/) });
    });

    it('refuses a split outside 1–49 naming the field', async () => {
      for (const split of [0, 50, 99]) {
        expect(await refusal(abTest({ variant_split_pct: split }))).toContain('data.variant_split_pct: value_out_of_range');
      }
    });

    it('refuses a missing or mistyped field as an invalid configuration', async () => {
      const body = abTest({});
      delete (body.algorithm.data as Record<string, unknown>)['min_sample_size'];
      expect(await refusal(body)).toContain('Invalid routing rule configuration: data.min_sample_size: invalid_shape');
      expect(await refusal(abTest({ guardrail_threshold_pp: '3' }))).toContain('data.guardrail_threshold_pp: invalid_shape');
      expect(await refusal(abTest({ variant_sr_config: { hedging_percent: 'lots' } }))).toContain('data.variant_sr_config.hedging_percent');
    });

    it('refuses out-of-range overrides and thresholds', async () => {
      const message = await refusal(
        abTest({ guardrail_threshold_pp: 0, min_sample_size: 0, variant_sr_config: { hedging_percent: 150, elimination_threshold: 2, margin: 0 } }),
      );
      for (const path of [
        'data.guardrail_threshold_pp',
        'data.min_sample_size',
        'data.variant_sr_config.hedging_percent',
        'data.variant_sr_config.elimination_threshold',
        'data.variant_sr_config.margin',
      ]) {
        expect(message).toContain(path);
      }
    });

    it('refuses arms naming no algorithm of the merchant, another merchant’s, or another experiment', async () => {
      expect(await refusal(abTest({ variant_algorithm_id: 'routing_nope' }))).toContain("data.variant_algorithm_id: unknown_algorithm: 'routing_nope'");
      const othersRule = await createOk(priority(merchantB, ['stripe']), keyB);
      expect(await refusal(abTest({ control_algorithm_id: othersRule }))).toContain('data.control_algorithm_id: unknown_algorithm');
      const experiment = await createOk(abTest({}));
      expect(await refusal(abTest({ variant_algorithm_id: experiment }))).toContain('experiments cannot be nested');
    });
  });

  describe('activation and editing', () => {
    it('refuses to edit or delete an active experiment, and allows both once deactivated', async () => {
      const id = await createOk(abTest({}));
      await activate(id);
      const update = await post('/routing/update', { created_by: merchantA, routing_algorithm_id: id, name: 'renamed' });
      expect(update.statusCode).toBe(400);
      expect(update.json()).toMatchObject({ message: 'This experiment is active. Stop it before editing or deleting.' });
      const remove = await post('/routing/delete', { created_by: merchantA, routing_algorithm_id: id });
      expect(remove.statusCode).toBe(400);
      await deactivate(id);
      expect((await post('/routing/update', { created_by: merchantA, routing_algorithm_id: id, name: 'renamed' })).statusCode).toBe(200);
      expect((await post('/routing/delete', { created_by: merchantA, routing_algorithm_id: id })).statusCode).toBe(200);
    });
  });

  describe('assignment on /decide-gateway', () => {
    it('leaves payments alone until the merchant turns ab-test-real-payments on', async () => {
      const id = await createOk(abTest({}));
      await activate(id);
      const answer = await decide('exp-off-1');
      expect(answer.routing_approach).not.toBe('AB_TEST_STATIC_ALGORITHM');
      expect(await experimentOfLastDecision('exp-off-1')).toBeUndefined();
      await deactivate(id);
    });

    it('gives each payment its hashed arm, the same on every retry, at the split ratio', async () => {
      const id = await createOk(abTest({ variant_split_pct: 30 }));
      await activate(id);
      await setMerchantFeature(t.state.configs, merchantA, 'ab-test-real-payments', true);
      let variant = 0;
      const total = 200;
      for (let index = 0; index < total; index += 1) {
        const paymentId = `exp-split-${index}`;
        await decide(paymentId);
        const recorded = await experimentOfLastDecision(paymentId);
        expect(recorded).toMatchObject({ experimentId: id, experimentArm: assignArm(paymentId, 30), guardrailTripped: false });
        if (recorded?.experimentArm === 'variant') variant += 1;
      }
      expect(Math.abs(variant / total - 0.3)).toBeLessThan(0.07);
      for (const paymentId of ['exp-split-1', 'exp-split-2', 'exp-split-3']) {
        const first = await experimentOfLastDecision(paymentId);
        await decide(paymentId);
        expect((await experimentOfLastDecision(paymentId))?.experimentArm).toBe(first?.experimentArm);
      }
      await deactivate(id);
      await setMerchantFeature(t.state.configs, merchantA, 'ab-test-real-payments', false);
    }, 60_000);

    it("answers a static arm with that algorithm's pick and AB_TEST_STATIC_ALGORITHM", async () => {
      const adyenOnly = await createOk(priority(merchantA, ['adyen', 'stripe']));
      const id = await createOk(abTest({ variant_algorithm_id: adyenOnly, variant_split_pct: 49 }));
      await activate(id);
      await setMerchantFeature(t.state.configs, merchantA, 'ab-test-real-payments', true);
      const paymentIds = Array.from({ length: 40 }, (_, index) => `exp-static-${index}`);
      const variantIds = paymentIds.filter((paymentId) => assignArm(paymentId, 49) === 'variant');
      expect(variantIds.length).toBeGreaterThan(5);
      for (const paymentId of variantIds) {
        const answer = await decide(paymentId);
        expect(answer).toMatchObject({ decided_gateway: 'adyen', routing_approach: 'AB_TEST_STATIC_ALGORITHM' });
        expect(await experimentOfLastDecision(paymentId)).toMatchObject({ experimentArm: 'variant', experimentId: id });
        // The static pick is not the SR policy's: no propensity is logged for it (nothing to replay).
        const payload = t.events.filter((event) => event.type === 'decision.created' && (event.payload as { paymentId: string }).paymentId === paymentId).at(-1)
          ?.payload as unknown as Record<string, unknown>;
        expect(payload.policy).toBeUndefined();
      }
      const controlId = paymentIds.find((paymentId) => assignArm(paymentId, 49) === 'control') as string;
      expect((await decide(controlId)).routing_approach).not.toBe('AB_TEST_STATIC_ALGORITHM');
      await deactivate(id);
      await setMerchantFeature(t.state.configs, merchantA, 'ab-test-real-payments', false);
    });
  });

  describe('results, transactions and the guardrail', () => {
    let experimentId: string;
    const paymentIds = Array.from({ length: 120 }, (_, index) => `exp-res-${index}`);

    beforeAll(async () => {
      // Auth-only (no arm runs the cost-aware post-step), so the test is on auth rate and cost fields are null.
      experimentId = await createOk(abTest({ variant_split_pct: 40, min_sample_size: 20, variant_sr_config: { hedging_percent: 0 } }));
      await activate(experimentId);
      await setMerchantFeature(t.state.configs, merchantA, 'ab-test-real-payments', true);
      for (const paymentId of paymentIds) {
        const answer = await decide(paymentId);
        // Control payments all succeed; the variant's fail one in two: far past a 3 pp guardrail.
        const arm = assignArm(paymentId, 40);
        const index = Number(paymentId.split('-').at(-1));
        const status = arm === 'control' || index % 2 === 0 ? 'CHARGED' : 'AUTHORIZATION_FAILED';
        const feedback = await post('/update-gateway-score', { merchantId: merchantA, gateway: answer.decided_gateway, paymentId, status });
        expect(feedback.statusCode, feedback.body).toBe(200);
      }
      await t.eventsCaughtUp();
      await analytics.caughtUp();
    }, 60_000);

    it('reports each arm and leaves traffic alone on a read with overridden thresholds', async () => {
      const { status, body } = await get(`/analytics/experiment/${experimentId}/results?guardrail_threshold_pp=60`);
      expect(status, JSON.stringify(body)).toBe(200);
      const validate = ajv.getSchema('ExperimentResults')!;
      expect(validate(body), JSON.stringify(validate.errors)).toBe(true);
      const variantCount = paymentIds.filter((paymentId) => assignArm(paymentId, 40) === 'variant').length;
      const control = body['control'] as Record<string, number>;
      const variant = body['variant'] as Record<string, number>;
      expect(control['transaction_count']).toBe(paymentIds.length - variantCount);
      expect(control['auth_rate']).toBe(1);
      expect(variant['transaction_count']).toBe(variantCount);
      expect(Number(variant['success_count']) + Number(variant['failure_count'])).toBe(variantCount);
      expect(variant['auth_rate']).toBeLessThan(0.7);
      expect(body).toMatchObject({
        experiment_id: experimentId,
        merchant_id: merchantA,
        verdict: 'variant_loses',
        guardrail_tripped: false,
        net_delta_bps: null,
      });
      expect(body['p_value']).toBeLessThan(0.05);
      expect(await t.state.configs.get(merchantA, 'experimentGuardrail')).toBeUndefined();
    });

    it('never stops the experiment on a read: the read reports the breach, the scheduled check stops it with its evidence', async () => {
      // Reads are side-effect free: reading as often as anyone likes changes no traffic.
      for (let read = 0; read < 3; read += 1) {
        const { status, body } = await get(`/analytics/experiment/${experimentId}/results`);
        expect(status).toBe(200);
        expect(body).toMatchObject({ verdict: 'guardrail_breached', guardrail_tripped: false, running: true, guardrail_stop: null });
        expect(body['guardrail_test']).toMatchObject({ method: 'msprt', breached: true, threshold_pp: 3 });
      }
      expect(await t.state.configs.get(merchantA, 'experimentGuardrail')).toBeUndefined();
      // The job's next tick (it reads the decisions of its lookback up to now).
      t.clock.advance(60_000);
      const stops = await runGuardrailChecks({ state: t.state, analytics: analytics.store, clock: t.clock, logger: silentLogger, lookbackMs: 3_600_000 });
      expect(stops).toHaveLength(1);
      const { status, body } = await get(`/analytics/experiment/${experimentId}/results`);
      expect(status).toBe(200);
      const validate = ajv.getSchema('ExperimentResults')!;
      expect(validate(body), JSON.stringify(validate.errors)).toBe(true);
      expect(body).toMatchObject({
        verdict: 'guardrail_breached',
        guardrail_tripped: true,
        running: false,
        guardrail_threshold_pp: 3,
        min_sample_size: 20,
        guardrail_stop: { stopped_at_ms: now + 60_000, trigger: 'schedule', control_auth_rate: 1, threshold_pp: 3, test: 'msprt' },
      });
      const stop = body['guardrail_stop'] as { p_value: number; delta_pp: number; confidence_interval_pp: [number, number] };
      expect(stop.p_value).toBeLessThan(0.05);
      expect(stop.delta_pp).toBeLessThan(-3);
      expect(stop.confidence_interval_pp[1]).toBeLessThan(0);
      const active = await post(`/routing/list/active/${merchantA}`, {});
      expect((active.json() as { id: string }[]).map((record) => record.id)).not.toContain(experimentId);
      const variantIds = Array.from({ length: 40 }, (_, index) => `exp-after-${index}`).filter((paymentId) => assignArm(paymentId, 40) === 'variant');
      expect(variantIds.length).toBeGreaterThan(5);
      for (const paymentId of variantIds) {
        await decide(paymentId);
        expect(await experimentOfLastDecision(paymentId)).toBeUndefined();
      }
    });

    it('pages the payments with their arm, gateway and outcome, page_size capped at 100', async () => {
      const first = await get(`/analytics/experiment/${experimentId}/transactions?page=1&page_size=5`);
      expect(first.status, JSON.stringify(first.body)).toBe(200);
      const validate = ajv.getSchema('ExperimentTransactions')!;
      expect(validate(first.body), JSON.stringify(validate.errors)).toBe(true);
      expect(first.body['total']).toBeGreaterThanOrEqual(paymentIds.length);
      const rows = first.body['transactions'] as { payment_id: string; variant_arm: string; status: string }[];
      expect(rows).toHaveLength(5);
      const capped = await get(`/analytics/experiment/${experimentId}/transactions?page_size=500`);
      expect(capped.body['page_size']).toBe(100);
      const all = [
        ...((capped.body['transactions'] as typeof rows) ?? []),
        ...((await get(`/analytics/experiment/${experimentId}/transactions?page=2&page_size=100`)).body['transactions'] as typeof rows),
      ];
      const seen = all.find((row) => row.payment_id === 'exp-res-1');
      expect(seen).toMatchObject({ variant_arm: assignArm('exp-res-1', 40), status: assignArm('exp-res-1', 40) === 'control' ? 'success' : 'failure' });
    });

    it('answers 404 for another merchant’s experiment and 403 for naming another merchant', async () => {
      const other = await get(`/analytics/experiment/${experimentId}/results`, keyB);
      expect(other.status).toBe(404);
      expect(other.body).toMatchObject({ code: 'TE_04', message: `Experiment not found for the provided id : ${experimentId}` });
      expect((await get(`/analytics/experiment/${experimentId}/transactions`, keyB)).status).toBe(404);
      const named = await t.app.inject({ method: 'GET', url: `/analytics/experiment/${experimentId}/results?merchant_id=${merchantA}`, headers: keyB });
      expect(named.statusCode).toBe(403);
      expect((await get('/analytics/experiment/routing_unknown/results')).status).toBe(404);
    });

    it('refuses malformed queries with 400 naming the problem', async () => {
      for (const query of ['page_size=0', 'page=abc']) {
        expect((await get(`/analytics/experiment/${experimentId}/transactions?${query}`)).status).toBe(400);
      }
      for (const query of ['guardrail_threshold_pp=-1', 'min_sample_size=0', 'evaluation_margin=2']) {
        expect((await get(`/analytics/experiment/${experimentId}/results?${query}`)).status).toBe(400);
      }
      const reversed = await get(`/analytics/experiment/${experimentId}/results?start_ms=${now}&end_ms=${now - 1}`);
      expect(reversed.status).toBe(400);
      expect(reversed.body['message']).toContain('end_ms');
    });
  });
});
