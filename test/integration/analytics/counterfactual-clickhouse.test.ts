import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createClickHouseAnalyticsStore } from '../../../src/adapters/clickhouse/clickhouse-analytics-store.js';
import { createClickHouseServerExecutor } from '../../../src/adapters/clickhouse/clickhouse-server-executor.js';
import { mapEventsToAnalyticsRows } from '../../../src/analytics/map-event-to-rows.js';
import { createEvent, type EventEnvelope } from '../../../src/events/event-envelope.js';
import { silentLogger } from '../../../src/logging/logger.js';
import type { AnalyticsStore } from '../../../src/ports/analytics-store.js';
import { createManualClock } from '../../../src/time/clock.js';
import * as analyticsSink from '../../../workers/analytics-sink.js';
import type { WorkerHandle } from '../../../workers/worker-handle.js';
import { runLoggedTraffic } from '../../helpers/counterfactual-traffic.js';
import { createSeededRandom } from '../../helpers/seeded-random.js';
import { createMerchant, createTestApp, withKey, type TestApp } from '../../helpers/test-app.js';

// The server from deploy/local (or CI). No skip when it is down: the suite must fail then.
const url = process.env['CLICKHOUSE_URL'] ?? 'http://127.0.0.1:8123';
const start = Date.UTC(2026, 3, 2, 8, 0, 0);
const merchant = 'm-counterfactual-ch';
const decisions = 120;

/**
 * Counterfactual evaluation through a real ClickHouse server (18.16 here): decisions and feedback
 * through the app and the analytics sink into migration 0007's table and the domain events, read back
 * by POST /analytics/counterfactual; a batch inserted twice still counts each decision once.
 */
describe(`POST /analytics/counterfactual on ClickHouse at ${url}`, () => {
  const executor = createClickHouseServerExecutor({ url });
  const database = `switchyard_test_${randomBytes(6).toString('hex')}`;
  let store: AnalyticsStore;
  let t: TestApp;
  let sink: WorkerHandle;
  let key: Record<string, string>;
  let traffic: Awaited<ReturnType<typeof runLoggedTraffic>>;
  const clock = createManualClock(start);

  beforeAll(async () => {
    store = createClickHouseAnalyticsStore(executor, { database });
    await store.migrate();
    t = await createTestApp({ clock, analytics: store, random: createSeededRandom(3) });
    sink = await analyticsSink.start({ bus: t.bus, analytics: store, logger: silentLogger, retentionDays: 30, clock, lingerMs: 0 });
    key = withKey((await createMerchant(t.app, merchant)).apiKey);
    await t.state.configs.put(merchant, 'successRate', { defaultBucketSize: 20, defaultHedgingPercent: 20 }, 'upsert');
    traffic = await runLoggedTraffic({ t, headers: key, merchantId: merchant, decisions, clock, seed: 5 });
    await sink.caughtUp();
  }, 180_000);

  afterAll(async () => {
    await sink?.close();
    await t?.close();
    await executor.command(`DROP DATABASE IF EXISTS ${database}`);
    await store?.close();
  });

  it('estimates a candidate from the decisions and feedback stored in ClickHouse', async () => {
    const range = { start_ms: start, end_ms: start + decisions * 1000 + 1 };
    const response = await t.app.inject({ method: 'POST', url: '/analytics/counterfactual', headers: key, payload: { ...range, hedging_percent: 0 } });
    expect(response.statusCode, response.body).toBe(200);
    const body = response.json() as Record<string, unknown> & {
      logged: { success_rate: { value: number } };
      success_rate: { doubly_robust: { value: number } };
    };
    expect(body).toMatchObject({ decisions, labelled: decisions, supported: true, reason: null });
    expect(body.logged.success_rate.value).toBeCloseTo(traffic.successes / decisions, 6);
    expect(body.success_rate.doubly_robust.value).toBeGreaterThan(0.3);
    const logged = await store.loggedDecisions({
      merchantId: merchant,
      fromMs: range.start_ms,
      toMs: range.end_ms,
      feedbackUntilMs: range.end_ms + 60_000,
      limit: 1000,
    });
    expect(logged.filter((row) => Number(row.hedged) === 1)).toHaveLength(traffic.hedged);
  });

  it('reads a decision inserted twice once, with its feedback joined', async () => {
    const other = 'm-counterfactual-ch-dup';
    const payment = {
      orderType: 'ORDER_PAYMENT',
      paymentMethodType: 'CARD',
      paymentMethod: 'CREDIT',
      cardType: 'CREDIT',
      cardNetwork: 'VISA',
      cardIsIn: '411111',
      currency: 'USD',
      country: 'US',
      authType: 'THREE_DS',
      amount: 42.5,
    };
    const at = start + 3_600_000;
    const events: EventEnvelope[] = [
      createEvent(
        'decision.created',
        other,
        {
          paymentId: 'dup-1',
          requestId: 'r1',
          gateway: 'adyen',
          routingApproach: 'SR_V3_HEDGING',
          gatewayPriorityMap: { stripe: 0.5, adyen: 1 },
          rankingAlgorithm: 'SR_BASED_ROUTING',
          eliminationEnabled: false,
          latencyMs: 1,
          payment,
          windowDimension: 'w',
          eliminationDimension: 'e',
          policy: {
            propensity: 0.2,
            hedged: true,
            candidates: [
              { gateway: 'stripe', score: 0.9, eliminationScore: null },
              { gateway: 'adyen', score: 0.8, eliminationScore: null },
            ],
            hedgingPercent: 20,
            bucketSize: 20,
            eliminationThreshold: null,
            eliminationDivisor: 5,
            multiObjective: false,
          },
        },
        at,
      ),
      createEvent(
        'feedback.received',
        other,
        {
          paymentId: 'dup-1',
          gateway: 'adyen',
          status: 'CHARGED',
          outcome: 'success',
          enforceDynamicRoutingFailure: null,
          gatewayLatencyMs: null,
          requestId: 'r2',
          source: 'update_gateway_score',
        } as never,
        at + 500,
      ),
    ];
    const rows = mapEventsToAnalyticsRows(events);
    await store.insert(rows);
    await store.insert(rows);
    const logged = await store.loggedDecisions({ merchantId: other, fromMs: at, toMs: at + 1, feedbackUntilMs: at + 60_000, limit: 10 });
    expect(logged).toHaveLength(1);
    expect(logged[0]).toMatchObject({
      payment_id: 'dup-1',
      gateway: 'adyen',
      feedback_status: 'CHARGED',
      hedged: 1,
      bucket_size: 20,
      elimination_threshold: null,
    });
    expect(Number(logged[0]?.propensity)).toBeCloseTo(0.2, 12);
    expect(Number(logged[0]?.amount)).toBeCloseTo(42.5, 12);
    expect(Number(logged[0]?.feedback_at_ms)).toBe(at + 500);
  });
});
