import { dimensionWhere, domainEvents, latestKey, windowWhere } from './domain-filters-sql.js';

/**
 * Payment approval for GET /analytics/overview, from score feedback: one *attempt* per (payment,
 * gateway) that has a decision or feedback in the window. An attempt's outcome is the `outcome` of
 * its latest feedback (`success` approved, `failure` declined, `pending` pending); an attempt with
 * no feedback has no outcome yet and is never an approval. The approval rate is approved /
 * (approved + declined), so attempts without an outcome are counted apart, not as successes.
 *
 * `details` is the feedback.received payload, read with visitParamExtract* (18.16 has no
 * JSONExtract*): `outcome` and `gatewayLatencyMs` are top-level keys no other key of the payload
 * shares; the PSP error is read from the `"gsm":{` object onwards (its own keys only).
 * Dimension filters apply to the decision row (feedback rows carry no payment dimensions); an
 * attempt with feedback but no decision in the window passes them only when none is set.
 *
 * Inputs: the window and dimension inputs of domain-filters-sql.ts, {decision_flow:String},
 *   {feedback_flows:Array(String)}, {dimensions_set:UInt8}, plus
 *   approvalSeriesSql: {bucket:UInt64}
 *   declineReasonsSql: {limit:UInt32}
 * Outputs:
 *   approvalGatewaysSql: rows { gateway: String, attempts, decisions, approved, declined, pending,
 *                        latency_samples: UInt64, latency_sum_ms: Float64 }, most attempts first
 *   approvalSeriesSql:   rows { bucket_ms, gateway, approved, declined: UInt64 } by the time of the
 *                        outcome, ordered by bucket then gateway
 *   declineReasonsSql:   rows { gateway, error_code, error_message, unified_code: String, count,
 *                        last_seen_ms: UInt64 }, most frequent first
 */

const isFeedback = 'has({feedback_flows:Array(String)}, flow_type)';
const isDecision = 'flow_type = {decision_flow:String}';
const gsmKey = `'"gsm":{'`;
const hasLatency = `position(details, '"gatewayLatencyMs":') > 0 AND position(details, '"gatewayLatencyMs":null') = 0`;

/** One row per attempt (payment, gateway), with its latest feedback's outcome, latency and PSP error. */
const attempts = `SELECT payment_id, gateway,
    countIf(${isDecision}) AS a_decisions,
    countIf(${isFeedback}) AS feedbacks,
    argMaxIf(visitParamExtractString(details, 'outcome'), ${latestKey}, ${isFeedback}) AS outcome,
    maxIf(created_at_ms, ${isFeedback}) AS outcome_at_ms,
    countIf(${isFeedback} AND ${hasLatency}) AS a_latency_samples,
    sumIf(visitParamExtractFloat(details, 'gatewayLatencyMs'), ${isFeedback} AND ${hasLatency}) AS a_latency_sum_ms,
    argMaxIf(if(position(details, ${gsmKey}) > 0, substring(details, position(details, ${gsmKey})), ''), ${latestKey}, ${isFeedback}) AS gsm,
    maxIf(toUInt8(${dimensionWhere}), ${isDecision}) AS decision_in_filters
  FROM ${domainEvents} FINAL
  WHERE ${windowWhere} AND payment_id != '' AND gateway != '' AND (${isDecision} OR ${isFeedback})
    AND (length({f_gateways:Array(String)}) = 0 OR has({f_gateways:Array(String)}, gateway))
  GROUP BY payment_id, gateway
  HAVING decision_in_filters = 1 OR (a_decisions = 0 AND {dimensions_set:UInt8} = 0)`;

export const approvalGatewaysSql = `SELECT gateway,
  count() AS attempts,
  sum(a_decisions) AS decisions,
  countIf(outcome = 'success') AS approved,
  countIf(outcome = 'failure') AS declined,
  countIf(feedbacks > 0 AND outcome != 'success' AND outcome != 'failure') AS pending,
  sum(a_latency_samples) AS latency_samples,
  sum(a_latency_sum_ms) AS latency_sum_ms
FROM (${attempts})
GROUP BY gateway
ORDER BY attempts DESC, gateway
LIMIT 100`;

export const approvalSeriesSql = `SELECT intDiv(outcome_at_ms, {bucket:UInt64}) * {bucket:UInt64} AS bucket_ms, gateway,
  countIf(outcome = 'success') AS approved,
  countIf(outcome = 'failure') AS declined
FROM (${attempts})
WHERE outcome = 'success' OR outcome = 'failure'
GROUP BY bucket_ms, gateway
ORDER BY bucket_ms, gateway`;

// Aggregates get r_ aliases inside and their wire names outside: an alias equal to the column it
// aggregates confuses 18.16's alias substitution.
export const declineReasonsSql = `SELECT gateway, error_code, min(r_error_message) AS error_message, unified_code, count() AS count, max(outcome_at_ms) AS last_seen_ms
FROM (
  SELECT gateway, outcome_at_ms,
    visitParamExtractString(gsm, 'errorCode') AS error_code,
    visitParamExtractString(gsm, 'errorMessage') AS r_error_message,
    visitParamExtractString(gsm, 'unifiedCode') AS unified_code
  FROM (${attempts})
  WHERE outcome = 'failure'
)
GROUP BY gateway, error_code, unified_code
ORDER BY count DESC, last_seen_ms DESC, gateway, error_code, unified_code
LIMIT {limit:UInt32}`;
