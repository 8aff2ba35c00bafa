import { dimensionWhere, domainEvents, latestKey, windowWhere } from './domain-filters-sql.js';

/**
 * Latest score snapshot per (payment_method_type, payment_method, gateway).
 *
 * The latest row is picked by event id (argMax over time, then event id) and read back whole,
 * rather than argMax on each nullable metric: argMax skips NULLs differently across versions.
 *
 * Inputs: the window and dimension inputs of domain-filters-sql.ts, {snapshot_flows:Array(String)}, {limit:UInt32}
 * Outputs: rows { payment_method_type, payment_method, gateway: String, score_value, sigma_factor,
 *   average_latency, tp99_latency: Nullable(Float64), transaction_count: Nullable(UInt64), last_updated_ms: UInt64 },
 *   most recently updated first.
 */
export const latestSnapshotsSql = `SELECT payment_method_type, payment_method, gateway, score_value, sigma_factor, average_latency,
  tp99_latency, transaction_count, created_at_ms AS last_updated_ms
FROM ${domainEvents} FINAL
WHERE ${windowWhere} AND has({snapshot_flows:Array(String)}, flow_type) AND ${dimensionWhere}
  AND event_id IN (
    SELECT argMax(event_id, ${latestKey})
    FROM ${domainEvents} FINAL
    WHERE ${windowWhere} AND has({snapshot_flows:Array(String)}, flow_type) AND ${dimensionWhere}
    GROUP BY payment_method_type, payment_method, gateway
  )
ORDER BY last_updated_ms DESC, gateway, payment_method_type, payment_method
LIMIT {limit:UInt32}`;
