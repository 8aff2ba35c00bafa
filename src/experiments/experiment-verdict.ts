import type { ExperimentArmFacts } from '../ports/analytics/experiment-reports.js';
import { momentsOf, twoSampleZTest } from './two-sample-z-test.js';

export type ExperimentVerdict = 'collecting_data' | 'not_significant' | 'variant_wins' | 'variant_loses' | 'guardrail_breached';

/** One arm as GET /analytics/experiment/{id}/results answers it (the peer's fields, plus `assigned_count`). */
export interface ExperimentArmMetrics {
  readonly arm: 'control' | 'variant';
  /** Resolved payments (a success or failure feedback arrived): the sample the test runs on. */
  readonly transaction_count: number;
  readonly success_count: number;
  readonly failure_count: number;
  /** Payments routed into the arm, resolved or not. */
  readonly assigned_count: number;
  readonly auth_rate: number;
  readonly first_attempt_auth_rate: number;
  readonly total_cost_saved: number | null;
  readonly avg_latency_ms: number | null;
  readonly avg_chosen_cost_bps: number | null;
  readonly avg_cost_saved_bps: number | null;
  readonly net_ev_bps: number | null;
}

export interface ExperimentThresholds {
  readonly minSampleSize: number;
  readonly guardrailThresholdPp: number;
  /** Business margin (fraction of ticket) valuing a success in the EV test. */
  readonly evaluationMargin: number;
}

export interface ExperimentStatistics {
  readonly control: ExperimentArmMetrics;
  readonly variant: ExperimentArmMetrics;
  readonly delta_pp: number;
  readonly p_value: number | null;
  /** EV delta in bps for cost experiments, auth delta in percentage points otherwise. */
  readonly confidence_interval: readonly [number, number] | null;
  readonly verdict: ExperimentVerdict;
  readonly net_delta_bps: number | null;
}

/** Significance level of the verdicts. */
const alpha = 0.05;

/**
 * The verdict of an experiment from its arms' sums (pure). In order:
 * 1. `collecting_data` while either arm has fewer than `minSampleSize` resolved payments;
 * 2. `guardrail_breached` when the variant's auth rate is more than `guardrailThresholdPp`
 *    percentage points below control's: a point estimate, no significance needed (safety trips
 *    eagerly; step 1 keeps it off a handful of payments);
 * 3. a two-sample z-test on each payment's value: v = success × (margin × 10⁴ + saved bps) when
 *    either arm carries cost data (EV, bps of the ticket), else v = success (auth rate). p < 0.05
 *    gives `variant_wins` or `variant_loses` by the sign of the delta, else `not_significant`.
 */
export function experimentStatistics(
  controlFacts: ExperimentArmFacts | undefined,
  variantFacts: ExperimentArmFacts | undefined,
  thresholds: ExperimentThresholds,
): ExperimentStatistics {
  const control = controlFacts ?? emptyArm('control');
  const variant = variantFacts ?? emptyArm('variant');
  const costExperiment = control.costPayments > 0 || variant.costPayments > 0;
  const m4 = thresholds.evaluationMargin * 10_000;
  const controlMetrics = metricsOf(control, costExperiment, m4);
  const variantMetrics = metricsOf(variant, costExperiment, m4);
  const delta_pp = (variantMetrics.auth_rate - controlMetrics.auth_rate) * 100;
  const net_delta_bps =
    costExperiment && controlMetrics.net_ev_bps !== null && variantMetrics.net_ev_bps !== null ? variantMetrics.net_ev_bps - controlMetrics.net_ev_bps : null;
  const answer = (verdict: ExperimentVerdict, p_value: number | null = null, confidence_interval: readonly [number, number] | null = null) => ({
    control: controlMetrics,
    variant: variantMetrics,
    delta_pp,
    p_value,
    confidence_interval,
    verdict,
    net_delta_bps,
  });
  if (control.resolved < thresholds.minSampleSize || variant.resolved < thresholds.minSampleSize || control.resolved === 0 || variant.resolved === 0) {
    return answer('collecting_data');
  }
  if (-delta_pp > thresholds.guardrailThresholdPp) return answer('guardrail_breached');
  const moments = (arm: ExperimentArmFacts) =>
    costExperiment
      ? momentsOf(arm.resolved, m4 * arm.successes + arm.savedSuccessSum, m4 * m4 * arm.successes + 2 * m4 * arm.savedSuccessSum + arm.savedSuccessSquareSum)
      : momentsOf(arm.resolved, arm.successes, arm.successes);
  const controlMoments = moments(control);
  const variantMoments = moments(variant);
  const test = controlMoments && variantMoments ? twoSampleZTest(controlMoments, variantMoments) : undefined;
  if (test === undefined) return answer('not_significant');
  // Auth-only: the interval in percentage points (v is 0/1, so the delta is a rate difference).
  const scale = costExperiment ? 1 : 100;
  const interval: readonly [number, number] = [test.confidenceInterval[0] * scale, test.confidenceInterval[1] * scale];
  const verdict = test.pValue < alpha ? (test.delta > 0 ? 'variant_wins' : 'variant_loses') : 'not_significant';
  return answer(verdict, test.pValue, interval);
}

function metricsOf(facts: ExperimentArmFacts, costExperiment: boolean, m4: number): ExperimentArmMetrics {
  const n = facts.resolved;
  const hasCost = facts.costPayments > 0;
  return {
    arm: facts.arm,
    transaction_count: n,
    success_count: facts.successes,
    failure_count: n - facts.successes,
    assigned_count: facts.assigned,
    auth_rate: n === 0 ? 0 : facts.successes / n,
    first_attempt_auth_rate: n === 0 ? 0 : facts.firstAttemptSuccesses / n,
    total_cost_saved: hasCost ? facts.totalCostSaved : null,
    avg_latency_ms: facts.avgLatencyMs,
    avg_chosen_cost_bps: hasCost ? facts.chosenCostBpsSum / facts.costPayments : null,
    avg_cost_saved_bps: hasCost ? facts.costSavedBpsSum / facts.costPayments : null,
    net_ev_bps: costExperiment && n > 0 ? (m4 * facts.successes + facts.savedSuccessSum) / n : null,
  };
}

function emptyArm(arm: 'control' | 'variant'): ExperimentArmFacts {
  return {
    arm,
    assigned: 0,
    resolved: 0,
    successes: 0,
    firstAttemptSuccesses: 0,
    avgLatencyMs: null,
    costPayments: 0,
    chosenCostBpsSum: 0,
    costSavedBpsSum: 0,
    savedSuccessSum: 0,
    savedSuccessSquareSum: 0,
    totalCostSaved: 0,
  };
}
