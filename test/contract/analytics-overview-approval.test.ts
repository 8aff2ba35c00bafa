import { Ajv } from 'ajv';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openAnalyticsStore } from '../helpers/analytics-engines.js';
import { httpSchemas } from '../../api/http-schemas.js';
import type { EventEnvelope } from '../../src/events/event-envelope.js';
import { silentLogger } from '../../src/logging/logger.js';
import type { AnalyticsStore } from '../../src/ports/analytics-store.js';
import type { OverviewReport, RoutingStatsReport } from '../../src/ports/analytics/analytics-reports.js';
import { createManualClock } from '../../src/time/clock.js';
import * as analyticsSink from '../../workers/analytics-sink.js';
import type { WorkerHandle } from '../../workers/worker-handle.js';
import { createMerchant, createTestApp, decideBody, withKey, type TestApp } from '../helpers/test-app.js';

/**
 * GET /analytics/overview's approval fields (issue 37) from real /decide-gateway and
 * /update-gateway-score calls, on both analytics engines (chDB and the ClickHouse server) through the
 * real analytics sink: approval per gateway equals the outcomes fed back, decisions without feedback
 * are counted apart and never as approvals, decline reasons carry the PSP code and its class, and
 * the score trend plots each bucket's last score (the live one), not an average.
 */

const minuteMs = 60_000;
const start = Date.UTC(2026, 4, 4, 9, 0, 0);
const merchantId = 'm-approval';

type Feedback = { status: string; errorCode?: string; errorMessage?: string; latencyMs?: number } | null;

/** Each payment decided on one gateway, then fed back (or not). Known truth: stripe 3/4, adyen 1/3 (+1 without outcome), checkout 0/1 (+1 pending). */
const payments: readonly { id: string; gateway: string; minute: number; feedback: Feedback }[] = [
  { id: 's1', gateway: 'stripe', minute: 1, feedback: { status: 'CHARGED', latencyMs: 100 } },
  { id: 's2', gateway: 'stripe', minute: 2, feedback: { status: 'CHARGED', latencyMs: 300 } },
  { id: 's3', gateway: 'stripe', minute: 7, feedback: { status: 'CHARGED' } },
  { id: 's4', gateway: 'stripe', minute: 8, feedback: { status: 'AUTHORIZATION_FAILED', errorCode: 'card_declined', errorMessage: 'Your card was declined.' } },
  { id: 'a1', gateway: 'adyen', minute: 1, feedback: { status: 'CHARGED' } },
  { id: 'a2', gateway: 'adyen', minute: 2, feedback: { status: 'FAILURE', errorCode: '2', errorMessage: 'Refused' } },
  { id: 'a3', gateway: 'adyen', minute: 8, feedback: { status: 'FAILURE', errorCode: '2', errorMessage: 'Refused' } },
  { id: 'a4', gateway: 'adyen', minute: 9, feedback: null },
  { id: 'c1', gateway: 'checkout', minute: 3, feedback: { status: 'PENDING_VBV' } },
  { id: 'c2', gateway: 'checkout', minute: 4, feedback: { status: 'FAILURE' } },
];

const ajv = new Ajv({ strict: false });
for (const schema of httpSchemas) ajv.addSchema(schema);
const validate = ajv.getSchema('OverviewReport')!;

for (const engine of ['chDB', 'ClickHouse server'] as const) {
  describe(`GET /analytics/overview approval on ${engine}`, () => {
    let t: TestApp;
    let store: AnalyticsStore;
    let sink: WorkerHandle;
    let key: Record<string, string>;
    let teardown: () => Promise<void>;

    const get = async <T>(path: string): Promise<T> => {
      const response = await t.app.inject({ method: 'GET', url: path, headers: key });
      expect(response.statusCode, response.body).toBe(200);
      return response.json() as T;
    };

    beforeAll(async () => {
      ({ store, teardown } = await openAnalyticsStore(engine, 'approval'));
      t = await createTestApp({ clock: createManualClock(start), analytics: store });
      sink = await analyticsSink.start({ bus: t.bus, analytics: store, logger: silentLogger, retentionDays: 30, clock: t.clock, lingerMs: 0 });
      key = withKey((await createMerchant(t.app, merchantId)).apiKey);
      const rules = await t.app.inject({
        method: 'PUT',
        url: `/merchant-account/${merchantId}/gsm-rules`,
        headers: key,
        payload: {
          rules: [
            { connector: 'stripe', errorCode: 'card_declined', unifiedCode: 'UE_1000' },
            { connector: 'adyen', errorCode: '2', unifiedCode: 'UE_3000' },
          ],
        },
      });
      expect(rules.statusCode, rules.body).toBe(200);
      for (const payment of [...payments].sort((a, b) => a.minute - b.minute)) {
        t.clock.set(start + payment.minute * minuteMs);
        const decided = await t.app.inject({
          method: 'POST',
          url: '/decide-gateway',
          headers: key,
          payload: decideBody(merchantId, payment.id, { eligibleGatewayList: [payment.gateway] }),
        });
        expect(decided.statusCode, decided.body).toBe(200);
        if (payment.feedback === null) continue;
        t.clock.set(start + payment.minute * minuteMs + 10_000);
        const { status, errorCode, errorMessage, latencyMs } = payment.feedback;
        const fed = await t.app.inject({
          method: 'POST',
          url: '/update-gateway-score',
          headers: key,
          payload: {
            merchantId,
            gateway: payment.gateway,
            paymentId: payment.id,
            status,
            ...(errorCode !== undefined ? { errorInfo: { errorCode, errorMessage } } : {}),
            ...(latencyMs !== undefined ? { txnLatency: { gatewayLatency: latencyMs } } : {}),
          },
        });
        expect(fed.statusCode, fed.body).toBe(200);
      }
      t.clock.set(start + 20 * minuteMs);
      await t.eventsCaughtUp();
      await sink.caughtUp();
    }, 90_000);

    afterAll(async () => {
      await sink?.close();
      await t?.close();
      await teardown?.();
    });

    it('answers approval overall and per gateway from the outcomes fed back, no-feedback decisions apart', async () => {
      const report = await get<OverviewReport>('/analytics/overview?range=1h');
      expect(validate(report), JSON.stringify(validate.errors)).toBe(true);
      expect(report.approval).toEqual({ attempts: 10, approved: 4, declined: 4, pending: 1, no_outcome: 1, approval_rate: 0.5 });
      const byGateway = Object.fromEntries(report.gateway_approval.map((row) => [row.gateway, row]));
      expect(byGateway['stripe']).toEqual({
        gateway: 'stripe',
        decisions: 4,
        attempts: 4,
        approved: 3,
        declined: 1,
        pending: 0,
        no_outcome: 0,
        approval_rate: 0.75,
        avg_latency_ms: 200,
        latency_samples: 2,
      });
      expect(byGateway['adyen']).toMatchObject({
        decisions: 4,
        approved: 1,
        declined: 2,
        pending: 0,
        no_outcome: 1,
        approval_rate: 0.3333,
        avg_latency_ms: null,
      });
      expect(byGateway['checkout']).toMatchObject({ decisions: 2, approved: 0, declined: 1, pending: 1, no_outcome: 0, approval_rate: 0 });
      expect(report.gateway_approval.map((row) => row.gateway)).toEqual(['adyen', 'stripe', 'checkout']);
      expect(report).toMatchObject({ start_ms: start + 20 * minuteMs - 3_600_000, end_ms: start + 20 * minuteMs, bucket_ms: 5 * minuteMs });
    });

    it('lists decline reasons by gateway, PSP code and gateway status map class, in words', async () => {
      const report = await get<OverviewReport>('/analytics/overview?range=1h');
      expect(report.decline_reasons[0]).toEqual({
        gateway: 'adyen',
        error_code: '2',
        error_message: 'Refused',
        unified_code: 'UE_3000',
        unified_message: 'Technical issue with PSP',
        failure_side: 'the PSP',
        count: 2,
        last_seen_ms: start + 8 * minuteMs + 10_000,
      });
      expect(report.decline_reasons.slice(1)).toEqual(
        expect.arrayContaining([
          expect.objectContaining({
            gateway: 'stripe',
            error_code: 'card_declined',
            unified_code: 'UE_1000',
            unified_message: 'Issue with Payment Method details',
            failure_side: 'issuer or customer',
            count: 1,
          }),
          expect.objectContaining({ gateway: 'checkout', error_code: null, unified_code: null, unified_message: null, count: 1 }),
        ]),
      );
      expect(report.decline_reasons).toHaveLength(3);
    });

    it('charts approval per bucket by the time of the outcome', async () => {
      const report = await get<OverviewReport>('/analytics/overview?range=1h');
      const stripe = report.approval_series.filter((point) => point.gateway === 'stripe');
      expect(stripe).toEqual([
        { bucket_ms: start, gateway: 'stripe', approved: 2, declined: 0, approval_rate: 1 },
        { bucket_ms: start + 5 * minuteMs, gateway: 'stripe', approved: 1, declined: 1, approval_rate: 0.5 },
      ]);
      // checkout's pending attempt has no outcome: only its decline is charted.
      expect(report.approval_series.filter((point) => point.gateway === 'checkout')).toEqual([
        { bucket_ms: start, gateway: 'checkout', approved: 0, declined: 1, approval_rate: 0 },
      ]);
    });

    it('keeps only attempts whose decision passes the dimension filters, and the gateway filter', async () => {
      expect((await get<OverviewReport>('/analytics/overview?range=1h&currency=EUR')).approval.attempts).toBe(0);
      const stripeOnly = await get<OverviewReport>('/analytics/overview?range=1h&gateway=stripe');
      expect(stripeOnly.gateway_approval.map((row) => row.gateway)).toEqual(['stripe']);
      expect(stripeOnly.approval).toMatchObject({ approved: 3, declined: 1 });
    });

    it('plots the last score of each bucket, so the trend ends on the live scores', async () => {
      await t.eventsCaughtUp();
      const lastScores = new Map<string, number>();
      for (const event of t.events as EventEnvelope[]) {
        if (event.type !== 'score.updated') continue;
        const payload = event.payload as { gateway: string; scoreValue: number | null };
        if (payload.scoreValue !== null) lastScores.set(payload.gateway, payload.scoreValue);
      }
      expect(lastScores.size).toBeGreaterThan(1);
      const stats = await get<RoutingStatsReport>('/analytics/routing-stats?range=1h');
      for (const [gateway, score] of lastScores) {
        const points = stats.sr_trend.filter((point) => point.gateway === gateway);
        expect(points.at(-1)?.score_value, gateway).toBeCloseTo(score, 4);
      }
    });
  });
}
