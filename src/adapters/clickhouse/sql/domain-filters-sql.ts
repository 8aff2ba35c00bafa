/**
 * WHERE fragments shared by the analytics reads over `analytics_domain_events`.
 * Every read uses FINAL so duplicates (a re-sent batch) are collapsed by event id at read time,
 * whatever the merge state: 18.16 keeps duplicates of one insert until a merge, chDB does not.
 *
 * Inputs (bound by bindSql, built by domain-filter-params.ts):
 *   {database:Identifier}
 *   windowWhere:    {merchant_id:String} {start_ms:UInt64} {end_ms:UInt64} {start_s:UInt32} {end_s:UInt32}
 *   dimensionWhere: {f_payment_method_type:String} … {f_auth_type:String} ('' = no filter), {f_gateways:Array(String)} ([] = all)
 *   auditWhere:     {summary_kind:String} {a_payment_id:String} {a_request_id:String} {a_routes:Array(String)}
 *                   {a_flow_type:String} {a_routing_approach:String} {a_exclude_routing_approach:String} {a_error_code:String}
 *   auditStatusCondition: {a_status_kind:String} ('any'|'success'|'failure'|'exact') {a_status:String}
 *                   {success_statuses:Array(String)} {failure_markers:Array(String)}
 * Outputs: boolean SQL expressions; no rows.
 */

export const domainEvents = '{database:Identifier}.analytics_domain_events';

/** The merchant and the window; the DateTime bounds let ClickHouse skip whole daily partitions. */
export const windowWhere = `merchant_id = {merchant_id:String}
  AND created_at >= toDateTime({start_s:UInt32}) AND created_at <= toDateTime({end_s:UInt32})
  AND created_at_ms >= {start_ms:UInt64} AND created_at_ms <= {end_ms:UInt64}`;

export const dimensionWhere = `({f_payment_method_type:String} = '' OR payment_method_type = {f_payment_method_type:String})
  AND ({f_payment_method:String} = '' OR payment_method = {f_payment_method:String})
  AND ({f_card_network:String} = '' OR card_network = {f_card_network:String})
  AND ({f_card_is_in:String} = '' OR card_is_in = {f_card_is_in:String})
  AND ({f_currency:String} = '' OR currency = {f_currency:String})
  AND ({f_country:String} = '' OR country = {f_country:String})
  AND ({f_auth_type:String} = '' OR auth_type = {f_auth_type:String})
  AND (length({f_gateways:Array(String)}) = 0 OR has({f_gateways:Array(String)}, gateway))`;

/** A status in the success family (see src/analytics/status-families.ts for the lists). */
export const isSuccessStatus = (column: string) => `has({success_statuses:Array(String)}, upper(${column}))`;
/** A status in the failure family. */
export const isFailureStatus = (column: string) => `arrayExists(marker -> position(upper(${column}), marker) > 0, {failure_markers:Array(String)})`;

export const auditWhere = `summary_kind = {summary_kind:String}
  AND ({a_payment_id:String} = '' OR payment_id = {a_payment_id:String})
  AND ({a_request_id:String} = '' OR request_id = {a_request_id:String})
  AND (length({a_routes:Array(String)}) = 0 OR has({a_routes:Array(String)}, route))
  AND ({a_flow_type:String} = '' OR flow_type = {a_flow_type:String})
  AND ({a_routing_approach:String} = '' OR routing_approach = {a_routing_approach:String})
  AND ({a_exclude_routing_approach:String} = '' OR routing_approach != {a_exclude_routing_approach:String})
  AND ({a_error_code:String} = '' OR error_code = {a_error_code:String})`;

/** The `status` filter, applied to a result's latest outcome status (not to any one event). */
export const auditStatusCondition = (column: string) => `({a_status_kind:String} = 'any'
    OR ({a_status_kind:String} = 'success' AND ${isSuccessStatus(column)})
    OR ({a_status_kind:String} = 'failure' AND ${isFailureStatus(column)})
    OR ({a_status_kind:String} = 'exact' AND upper(${column}) = upper({a_status:String})))`;

/** Tie-break for "latest": time first, then event id, so both engines pick the same row. */
export const latestKey = 'tuple(created_at_ms, event_id)';
