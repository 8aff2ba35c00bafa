import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startServer, type RunningServer } from '../../../cli/start-service.js';
import { loadConfig } from '../../../src/config/load-config.js';
import { decideBody } from '../../helpers/test-app.js';
import { call, createMerchant, createPipelineNamespace, deletePipelineNamespace, pipelineEnv, type PipelineNamespace } from './pipeline-harness.js';
import { pollUntil } from '../../fixtures/poll-until.js';
import { createPinoSink } from './pino-sink.js';

const day = 86_400_000;
/** The expected traffic of the contract: 10,000 USD a day, in cents. */
const expectedDaily = 1_000_000;

/**
 * A contract owing adyen half the expected traffic every day left in the calendar year: winnable
 * (the daily need is half the day's traffic) and far behind on a fresh merchant, so the forecast
 * publishes a steering rate of at least one half whatever the hour.
 */
function contractFor(nowMs: number) {
  const yearEnd = Date.UTC(new Date(nowMs).getUTCFullYear() + 1, 0, 1);
  const daysLeft = (yearEnd - nowMs) / day;
  return {
    routing_mode: 'pace_guarded',
    tolerance_bps: 500,
    currency: { denomination: 'USD' },
    expected_daily_traffic: expectedDaily,
    volume_contracts: [
      {
        id: 'adyen_year',
        connector: 'adyen',
        billing_cycle: { type: 'calendar_year', anchor: 1, timezone: 'UTC' },
        archetype: 'lumpsum',
        terms: { target: Math.floor((expectedDaily / 2) * daysLeft), reward: { kind: 'flat', value: { flat_amount: 100_000 } } },
      },
    ],
  };
}

/**
 * Volume commitments on both spines, through the service as it runs: decisions reach analytics
 * (Kafka → ClickHouse distributed, the memory bus → chDB embedded), the forecaster runs on its
 * schedule (JobQueue.schedule: BullMQ on Redis distributed) and publishes a plan into the state
 * store (Redis), decisions are steered toward the PSP behind pace, and the steered volume shows on
 * the dashboard once the sink has written it. The analytics and schedule are polled, never slept on.
 */
for (const distributed of [false, true]) {
  describe(`volume commitments (${distributed ? 'Redis, Kafka, ClickHouse, BullMQ' : 'embedded, chDB'})`, () => {
    const merchantId = distributed ? 'vc-dist' : 'vc-embedded';
    let namespace: PipelineNamespace;
    let server: RunningServer | undefined;
    let auth: Record<string, string>;
    let payment = 0;

    beforeAll(async () => {
      namespace = await createPipelineNamespace();
      server = await startServer(
        loadConfig(pipelineEnv(namespace, { distributed, embeddedWorkers: true, extra: { VOLUME_COMMITMENT_INTERVAL_SECONDS: '5' } })),
        createPinoSink().logger,
      );
      auth = await createMerchant(server.url, merchantId);
    }, 120_000);

    afterAll(async () => {
      await server?.stop();
      if (namespace !== undefined) await deletePipelineNamespace(namespace, { distributed });
    });

    const decide = async () => {
      payment += 1;
      const response = await call(server!.url, 'POST', '/decide-gateway', decideBody(merchantId, `vc-${distributed ? 'd' : 'e'}-${payment}`), auth);
      expect(response.status, JSON.stringify(response.body)).toBe(200);
      return response.body;
    };
    const dashboard = async () => {
      const response = await call(server!.url, 'GET', `/merchant-account/${merchantId}/volume-commitment/dashboard`, undefined, auth);
      if (response.status !== 200) throw new Error(`dashboard → ${response.status} ${JSON.stringify(response.body)}`);
      return response.body;
    };

    it('publishes a plan on schedule and steers payments toward the PSP behind pace, counted on the dashboard', async () => {
      const url = server!.url;
      const created = await call(
        url,
        'POST',
        '/routing/create',
        { name: 'year', created_by: merchantId, algorithm: { type: 'volume_contract', data: contractFor(Date.now()) } },
        auth,
      );
      expect(created.status, JSON.stringify(created.body)).toBe(200);
      expect((await call(url, 'POST', '/routing/activate', { created_by: merchantId, routing_algorithm_id: created.body.rule_id }, auth)).status).toBe(200);
      expect((await call(url, 'POST', `/merchant-account/${merchantId}/features/volume-contracts`, { enabled: true }, auth)).status).toBe(200);

      // Unsteered traffic first: the scheduled sweep forecasts merchants with decisions in the pace window.
      for (let index = 0; index < 3; index++) expect((await decide()).volume_steer_info).toBeUndefined();
      const planned = await pollUntil('a plan published by the scheduled forecast', dashboard, (body) => body.pacing.computedAtEpochSecs !== null, 60_000);
      expect(planned.pacing).toMatchObject({ active: true, featureEnabled: true, contractConfigured: true, tolerance: 0.05 });
      expect(planned.pacing.psps[0]).toMatchObject({ connector: 'adyen', steering: true });
      expect(planned.pacing.psps[0].steerRate).toBeGreaterThanOrEqual(0.5);

      // At a rate of at least one half, 30 payments all kept by stripe would be a 1-in-10^9 event.
      const decisions = [];
      for (let index = 0; index < 30; index++) decisions.push(await decide());
      const steered = decisions.filter((decision) => decision.routing_approach === 'SR_SELECTION_VOLUME_COMMITMENT');
      expect(steered.length).toBeGreaterThan(0);
      for (const decision of steered) {
        expect(decision.decided_gateway).toBe('adyen');
        expect(decision.volume_steer_info).toMatchObject({ outcome: 'STEERED', chosen: 'adyen', steeringCount: 1 });
      }
      for (const decision of decisions) expect(decision.volume_steer_info).toBeDefined();

      // Every steered payment reaches the analytics and counts toward adyen's goal, 10,000 cents each.
      const counted = await pollUntil(
        'the steered volume on the dashboard',
        dashboard,
        (body) => body.series.connectors[0]?.points.reduce((sum: number, point: { steered: number }) => sum + point.steered, 0) === steered.length * 10_000,
        60_000,
      );
      expect(counted.audit.runs[0]).toMatchObject({ isCurrent: true, forecasts: 1 });
      const forecast = await call(url, 'POST', `/volume-commitment/run-forecast?merchant_id=${merchantId}`, undefined, auth);
      expect(forecast.body).toMatchObject({ merchantsProcessed: 1, merchants: [{ merchantId, pspsTracked: 1 }] });
      const after = await dashboard();
      expect(after.pacing.psps[0].achieved).toBeGreaterThanOrEqual(steered.length * 10_000);
    }, 180_000);
  });
}
