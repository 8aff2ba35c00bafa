import type { RoutingEventsQuery, ScoreBucketFact } from '../../ports/analytics/routing-events.js';
import type { RoutingEventsReport } from '../../generated/schema-types.js';

export type RoutingEvent = RoutingEventsReport['events'][number];

/**
 * A gateway unseen for 12 buckets (at least 10 minutes) can no longer lead: its last score is
 * stale (decision-engine ROUTING_EVENTS_STALENESS_BUCKETS / _FLOOR_MS, so tiny buckets do not age
 * a gateway out within seconds of quiet).
 */
const stalenessBuckets = 12;
const stalenessFloorMs = 10 * 60_000;

export function stalenessHorizonMs(bucketMs: number): number {
  return Math.max(stalenessBuckets * bucketMs, stalenessFloorMs);
}

interface GatewayState {
  readonly score: number;
  readonly transactionCount: number | null;
  readonly lastSeenBucketMs: number;
}

const part = (value: string | null) => value ?? '-';

/**
 * Success-rate leader changes per (payment method type, payment method), as decision-engine's
 * `detect_routing_events` with the auth band off: per dimension, buckets in time order, the last
 * score of each gateway carried forward across sparse buckets; the leader is the best score among
 * gateways with at least `minTransactionCount` and seen within the staleness horizon (a tie goes
 * to the alphabetically first). A change is reported when the old leader is no longer eligible or
 * the new one beats its score by more than `minScoreDelta`; otherwise the old leader stays.
 *
 * `points` may start before `query.startMs` (one staleness horizon earlier, so the first bucket in
 * the window knows its leader); events before the window are dropped. Newest first, then by id,
 * at most `query.limit`. Pure and deterministic, so ids are stable across polls.
 */
export function detectLeaderChanges(points: readonly ScoreBucketFact[], query: RoutingEventsQuery): RoutingEvent[] {
  const staleness = stalenessHorizonMs(query.bucketMs);
  const dimensions = new Map<string, { pmt: string | null; pm: string | null; buckets: Map<number, ScoreBucketFact[]> }>();
  for (const point of points) {
    if (point.gateway === '') continue;
    const key = JSON.stringify([point.paymentMethodType, point.paymentMethod]);
    let dimension = dimensions.get(key);
    if (dimension === undefined) {
      dimension = {
        pmt: point.paymentMethodType === '' ? null : point.paymentMethodType,
        pm: point.paymentMethod === '' ? null : point.paymentMethod,
        buckets: new Map(),
      };
      dimensions.set(key, dimension);
    }
    const rows = dimension.buckets.get(point.bucketMs) ?? [];
    rows.push(point);
    dimension.buckets.set(point.bucketMs, rows);
  }

  const events: RoutingEvent[] = [];
  for (const { pmt, pm, buckets } of dimensions.values()) {
    const state = new Map<string, GatewayState>();
    let previousLeader: string | null = null;
    const eligibleAt = (gatewayState: GatewayState | undefined, bucketMs: number) =>
      gatewayState !== undefined && (gatewayState.transactionCount ?? 0) >= query.minTransactionCount && bucketMs - gatewayState.lastSeenBucketMs <= staleness;
    for (const bucketMs of [...buckets.keys()].sort((a, b) => a - b)) {
      for (const row of buckets.get(bucketMs) ?? []) {
        state.set(row.gateway, { score: row.score, transactionCount: row.transactionCount, lastSeenBucketMs: bucketMs });
      }
      let leader: { name: string; score: number } | null = null;
      for (const [name, gatewayState] of state) {
        if (!eligibleAt(gatewayState, bucketMs)) continue;
        if (leader === null || gatewayState.score > leader.score || (gatewayState.score === leader.score && name < leader.name)) {
          leader = { name, score: gatewayState.score };
        }
      }
      if (leader === null) continue;
      if (previousLeader === null) {
        previousLeader = leader.name;
        continue;
      }
      if (previousLeader === leader.name) continue;
      const previousState = state.get(previousLeader);
      // A still-eligible incumbent must be beaten by a real margin; an aged-out one loses outright.
      const decisive = !eligibleAt(previousState, bucketMs) || previousState === undefined || leader.score > previousState.score + query.minScoreDelta;
      if (!decisive) continue;
      events.push({
        id: `leader_changed:${query.merchantId}:${part(pmt)}:${part(pm)}:${bucketMs}:${previousLeader}>${leader.name}`,
        event_type: 'leader_changed',
        merchant_id: query.merchantId,
        payment_method_type: pmt,
        payment_method: pm,
        bucket_ms: bucketMs,
        gateway: leader.name,
        previous_gateway: previousLeader,
        score: leader.score,
        previous_score: previousState?.score ?? null,
        transaction_count: state.get(leader.name)?.transactionCount ?? null,
      });
      previousLeader = leader.name;
    }
  }
  return newestFirst(events.filter((event) => event.bucket_ms >= query.startMs)).slice(0, query.limit);
}

/** Newest first, then by id (code-unit order, the reference's byte order for ASCII ids). */
export function newestFirst(events: RoutingEvent[]): RoutingEvent[] {
  return events.sort((a, b) => b.bucket_ms - a.bucket_ms || (a.id < b.id ? -1 : a.id > b.id ? 1 : 0));
}
