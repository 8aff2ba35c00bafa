import type { RoutingEventsReport } from '../../generated/schema-types.js';
import type { CalibrationRunFact, RoutingEventsQuery, ScoreBucketFact } from '../../ports/analytics/routing-events.js';
import { calibrationEvents } from './calibration-events.js';
import { detectLeaderChanges, newestFirst } from './detect-leader-changes.js';

/**
 * GET /analytics/routing-events' answer: the leader changes derived from the score buckets and the
 * autopilot's calibrations, merged newest first (then by id) and cut to `query.limit`, as
 * decision-engine's endpoints/routing_events.rs `load`.
 */
export function shapeRoutingEventsReport(
  query: RoutingEventsQuery,
  facts: { readonly points: readonly ScoreBucketFact[]; readonly calibrations: readonly CalibrationRunFact[] },
): RoutingEventsReport {
  const events = newestFirst([...detectLeaderChanges(facts.points, query), ...calibrationEvents(facts.calibrations, query)]).slice(0, query.limit);
  return { merchant_id: query.merchantId, range: query.range, generated_at_ms: query.nowMs, events };
}
