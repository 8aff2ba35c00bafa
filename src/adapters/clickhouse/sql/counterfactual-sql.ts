/**
 * Logged decisions for POST /analytics/counterfactual: the merchant's decision policies (migration
 * 0007) made in [start_ms, end_ms), one row per event id (the earliest copy: 18.16 keeps duplicates
 * of one insert until a merge), each with the last score feedback for its payment and decided
 * gateway (feedback up to {feedback_end_ms}, so outcomes that arrive after the range still count).
 * ANY LEFT JOIN of aliased subqueries USING plain columns is the join form both ClickHouse 18.16 and
 * chDB run; a decision without feedback reads feedback_status '' and feedback_at_ms 0.
 *
 * Inputs:  {database:Identifier} {merchant_id:String} {start_ms:UInt64} {end_ms:UInt64}
 *          {feedback_end_ms:UInt64} {feedback_flow:String} {limit:UInt32}
 * Outputs: rows of LoggedDecisionFact (src/ports/analytics/decision-log.ts), oldest decision first.
 */
export const loggedDecisionsSql = `SELECT
  event_id, created_at_ms, payment_id, gateway, routing_approach, window_dimension, currency, amount, propensity, hedged,
  hedging_percent, bucket_size, elimination_threshold, elimination_divisor, multi_objective, candidates,
  feedback_status, feedback_at_ms
FROM (
  SELECT event_id, created_at_ms, payment_id, gateway, routing_approach, window_dimension, currency, amount, propensity, hedged,
    hedging_percent, bucket_size, elimination_threshold, elimination_divisor, multi_objective, candidates
  FROM {database:Identifier}.analytics_decision_policies
  WHERE merchant_id = {merchant_id:String} AND created_at_ms >= {start_ms:UInt64} AND created_at_ms < {end_ms:UInt64}
  ORDER BY created_at_ms, event_id
  LIMIT 1 BY event_id
) AS decisions
ANY LEFT JOIN (
  SELECT payment_id, gateway, argMax(status, created_at_ms) AS feedback_status, max(created_at_ms) AS feedback_at_ms
  FROM {database:Identifier}.analytics_domain_events
  WHERE merchant_id = {merchant_id:String} AND flow_type = {feedback_flow:String}
    AND created_at_ms >= {start_ms:UInt64} AND created_at_ms < {feedback_end_ms:UInt64}
  GROUP BY payment_id, gateway
) AS feedback USING (payment_id, gateway)
ORDER BY created_at_ms, event_id
LIMIT {limit:UInt32}`;
