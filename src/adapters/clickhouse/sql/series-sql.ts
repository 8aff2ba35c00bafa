import { dimensionWhere, domainEvents, latestKey, windowWhere } from './domain-filters-sql.js';

/**
 * Per-bucket series. Buckets are `intDiv(created_at_ms, bucket) * bucket` (18.16 has no
 * toStartOfInterval), so `bucket_ms` is the bucket start in epoch ms.
 *
 * Inputs: the window inputs of domain-filters-sql.ts, {bucket:UInt64}, plus
 *   decisionSeriesSql: {decision_flow:String}
 *   gatewayShareSql:   {decision_flow:String} and the dimension filters
 *   scoreSeriesSql:    {snapshot_flows:Array(String)} and the dimension filters
 * Outputs:
 *   decisionSeriesSql: rows { bucket_ms: UInt64, key: String (routing approach), count: UInt64 }
 *   gatewayShareSql:   rows { bucket_ms: UInt64, key: String (gateway), count: UInt64 }
 *   scoreSeriesSql:    rows { bucket_ms, payment_method_type, payment_method, gateway, score_value: Float64 (the bucket's last snapshot) }
 *   all ordered by bucket, then the grouping columns.
 */

export const decisionSeriesSql = `SELECT intDiv(created_at_ms, {bucket:UInt64}) * {bucket:UInt64} AS bucket_ms, routing_approach AS key, count() AS count
FROM ${domainEvents} FINAL
WHERE ${windowWhere} AND flow_type = {decision_flow:String}
GROUP BY bucket_ms, routing_approach
ORDER BY bucket_ms, key`;

export const gatewayShareSql = `SELECT intDiv(created_at_ms, {bucket:UInt64}) * {bucket:UInt64} AS bucket_ms, gateway AS key, count() AS count
FROM ${domainEvents} FINAL
WHERE ${windowWhere} AND flow_type = {decision_flow:String} AND ${dimensionWhere}
GROUP BY bucket_ms, gateway
ORDER BY bucket_ms, key`;

// A score is a state, not a flow: each bucket carries the last snapshot in it (time, then event id,
// so both engines pick the same row), never an average that could rank gateways unlike the live
// scores. The value gets its own alias inside and is renamed outside: an alias equal to the column
// it aggregates confuses 18.16's alias substitution.
export const scoreSeriesSql = `SELECT bucket_ms, payment_method_type, payment_method, gateway, last_score AS score_value
FROM (
  SELECT intDiv(created_at_ms, {bucket:UInt64}) * {bucket:UInt64} AS bucket_ms, payment_method_type, payment_method, gateway,
    argMax(score_value, ${latestKey}) AS last_score
  FROM ${domainEvents} FINAL
  WHERE ${windowWhere} AND has({snapshot_flows:Array(String)}, flow_type) AND score_value IS NOT NULL AND ${dimensionWhere}
  GROUP BY bucket_ms, payment_method_type, payment_method, gateway
)
ORDER BY bucket_ms, payment_method_type, payment_method, gateway`;
