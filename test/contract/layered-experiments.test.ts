import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { setMerchantFeature } from '../../src/decision/features/merchant-features.js';
import { assignArm } from '../../src/experiments/assign-arm.js';
import { runGuardrailChecks } from '../../src/experiments/run-guardrail-checks.js';
import { silentLogger, type Logger } from '../../src/logging/logger.js';
import * as experimentGuardrailWorker from '../../workers/experiment-guardrail.js';
import { createManualClock } from '../../src/time/clock.js';
import { openChdbAnalytics, type ChdbAnalyticsUnderTest } from '../helpers/chdb-analytics.js';
import { createMerchant, createTestApp, decideBody, withKey, type TestApp } from '../helpers/test-app.js';

/**
 * Layered experiments (docs/experiments.md; decision-engine #434): the experiment slot beside the
 * active rule, arms made of a rule layer, an SR layer or both on /decide-gateway, /routing/evaluate
 * and /routing/hybrid, the settings lock once payments are recorded, and the guardrail stopping the
 * experiment (the scheduled check and a results read) with its evidence recorded.
 */

const now = Date.UTC(2026, 8, 20, 12, 0, 0);
const merchant = 'm-layered';
const split = 40;

describe('layered experiments', () => {
  let t: TestApp;
  let analytics: ChdbAnalyticsUnderTest;
  let key: Record<string, string>;

  beforeAll(async () => {
    analytics = await openChdbAnalytics('layered_experiments');
    t = await createTestApp({ clock: createManualClock(now), analytics: analytics.store });
    await analytics.startSink(t.bus, t.clock);
    key = withKey((await createMerchant(t.app, merchant)).apiKey);
    await setMerchantFeature(t.state.configs, merchant, 'ab-test-real-payments', true);
  }, 60_000);

  afterAll(async () => {
    await analytics?.close(t);
  });

  const post = (url: string, payload: Record<string, unknown>) => t.app.inject({ method: 'POST', url, headers: key, payload });
  const createOk = async (body: Record<string, unknown>): Promise<string> => {
    const response = await post('/routing/create', { created_by: merchant, ...body });
    expect(response.statusCode, response.body).toBe(200);
    return (response.json() as { rule_id: string }).rule_id;
  };
  const priority = (...gateways: string[]) =>
    createOk({
      name: `priority-${gateways.join('-')}`,
      algorithm: { type: 'priority', data: gateways.map((gateway_name) => ({ gateway_name, gateway_id: null })) },
    });
  const experiment = (data: Record<string, unknown>, name = 'layered') =>
    createOk({
      name,
      algorithm_for: 'payment',
      algorithm: { type: 'ab_test', data: { variant_split_pct: split, min_sample_size: 20, guardrail_threshold_pp: 3, ...data } },
    });
  const activate = async (id: string) => expect((await post('/routing/activate', { created_by: merchant, routing_algorithm_id: id })).statusCode).toBe(200);
  const deactivate = async (id: string) => expect((await post('/routing/deactivate', { created_by: merchant, routing_algorithm_id: id })).statusCode).toBe(200);
  const activeIds = async () => {
    const response = await post(`/routing/list/active/${merchant}`, {});
    expect(response.statusCode).toBe(200);
    return (response.json() as { id: string }[]).map((record) => record.id);
  };
  const paymentsOf = (prefix: string, arm: 'control' | 'variant', count: number) =>
    Array.from({ length: count * 20 + 20 }, (_, index) => `${prefix}-${index}`)
      .filter((paymentId) => assignArm(paymentId, split) === arm)
      .slice(0, count);
  const lastEvent = async (type: string, paymentId: string) => {
    await t.eventsCaughtUp();
    return t.events.filter((event) => event.type === type && (event.payload as { paymentId: string }).paymentId === paymentId).at(-1)?.payload as
      | Record<string, unknown>
      | undefined;
  };

  describe('the experiment slot', () => {
    it('keeps the active rule beside a running experiment, lists both, and never stops one by activating the other', async () => {
      const rule = await priority('stripe', 'adyen');
      const otherRule = await priority('adyen', 'stripe');
      const running = await experiment({ control_algorithm_id: 'sr_routing', variant_algorithm_id: 'sr_routing', variant_sr_config: { hedging_percent: 0 } });
      await activate(rule);
      await activate(running);
      expect(await activeIds()).toEqual([rule, running]);
      await activate(otherRule);
      expect(await activeIds()).toEqual([otherRule, running]);
      await deactivate(running);
      expect(await activeIds()).toEqual([otherRule]);
      await deactivate(otherRule);
      expect(await activeIds()).toEqual([]);
    });

    it('replaces the running experiment with a newly activated one, and retires one left in the rule slot by an older activation', async () => {
      const rule = await priority('stripe');
      const first = await experiment({ control_algorithm_id: 'sr_routing', variant_algorithm_id: rule }, 'first');
      const second = await experiment({ control_algorithm_id: rule, variant_algorithm_id: 'sr_routing' }, 'second');
      await activate(first);
      await activate(second);
      expect(await activeIds()).toEqual([second]);
      // An activation from before the slot existed: the experiment sits in the rule slot and still routes.
      await deactivate(second);
      await t.state.routingRules.activate(merchant, 'payment', first);
      const variantPayment = paymentsOf('legacy', 'variant', 1)[0] as string;
      const answer = await post('/decide-gateway', decideBody(merchant, variantPayment));
      expect(answer.statusCode, answer.body).toBe(200);
      expect(answer.json()).toMatchObject({ decided_gateway: 'stripe', routing_approach: 'AB_TEST_STATIC_ALGORITHM' });
      await activate(second);
      expect(await activeIds()).toEqual([second]);
      await deactivate(second);
    });

    it('moves an experiment left in the rule slot into the experiment slot when a rule is activated, so it keeps running', async () => {
      const rule = await priority('adyen');
      const legacy = await experiment({ control_algorithm_id: 'sr_routing', variant_algorithm_id: rule }, 'legacy');
      await t.state.routingRules.activate(merchant, 'payment', legacy);
      await activate(rule);
      expect(await t.state.routingRules.activeIds(merchant)).toEqual({ payment: rule, payment_experiment: legacy });
      expect(await activeIds()).toEqual([rule, legacy]);
      await deactivate(legacy);
      await deactivate(rule);
    });
  });

  describe('layered arms on each endpoint', () => {
    let controlRule: string;
    let variantRule: string;
    let running: string;
    let activeRule: string;

    beforeAll(async () => {
      activeRule = await priority('checkout', 'stripe', 'adyen');
      controlRule = await priority('stripe', 'adyen');
      variantRule = await priority('adyen', 'stripe');
      // Control: its rule only. Variant: its rule and SR routing without hedging.
      running = await experiment({ control: { rule_algorithm_id: controlRule }, variant: { rule_algorithm_id: variantRule, sr: { hedging_percent: 0 } } });
      await activate(activeRule);
      await activate(running);
    });

    afterAll(async () => {
      await deactivate(running);
      await deactivate(activeRule);
    });

    it('evaluates each covered payment by its arm rule on /routing/evaluate, and the active rule without a payment id', async () => {
      for (const [arm, first] of [
        ['control', 'stripe'],
        ['variant', 'adyen'],
      ] as const) {
        for (const paymentId of paymentsOf(`ev-${arm}`, arm, 3)) {
          const response = await post('/routing/evaluate', { created_by: merchant, payment_id: paymentId, parameters: {} });
          expect(response.statusCode, response.body).toBe(200);
          expect((response.json() as { evaluated_output: { gateway_name: string }[] }).evaluated_output[0]?.gateway_name).toBe(first);
          expect((await lastEvent('rule.evaluated', paymentId))?.['experiment']).toEqual({
            experimentId: running,
            experimentArm: arm,
            armAlgorithmId: arm === 'control' ? controlRule : variantRule,
            endpoint: 'evaluate',
          });
        }
      }
      const unattributed = await post('/routing/evaluate', { created_by: merchant, parameters: {} });
      expect((unattributed.json() as { evaluated_output: { gateway_name: string }[] }).evaluated_output[0]?.gateway_name).toBe('checkout');
    });

    it('answers a rule-only arm with its rule and decides an arm with an SR layer by success rate on /decide-gateway', async () => {
      const body = (paymentId: string) => decideBody(merchant, paymentId, { eligibleGatewayList: ['stripe', 'adyen', 'checkout'] });
      for (const paymentId of paymentsOf('dg-control', 'control', 3)) {
        const answer = (await post('/decide-gateway', body(paymentId))).json() as Record<string, unknown>;
        expect(answer).toMatchObject({ decided_gateway: 'stripe', routing_approach: 'AB_TEST_STATIC_ALGORITHM' });
        expect((await lastEvent('decision.created', paymentId))?.['experiment']).toMatchObject({
          experimentId: running,
          experimentArm: 'control',
          armAlgorithmId: controlRule,
          endpoint: 'decide_gateway',
        });
      }
      for (const paymentId of paymentsOf('dg-variant', 'variant', 3)) {
        const answer = (await post('/decide-gateway', body(paymentId))).json() as { decided_gateway: string; routing_approach: string };
        // The variant's rule narrowed the candidates (checkout is out), then SR decided.
        expect(['adyen', 'stripe']).toContain(answer.decided_gateway);
        expect(answer.routing_approach).not.toBe('AB_TEST_STATIC_ALGORITHM');
        expect((await lastEvent('decision.created', paymentId))?.['experiment']).toMatchObject({ experimentArm: 'variant', endpoint: 'decide_gateway' });
      }
    });

    it('applies both layers on /routing/hybrid: a rule-only arm answers its rule output, an SR arm decides over its rule', async () => {
      // The dynamic half of /routing/hybrid runs only with the merchant's sr-routing feature (decision-engine #433).
      await setMerchantFeature(t.state.configs, merchant, 'sr-routing', true);
      const hybrid = (paymentId: string) =>
        post('/routing/hybrid', {
          static_routing_request: { created_by: merchant, payment_id: paymentId, parameters: {} },
          dynamic_routing_request: decideBody(merchant, paymentId, { eligibleGatewayList: [] }),
        });
      const control = paymentsOf('hy-control', 'control', 1)[0] as string;
      const controlResponse = await hybrid(control);
      expect(controlResponse.statusCode, controlResponse.body).toBe(200);
      const controlAnswer = controlResponse.json() as Record<string, unknown>;
      expect(controlAnswer).not.toHaveProperty('dynamic_routing');
      expect(controlAnswer['evaluated_connectors']).toEqual([
        { gateway_name: 'stripe', gateway_id: null },
        { gateway_name: 'adyen', gateway_id: null },
      ]);
      expect((await lastEvent('rule.evaluated', control))?.['experiment']).toMatchObject({ experimentArm: 'control', endpoint: 'hybrid_routing' });
      const variant = paymentsOf('hy-variant', 'variant', 1)[0] as string;
      const variantResponse = await hybrid(variant);
      expect(variantResponse.statusCode, variantResponse.body).toBe(200);
      const variantAnswer = variantResponse.json() as { dynamic_routing: { status: string; decision: { decided_gateway: string } } };
      expect(variantAnswer.dynamic_routing.status).toBe('success');
      expect(['adyen', 'stripe']).toContain(variantAnswer.dynamic_routing.decision.decided_gateway);
      expect((await lastEvent('decision.created', variant))?.['experiment']).toMatchObject({
        experimentId: running,
        experimentArm: 'variant',
        endpoint: 'hybrid_routing',
      });
    });

    it('reads results and transactions per endpoint, and refuses an unknown endpoint with 400', async () => {
      await t.eventsCaughtUp();
      await analytics.caughtUp();
      const assigned = async (endpoint: string) => {
        const response = await t.app.inject({ method: 'GET', url: `/analytics/experiment/${running}/results?endpoint=${endpoint}`, headers: key });
        expect(response.statusCode, response.body).toBe(200);
        const body = response.json() as Record<string, { assigned_count: number }>;
        return [body['control']?.assigned_count, body['variant']?.assigned_count];
      };
      expect(await assigned('evaluate')).toEqual([3, 3]);
      expect(await assigned('decide_gateway')).toEqual([3, 3]);
      expect(await assigned('hybrid_routing')).toEqual([1, 1]);
      const page = await t.app.inject({ method: 'GET', url: `/analytics/experiment/${running}/transactions?endpoint=hybrid_routing`, headers: key });
      expect((page.json() as { total: number }).total).toBe(2);
      const unknown = await t.app.inject({ method: 'GET', url: `/analytics/experiment/${running}/results?endpoint=payouts`, headers: key });
      expect(unknown.statusCode).toBe(400);
      expect(unknown.body).toContain('endpoint');
    });

    it('leaves payments outside the experiment on an endpoint it does not split', async () => {
      // Only SR settings differ: /routing/evaluate applies no SR layer, so it never splits there.
      const srOnly = await experiment({ control: { sr: {} }, variant: { sr: { hedging_percent: 0 } } }, 'sr-only');
      await activate(srOnly);
      const paymentId = paymentsOf('ev-sr-only', 'variant', 1)[0] as string;
      const response = await post('/routing/evaluate', { created_by: merchant, payment_id: paymentId, parameters: {} });
      expect((response.json() as { evaluated_output: { gateway_name: string }[] }).evaluated_output[0]?.gateway_name).toBe('checkout');
      expect((await lastEvent('rule.evaluated', paymentId))?.['experiment']).toBeUndefined();
      await activate(running);
    });

    it('refuses arms without layers, identical arms and unknown endpoints with 400 naming the field', async () => {
      const refusal = async (data: Record<string, unknown>) => {
        const response = await post('/routing/create', {
          created_by: merchant,
          name: 'bad',
          algorithm: { type: 'ab_test', data: { variant_split_pct: 10, min_sample_size: 10, guardrail_threshold_pp: 3, ...data } },
        });
        expect(response.statusCode, response.body).toBe(400);
        return (response.json() as { message: string }).message;
      };
      expect(await refusal({ control: {}, variant: { sr: {} } })).toContain('data.control');
      expect(await refusal({ control: { sr: {} }, variant: { sr: {} } })).toContain('the same layers on every selected endpoint');
      expect(
        await refusal({ control: { rule_algorithm_id: controlRule }, variant: { rule_algorithm_id: variantRule }, endpoints: ['decide_gateway', 'payouts'] }),
      ).toContain('data.endpoints[1]');
      expect(await refusal({ control: { rule_algorithm_id: 'routing_gone' }, variant: { sr: {} } })).toContain(
        'data.control.rule_algorithm_id: unknown_algorithm',
      );
    });
  });

  describe('the settings lock and the guardrail stop', () => {
    let locked: string;
    let rule: string;

    beforeAll(async () => {
      rule = await priority('stripe', 'adyen');
      locked = await experiment({ control: { sr: {} }, variant: { sr: { hedging_percent: 0 } } }, 'guarded');
      await activate(rule);
      await activate(locked);
      for (const paymentId of Array.from({ length: 120 }, (_, index) => `guard-${index}`)) {
        const answer = (await post('/decide-gateway', decideBody(merchant, paymentId))).json() as { decided_gateway: string };
        // Control always succeeds; the variant fails one payment in two: far past a 3 pp guardrail.
        const failing = assignArm(paymentId, split) === 'variant' && Number(paymentId.split('-').at(-1)) % 2 === 1;
        const feedback = await post('/update-gateway-score', {
          merchantId: merchant,
          gateway: answer.decided_gateway,
          paymentId,
          status: failing ? 'AUTHORIZATION_FAILED' : 'CHARGED',
        });
        expect(feedback.statusCode).toBe(200);
      }
      await t.eventsCaughtUp();
      await analytics.caughtUp();
      await deactivate(locked);
    }, 60_000);

    it('refuses a change of routing setup once payments are recorded, and allows name, sample target and guardrail', async () => {
      const change = (data: Record<string, unknown>, name = 'guarded') =>
        post('/routing/update', {
          created_by: merchant,
          routing_algorithm_id: locked,
          name,
          algorithm: {
            type: 'ab_test',
            data: {
              control: { sr: {} },
              variant: { sr: { hedging_percent: 0 } },
              variant_split_pct: split,
              min_sample_size: 20,
              guardrail_threshold_pp: 3,
              ...data,
            },
          },
        });
      const refused = await change({ variant_split_pct: 10 });
      expect(refused.statusCode).toBe(400);
      expect(refused.json()).toEqual({
        code: 'TE_04',
        message: 'This experiment has recorded payments, so only its name, sample target and guardrail can change. Duplicate it to test a different setup.',
        data: null,
      });
      expect((await change({ variant: { sr: { hedging_percent: 5 } } })).statusCode).toBe(400);
      const allowed = await change({ min_sample_size: 25, guardrail_threshold_pp: 3 }, 'guarded (renamed)');
      expect(allowed.statusCode, allowed.body).toBe(200);
      // A fresh experiment with no payments can change every setting.
      const fresh = await experiment({ control: { sr: {} }, variant: { sr: { hedging_percent: 0 } } }, 'fresh');
      const freshChange = await post('/routing/update', {
        created_by: merchant,
        routing_algorithm_id: fresh,
        algorithm: {
          type: 'ab_test',
          data: { control: { sr: {} }, variant: { sr: { hedging_percent: 10 } }, variant_split_pct: 5, min_sample_size: 20, guardrail_threshold_pp: 3 },
        },
      });
      expect(freshChange.statusCode, freshChange.body).toBe(200);
    });

    it('stops a breached experiment on the scheduled check, keeps the active rule, and records when and on what evidence', async () => {
      await activate(locked);
      expect(await activeIds()).toEqual([rule, locked]);
      t.clock.advance(60_000);
      const stops = await runGuardrailChecks({ state: t.state, analytics: analytics.store, clock: t.clock, logger: silentLogger, lookbackMs: 3_600_000 });
      expect(stops).toHaveLength(1);
      expect(await activeIds()).toEqual([rule]);
      const results = await t.app.inject({ method: 'GET', url: `/analytics/experiment/${locked}/results`, headers: key });
      expect(results.statusCode).toBe(200);
      const body = results.json() as Record<string, unknown>;
      expect(body).toMatchObject({ verdict: 'guardrail_breached', guardrail_tripped: true, running: false });
      const stop = body['guardrail_stop'] as Record<string, number | string>;
      expect(stop).toMatchObject({ stopped_at_ms: now + 60_000, trigger: 'schedule', control_auth_rate: 1, threshold_pp: 3 });
      expect(stop['variant_auth_rate']).toBeLessThan(0.7);
      expect(Number(stop['control_transactions'])).toBeGreaterThanOrEqual(20);
      expect(Number(stop['variant_transactions'])).toBeGreaterThanOrEqual(20);
      // Payments are routed by the rule again, outside the experiment.
      const paymentId = paymentsOf('after-stop', 'variant', 1)[0] as string;
      expect((await post('/decide-gateway', decideBody(merchant, paymentId))).statusCode).toBe(200);
      expect((await lastEvent('decision.created', paymentId))?.['experiment']).toBeUndefined();
      // Nothing left to stop on the next tick.
      expect(await runGuardrailChecks({ state: t.state, analytics: analytics.store, clock: t.clock, logger: silentLogger, lookbackMs: 3_600_000 })).toEqual([]);
    });

    it('starts a new observation period when the stopped experiment is activated again', async () => {
      await activate(locked);
      t.clock.advance(60_000);
      // The payments before the stop no longer count: nothing breaches until new ones arrive.
      expect(await runGuardrailChecks({ state: t.state, analytics: analytics.store, clock: t.clock, logger: silentLogger, lookbackMs: 3_600_000 })).toEqual([]);
      const results = (await t.app.inject({ method: 'GET', url: `/analytics/experiment/${locked}/results`, headers: key })).json() as Record<string, unknown>;
      expect(results).toMatchObject({ running: true, guardrail_tripped: false, guardrail_stop: { trigger: 'schedule' } });
      await deactivate(locked);
    });

    it('runs by itself on the JobQueue scheduler: a tick stops the breached experiment', async () => {
      // Forget the earlier stop, so the whole history counts again and breaches.
      await t.state.configs.put(
        merchant,
        'experimentGuardrail',
        { experimentId: 'routing_other', experimentModifiedAt: 0, trippedAt: 0, controlAuthRate: 1, variantAuthRate: 1, thresholdPp: 3 },
        'upsert',
      );
      await activate(locked);
      let stopped: (details: object) => void = () => undefined;
      const stop = new Promise<object>((resolve) => {
        stopped = resolve;
      });
      const logger: Logger = {
        ...silentLogger,
        warn: (details, message) => {
          if (message === 'experiment guardrail breached: experiment stopped') stopped(details);
        },
        child: () => logger,
      };
      const worker = await experimentGuardrailWorker.start({
        jobs: t.jobs,
        intervalMs: 50,
        checks: { state: t.state, analytics: analytics.store, clock: t.clock, logger, lookbackMs: 3_600_000 },
      });
      try {
        expect(await stop).toMatchObject({ merchantId: merchant, experimentId: locked, thresholdPp: 3 });
        expect(await activeIds()).toEqual([rule]);
        expect(await t.state.configs.get(merchant, 'experimentGuardrail')).toMatchObject({ experimentId: locked, trigger: 'schedule' });
      } finally {
        await worker.close();
        await t.jobs.unschedule('experiment-guardrail', 'check');
      }
      await deactivate(rule);
    });
  });
});
