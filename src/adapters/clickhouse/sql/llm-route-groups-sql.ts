import { windowWhere } from './domain-filters-sql.js';
import { withCallApi } from './llm-sql.js';

/**
 * Reads over `analytics_llm_route_calls` (migration 0004) for /analytics/llm/route-groups: the
 * calls made through a route group, counted once per event id like the llm reads over
 * `analytics_llm_calls` (`LIMIT 1 BY event_id`, see llm-sql.ts). Judge calls are left out: they
 * carry the request's attribution but were not routed (the windows do not learn from them either).
 *
 * A decision is a request's first attempt (fallback_hops = 0): every call of one request carries
 * the same decision (route_approach, eliminated_candidates), so counting first attempts counts each
 * request once. Eliminations are decisions ARRAY JOINed with the candidates eliminated then, so a
 * candidate demoted out of reach (cut by maxHops, never called) still shows. ARRAY JOIN over a
 * subquery, countIf and intDiv buckets run alike on ClickHouse 18.16 and chDB.
 *
 * Inputs: windowWhere's {database} {merchant_id} {start_ms} {end_ms} {start_s} {end_s}, plus
 *   {bucket:UInt64}, {route_group:String} ('' = every group) and {api:String} ('' = every API; the
 *   join of llm-sql.ts's withCallApi over migration 0006)
 * Outputs:
 *   llmRouteCallsSql:        rows { route_group, bucket_ms, provider, model, calls, successes, ranked_first }
 *   llmRouteDecisionsSql:    rows { route_group, bucket_ms, route_approach, decisions, last_decision_ms }
 *   llmRouteEliminationsSql: rows { route_group, bucket_ms, candidate, eliminated_decisions, last_eliminated_ms }
 *   each ordered by group, bucket, then its key.
 */

const llmRouteCalls = '{database:Identifier}.analytics_llm_route_calls';

/** The merchant's routed calls in the window, one row per event id, of {api} when it names one. */
const routedCallsOnce = withCallApi(`(SELECT * FROM ${llmRouteCalls}
  WHERE ${windowWhere}
    AND operation != 'evaluation'
    AND ({route_group:String} = '' OR route_group = {route_group:String})
  ORDER BY created_at_ms, event_id
  LIMIT 1 BY event_id)`);

const bucket = 'intDiv(created_at_ms, {bucket:UInt64}) * {bucket:UInt64} AS bucket_ms';

export const llmRouteCallsSql = `SELECT route_group, ${bucket}, provider, model,
  count() AS calls,
  countIf(outcome = 'success') AS successes,
  countIf(fallback_hops = 0) AS ranked_first
FROM ${routedCallsOnce}
GROUP BY route_group, bucket_ms, provider, model
ORDER BY route_group, bucket_ms, provider, model`;

export const llmRouteDecisionsSql = `SELECT route_group, ${bucket}, route_approach,
  count() AS decisions,
  max(created_at_ms) AS last_decision_ms
FROM ${routedCallsOnce}
WHERE fallback_hops = 0
GROUP BY route_group, bucket_ms, route_approach
ORDER BY route_group, bucket_ms, route_approach`;

export const llmRouteEliminationsSql = `SELECT route_group, ${bucket}, candidate,
  count() AS eliminated_decisions,
  max(created_at_ms) AS last_eliminated_ms
FROM ${routedCallsOnce}
ARRAY JOIN eliminated_candidates AS candidate
WHERE fallback_hops = 0
GROUP BY route_group, bucket_ms, candidate
ORDER BY route_group, bucket_ms, candidate`;
