import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { analyticsEngines, openAnalyticsStore } from '../../helpers/analytics-engines.js';
import { mapEventsToAnalyticsRows } from '../../../src/analytics/map-event-to-rows.js';
import { createEvent, type EventEnvelope } from '../../../src/events/event-envelope.js';
import type { AnalyticsStore } from '../../../src/ports/analytics-store.js';

/**
 * The experiment reads (src/adapters/clickhouse/sql/experiment-sql.ts) give the same sums on the
 * ClickHouse server (18.16 dialect) and on chDB, from real decision and feedback rows: one payment
 * counted once across retries, the arm of its first decision, cost sums from the decision's
 * `experiment` object, other experiments and merchants left out.
 */

const at = Date.UTC(2026, 2, 10, 12, 0, 0);
const merchant = 'm-exp-reads';
const payment = {
  paymentMethodType: 'CARD',
  paymentMethod: 'CREDIT',
  cardNetwork: 'VISA',
  cardIsIn: null,
  currency: 'USD',
  country: 'US',
  authType: null,
  amount: 200,
};

function decision(
  paymentId: string,
  arm: string,
  experimentId: string,
  offsetMs: number,
  cost: { chosen: number | null; saved: number | null },
  merchantId = merchant,
): EventEnvelope {
  return createEvent(
    'decision.created',
    merchantId,
    {
      experiment: {
        experimentId,
        experimentArm: arm as 'control' | 'variant',
        armAlgorithmId: 'sr_routing',
        guardrailTripped: false,
        chosenCostBps: cost.chosen,
        costSavedBps: cost.saved,
      },
      paymentId,
      requestId: null,
      gateway: 'stripe',
      routingApproach: 'SR_SELECTION_V3_ROUTING',
      gatewayPriorityMap: { stripe: 0.9, adyen: 0.8 },
      rankingAlgorithm: 'SR_BASED_ROUTING',
      eliminationEnabled: false,
      latencyMs: 4,
      payment,
      windowDimension: null,
      eliminationDimension: 'x',
    } as never,
    at + offsetMs,
  );
}

function feedback(paymentId: string, status: string, offsetMs: number): EventEnvelope {
  return createEvent(
    'feedback.received',
    merchant,
    { paymentId, requestId: null, gateway: 'stripe', status, source: 'update_gateway_score' } as never,
    at + offsetMs,
  );
}

const events: EventEnvelope[] = [
  // Control: p1 succeeds on its retry (failure first), p2 fails, p3 has no feedback yet.
  decision('p1', 'control', 'exp-1', 0, { chosen: null, saved: null }),
  feedback('p1', 'AUTHORIZATION_FAILED', 10),
  decision('p1', 'control', 'exp-1', 20, { chosen: null, saved: null }),
  feedback('p1', 'CHARGED', 30),
  decision('p2', 'control', 'exp-1', 40, { chosen: null, saved: null }),
  feedback('p2', 'FAILURE', 50),
  decision('p3', 'control', 'exp-1', 60, { chosen: null, saved: null }),
  // Variant: cost data; p4 succeeds first time (saved 80 bps of 200), p5 fails.
  decision('p4', 'variant', 'exp-1', 70, { chosen: 100, saved: 80 }),
  feedback('p4', 'CHARGED', 80),
  decision('p5', 'variant', 'exp-1', 90, { chosen: 120, saved: 0 }),
  feedback('p5', 'FAILURE', 100),
  // Noise: another experiment, another merchant.
  decision('p6', 'variant', 'exp-2', 110, { chosen: null, saved: null }),
  decision('p7', 'control', 'exp-1', 120, { chosen: null, saved: null }, 'm-other'),
  // Feedback for a payment that never entered the experiment.
  feedback('p8', 'CHARGED', 130),
];

/** The first events sent again, as an at-least-once bus re-delivers a batch: each still counts once. */
const redelivered = events.slice(0, 4);

const query = { merchantId: merchant, experimentId: 'exp-1', startMs: at - 1000, endMs: at + 1000 };

for (const engine of analyticsEngines) {
  describe(`experiment reads on ${engine}`, () => {
    let store: AnalyticsStore;
    let teardown: () => Promise<void>;

    beforeAll(async () => {
      ({ store, teardown } = await openAnalyticsStore(engine, 'exp'));
      await store.insert(mapEventsToAnalyticsRows(events));
      await store.insert(mapEventsToAnalyticsRows(redelivered));
    }, 60_000);

    afterAll(async () => teardown?.());

    it('sums each arm once per payment', async () => {
      const arms = await store.experimentArms(query);
      expect(arms).toEqual([
        {
          arm: 'control',
          assigned: 3,
          resolved: 2,
          successes: 1,
          firstAttemptSuccesses: 0,
          avgLatencyMs: 4,
          costPayments: 0,
          chosenCostBpsSum: 0,
          costSavedBpsSum: 0,
          savedSuccessSum: 0,
          savedSuccessSquareSum: 0,
          totalCostSaved: 0,
        },
        {
          arm: 'variant',
          assigned: 2,
          resolved: 2,
          successes: 1,
          firstAttemptSuccesses: 1,
          avgLatencyMs: 4,
          costPayments: 2,
          chosenCostBpsSum: 220,
          costSavedBpsSum: 80,
          savedSuccessSum: 80,
          savedSuccessSquareSum: 6400,
          totalCostSaved: 1.6,
        },
      ]);
    });

    it('counts for the guardrail what the full read counts (experimentArmOutcomes)', async () => {
      const full = await store.experimentArms(query);
      const outcomes = await store.experimentArmOutcomes(query);
      expect(outcomes).toEqual([
        { arm: 'control', assigned: 3, resolved: 2, successes: 1 },
        { arm: 'variant', assigned: 2, resolved: 2, successes: 1 },
      ]);
      expect(outcomes).toEqual(full.map(({ arm, assigned, resolved, successes }) => ({ arm, assigned, resolved, successes })));
      // The same window and endpoint rules: a window before the experiment, and an endpoint it never ran on, count nothing.
      expect(await store.experimentArmOutcomes({ ...query, startMs: at - 2000, endMs: at - 1 })).toEqual([]);
      expect(await store.experimentArmOutcomes({ ...query, endpoint: 'hybrid_routing' })).toEqual([]);
      expect(await store.experimentArmOutcomes({ ...query, endpoint: 'decide_gateway' })).toEqual(outcomes);
    });

    it('pages payments newest first with their latest status', async () => {
      const page = await store.experimentTransactions({ ...query, limit: 2, offset: 0 });
      expect(page.total).toBe(5);
      expect(page.transactions).toEqual([
        { payment_id: 'p5', variant_arm: 'variant', gateway: 'stripe', status: 'FAILURE', created_at_ms: at + 90 },
        { payment_id: 'p4', variant_arm: 'variant', gateway: 'stripe', status: 'CHARGED', created_at_ms: at + 70 },
      ]);
      const last = await store.experimentTransactions({ ...query, limit: 2, offset: 4 });
      expect(last.transactions).toEqual([{ payment_id: 'p1', variant_arm: 'control', gateway: 'stripe', status: 'CHARGED', created_at_ms: at }]);
    });
  });
}
