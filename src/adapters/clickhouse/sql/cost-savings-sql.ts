import { dimensionWhere, domainEvents, windowWhere } from './domain-filters-sql.js';

/**
 * GET /analytics/cost-savings: the merchant's `decide_gateway_decision` rows whose decision.created
 * payload (kept whole in `details`) carries the cost-aware post-step's `multiObjective` mark, summed
 * per currency, time bucket and whether the row passes the dimension and gateway filters. The
 * report (src/analytics/shape-cost-savings-report.ts) picks the currency list from every row and
 * the totals and trend from the chosen currency's filtered rows: one statement, one round trip.
 *
 * `details` is read with position/substring/visitParamExtract* (18.16 has no JSONExtract*). The
 * visitParam functions take the first occurrence of a key at any depth, so they read from the
 * `"multiObjective":{` object onwards: a gateway named `outcome` in `gatewayPriorityMap` (written
 * before it) cannot shadow the mark, and `outcome` and `savedValue` are the mark's own keys (the
 * experiment object after it has neither; policy's `multiObjective` is a boolean, not `{`).
 * Buckets are `intDiv(created_at_ms, bucket) * bucket` (no toStartOfInterval on 18.16).
 *
 * Inputs: the window and dimension inputs of domain-filters-sql.ts ({f_currency:String} bound to ''),
 *   {bucket:UInt64} {decision_flow:String} {mark_key:String} = '"multiObjective":{'
 * Outputs: rows { currency: String, bucket_ms: UInt64, in_filters: UInt8, decisions, cost_won,
 *   saved_decisions: UInt64, saved_value, net_value, approvals_lost: Float64, net_known: UInt64 },
 *   ordered by currency, bucket_ms, in_filters. `netValue`/`approvalsLost` are absent from marks
 *   written before they existed: they read 0 there and `net_known` counts the marks that have them.
 */
export const costSavingsSql = `SELECT currency, bucket_ms, in_filters,
  count() AS decisions,
  countIf(mark_outcome = 'COST_WON') AS cost_won,
  countIf(mark_outcome = 'COST_WON' AND mark_saved > 0) AS saved_decisions,
  sumIf(mark_saved, mark_outcome = 'COST_WON') AS saved_value,
  sumIf(mark_net, mark_outcome = 'COST_WON') AS net_value,
  sumIf(mark_lost, mark_outcome = 'COST_WON') AS approvals_lost,
  countIf(mark_outcome = 'COST_WON' AND mark_net_known) AS net_known
FROM (
  SELECT currency,
    intDiv(created_at_ms, {bucket:UInt64}) * {bucket:UInt64} AS bucket_ms,
    ${dimensionWhere} AS in_filters,
    substring(details, position(details, {mark_key:String})) AS mark,
    visitParamExtractString(mark, 'outcome') AS mark_outcome,
    visitParamExtractFloat(mark, 'savedValue') AS mark_saved,
    visitParamExtractFloat(mark, 'netValue') AS mark_net,
    visitParamExtractFloat(mark, 'approvalsLost') AS mark_lost,
    visitParamHas(mark, 'netValue') AS mark_net_known
  FROM ${domainEvents} FINAL
  WHERE ${windowWhere} AND flow_type = {decision_flow:String} AND position(details, {mark_key:String}) > 0
)
GROUP BY currency, bucket_ms, in_filters
ORDER BY currency, bucket_ms, in_filters`;
