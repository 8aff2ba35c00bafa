import type { FeeEstimate } from '../../ports/state/cost-model.js';
import { hedgeProbability, pickIndex } from '../../decision/policy/decision-policy.js';
import { candidateProbabilities, settlementValue, type CandidateConfig } from './candidate-policy.js';
import { estimate, meanEstimate, type Estimate, type Estimates, type Sample } from './estimators.js';
import { explainEstimates, type RecommendedEstimate } from './explain-estimates.js';
import type { LoggedDecision } from './logged-decision.js';
import { rescoreWindows, type RescoreCoverage } from './rescore-windows.js';

/** Why an estimate cannot be given: the data, not a number, is the answer then. */
export type UnsupportedReason = 'no_logged_decisions' | 'no_outcomes' | 'no_overlap' | 'too_few_effective_samples';

export interface CounterfactualOptions {
  /** Below this effective sample size the estimate is refused. */
  readonly minEffectiveSampleSize: number;
  /**
   * Above this share of the candidate's probability mass on choices the logging policy could not
   * make, refused. Below it, the doubly-robust interval is widened by what those choices could
   * contribute at worst (their outcome anywhere from failure to success), so it stays honest.
   */
  readonly maxUnsupportedShare: number;
}

export const defaultCounterfactualOptions: CounterfactualOptions = { minEffectiveSampleSize: 20, maxUnsupportedShare: 0.05 };

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
  /** The success-rate estimate to read (explain-estimates.ts); null when unsupported. */
  readonly recommended: RecommendedEstimate | null;
  /** One sentence: whether IPS, SNIPS and DR agree and, when not, why; null when unsupported. */
  readonly explanation: string | null;
  /** The candidate chooses as the logging policy did on every decision with an outcome (every weight 1). */
  readonly sameAsLogging: boolean;
  /** How many of the rescored windows' entries were real outcomes (null without rescoring). */
  readonly rescoring: RescoreCoverage | null;
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
  const empty = {
    unsupportedShare: 0,
    unsupportedGateways: [],
    effectiveSampleSize: 0,
    successRate: null,
    ev: null,
    evMessage: null,
    recommended: null,
    explanation: null,
    sameAsLogging: false,
    rescoring: null,
  };
  if (decisions.length === 0) {
    return refused(
      { ...empty, decisions: 0, labelled: 0, logged: { successRate: null, ev: null } },
      'no_logged_decisions',
      'No decision in the range logged its policy.',
    );
  }
  const { scores, coverage: rescoring } = rescoreWindows(decisions, config.bucketSize);
  // In decision order: the intervals' block bootstrap resamples runs of consecutive decisions.
  const indexes = decisions
    .flatMap((decision, index) => (decision.success === null ? [] : [index]))
    .sort((a, b) => (decisions[a] as LoggedDecision).decidedAtMs - (decisions[b] as LoggedDecision).decidedAtMs || a - b);
  const labelled = indexes.map((index) => decisions[index] as LoggedDecision);
  const base = { decisions: decisions.length, labelled: labelled.length };
  if (labelled.length === 0) {
    return refused(
      { ...empty, ...base, rescoring, logged: { successRate: null, ev: null } },
      'no_outcomes',
      'No decision in the range has a success or failure outcome yet.',
    );
  }

  const targets = indexes.map((index) => candidateProbabilities(decisions[index] as LoggedDecision, scores[index] as readonly number[], config, fees));
  const rates = gatewayRates(labelled);
  const overlap = overlapOf(labelled, targets, rates, fees, config.margin);
  const propensities = labelled.map((decision) => loggingPropensity(decision, fees, config.margin));
  const successSamples: Sample[] = labelled.map((decision, index) => ({
    action: decision.gateway,
    reward: decision.success ? 1 : 0,
    loggingProbability: propensities[index] as number,
    target: targets[index] as ReadonlyMap<string, number>,
    predicted: rates,
  }));
  const loggedSuccess = clampToRate(meanEstimate(successSamples.map((sample) => sample.reward)));
  const ev = evSamples(labelled, propensities, targets, rates, fees, config.margin);
  const logged = { successRate: loggedSuccess, ev: ev.samples === undefined ? null : meanEstimate(ev.samples.map((sample) => sample.reward)) };
  const success = estimate(successSamples);
  const sameAsLogging =
    overlap.share === 0 && successSamples.every((sample) => Math.abs((sample.target.get(sample.action) ?? 0) - sample.loggingProbability) < 1e-9);
  const measured = {
    ...base,
    logged,
    unsupportedShare: overlap.share,
    unsupportedGateways: overlap.gateways,
    effectiveSampleSize: success.effectiveSampleSize,
    sameAsLogging,
    rescoring,
    recommended: null,
    explanation: null,
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
  const successRate = clampEstimates(widenForUnsupported(success, overlap.bounds));
  const { recommended, explanation } = explainEstimates(successRate, loggedSuccess, {
    labelled,
    unsupportedShare: overlap.share,
    sameAsLogging,
    eliminationOnly: differsOnlyInElimination(labelled, config),
  });
  return {
    ...measured,
    recommended: { ...recommended, ci95: [Math.max(0, recommended.ci95[0]), Math.min(1, recommended.ci95[1])] },
    explanation,
    supported: true,
    reason: null,
    message: null,
    successRate,
    ev: ev.samples === undefined ? null : estimate(ev.samples),
    evMessage: ev.message,
  };
}

/** The candidate sets the logged decisions' knobs bar the elimination threshold, which differs on some elimination-checked decision. */
function differsOnlyInElimination(decisions: readonly LoggedDecision[], config: CandidateConfig): boolean {
  let differs = false;
  for (const decision of decisions) {
    if (decision.bucketSize !== null && (decision.bucketSize !== config.bucketSize || decision.hedgingPercent !== config.hedgingPercent)) return false;
    if (decision.multiObjective !== config.multiObjective) return false;
    if (decision.eliminationThreshold !== null && decision.eliminationThreshold !== config.eliminationThreshold) differs = true;
  }
  return differs;
}

function refused<T extends Omit<CounterfactualResult, 'supported' | 'reason' | 'message'>>(
  result: T,
  reason: UnsupportedReason,
  message: string,
): CounterfactualResult {
  return { ...result, supported: false, reason, message };
}

/**
 * The candidate's mass on actions the logging policy could not take. The logging policy's support
 * on a decision is the gateway it chose (the branch of the hedging draw that was taken) and the pick
 * of the other branch, replayed: the hedged branch never runs the cost post-step; the unhedged one
 * runs it when the decision was cost-aware (replayed with today's fees). The unhedged branch of an
 * unhedged decision is the chosen gateway itself, never a replay without the post-step: a
 * cost-aware decision that promoted a cheaper gateway could not have picked the SR head, and
 * counting the head as supported silently scored the candidate's choice there as a failure in IPS
 * (the importance weights then average below 1: IPS 14 points under DR on logs with cost-aware
 * routing on part of the traffic).
 */
export function loggingSupport(decision: LoggedDecision, fees: ReadonlyMap<string, FeeEstimate>, margin: number): ReadonlySet<string> {
  const support = new Set<string>([decision.gateway]);
  const hedge = hedgeOf(decision);
  const otherBranch = decision.hedged ? 1 - hedge : hedge;
  if (otherBranch <= 0) return support;
  const other = decision.hedged ? unhedgedPick(decision, fees, margin) : decision.candidates[pickIndex(decision.candidates, decision, true)]?.gateway;
  if (other !== undefined) support.add(other);
  return support;
}

/**
 * The logging policy's probability of the gateway it chose. The logged propensity, except on a
 * hedged cost-aware decision: the decision path credits its unhedged branch with the SR head (the
 * cost post-step does not run when hedging, so it never learns that branch's real pick), while
 * that branch would have run the post-step; when its replay lands on the chosen gateway, the
 * propensity is the whole 1 rather than the hedge share (the logged value made such decisions
 * weigh 5× at hedging 20 %: IPS far above the truth on cost-aware logs).
 */
export function loggingPropensity(decision: LoggedDecision, fees: ReadonlyMap<string, FeeEstimate>, margin: number): number {
  if (!(decision.multiObjective && decision.hedged)) return decision.propensity;
  const hedge = hedgeOf(decision);
  return hedge + (unhedgedPick(decision, fees, margin) === decision.gateway ? 1 - hedge : 0);
}

function hedgeOf(decision: LoggedDecision): number {
  return decision.bucketSize === null || decision.candidates.length < 2 ? 0 : hedgeProbability(decision.hedgingPercent);
}

/** The unhedged branch's pick, replayed on the logged scores with the cost post-step when the decision was cost-aware. */
function unhedgedPick(decision: LoggedDecision, fees: ReadonlyMap<string, FeeEstimate>, margin: number): string | undefined {
  const replay = candidateProbabilities(
    decision,
    decision.candidates.map((candidate) => candidate.score),
    {
      bucketSize: decision.bucketSize ?? 0,
      hedgingPercent: 0,
      eliminationThreshold: decision.eliminationThreshold ?? 0,
      multiObjective: decision.multiObjective,
      margin,
    },
    fees,
  );
  return replay.keys().next().value;
}

function overlapOf(
  decisions: readonly LoggedDecision[],
  targets: readonly ReadonlyMap<string, number>[],
  rates: ReadonlyMap<string, number>,
  fees: ReadonlyMap<string, FeeEstimate>,
  margin: number,
): { share: number; gateways: string[]; bounds: { below: number; above: number } } {
  let mass = 0;
  let below = 0;
  let above = 0;
  const gateways = new Set<string>();
  decisions.forEach((decision, index) => {
    const support = loggingSupport(decision, fees, margin);
    for (const [gateway, probability] of targets[index] as ReadonlyMap<string, number>) {
      if (support.has(gateway)) continue;
      mass += probability;
      const modelled = rates.get(gateway) ?? 0.5;
      below += probability * modelled;
      above += probability * (1 - modelled);
      gateways.add(gateway);
    }
  });
  const n = decisions.length;
  return { share: mass / n, gateways: [...gateways].sort(), bounds: { below: below / n, above: above / n } };
}

/**
 * The doubly-robust interval widened for unsupported choices: only its direct model speaks for
 * them (a gateway's range-wide rate), so their contribution could be as low as all failures or as
 * high as all successes; the interval moves out by those amounts.
 */
function widenForUnsupported(estimates: Estimates, bounds: { below: number; above: number }): Estimates {
  if (bounds.below === 0 && bounds.above === 0) return estimates;
  const dr = estimates.doublyRobust;
  return { ...estimates, doublyRobust: { ...dr, ci95: [dr.ci95[0] - bounds.below, dr.ci95[1] + bounds.above] } };
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
  propensities: readonly number[],
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
      loggingProbability: propensities[index] as number,
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
