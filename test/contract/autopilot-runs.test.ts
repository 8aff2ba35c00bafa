import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { defaultCalibrationBounds } from '../../src/decision/autopilot/calibration-formulas.js';
import { runAutopilot } from '../../src/decision/autopilot/run-autopilot.js';
import { setMerchantFeature } from '../../src/decision/features/merchant-features.js';
import { silentLogger } from '../../src/logging/logger.js';
import * as autopilotWorker from '../../workers/autopilot.js';
import { upiPayment } from '../fixtures/payment-dimensions.js';
import { decisionTraffic } from '../helpers/autopilot-traffic.js';
import { openChdbAnalytics, type ChdbAnalyticsUnderTest } from '../helpers/chdb-analytics.js';
import { createMerchant, createTestApp, withKey, type TestApp } from '../helpers/test-app.js';

/**
 * GET /merchant-account/{id}/autopilot/runs over runs the autopilot really made: decisions reach
 * chDB through the analytics sink, a tick calibrates the enrolled merchants (both flags on) and
 * records each run; the route lists the merchant's own runs only.
 */
describe('GET /merchant-account/{id}/autopilot/runs', () => {
  let t: TestApp;
  let analytics: ChdbAnalyticsUnderTest;
  let keyA: string;
  let keyB: string;
  const merchantA = 'm-autopilot-a';
  const merchantB = 'm-autopilot-b';
  const merchantIdle = 'm-autopilot-idle';

  beforeAll(async () => {
    analytics = await openChdbAnalytics('autopilot');
    t = await createTestApp({ analytics: analytics.store });
    await analytics.startSink(t.bus, t.clock, { retentionDays: 548 });
    keyA = (await createMerchant(t.app, merchantA)).apiKey;
    keyB = (await createMerchant(t.app, merchantB)).apiKey;
    await createMerchant(t.app, merchantIdle);
    for (const merchantId of [merchantA, merchantB]) {
      await setMerchantFeature(t.state.configs, merchantId, 'auto-calibration', true);
      await setMerchantFeature(t.state.configs, merchantId, 'autopilot', true);
    }
    // A human entry for A's UPI traffic: the autopilot must leave it exactly as it is.
    await t.state.configs.put(
      merchantA,
      'successRate',
      { defaultBucketSize: 200, subLevelInputConfig: [{ paymentMethodType: 'UPI', paymentMethod: 'UPI_PAY', bucketSize: 60 }] },
      'upsert',
    );
    const at = t.clock.now() - 600_000;
    await t.bus.publish([
      ...decisionTraffic(merchantA, 400, ['stripe', 'adyen', 'checkout'], at),
      ...decisionTraffic(merchantA, 120, ['razorpay', 'payu'], at, upiPayment),
      ...decisionTraffic(merchantB, 150, ['stripe', 'adyen'], at),
    ]);
    await analytics.caughtUp();
    await runAutopilot(
      { configs: t.state.configs, analytics: analytics.store, bus: t.bus, clock: t.clock, logger: silentLogger, bounds: defaultCalibrationBounds },
      { scheduledAt: t.clock.now() },
    );
  }, 120_000);

  afterAll(async () => {
    await analytics?.close(t);
  });

  it("lists the merchant's run: segments before → after, the chosen candidate, and writes the tagged entry beside the human one", async () => {
    const response = await t.app.inject({ method: 'GET', url: `/merchant-account/${merchantA}/autopilot/runs`, headers: withKey(keyA) });
    expect(response.statusCode).toBe(200);
    const body = response.json();
    expect(body.merchant_id).toBe(merchantA);
    expect(body.runs).toHaveLength(1);
    const [run] = body.runs;
    expect(run).toMatchObject({
      merchantId: merchantA,
      runId: String(t.clock.now()),
      outcome: 'applied',
      chosen: 'formula',
      chosenBy: 'formula',
      lookbackSeconds: 3600,
    });
    const bySegment = Object.fromEntries(run.segments.map((change: { segment: { paymentMethodType: string } }) => [change.segment.paymentMethodType, change]));
    // 400 decisions over 3 gateways: round25(5·√200) = 75 → 100; hedging 100/400 = 25 % each, capped at 15 % each → 30 %.
    expect(bySegment.CARD).toMatchObject({ volume: 400, gateways: 3, action: 'created', before: null, after: { bucketSize: 100, hedgingPercent: 30 } });
    expect(bySegment.UPI).toMatchObject({ volume: 120, gateways: 2, action: 'human', after: null });
    expect(run.candidates.map((candidate: { name: string }) => candidate.name)).toEqual(['formula', 'current', 'formula_bucket_x0.5', 'formula_bucket_x2']);

    const config = await t.state.configs.get(merchantA, 'successRate');
    expect(config).toEqual({
      defaultBucketSize: 200,
      subLevelInputConfig: [
        { paymentMethodType: 'UPI', paymentMethod: 'UPI_PAY', bucketSize: 60 },
        { paymentMethodType: 'CARD', paymentMethod: 'CREDIT', bucketSize: 100, hedgingPercent: 30, source: 'autopilot' },
      ],
    });
    // The run is on the spine (and so in analytics as autopilot_calibration).
    await t.eventsCaughtUp();
    expect(
      t.events
        .filter((event) => event.type === 'autopilot.calibrated')
        .map((event) => event.merchantId)
        .sort(),
    ).toEqual([merchantA, merchantB]);
  });

  it('runs by itself as the autopilot worker on the in-process queue: a later tick finds A within its deadbands', async () => {
    const worker = await autopilotWorker.start({
      jobs: t.jobs,
      intervalMs: 100,
      autopilot: { configs: t.state.configs, analytics: analytics.store, bus: t.bus, clock: t.clock, logger: silentLogger, bounds: defaultCalibrationBounds },
    });
    try {
      const deadline = Date.now() + 30_000;
      let runs = (await t.state.configs.get(merchantA, 'autopilotRuns'))?.runs ?? [];
      while (runs.length < 2 && Date.now() < deadline) {
        await new Promise((resolve) => setTimeout(resolve, 50));
        runs = (await t.state.configs.get(merchantA, 'autopilotRuns'))?.runs ?? [];
      }
      expect(runs.length).toBeGreaterThanOrEqual(2);
      expect(runs[0]).toMatchObject({ outcome: 'unchanged', chosen: 'formula' });
      expect(runs[0]!.segments.find((change) => change.segment.paymentMethodType === 'CARD')).toMatchObject({
        action: 'unchanged',
        before: { bucketSize: 100, hedgingPercent: 30 },
        after: { bucketSize: 100, hedgingPercent: 30 },
      });
    } finally {
      await worker.close();
      await t.jobs.unschedule('autopilot', 'calibrate');
    }
  });

  it('refuses another merchant’s credential with 403', async () => {
    const response = await t.app.inject({ method: 'GET', url: `/merchant-account/${merchantA}/autopilot/runs`, headers: withKey(keyB) });
    expect(response.statusCode).toBe(403);
  });

  it('answers an empty list for a merchant the autopilot never ran for', async () => {
    const own = await t.app.inject({ method: 'GET', url: `/merchant-account/${merchantB}/autopilot/runs?limit=1`, headers: withKey(keyB) });
    expect(own.json().runs).toHaveLength(1);
    const idleKey = (await t.app.inject({ method: 'GET', url: `/merchant-account/${merchantIdle}/autopilot/runs`, headers: withKey(keyA) })).statusCode;
    expect(idleKey).toBe(403);
  });

  it.each(['limit=0', 'limit=51', 'limit=two', 'other=1'])('refuses ?%s with 400 and a message', async (query) => {
    const response = await t.app.inject({ method: 'GET', url: `/merchant-account/${merchantA}/autopilot/runs?${query}`, headers: withKey(keyA) });
    expect(response.statusCode).toBe(400);
    expect(JSON.stringify(response.json())).toMatch(/limit|additional|must/i);
  });

  it('needs a credential', async () => {
    const response = await t.app.inject({ method: 'GET', url: `/merchant-account/${merchantA}/autopilot/runs` });
    expect(response.statusCode).toBe(401);
  });
});
