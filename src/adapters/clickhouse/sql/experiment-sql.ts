import { domainEvents, isFailureStatus, isSuccessStatus, latestKey } from './domain-filters-sql.js';

/**
 * Routing experiments (`ab_test`): payments whose `decide_gateway_decision` row recorded the
 * experiment (decision.created `experiment` object, kept in `details`), joined with their
 * `update_gateway_score_update` (feedback) rows by payment id, one row per payment, then summed
 * per arm or paged.
 *
 * `details` is read with visitParamExtract* (18.16 has no JSONExtract*): they find a key at any
 * depth, first occurrence, so the keys read here are ones only the experiment object carries
 * (`experimentId`, `experimentArm`, `chosenCostBps`, `costSavedBps`) or whose first occurrence is the
 * right one (`amount`: the payment's; `latencyMs`: the decision's).
 *
 * A payment is attributed by its decision row, or by the `routing_evaluate_*` row of a static
 * evaluation in the experiment (rule.evaluated `experiment`: /routing/evaluate and the static half of
 * /routing/hybrid); cost and latency facts come from decision rows only. `{endpoint:String}` keeps
 * the rows of one endpoint ('' keeps all; a decision row without `endpoint` is from /decide-gateway,
 * recorded before layered experiments).
 *
 * Inputs: {database:Identifier} {merchant_id:String} {experiment_id:String} {start_ms:UInt64} {end_ms:UInt64}
 *   {start_s:UInt32} {end_s:UInt32} {decision_flow:String} {feedback_flow:String} {endpoint:String}
 *   {success_statuses:Array(String)} {failure_markers:Array(String)}
 *   experimentTransactionsSql also: {limit:UInt32} {offset:UInt64}
 * Outputs:
 *   experimentArmsSql:         rows { arm: String, assigned, resolved, successes, first_attempt_successes, cost_payments: UInt64,
 *                              avg_latency_ms, chosen_cost_bps_sum, cost_saved_bps_sum, saved_success_sum, saved_success_sq_sum,
 *                              total_cost_saved: Float64 }, one per arm seen
 *   experimentTotalSql:        one row { total: UInt64 }
 *   experimentTransactionsSql: rows { payment_id, variant_arm, gateway, status: String, created_at_ms: UInt64 }, newest first
 */

const window = `merchant_id = {merchant_id:String}
  AND created_at >= toDateTime({start_s:UInt32}) AND created_at <= toDateTime({end_s:UInt32})
  AND created_at_ms >= {start_ms:UInt64} AND created_at_ms <= {end_ms:UInt64}`;

const ofExperiment = `visitParamExtractString(details, 'experimentId') = {experiment_id:String}
    AND ({endpoint:String} = '' OR if(visitParamExtractString(details, 'endpoint') = '', 'decide_gateway', visitParamExtractString(details, 'endpoint')) = {endpoint:String})`;
const inDecision = `flow_type = {decision_flow:String} AND ${ofExperiment}`;
const inExperiment = `(flow_type = {decision_flow:String} OR startsWith(flow_type, 'routing_evaluate_')) AND ${ofExperiment}`;
const isFeedback = 'flow_type = {feedback_flow:String}';

/** A payment's facts every read takes: its arm (first experiment row), and whether a success or any resolving feedback arrived. */
const paymentOutcome = `argMinIf(visitParamExtractString(details, 'experimentArm'), ${latestKey}, ${inExperiment}) AS p_arm,
    countIf(${isFeedback} AND ${isSuccessStatus('status')}) > 0 AS p_success,
    countIf(${isFeedback} AND (${isSuccessStatus('status')} OR ${isFailureStatus('status')})) > 0 AS p_resolved`;
/** The rows those facts come from: decisions, static evaluations and feedback in the merchant's window. */
const paymentRows = `${window}
    AND (flow_type = {decision_flow:String} OR startsWith(flow_type, 'routing_evaluate_') OR ${isFeedback})`;
/** Per arm: payments assigned, resolved, and successful (what the guardrail's test reads). */
const armCounts = 'p_arm AS arm, count() AS assigned, countIf(p_resolved) AS resolved, countIf(p_success) AS successes';
/** The two arms' rows of a per-payment read, one per arm, control first. */
const perArm = `WHERE p_arm IN ('control', 'variant')
GROUP BY p_arm
ORDER BY p_arm`;

/** One row per payment of the experiment: its arm (first decision), outcome and cost facts. */
const perPayment = `SELECT payment_id,
    ${paymentOutcome},
    argMaxIf(gateway, ${latestKey}, ${inExperiment}) AS p_gateway,
    minIf(created_at_ms, ${inExperiment}) AS p_created_ms,
    avgIf(visitParamExtractFloat(details, 'latencyMs'), ${inDecision}) AS p_latency_ms,
    argMinIf(visitParamExtractFloat(details, 'chosenCostBps'), ${latestKey}, ${inDecision}) AS p_chosen_cost,
    argMinIf(visitParamExtractFloat(details, 'costSavedBps'), ${latestKey}, ${inDecision}) AS p_saved,
    argMinIf(visitParamExtractFloat(details, 'amount'), ${latestKey}, ${inDecision}) AS p_amount,
    argMinIf(status, ${latestKey}, ${isFeedback}) AS p_first_status,
    argMaxIf(status, ${latestKey}, ${isFeedback}) AS p_latest_status
  FROM ${domainEvents} FINAL
  WHERE ${paymentRows}
    AND payment_id IN (SELECT payment_id FROM ${domainEvents} FINAL WHERE ${window} AND ${inExperiment})
  GROUP BY payment_id`;

export const experimentArmsSql = `SELECT ${armCounts},
  countIf(p_resolved AND ${isSuccessStatus('p_first_status')}) AS first_attempt_successes,
  avgIf(p_latency_ms, p_latency_ms > 0) AS avg_latency_ms,
  countIf(p_resolved AND p_chosen_cost > 0) AS cost_payments,
  sumIf(p_chosen_cost, p_resolved AND p_chosen_cost > 0) AS chosen_cost_bps_sum,
  sumIf(p_saved, p_resolved AND p_chosen_cost > 0) AS cost_saved_bps_sum,
  sumIf(p_saved, p_success) AS saved_success_sum,
  sumIf(p_saved * p_saved, p_success) AS saved_success_sq_sum,
  sumIf(p_saved / 10000 * p_amount, p_success) AS total_cost_saved
FROM (${perPayment})
${perArm}`;

/**
 * The guardrail's facts per payment, and only those: its arm, and whether a success or any resolving
 * feedback arrived (what the guardrail's test reads; src/experiments/experiment-verdict.ts). The
 * scheduled check reads them every minute for as long as the experiment runs, so the read is cut to
 * what it needs: one pass over the merchant's rows in the window, grouped by payment (a payment
 * without an experiment row gets arm '' and is dropped), where the full read above first collects
 * the experiment's payment ids and then reads their rows, and extracts seven fields from `details`
 * where this extracts one. On a million payments all in the experiment it takes under a quarter of
 * the full read's time, with a tenth of them in it four fifths; with one in a hundred it groups a
 * hundred times the payments it keeps and takes a fifth longer (bench/experiment-reads.mjs). An
 * experiment takes every payment of its slot, so most of a merchant's. It keeps FINAL and the same
 * arm rule, so its counts are the full read's (test/integration/experiments/experiment-reads.test.ts).
 */
const perPaymentOutcome = `SELECT payment_id, ${paymentOutcome}
  FROM ${domainEvents} FINAL
  WHERE ${paymentRows}
  GROUP BY payment_id`;

export const experimentArmOutcomesSql = `SELECT ${armCounts}
FROM (${perPaymentOutcome})
${perArm}`;

export const experimentTotalSql = `SELECT count() AS total FROM (${perPayment}) WHERE p_arm IN ('control', 'variant')`;

export const experimentTransactionsSql = `SELECT payment_id, p_arm AS variant_arm, p_gateway AS gateway, p_latest_status AS status, p_created_ms AS created_at_ms
FROM (${perPayment})
WHERE p_arm IN ('control', 'variant')
ORDER BY created_at_ms DESC, payment_id
LIMIT {limit:UInt32} OFFSET {offset:UInt64}`;
