import { domainEvents, windowWhere } from './domain-filters-sql.js';

/**
 * The autopilot's reads over decision rows (src/decision/autopilot/).
 *
 * Inputs:
 *   segmentTrafficSql:     the windowWhere inputs of domain-filters-sql.ts, {decision_flow:String},
 *                          {dims:Array(String)} (which of card_network, currency, country, auth_type split segments)
 *   merchantsWithDecisionsSql: {database:Identifier} {start_ms:UInt64} {end_ms:UInt64} {start_s:UInt32}
 *                          {end_s:UInt32} {decision_flow:String} {limit:UInt32}
 * Outputs:
 *   segmentTrafficSql: rows { payment_method_type, payment_method, seg_card_network, seg_currency, seg_country,
 *                      seg_auth_type: String ('' = not split or absent), volume: UInt64, gateways: UInt64 },
 *                      largest volume first
 *   merchantsWithDecisionsSql: rows { merchant_id: String }, sorted
 *
 * A dimension not in {dims} is read as '' so it does not split the grouping; one statement serves
 * every combination (no SQL assembled per merchant). Counts read FINAL: a re-sent batch counts once.
 * Aliases differ from the column names because 18.16 resolves a GROUP BY name to the alias.
 */

const splitBy = (column: string) => `if(has({dims:Array(String)}, '${column}'), ${column}, '') AS seg_${column}`;

export const segmentTrafficSql = `SELECT payment_method_type, payment_method,
  ${splitBy('card_network')}, ${splitBy('currency')}, ${splitBy('country')}, ${splitBy('auth_type')},
  count() AS volume, uniqExact(gateway) AS gateways
FROM ${domainEvents} FINAL
WHERE ${windowWhere} AND flow_type = {decision_flow:String} AND payment_method_type != ''
GROUP BY payment_method_type, payment_method, seg_card_network, seg_currency, seg_country, seg_auth_type
ORDER BY volume DESC, payment_method_type, payment_method, seg_card_network, seg_currency, seg_country, seg_auth_type`;

export const merchantsWithDecisionsSql = `SELECT DISTINCT merchant_id
FROM ${domainEvents}
WHERE created_at >= toDateTime({start_s:UInt32}) AND created_at <= toDateTime({end_s:UInt32})
  AND created_at_ms >= {start_ms:UInt64} AND created_at_ms <= {end_ms:UInt64}
  AND flow_type = {decision_flow:String}
ORDER BY merchant_id
LIMIT {limit:UInt32}`;
