import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { analyticsEngines, openAnalyticsStore } from '../../helpers/analytics-engines.js';
import { mapEventsToAnalyticsRows } from '../../../src/analytics/map-event-to-rows.js';
import { parseRoutingEventsQuery } from '../../../src/analytics/routing-events/parse-routing-events-query.js';
import { createEvent, type EventEnvelope } from '../../../src/events/event-envelope.js';
import type { ScoreUpdatedV1 } from '../../../src/generated/schema-types.js';
import type { AnalyticsStore } from '../../../src/ports/analytics-store.js';

/**
 * The routing-events read (src/adapters/clickhouse/sql/routing-events-sql.ts) gives the same answer
 * on the ClickHouse server (18.16 dialect) and on chDB, from score snapshots as the sink writes
 * them: the latest snapshot of a bucket wins (not the average), the buckets before the window are
 * read as the baseline, a batch inserted twice counts once, other merchants and dimensions apart.
 */

const minuteMs = 60_000;
const start = Date.UTC(2026, 2, 10, 10, 0, 0);
const now = start + 60 * minuteMs;
const merchant = 'm-routing-events-reads';

let sequence = 0;
function snapshot(gateway: string, atMs: number, score: number, options: { merchantId?: string; method?: string; bucketSize?: number } = {}): EventEnvelope {
  const payload: ScoreUpdatedV1 = {
    paymentId: `p-${++sequence}`,
    gateway,
    status: 'CHARGED',
    scoringType: 'reward',
    scoreValue: score,
    bucketSize: options.bucketSize ?? 50,
    eliminationScore: null,
    payment: {
      orderType: 'ORDER_PAYMENT',
      paymentMethodType: 'CARD',
      paymentMethod: options.method ?? 'CREDIT',
      cardType: null,
      cardNetwork: 'VISA',
      cardIsIn: null,
      currency: 'USD',
      country: 'US',
      authType: null,
      amount: 100,
    },
    feedbackEventId: `f-${sequence}`,
  };
  return createEvent('score.updated', options.merchantId ?? merchant, payload, atMs);
}

const events: EventEnvelope[] = [
  // 10:00 (before a window starting 10:20, read as the baseline): adyen leads.
  snapshot('adyen', start + 1000, 0.9),
  snapshot('stripe', start + 2000, 0.8),
  // 10:25: stripe's last snapshot of the bucket is 0.95 (an earlier 0.5 in the bucket must not count).
  snapshot('stripe', start + 25 * minuteMs, 0.5),
  snapshot('stripe', start + 26 * minuteMs, 0.95),
  // 10:40: adyen back ahead, but by less than the default 0.01 margin over stripe's 0.95: no change.
  snapshot('adyen', start + 40 * minuteMs, 0.955),
  // DEBIT: one gateway only, never a change; another merchant's flip never in ours.
  snapshot('adyen', start + 25 * minuteMs, 0.7, { method: 'DEBIT' }),
  snapshot('adyen', start + 1000, 0.9, { merchantId: 'm-other' }),
  snapshot('stripe', start + 25 * minuteMs, 0.99, { merchantId: 'm-other' }),
];

const parse = (raw: Record<string, string>) => {
  const parsed = parseRoutingEventsQuery(raw, { merchantId: merchant, nowMs: now });
  if (!parsed.ok) throw new Error(JSON.stringify(parsed.issues));
  return parsed.query;
};

for (const engine of analyticsEngines) {
  describe(`routing-events read on ${engine}`, () => {
    let store: AnalyticsStore;
    let teardown: () => Promise<void>;

    beforeAll(async () => {
      ({ store, teardown } = await openAnalyticsStore(engine, 'routing_events'));
      const rows = mapEventsToAnalyticsRows(events);
      // Twice: a retried batch must count once.
      await store.insert(rows);
      await store.insert(rows);
    }, 60_000);

    afterAll(async () => teardown?.());

    it('reports the leader change from the latest snapshot of each bucket, with the baseline read before the window', async () => {
      const report = await store.routingEvents(parse({ start_ms: String(start + 20 * minuteMs), end_ms: String(now) }));
      expect(report).toEqual({
        merchant_id: merchant,
        range: 'custom',
        generated_at_ms: now,
        events: [
          {
            id: `leader_changed:${merchant}:CARD:CREDIT:${start + 25 * minuteMs}:adyen>stripe`,
            event_type: 'leader_changed',
            merchant_id: merchant,
            payment_method_type: 'CARD',
            payment_method: 'CREDIT',
            bucket_ms: start + 25 * minuteMs,
            gateway: 'stripe',
            previous_gateway: 'adyen',
            score: 0.95,
            previous_score: 0.9,
            transaction_count: 50,
          },
        ],
      });
    });

    it('filters by payment method and honours a zero margin', async () => {
      expect((await store.routingEvents(parse({ range: '1h', payment_method: 'DEBIT' }))).events).toEqual([]);
      const eager = await store.routingEvents(parse({ range: '1h', min_score_delta: '0' }));
      expect(eager.events.map((event) => `${event.previous_gateway}>${event.gateway}@${event.bucket_ms}`)).toEqual([
        `stripe>adyen@${start + 40 * minuteMs}`,
        `adyen>stripe@${start + 25 * minuteMs}`,
      ]);
    });
  });
}
