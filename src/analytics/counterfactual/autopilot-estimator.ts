import type { CandidateEstimator, CandidateConfiguration } from '../../decision/autopilot/choose-configuration.js';
import type { SegmentPlan } from '../../decision/autopilot/plan-calibration.js';
import type { RunCounterfactual } from './run-counterfactual.js';

/**
 * The autopilot's candidate estimator over the counterfactual evaluator: a candidate is evaluated
 * on the merchant's logged decisions of the run's lookback, and its doubly-robust success-rate
 * estimate and 95 % interval are what the run compares (choose-configuration.ts).
 *
 * The evaluator replays one configuration per merchant, while a candidate sets each segment. The
 * candidate is therefore evaluated at its segments' volume-weighted bucket size and hedging
 * (exact when the merchant has one calibrated segment, the usual case; an approximation across
 * segments of different traffic). A segment the candidate leaves as it is counts with its current
 * autopilot values, or not at all when it has none (the merchant's configuration then applies).
 * Unsupported estimates (no overlap, too few effective samples) come back as such, and the run
 * then keeps the formula's proposal.
 */
export function createAutopilotEstimator(runCounterfactual: RunCounterfactual): CandidateEstimator {
  return async (candidate, plans, scope) => {
    const knobs = weightedSettings(candidate, plans);
    const report = await runCounterfactual({ merchantId: scope.merchantId, startMs: scope.sinceMs, endMs: scope.untilMs, ...knobs });
    const estimate = report.successRate?.doublyRobust;
    if (!report.supported || estimate === undefined) return { supported: false, reason: report.message ?? report.reason ?? 'no estimate' };
    return { supported: true, successRate: estimate.value, interval: [estimate.ci95[0], estimate.ci95[1]] };
  };
}

/** The candidate's bucket size and hedging averaged over its segments by volume; none when it sets none. */
export function weightedSettings(candidate: CandidateConfiguration, plans: readonly SegmentPlan[]): { bucketSize?: number; hedgingPercent?: number } {
  let volume = 0;
  let bucket = 0;
  let hedging = 0;
  plans.forEach((plan, index) => {
    const settings = candidate.settings[index] ?? plan.current;
    if (settings === null || settings === undefined) return;
    volume += plan.volume;
    bucket += settings.bucketSize * plan.volume;
    hedging += settings.hedgingPercent * plan.volume;
  });
  if (volume === 0) return {};
  return { bucketSize: Math.max(1, Math.round(bucket / volume)), hedgingPercent: Math.round((hedging / volume) * 100) / 100 };
}
