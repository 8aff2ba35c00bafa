import { domainEvents, windowWhere } from './domain-filters-sql.js';

/**
 * GET /analytics/routing-events (src/adapters/clickhouse/routing-events-reads.ts).
 *
 * scoreBucketsSql: the latest score snapshot of each gateway per bucket and (payment method type,
 * payment method), as decision-engine's metrics/score_bucket_series.rs (argMax by time; the event
 * id breaks a tie so both engines pick the same row). Buckets are `intDiv(created_at_ms, bucket) *
 * bucket` (18.16 has no toStartOfInterval), the same UTC-aligned starts as toStartOfFiveMinutes.
 * The argMax results get their own aliases and are renamed outside: an alias equal to the column
 * it aggregates confuses 18.16's alias substitution.
 *
 * calibrationRunsSql: the autopilot runs that wrote the config (`autopilot_calibration`, status
 * `applied`), their payload in `details`.
 *
 * Inputs: windowWhere's {database} {merchant_id} {start_ms} {end_ms} {start_s} {end_s};
 *   scoreBucketsSql: {bucket:UInt64} {snapshot_flows:Array(String)} {f_payment_method_type:String}
 *   {f_payment_method:String} ('' = no filter); calibrationRunsSql: {calibration_flow:String}
 *   {applied_status:String}.
 * Outputs: scoreBucketsSql rows { bucket_ms: UInt64, payment_method_type, payment_method, gateway:
 *   String, score_value: Float64, transaction_count: Nullable(UInt64) } by bucket_ms, gateway;
 *   calibrationRunsSql rows { created_at_ms: UInt64, details: String } by created_at_ms.
 */
export const scoreBucketsSql = `SELECT bucket_ms, payment_method_type, payment_method, gateway, latest_score AS score_value, latest_count AS transaction_count
FROM (
  SELECT intDiv(created_at_ms, {bucket:UInt64}) * {bucket:UInt64} AS bucket_ms, payment_method_type, payment_method, gateway,
    argMax(score_value, tuple(created_at_ms, event_id)) AS latest_score,
    argMax(transaction_count, tuple(created_at_ms, event_id)) AS latest_count
  FROM ${domainEvents} FINAL
  WHERE ${windowWhere} AND has({snapshot_flows:Array(String)}, flow_type) AND score_value IS NOT NULL AND gateway != ''
    AND ({f_payment_method_type:String} = '' OR payment_method_type = {f_payment_method_type:String})
    AND ({f_payment_method:String} = '' OR payment_method = {f_payment_method:String})
  GROUP BY bucket_ms, payment_method_type, payment_method, gateway
)
ORDER BY bucket_ms, gateway, payment_method_type, payment_method`;

export const calibrationRunsSql = `SELECT created_at_ms, details
FROM ${domainEvents} FINAL
WHERE ${windowWhere} AND flow_type = {calibration_flow:String} AND status = {applied_status:String}
ORDER BY created_at_ms, event_id`;
