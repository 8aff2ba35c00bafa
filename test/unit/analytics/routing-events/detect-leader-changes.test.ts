import { describe, expect, it } from 'vitest';
import { detectLeaderChanges } from '../../../../src/analytics/routing-events/detect-leader-changes.js';
import { parseRoutingEventsQuery } from '../../../../src/analytics/routing-events/parse-routing-events-query.js';
import type { RoutingEventsQuery, ScoreBucketFact } from '../../../../src/ports/analytics/routing-events.js';

const bucket = 5 * 60_000;
const query: RoutingEventsQuery = {
  merchantId: 'm_123',
  range: '12h',
  startMs: 0,
  endMs: 100 * bucket,
  bucketMs: bucket,
  paymentMethodType: null,
  paymentMethod: null,
  minTransactionCount: 10,
  minScoreDelta: 0.005,
  limit: 50,
  nowMs: 100 * bucket,
};
const point = (bucketMs: number, gateway: string, score: number, transactionCount: number | null = 100, paymentMethodType = 'card'): ScoreBucketFact => ({
  bucketMs,
  paymentMethodType,
  paymentMethod: 'credit',
  gateway,
  score,
  transactionCount,
});

describe('detectLeaderChanges (decision-engine detect_routing_events, auth band off)', () => {
  it('reports a decisive flip with the reference’s id and fields', () => {
    const events = detectLeaderChanges([point(0, 'adyen', 0.89), point(0, 'stripe', 0.87), point(bucket, 'stripe', 0.9)], query);
    expect(events).toEqual([
      {
        id: `leader_changed:m_123:card:credit:${bucket}:adyen>stripe`,
        event_type: 'leader_changed',
        merchant_id: 'm_123',
        payment_method_type: 'card',
        payment_method: 'credit',
        bucket_ms: bucket,
        gateway: 'stripe',
        previous_gateway: 'adyen',
        score: 0.9,
        previous_score: 0.89,
        transaction_count: 100,
      },
    ]);
  });

  it('keeps a still-eligible leader beaten by no more than the margin', () => {
    expect(detectLeaderChanges([point(0, 'adyen', 0.89), point(bucket, 'stripe', 0.894)], query)).toEqual([]);
  });

  it('hands the lead over when the leader ages out, whatever the margin', () => {
    // adyen last seen at 0; 13 buckets later it is stale (12 buckets), stripe leads though lower.
    const events = detectLeaderChanges([point(0, 'adyen', 0.95), point(0, 'stripe', 0.5), point(13 * bucket, 'stripe', 0.6)], query);
    expect(events.map((event) => [event.previous_gateway, event.gateway, event.previous_score])).toEqual([['adyen', 'stripe', 0.95]]);
  });

  it('ignores gateways under the transaction count and breaks ties by name', () => {
    expect(detectLeaderChanges([point(0, 'adyen', 0.8), point(bucket, 'newpay', 0.99, 3), point(bucket, 'stripe', 0.8, null)], query)).toEqual([]);
    // A tie at the first bucket goes to adyen; stripe then leads by a margin.
    const events = detectLeaderChanges([point(0, 'stripe', 0.8), point(0, 'adyen', 0.8), point(bucket, 'stripe', 0.9)], query);
    expect(events.map((event) => event.previous_gateway)).toEqual(['adyen']);
  });

  it('tracks dimensions apart, drops the look-back prefix, sorts newest first and limits', () => {
    const upi = point(bucket, 'stripe', 0.99, 100, 'upi');
    expect(detectLeaderChanges([point(0, 'adyen', 0.89), point(0, 'stripe', 0.87), upi], query)).toEqual([]);
    const flips = [point(0, 'adyen', 0.89), point(0, 'stripe', 0.87), point(bucket, 'stripe', 0.95), point(2 * bucket, 'adyen', 1)];
    expect(detectLeaderChanges(flips, { ...query, startMs: 2 * bucket }).map((event) => event.bucket_ms)).toEqual([2 * bucket]);
    expect(detectLeaderChanges(flips, query).map((event) => event.bucket_ms)).toEqual([2 * bucket, bucket]);
    expect(detectLeaderChanges(flips, { ...query, limit: 1 }).map((event) => event.gateway)).toEqual(['adyen']);
  });
});

describe('parseRoutingEventsQuery', () => {
  const context = { merchantId: 'm', nowMs: 10 * 24 * 3_600_000 };
  const parse = (raw: Record<string, unknown>) => parseRoutingEventsQuery(raw, context);

  it('applies the reference’s defaults and bounds', () => {
    expect(parse({})).toEqual({
      ok: true,
      query: {
        merchantId: 'm',
        range: '1h',
        startMs: context.nowMs - 3_600_000,
        endMs: context.nowMs,
        bucketMs: bucket,
        paymentMethodType: null,
        paymentMethod: null,
        minTransactionCount: 10,
        minScoreDelta: 0.01,
        limit: 50,
        nowMs: context.nowMs,
      },
    });
    const clamped = parse({ limit: '900', min_transaction_count: '-4', min_score_delta: '-1', bucket: '1s', range: '1d' });
    expect(clamped.ok && clamped.query).toMatchObject({
      limit: 200,
      minTransactionCount: 0,
      minScoreDelta: 0,
      bucketMs: 1000,
      startMs: context.nowMs - 3_600_000,
    });
  });

  it('uses start_ms/end_ms only as a valid pair, cut to a week and to now', () => {
    const custom = parse({ start_ms: '0', end_ms: String(context.nowMs + 5) });
    expect(custom.ok && custom.query).toMatchObject({ range: 'custom', endMs: context.nowMs, startMs: context.nowMs - 7 * 24 * 3_600_000 });
    const reversed = parse({ start_ms: '500', end_ms: '100', range: '15m' });
    expect(reversed.ok && reversed.query).toMatchObject({ range: '15m', startMs: context.nowMs - 15 * 60_000 });
  });

  it('refuses malformed values, naming each parameter', () => {
    const result = parse({ range: '2d', limit: '1.5', bucket: '10m', tolerance_pp: 'wide', min_score_delta: '0x1' });
    expect(result.ok).toBe(false);
    expect(!result.ok && result.issues.map((issue) => issue.parameter).sort()).toEqual(['bucket', 'limit', 'min_score_delta', 'range', 'tolerance_pp']);
  });
});
