import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createClickHouseServerAnalyticsStore } from '../../../src/adapters/clickhouse/clickhouse-server-analytics-store.js';
import { createRedisStateStore } from '../../../src/adapters/redis/redis-state-store.js';
import { mapEventsToAnalyticsRows } from '../../../src/analytics/map-event-to-rows.js';
import { defaultCalibrationBounds } from '../../../src/decision/autopilot/calibration-formulas.js';
import { applySettings, planSegments } from '../../../src/decision/autopilot/plan-calibration.js';
import { setMerchantFeature } from '../../../src/decision/features/merchant-features.js';
import type { SuccessRateConfig } from '../../../src/generated/schema-types.js';
import { silentLogger } from '../../../src/logging/logger.js';
import type { AnalyticsStore } from '../../../src/ports/analytics-store.js';
import type { StateStore } from '../../../src/ports/state-store.js';
import { decisionTraffic } from '../../helpers/autopilot-traffic.js';
import { redisUrl } from '../adapters/local-services.js';
import { clickhouseUrl, createPipelineNamespace, deletePipelineNamespace, pipelineEnv, type PipelineNamespace } from '../pipeline/pipeline-harness.js';
import { pollUntil } from '../../fixtures/poll-until.js';
import { ensureDistBuilt, spawnSwitchyard, type SwitchyardProcess } from '../pipeline/switchyard-process.js';

/**
 * `switchyard worker autopilot` killed (SIGKILL) in the middle of a run over many merchants: every
 * merchant's success-rate config is then either its old document or the new one, never a mix (the
 * run writes each as one whole-document put). A new worker takes the tick over (BullMQ hands the
 * stalled job on) and finishes: every merchant ends with the new document and one record of the tick.
 *
 * Runs on the shared Redis, Kafka and ClickHouse server under its own prefixes and database.
 */

const merchants = Array.from({ length: 120 }, (_, index) => `m-apk-${String(index).padStart(3, '0')}`);
const human = { paymentMethodType: 'UPI', paymentMethod: 'UPI_PAY', bucketSize: 60 };
const oldDocument: SuccessRateConfig = { defaultBucketSize: 200, margin: 1.1, subLevelInputConfig: [human] };

describe('autopilot worker killed mid-run', () => {
  let namespace: PipelineNamespace;
  let state: StateStore;
  let analytics: AnalyticsStore;
  const processes: SwitchyardProcess[] = [];
  /** What the run writes for every merchant (the traffic is the same for each). */
  let newDocument: SuccessRateConfig;

  function spawnWorker(): SwitchyardProcess {
    const child = spawnSwitchyard(
      ['worker', 'autopilot'],
      pipelineEnv(namespace, { distributed: true, embeddedWorkers: false, extra: { AUTOPILOT_INTERVAL_SECONDS: '1', JOB_LOCK_MS: '2000', LOG_LEVEL: 'info' } }),
    );
    processes.push(child);
    return child;
  }

  beforeAll(async () => {
    await ensureDistBuilt();
    namespace = await createPipelineNamespace();
    analytics = createClickHouseServerAnalyticsStore({ url: clickhouseUrl, database: namespace.clickhouseDatabase });
    await analytics.migrate();
    state = await createRedisStateStore({ url: redisUrl, keyPrefix: namespace.redisKeyPrefix, logger: silentLogger });
    const at = Date.now() - 600_000;
    const traffic = merchants.flatMap((merchantId) => decisionTraffic(merchantId, 150, ['stripe', 'adyen', 'checkout'], at));
    await analytics.insert(mapEventsToAnalyticsRows(traffic));
    for (const merchantId of merchants) {
      await state.configs.put(merchantId, 'successRate', oldDocument, 'upsert');
      await setMerchantFeature(state.configs, merchantId, 'auto-calibration', true);
      await setMerchantFeature(state.configs, merchantId, 'autopilot', true);
    }
    const segments = await analytics.segmentTraffic({ merchantId: merchants[0]!, sinceMs: at - 1, untilMs: Date.now(), dimensions: [] });
    const plans = planSegments(oldDocument, segments, defaultCalibrationBounds);
    newDocument = applySettings(
      oldDocument,
      plans,
      plans.map((plan) => plan.proposal),
    ).config;
  }, 300_000);

  afterAll(async () => {
    for (const child of processes) if (child.child.exitCode === null && child.child.signalCode === null) await child.kill('SIGKILL');
    await state?.close();
    await analytics?.close();
    if (namespace !== undefined) await deletePipelineNamespace(namespace, { distributed: true });
  });

  it('leaves each config old or new, never a mix; a new worker finishes the tick', async () => {
    expect(newDocument.subLevelInputConfig).toEqual([
      human,
      { paymentMethodType: 'CARD', paymentMethod: 'CREDIT', bucketSize: 100, hedgingPercent: 30, source: 'autopilot' },
    ]);
    const first = spawnWorker();
    await first.once('autopilot calibrated the merchant');
    await first.kill('SIGKILL');

    const afterKill = await Promise.all(merchants.map((merchantId) => state.configs.get(merchantId, 'successRate')));
    let written = 0;
    for (const config of afterKill) {
      expect([oldDocument, newDocument]).toContainEqual(config);
      if (JSON.stringify(config) === JSON.stringify(newDocument)) written++;
    }
    expect(written).toBeGreaterThanOrEqual(1);
    // Killed mid-run: some merchants were still to come.
    expect(written).toBeLessThan(merchants.length);

    const second = spawnWorker();
    await pollUntil(
      'every merchant calibrated',
      async () => Promise.all(merchants.map((merchantId) => state.configs.get(merchantId, 'successRate'))),
      (configs) => configs.every((config) => JSON.stringify(config) === JSON.stringify(newDocument)),
      120_000,
    );
    for (const merchantId of merchants) {
      const runs = (await state.configs.get(merchantId, 'autopilotRuns'))?.runs ?? [];
      expect(runs.length).toBeGreaterThanOrEqual(1);
      // One record per tick: a tick handed on after the kill replaces its own record.
      expect(new Set(runs.map((run) => run.runId)).size).toBe(runs.length);
    }
    await second.kill('SIGTERM');
  }, 300_000);
});
