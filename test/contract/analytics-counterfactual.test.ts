import { Ajv } from 'ajv';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { httpSchemas } from '../../api/http-schemas.js';
import { createAutopilotEstimator } from '../../src/analytics/counterfactual/autopilot-estimator.js';
import { createRunCounterfactual } from '../../src/analytics/counterfactual/run-counterfactual.js';
import { defaultCalibrationBounds } from '../../src/decision/autopilot/calibration-formulas.js';
import { calibrateMerchant } from '../../src/decision/autopilot/run-autopilot.js';
import { defaultRoutingDefaults } from '../../src/decision/routing-defaults.js';
import { silentLogger } from '../../src/logging/logger.js';
import { createManualClock } from '../../src/time/clock.js';
import { openChdbAnalytics, type ChdbAnalyticsUnderTest } from '../helpers/chdb-analytics.js';
import { createMerchant, createTestApp, decideBody, withKey, type TestApp } from '../helpers/test-app.js';
import { runLoggedTraffic, trafficGateways } from '../helpers/counterfactual-traffic.js';
import { createSeededRandom } from '../helpers/seeded-random.js';

/**
 * POST /analytics/counterfactual on the embedded spine: real decisions (hedging draws from a seeded
 * source) and their score feedback go through the bus, the analytics sink writes the decisions'
 * policies and the feedback to chDB, and the route evaluates candidate configurations on them.
 */
const start = Date.UTC(2026, 2, 10, 9, 0, 0);
const merchantA = 'm-counterfactual-a';
const merchantB = 'm-counterfactual-b';
const decisions = 160;

describe('POST /analytics/counterfactual', () => {
  let t: TestApp;
  let analytics: ChdbAnalyticsUnderTest;
  let keyA: Record<string, string>;
  let keyB: Record<string, string>;
  let traffic: Awaited<ReturnType<typeof runLoggedTraffic>>;
  const clock = createManualClock(start);
  const ajv = new Ajv({ strict: false });
  for (const schema of httpSchemas) ajv.addSchema(schema);

  beforeAll(async () => {
    analytics = await openChdbAnalytics('counterfactual');
    t = await createTestApp({ clock, analytics: analytics.store, random: createSeededRandom(7) });
    await analytics.startSink(t.bus, clock);
    keyA = withKey((await createMerchant(t.app, merchantA)).apiKey);
    keyB = withKey((await createMerchant(t.app, merchantB)).apiKey);
    // Hedging 20 % so the logs explore; fees for every gateway so EV can be estimated.
    await t.state.configs.put(merchantA, 'successRate', { defaultBucketSize: 20, defaultHedgingPercent: 20 }, 'upsert');
    traffic = await runLoggedTraffic({ t, headers: keyA, merchantId: merchantA, decisions, clock, seed: 11 });
    await analytics.caughtUp();
  }, 120_000);

  afterAll(async () => {
    await analytics?.close(t);
  });

  const post = async (payload: Record<string, unknown>, headers: Record<string, string> = keyA) => {
    const response = await t.app.inject({ method: 'POST', url: '/analytics/counterfactual', headers, payload });
    const json = response.headers['content-type']?.toString().startsWith('application/json') === true;
    // biome-ignore lint/suspicious/noExplicitAny: the test walks JSON answers already checked against their schema
    return { status: response.statusCode, body: (json ? response.json() : { text: response.body }) as Record<string, any> };
  };
  const range = { start_ms: start, end_ms: start + decisions * 1000 + 1 };

  it('logs every decision with the propensity of its choice under the policy that made it', async () => {
    const logged = await analytics.store.loggedDecisions({
      merchantId: merchantA,
      fromMs: range.start_ms,
      toMs: range.end_ms,
      feedbackUntilMs: range.end_ms + 60_000,
      limit: 1000,
    });
    expect(logged).toHaveLength(decisions);
    const hedged = logged.filter((row) => Number(row.hedged) === 1);
    expect(hedged.length).toBeGreaterThan(0);
    expect(hedged.length).toBe(traffic.hedged);
    for (const row of logged) {
      const candidates = JSON.parse(row.candidates) as { gateway: string }[];
      expect(candidates.map((candidate) => candidate.gateway)).toEqual(trafficGateways);
      // Hedging 20 %: the hedged branch's gateway has 0.2, the top one 0.8 (1 when both branches agree).
      expect([0.2, 0.8, 1]).toContain(Number(row.propensity));
      expect(Number(row.hedged) === 1 ? [0.2, 1] : [0.8, 1]).toContain(Number(row.propensity));
      expect(row.feedback_status).toBe(traffic.outcomes.get(row.payment_id) ? 'CHARGED' : 'FAILURE');
    }
  });

  it('estimates a candidate configuration from the logged decisions and their feedback', async () => {
    await t.state.configs.put(merchantA, 'costModel', traffic.costModel, 'upsert');
    const { status, body } = await post({ ...range, hedging_percent: 0 });
    expect(status, JSON.stringify(body)).toBe(200);
    expect(ajv.validate('CounterfactualReport', body), JSON.stringify(ajv.errors)).toBe(true);
    expect(body).toMatchObject({
      merchant_id: merchantA,
      start_ms: range.start_ms,
      end_ms: range.end_ms,
      candidate: { bucket_size: 20, hedging_percent: 0, elimination_threshold: 0.05, multi_objective: false, margin: 1 },
      decisions,
      labelled: decisions,
      supported: true,
      reason: null,
      unsupported_share: 0,
      truncated: false,
    });
    // The logging policy's own success rate is the observed one.
    expect(body.logged.success_rate.value).toBeCloseTo(traffic.successes / decisions, 6);
    for (const name of ['ips', 'snips', 'doubly_robust']) {
      const estimate = body.success_rate[name];
      expect(estimate.ci95_low).toBeLessThanOrEqual(estimate.value);
      expect(estimate.ci95_high).toBeGreaterThanOrEqual(estimate.value);
      expect(estimate.value).toBeGreaterThan(0.3);
      expect(estimate.value).toBeLessThan(1);
    }
    // Never hedging keeps only the decisions that went to the top gateway: fewer effective samples.
    expect(body.effective_sample_size).toBeGreaterThan(20);
    expect(body.effective_sample_size).toBeLessThan(decisions);
    expect(body.ev.doubly_robust.value).toBeGreaterThan(0);
    expect(body.ev_message).toBeNull();
    // One estimate to read, with its interval and a sentence; no window was rescored (same bucket size).
    expect(body.recommended).toMatchObject({ estimator: 'doubly_robust', value: body.success_rate.doubly_robust.value });
    expect(body.recommended.ci95_low).toBeLessThanOrEqual(body.recommended.value);
    expect(body.explanation).toMatch(/^Doubly robust: /);
    expect(body).toMatchObject({ same_as_logging: false, rescoring: null });

    // The same configuration as the logs: every weight is 1, IPS is the observed rate.
    const same = await post({ ...range });
    expect(same.body.candidate.hedging_percent).toBe(20);
    expect(same.body.success_rate.ips.value).toBeCloseTo(traffic.successes / decisions, 6);
    expect(same.body.effective_sample_size).toBeCloseTo(decisions, 6);
    expect(same.body).toMatchObject({ same_as_logging: true, recommended: { estimator: 'logged', value: same.body.logged.success_rate.value } });
    expect(same.body.explanation).toMatch(/exactly as the logging policy did/);
    // Another bucket size replays the windows from the range's outcomes and says how much of them is real.
    const rescored = await post({ ...range, bucket_size: 40 });
    expect(rescored.status).toBe(200);
    expect(rescored.body.rescoring).toMatchObject({ bucket_size: 40, window_reads: decisions * 3 });
    expect(rescored.body.rescoring.real_entry_share).toBeGreaterThan(0);
    expect(rescored.body.rescoring.real_entry_share).toBeLessThan(1);
  });

  it('says plainly when the logs cannot support an estimate, with no number', async () => {
    // The cost post-step would send payments to checkout, which the logging policy only picked as its top.
    const promoted = await post({ ...range, multi_objective: true });
    expect(promoted.status).toBe(200);
    expect(promoted.body).toMatchObject({ supported: false, reason: 'no_overlap', success_rate: null, ev: null });
    expect(promoted.body.unsupported_gateways).toContain('checkout');
    expect(promoted.body.message).toMatch(/never made/);
    // A range without decisions.
    const empty = await post({ start_ms: start - 10_000, end_ms: start - 1 });
    expect(empty.body).toMatchObject({ supported: false, reason: 'no_logged_decisions', decisions: 0, success_rate: null });
  });

  it('reads only the credential merchant’s decisions and refuses another merchant with 403', async () => {
    const own = await post({ ...range }, keyB);
    expect(own.status).toBe(200);
    expect(own.body).toMatchObject({ merchant_id: merchantB, decisions: 0, supported: false });
    const other = await post({ ...range, merchant_id: merchantA }, keyB);
    expect(other.status).toBe(403);
    expect((await post({ ...range })).status).toBe(200);
    const anonymous = await t.app.inject({ method: 'POST', url: '/analytics/counterfactual', payload: range });
    expect(anonymous.statusCode).toBe(401);
  });

  it.each([
    [{ hedging_percent: 150 }, /hedging_percent/],
    [{ bucket_size: 0 }, /bucket_size/],
    [{ elimination_threshold: -0.1 }, /elimination_threshold/],
    [{ margin: 0 }, /margin/],
    [{ multi_objective: 'yes' }, /multi_objective/],
    [{ surprise: 1 }, /surprise|additional/],
    [{ start_ms: start }, /start_ms and end_ms must be given together/],
    [{ start_ms: start, end_ms: start }, /end_ms must be greater than start_ms/],
    [{ start_ms: start, end_ms: start + 40 * 86_400_000 }, /31 days/],
    [{ range: '2y' }, /range/],
  ])('answers 4xx naming the problem for %j', async (payload, message) => {
    const { status, body } = await post(payload);
    // Body-shape errors answer 422 as every body of this API does; range errors are 400; both in the JSON envelope.
    expect(status).toBe('start_ms' in payload ? 400 : 422);
    expect(body).toMatchObject({ code: 'TE_03' });
    expect(body['message']).toMatch(message);
  });

  it('answers no body at all (content-type JSON, zero length) as it answers {}', async () => {
    const headers = { ...keyA, 'content-type': 'application/json' };
    const none = await t.app.inject({ method: 'POST', url: '/analytics/counterfactual', headers, body: '' });
    expect(none.statusCode, none.body).toBe(200);
    expect(none.headers['content-type']).toMatch(/^application\/json/);
    const braces = await post({});
    expect(braces.status).toBe(200);
    expect(none.json()).toEqual(braces.body);
    // A body that is not an object, or not JSON, is refused in the JSON envelope too.
    for (const body of ['[]', '{"start_ms":', 'null']) {
      const refused = await t.app.inject({ method: 'POST', url: '/analytics/counterfactual', headers, body });
      expect(refused.statusCode, body).toBeGreaterThanOrEqual(400);
      expect(refused.statusCode, body).toBeLessThan(500);
      expect(refused.headers['content-type'], body).toMatch(/^application\/json/);
      expect((refused.json() as { code: string }).code).toBe('TE_03');
    }
  });

  it('keeps decide answers unchanged by the logging (the wire has no policy field)', async () => {
    const response = await t.app.inject({ method: 'POST', url: '/decide-gateway', headers: keyA, payload: decideBody(merchantA, 'cf-wire-check') });
    expect(response.statusCode).toBe(200);
    expect(Object.keys(response.json() as object)).not.toContain('policy');
  });
  it('weighs the autopilot candidates of a run by their estimates over the same logs', async () => {
    const runCounterfactual = createRunCounterfactual({ analytics: analytics.store, configs: t.state.configs, defaults: defaultRoutingDefaults });
    const before = await t.state.configs.get(merchantA, 'successRate');
    const run = await calibrateMerchant(
      {
        configs: t.state.configs,
        analytics: analytics.store,
        bus: t.bus,
        clock,
        logger: silentLogger,
        bounds: { ...defaultCalibrationBounds, lookbackSeconds: decisions + 1 },
        estimate: createAutopilotEstimator(runCounterfactual),
      },
      merchantA,
      { scheduledAt: clock.now(), sinceMs: range.start_ms, untilMs: range.end_ms },
    );
    // Every candidate was put to the evaluator: each carries its estimate, or null when unsupported.
    expect(run.candidates.map((candidate) => candidate.name)).toEqual(['formula', 'current', 'formula_bucket_x0.5', 'formula_bucket_x2']);
    const estimated = run.candidates.filter((candidate) => candidate.estimatedSuccessRate !== null);
    expect(estimated.length).toBeGreaterThan(0);
    for (const candidate of estimated) {
      const [low, high] = candidate.interval ?? [Number.NaN, Number.NaN];
      expect(low).toBeLessThanOrEqual(candidate.estimatedSuccessRate!);
      expect(high).toBeGreaterThanOrEqual(candidate.estimatedSuccessRate!);
    }
    // The current configuration, estimated alone, is what the route answers for no knobs at all.
    const current = run.candidates.find((candidate) => candidate.name === 'current')!;
    const direct = await runCounterfactual({ merchantId: merchantA, startMs: range.start_ms, endMs: range.end_ms });
    expect(current.estimatedSuccessRate).toBe(direct.supported ? direct.successRate!.doublyRobust.value : null);
    // The choice follows the rule: another candidate only when its interval's low end clears the formula.
    const formula = run.candidates.find((candidate) => candidate.name === 'formula')!;
    const chosen = run.candidates.find((candidate) => candidate.name === run.chosen)!;
    if (run.chosenBy === 'counterfactual') expect(chosen.interval![0]).toBeGreaterThan(formula.estimatedSuccessRate!);
    else expect(run.chosen).toBe('formula');
    await t.state.configs.put(merchantA, 'successRate', before!, 'upsert');
  }, 60_000);
});
