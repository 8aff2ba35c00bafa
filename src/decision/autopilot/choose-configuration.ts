import type { AutopilotCandidate, AutopilotSettings } from '../../ports/state/autopilot-runs.js';
import type { CalibrationBounds } from './calibration-formulas.js';
import { roundTo25 } from './calibration-formulas.js';
import type { SegmentPlan, SegmentSettings } from './plan-calibration.js';

/** A whole configuration the run could write: settings per segment plan (null = keep the segment as it is). */
export interface CandidateConfiguration {
  readonly name: string;
  readonly settings: SegmentSettings;
}

/** A counterfactual estimate of one candidate (success rate and its 95 % interval), or why none could be made. */
export type CandidateEstimate =
  | { readonly supported: true; readonly successRate: number; readonly interval: readonly [number, number] }
  | { readonly supported: false; readonly reason: string };

/** Whose logged decisions, over which range, a candidate is estimated on (the run's lookback). */
export interface EstimateScope {
  readonly merchantId: string;
  readonly sinceMs: number;
  readonly untilMs: number;
}

/**
 * Estimates what a candidate would have produced over the lookback from logged decisions (the
 * counterfactual evaluator, src/analytics/counterfactual/autopilot-estimator.ts). Without one a run
 * chooses by the formula alone.
 */
export type CandidateEstimator = (candidate: CandidateConfiguration, plans: readonly SegmentPlan[], scope: EstimateScope) => Promise<CandidateEstimate>;

/**
 * The candidates a run weighs: the formulas' proposal, the current configuration (no change), and
 * two neighbours of the proposal (half and double the window, hedging re-derived proportionally
 * and capped), each clamped to the bounds.
 */
export function candidateConfigurations(plans: readonly SegmentPlan[], bounds: CalibrationBounds): CandidateConfiguration[] {
  const scaled = (factor: number) =>
    plans.map((plan): AutopilotSettings => {
      const bucketSize = Math.min(bounds.maxBucketSize, Math.max(bounds.minBucketSize, roundTo25(plan.proposal.bucketSize * factor)));
      const hedgingPercent = Math.min(bounds.maxHedgingPercent, Math.round(plan.proposal.hedgingPercent * (bucketSize / plan.proposal.bucketSize) * 100) / 100);
      return { bucketSize, hedgingPercent };
    });
  return [
    { name: 'formula', settings: plans.map((plan) => plan.proposal) },
    { name: 'current', settings: plans.map(() => null) },
    { name: 'formula_bucket_x0.5', settings: scaled(0.5) },
    { name: 'formula_bucket_x2', settings: scaled(2) },
  ];
}

export interface ConfigurationChoice {
  readonly chosen: CandidateConfiguration;
  readonly chosenBy: 'formula' | 'counterfactual';
  readonly candidates: AutopilotCandidate[];
}

/**
 * Picks the candidate to write. Without an estimator (or when no candidate can be estimated) the
 * formulas' proposal wins, as in decision-engine. With one, the candidate with the highest
 * estimated success rate wins, but only when its interval's lower end beats the formula's point
 * estimate: a noisy estimate never overrides the formula.
 */
export async function chooseConfiguration(
  candidates: readonly CandidateConfiguration[],
  plans: readonly SegmentPlan[],
  estimate?: CandidateEstimator,
  scope?: EstimateScope,
): Promise<ConfigurationChoice> {
  const formula = candidates.find((candidate) => candidate.name === 'formula') ?? candidates[0]!;
  if (estimate === undefined || scope === undefined) {
    return {
      chosen: formula,
      chosenBy: 'formula',
      candidates: candidates.map((candidate) => ({ name: candidate.name, estimatedSuccessRate: null, interval: null })),
    };
  }
  const estimates = await Promise.all(candidates.map((candidate) => estimate(candidate, plans, scope)));
  const described = candidates.map((candidate, index): AutopilotCandidate => {
    const result = estimates[index]!;
    return result.supported
      ? { name: candidate.name, estimatedSuccessRate: result.successRate, interval: [...result.interval] }
      : { name: candidate.name, estimatedSuccessRate: null, interval: null };
  });
  const formulaRate = described[candidates.indexOf(formula)]?.estimatedSuccessRate ?? null;
  let best: { index: number; rate: number } | undefined;
  described.forEach((candidate, index) => {
    const low = candidate.interval?.[0];
    if (candidate.estimatedSuccessRate === null || low === undefined) return;
    if (formulaRate === null || low <= formulaRate) return;
    if (best === undefined || candidate.estimatedSuccessRate > best.rate) best = { index, rate: candidate.estimatedSuccessRate };
  });
  if (best === undefined) return { chosen: formula, chosenBy: 'formula', candidates: described };
  return { chosen: candidates[best.index]!, chosenBy: 'counterfactual', candidates: described };
}
