import { dimensionWhere, domainEvents, windowWhere } from './domain-filters-sql.js';

/**
 * Error reads (overview top_errors, log-summaries).
 *
 * Inputs: the window and dimension inputs of domain-filters-sql.ts, {error_flows:Array(String)}, plus
 *   errorGroupsSql:  {limit:UInt32}
 *   errorSamplesSql: {limit:UInt32} {offset:UInt64}
 * Outputs:
 *   errorTotalSql:   one row { count: UInt64 }
 *   errorGroupsSql:  rows { route, error_code, error_message: String, count: UInt64, last_seen_ms: UInt64 }, most frequent first
 *   errorSamplesSql: rows { route, payment_id, request_id, global_request_id, trace_id, gateway, routing_approach,
 *                    status, error_code, error_message, flow_type: String, created_at_ms: UInt64 }, newest first
 */

const errorWhere = `${windowWhere} AND has({error_flows:Array(String)}, flow_type) AND ${dimensionWhere}`;

export const errorTotalSql = `SELECT count() AS count FROM ${domainEvents} FINAL WHERE ${errorWhere}`;

export const errorGroupsSql = `SELECT route, error_code, error_message, count() AS count, max(created_at_ms) AS last_seen_ms
FROM ${domainEvents} FINAL
WHERE ${errorWhere}
GROUP BY route, error_code, error_message
ORDER BY count DESC, last_seen_ms DESC, route, error_code, error_message
LIMIT {limit:UInt32}`;

export const errorSamplesSql = `SELECT route, payment_id, request_id, global_request_id, trace_id, gateway, routing_approach, status,
  error_code, error_message, flow_type, created_at_ms
FROM ${domainEvents} FINAL
WHERE ${errorWhere}
ORDER BY created_at_ms DESC, event_id DESC
LIMIT {limit:UInt32} OFFSET {offset:UInt64}`;
