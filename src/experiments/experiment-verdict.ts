import type { ExperimentArmFacts, ExperimentArmOutcomes } from '../ports/analytics/experiment-reports.js';
import { defaultSequentialTestOptions, mixtureSequentialTest, proportionMoments } from './sequential-test.js';
import { momentsOf } from './two-sample-z-test.js';

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

/**
 * The guardrail's always-valid test on auth rate at this look (sequential-test.ts): breached when
 * the variant's auth rate is below control's with 95 % confidence under any number of looks (the
 * confidence sequence lies below 0) and the observed drop exceeds the threshold.
 */
export interface GuardrailTest {
  readonly method: 'msprt';
  /** variant auth rate − control auth rate, percentage points. */
  readonly delta_pp: number;
  /** Always-valid p-value of "the arms' auth rates are equal". */
  readonly p_value: number;
  /** The always-valid 95 % confidence sequence of the auth delta, percentage points. */
  readonly confidence_interval_pp: readonly [number, number];
  readonly threshold_pp: number;
  readonly breached: boolean;
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
  /** The guardrail's test; null while collecting data (or when neither arm's auth rate varies). */
  readonly guardrail_test: GuardrailTest | null;
}

/**
 * The verdict of an experiment from its arms' sums (pure). In order:
 * 1. `collecting_data` while either arm has fewer than `minSampleSize` resolved payments;
 * 2. `guardrail_breached` when the guardrail's always-valid test on auth rate (mSPRT,
 *    sequential-test.ts) finds the variant worse than control at α = 0.05 and the observed drop
 *    exceeds `guardrailThresholdPp` percentage points;
 * 3. the same always-valid test on each payment's value: v = success × (margin × 10⁴ + saved bps)
 *    when either arm carries cost data (EV, bps of the ticket), else v = success (auth rate).
 *    p < 0.05 gives `variant_wins` or `variant_loses` by the sign of the delta, else `not_significant`.
 *
 * Both tests are always valid: the chance that any of any number of reads of a null experiment
 * (A/A) says breached, wins or loses stays at most 5 %, so the verdict may be read, and the
 * guardrail checked, as often as anyone likes (test/unit/experiments/sequential-test.test.ts).
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
  const answer = (
    verdict: ExperimentVerdict,
    p_value: number | null = null,
    confidence_interval: readonly [number, number] | null = null,
    guardrail_test: GuardrailTest | null = null,
  ) => ({
    control: controlMetrics,
    variant: variantMetrics,
    delta_pp,
    p_value,
    confidence_interval,
    verdict,
    net_delta_bps,
    guardrail_test,
  });
  if (collectingData(control, variant, thresholds.minSampleSize)) return answer('collecting_data');
  const guardrail = guardrailTestOf(control, variant, thresholds.guardrailThresholdPp);
  const moments = (arm: ExperimentArmFacts) =>
    costExperiment
      ? momentsOf(arm.resolved, m4 * arm.successes + arm.savedSuccessSum, m4 * m4 * arm.successes + 2 * m4 * arm.savedSuccessSum + arm.savedSuccessSquareSum)
      : proportionMoments(arm.resolved, arm.successes);
  const controlMoments = moments(control);
  const variantMoments = moments(variant);
  const test = controlMoments && variantMoments ? mixtureSequentialTest(controlMoments, variantMoments) : undefined;
  // Auth-only: the interval in percentage points (v is 0/1, so the delta is a rate difference).
  const scale = costExperiment ? 1 : 100;
  const interval: readonly [number, number] | null = test === undefined ? null : [test.confidenceInterval[0] * scale, test.confidenceInterval[1] * scale];
  if (guardrail?.breached) return answer('guardrail_breached', test?.pValue ?? null, interval, guardrail);
  if (test === undefined) return answer('not_significant', null, null, guardrail);
  const verdict = test.pValue < defaultSequentialTestOptions.alpha ? (test.delta > 0 ? 'variant_wins' : 'variant_loses') : 'not_significant';
  return answer(verdict, test.pValue, interval, guardrail);
}

/**
 * The guardrail's test at this look, as {@link experimentStatistics} runs it: null while the
 * experiment is collecting data (either arm under `minSampleSize` resolved payments) or when neither
 * arm's auth rate can vary. Reads the arms' counts only, so the scheduled check can read just those
 * (ExperimentAnalytics.experimentArmOutcomes).
 */
export function guardrailTestAtLook(
  controlOutcomes: ExperimentArmOutcomes | undefined,
  variantOutcomes: ExperimentArmOutcomes | undefined,
  thresholds: Pick<ExperimentThresholds, 'minSampleSize' | 'guardrailThresholdPp'>,
): GuardrailTest | null {
  const control = controlOutcomes ?? noOutcomes;
  const variant = variantOutcomes ?? noOutcomes;
  return collectingData(control, variant, thresholds.minSampleSize) ? null : guardrailTestOf(control, variant, thresholds.guardrailThresholdPp);
}

type ArmCounts = Pick<ExperimentArmOutcomes, 'resolved' | 'successes'>;
const noOutcomes: ArmCounts = { resolved: 0, successes: 0 };

/** Either arm under `minSampleSize` resolved payments, or without any: no test runs yet. */
function collectingData(control: ArmCounts, variant: ArmCounts, minSampleSize: number): boolean {
  return control.resolved < minSampleSize || variant.resolved < minSampleSize || control.resolved === 0 || variant.resolved === 0;
}

/** The guardrail's test on auth rate (null when neither arm's rate can vary: fewer than two payments). */
function guardrailTestOf(control: ArmCounts, variant: ArmCounts, thresholdPp: number): GuardrailTest | null {
  const controlMoments = proportionMoments(control.resolved, control.successes);
  const variantMoments = proportionMoments(variant.resolved, variant.successes);
  const test = controlMoments && variantMoments ? mixtureSequentialTest(controlMoments, variantMoments) : undefined;
  if (test === undefined) return null;
  const deltaPp = test.delta * 100;
  const [low, high] = [test.confidenceInterval[0] * 100, test.confidenceInterval[1] * 100];
  return {
    method: 'msprt',
    delta_pp: deltaPp,
    p_value: test.pValue,
    confidence_interval_pp: [low, high],
    threshold_pp: thresholdPp,
    breached: high < 0 && -deltaPp > thresholdPp,
  };
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
