import type { FeeEstimate } from '../../ports/state/cost-model.js';
import { actionProbabilities } from '../../decision/policy/decision-policy.js';
import { candidateProbabilities, settlementValue, type CandidateConfig } from './candidate-policy.js';
import { estimate, meanEstimate, type Estimate, type Estimates, type Sample } from './estimators.js';
import type { LoggedDecision } from './logged-decision.js';
import { rescoreForBucket } from './rescore-windows.js';

/** Why an estimate cannot be given: the data, not a number, is the answer then. */
export type UnsupportedReason = 'no_logged_decisions' | 'no_outcomes' | 'no_overlap' | 'too_few_effective_samples';

export interface CounterfactualOptions {
  /** Below this effective sample size the estimate is refused. */
  readonly minEffectiveSampleSize: number;
  /** Above this share of the candidate's probability mass on never-logged gateways, refused. */
  readonly maxUnsupportedShare: number;
}

export const defaultCounterfactualOptions: CounterfactualOptions = { minEffectiveSampleSize: 20, maxUnsupportedShare: 0.01 };

export interface CounterfactualResult {
  readonly decisions: number;
  readonly labelled: number;
  readonly supported: boolean;
  readonly reason: UnsupportedReason | null;
  /** Plain-language explanation when unsupported. */
  readonly message: string | null;
  /** Share of the candidate's probability mass the logging policy gave zero probability. */
  readonly unsupportedShare: number;
  /** Gateways the candidate would pick where the logging policy never could. */
  readonly unsupportedGateways: readonly string[];
  readonly effectiveSampleSize: number;
  /** The logged (on-policy) success rate and EV of the decisions with outcomes. */
  readonly logged: { readonly successRate: Estimate | null; readonly ev: Estimate | null };
  readonly successRate: Estimates | null;
  readonly ev: Estimates | null;
  /** Why EV is null while the success rate is given (no amount or fee data). */
  readonly evMessage: string | null;
}

/**
 * Estimates what `config` would have achieved on logged decisions: success rate, and EV
 * (success × (amount × margin − cost)) when every gateway involved has fee data. The direct model
 * of the doubly-robust estimator is each gateway's success rate over the labelled decisions of the
 * range (Laplace-smoothed: (s + 1) / (n + 2)).
 */
export function evaluateCounterfactual(
  decisions: readonly LoggedDecision[],
  config: CandidateConfig,
  fees: ReadonlyMap<string, FeeEstimate>,
  options: CounterfactualOptions = defaultCounterfactualOptions,
): CounterfactualResult {
  const empty = { unsupportedShare: 0, unsupportedGateways: [], effectiveSampleSize: 0, successRate: null, ev: null, evMessage: null };
  if (decisions.length === 0) {
    return refused(
      { ...empty, decisions: 0, labelled: 0, logged: { successRate: null, ev: null } },
      'no_logged_decisions',
      'No decision in the range logged its policy.',
    );
  }
  const scores = rescoreForBucket(decisions, config.bucketSize);
  const indexes = decisions.flatMap((decision, index) => (decision.success === null ? [] : [index]));
  const labelled = indexes.map((index) => decisions[index] as LoggedDecision);
  const base = { decisions: decisions.length, labelled: labelled.length };
  if (labelled.length === 0) {
    return refused(
      { ...empty, ...base, logged: { successRate: null, ev: null } },
      'no_outcomes',
      'No decision in the range has a success or failure outcome yet.',
    );
  }

  const targets = indexes.map((index) => candidateProbabilities(decisions[index] as LoggedDecision, scores[index] as readonly number[], config, fees));
  const overlap = overlapOf(labelled, targets);
  const rates = gatewayRates(labelled);
  const successSamples: Sample[] = labelled.map((decision, index) => ({
    action: decision.gateway,
    reward: decision.success ? 1 : 0,
    loggingProbability: decision.propensity,
    target: targets[index] as ReadonlyMap<string, number>,
    predicted: rates,
  }));
  const loggedSuccess = clampToRate(meanEstimate(successSamples.map((sample) => sample.reward)));
  const ev = evSamples(labelled, targets, rates, fees, config.margin);
  const logged = { successRate: loggedSuccess, ev: ev.samples === undefined ? null : meanEstimate(ev.samples.map((sample) => sample.reward)) };
  const success = estimate(successSamples);
  const measured = {
    ...base,
    logged,
    unsupportedShare: overlap.share,
    unsupportedGateways: overlap.gateways,
    effectiveSampleSize: success.effectiveSampleSize,
  };

  if (overlap.share > options.maxUnsupportedShare) {
    const share = `${(overlap.share * 100).toFixed(1)} %`;
    return refused(
      { ...measured, successRate: null, ev: null, evMessage: null },
      'no_overlap',
      `The candidate puts ${share} of its decisions on choices the logging policy never made in those situations (${overlap.gateways.join(', ') || 'other gateways'}); the logs cannot say how those would have gone.`,
    );
  }
  if (success.effectiveSampleSize < options.minEffectiveSampleSize) {
    return refused(
      { ...measured, successRate: null, ev: null, evMessage: null },
      'too_few_effective_samples',
      `The logged decisions are worth ${success.effectiveSampleSize.toFixed(1)} samples under the candidate (at least ${options.minEffectiveSampleSize} needed): it differs too much from the logging policy where outcomes are known.`,
    );
  }
  return {
    ...measured,
    supported: true,
    reason: null,
    message: null,
    successRate: clampEstimates(success),
    ev: ev.samples === undefined ? null : estimate(ev.samples),
    evMessage: ev.message,
  };
}

function refused<T extends Omit<CounterfactualResult, 'supported' | 'reason' | 'message'>>(
  result: T,
  reason: UnsupportedReason,
  message: string,
): CounterfactualResult {
  return { ...result, supported: false, reason, message };
}

/**
 * The candidate's mass on actions the logging policy could not take. The logging policy's support is
 * the replay of its own rule on the logged candidates, plus the gateway it actually chose (a
 * deterministic post-step may have moved its pick).
 */
function overlapOf(decisions: readonly LoggedDecision[], targets: readonly ReadonlyMap<string, number>[]): { share: number; gateways: string[] } {
  let mass = 0;
  const gateways = new Set<string>();
  decisions.forEach((decision, index) => {
    const logging = actionProbabilities(decision.candidates, decision);
    for (const [gateway, probability] of targets[index] as ReadonlyMap<string, number>) {
      if (gateway === decision.gateway || (logging.get(gateway) ?? 0) > 0) continue;
      mass += probability;
      gateways.add(gateway);
    }
  });
  return { share: mass / decisions.length, gateways: [...gateways].sort() };
}

function gatewayRates(decisions: readonly LoggedDecision[]): ReadonlyMap<string, number> {
  const counts = new Map<string, { successes: number; total: number }>();
  for (const decision of decisions) {
    for (const candidate of decision.candidates) if (!counts.has(candidate.gateway)) counts.set(candidate.gateway, { successes: 0, total: 0 });
    const count = counts.get(decision.gateway) as { successes: number; total: number };
    count.total += 1;
    if (decision.success) count.successes += 1;
  }
  return new Map([...counts].map(([gateway, { successes, total }]) => [gateway, (successes + 1) / (total + 2)]));
}

/** EV samples, or why there are none: every gateway either policy may pick needs fee data. */
function evSamples(
  decisions: readonly LoggedDecision[],
  targets: readonly ReadonlyMap<string, number>[],
  rates: ReadonlyMap<string, number>,
  fees: ReadonlyMap<string, FeeEstimate>,
  margin: number,
): { samples?: Sample[]; message: string | null } {
  const missing = new Set<string>();
  for (const [index, decision] of decisions.entries()) {
    for (const gateway of [decision.gateway, ...(targets[index] as ReadonlyMap<string, number>).keys()]) if (!fees.has(gateway)) missing.add(gateway);
  }
  if (missing.size > 0)
    return {
      message: `No fee data for ${[...missing].sort().join(', ')}: EV needs a cost for every gateway either policy picks (cost ingestion or seed costs).`,
    };
  const samples = decisions.map((decision, index) => {
    const value = (gateway: string) => settlementValue(fees, gateway, decision.amount, margin) as number;
    const predicted = new Map<string, number>();
    for (const gateway of [decision.gateway, ...(targets[index] as ReadonlyMap<string, number>).keys()])
      predicted.set(gateway, (rates.get(gateway) ?? 0.5) * value(gateway));
    return {
      action: decision.gateway,
      reward: decision.success ? value(decision.gateway) : 0,
      loggingProbability: decision.propensity,
      target: targets[index] as ReadonlyMap<string, number>,
      predicted,
    };
  });
  return { samples, message: null };
}

/** A success rate's interval cannot leave [0, 1]. */
function clampToRate(estimate: Estimate): Estimate {
  return { ...estimate, ci95: [Math.max(0, estimate.ci95[0]), Math.min(1, estimate.ci95[1])] };
}

function clampEstimates(estimates: Estimates): Estimates {
  return { ...estimates, ips: clampToRate(estimates.ips), snips: clampToRate(estimates.snips), doublyRobust: clampToRate(estimates.doublyRobust) };
}
