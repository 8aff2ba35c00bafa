/**
 * The volume-commitment read over analytics_decision_policies (src/volume-commitment/).
 *
 * Inputs:  {database:Identifier} {merchant_id:String} {start_ms:UInt64} {end_ms:UInt64} {start_s:UInt32}
 *          {end_s:UInt32} {connectors:Array(String)} {day_ms:UInt64} {steered:String}
 * Outputs: rows { gateway: String, day_index: UInt64, payments: UInt64, amount: Float64,
 *          steered_payments: UInt64, steered_amount: Float64 }, by gateway then day
 * Errors:  none expected; engine errors surface as SY_ANALYTICS_UNAVAILABLE.
 *
 * FINAL: a re-sent decision counts once. Day buckets are contract days counted from the cycle's
 * opening (intDiv of the milliseconds since {start_ms}), so a test cycle's one-minute days bucket
 * the same way as calendar days. Aliases differ from column names (18.16 resolves GROUP BY names to aliases).
 */
export const commitmentVolumeSql = `SELECT gateway AS psp,
  intDiv(created_at_ms - {start_ms:UInt64}, {day_ms:UInt64}) AS day_index,
  count() AS payments,
  sum(amount) AS amount_total,
  countIf(routing_approach = {steered:String}) AS steered_payments,
  sumIf(amount, routing_approach = {steered:String}) AS steered_amount
FROM {database:Identifier}.analytics_decision_policies FINAL
WHERE merchant_id = {merchant_id:String}
  AND created_at >= toDateTime({start_s:UInt32}) AND created_at <= toDateTime({end_s:UInt32})
  AND created_at_ms >= {start_ms:UInt64} AND created_at_ms <= {end_ms:UInt64}
  AND has({connectors:Array(String)}, gateway)
GROUP BY psp, day_index
ORDER BY psp, day_index`;
