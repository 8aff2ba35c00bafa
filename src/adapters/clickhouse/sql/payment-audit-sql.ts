import {
  auditStatusCondition,
  auditWhere,
  dimensionWhere,
  domainEvents,
  isFailureStatus,
  isSuccessStatus,
  latestKey,
  windowWhere,
} from './domain-filters-sql.js';

/**
 * Payment audit and preview trace: events grouped by lookup key (payment id, else request id).
 * A key is a result when any of its events in the window matches every event filter and its latest
 * outcome status matches the `status` filter; its summary covers all of its events of that summary
 * kind in the window.
 *
 * Inputs: the window, dimension and audit inputs of domain-filters-sql.ts, {outcome_free_statuses:Array(String)},
 *   {decision_flow:String}, plus
 *   auditResultsSql:  {limit:UInt32} {offset:UInt64}
 *   auditTimelineSql: {lookup_key:String} {limit:UInt32}
 * Outputs:
 *   auditTotalsSql:   one row { total_results, total_success, total_failure: UInt64 } (families of latest_status)
 *   auditResultsSql:  rows { lookup_key, payment_id, request_id: String, first_seen_ms, last_seen_ms, event_count: UInt64,
 *                     latest_status, latest_gateway, latest_stage: String, gateways, routes: Array(String) },
 *                     most recently seen first
 *   auditTimelineSql: the key's rows, oldest first (columns listed below)
 * `latest_status` skips rows that carry no outcome (request hits, snapshots, decisions); '' when none has one:
 * a payment decided and not yet fed back has no outcome, and is neither a success nor a failure.
 */

const matchingKeys = `lookup_key IN (
    SELECT lookup_key FROM ${domainEvents} FINAL
    WHERE ${windowWhere} AND ${auditWhere} AND ${dimensionWhere}
  )`;

const summaryWhere = `${windowWhere} AND summary_kind = {summary_kind:String} AND ${matchingKeys}`;

// A decision row's status ('success': a gateway was chosen) says nothing of the payment's outcome:
// a payment decided and never fed back has no outcome yet, not a success (issue 37).
const latestStatus = `argMaxIf(status, ${latestKey}, NOT has({outcome_free_statuses:Array(String)}, status) AND flow_type != {decision_flow:String})`;

export const auditTotalsSql = `SELECT count() AS total_results,
  countIf(${isSuccessStatus('latest_status')}) AS total_success,
  countIf(${isFailureStatus('latest_status')}) AS total_failure
FROM (
  SELECT lookup_key, ${latestStatus} AS latest_status
  FROM ${domainEvents} FINAL
  WHERE ${summaryWhere}
  GROUP BY lookup_key
  HAVING ${auditStatusCondition('latest_status')}
)`;

// Aggregates get r_ aliases inside and their wire names outside: an alias equal to the column it
// aggregates confuses 18.16's alias substitution.
export const auditResultsSql = `SELECT lookup_key, r_payment_id AS payment_id, r_request_id AS request_id, first_seen_ms, last_seen_ms,
  event_count, latest_status, latest_gateway, latest_stage, r_gateways AS gateways, r_routes AS routes
FROM (
  SELECT lookup_key,
    max(payment_id) AS r_payment_id,
    argMaxIf(request_id, ${latestKey}, request_id != '') AS r_request_id,
    min(created_at_ms) AS first_seen_ms,
    max(created_at_ms) AS last_seen_ms,
    count() AS event_count,
    ${latestStatus} AS latest_status,
    argMaxIf(gateway, ${latestKey}, gateway != '') AS latest_gateway,
    argMax(event_stage, ${latestKey}) AS latest_stage,
    arraySort(groupUniqArray(gateway)) AS r_gateways,
    arraySort(groupUniqArray(route)) AS r_routes
  FROM ${domainEvents} FINAL
  WHERE ${summaryWhere}
  GROUP BY lookup_key
  HAVING ${auditStatusCondition('latest_status')}
)
ORDER BY last_seen_ms DESC, lookup_key
LIMIT {limit:UInt32} OFFSET {offset:UInt64}`;

export const auditTimelineSql = `SELECT event_id, flow_type, event_stage, route, payment_id, request_id, global_request_id, trace_id,
  payment_method_type, payment_method, gateway, routing_approach, rule_name, status, error_code, error_message,
  score_value, sigma_factor, average_latency, tp99_latency, transaction_count, details, created_at_ms
FROM ${domainEvents} FINAL
WHERE ${windowWhere} AND summary_kind = {summary_kind:String} AND lookup_key = {lookup_key:String}
ORDER BY created_at_ms, event_id
LIMIT {limit:UInt32}`;
