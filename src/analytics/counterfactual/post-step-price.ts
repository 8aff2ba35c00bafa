import { pickIndex } from '../../decision/policy/decision-policy.js';
import type { LoggedDecision } from './logged-decision.js';

/**
 * A candidate that removes one post-step from the logged decisions: the same decisions, except
 * that a payment the post-step moved goes where routing had put it before the post-step.
 * `without_volume_commitment` undoes volume-commitment steering (SR_SELECTION_VOLUME_COMMITMENT),
 * `without_sticky_routing` undoes sticky pins (STICKY_ROUTING).
 */
export type PostStepCandidate = 'without_volume_commitment' | 'without_sticky_routing';

const movedApproach: Readonly<Record<PostStepCandidate, string>> = {
  without_volume_commitment: 'SR_SELECTION_VOLUME_COMMITMENT',
  without_sticky_routing: 'STICKY_ROUTING',
};

/** 95 % two-sided normal quantile. */
const z95 = 1.959964;

export interface RateInterval {
  readonly value: number;
  readonly ci95: readonly [number, number];
}

export type PostStepPriceReason = 'no_logged_decisions' | 'no_outcomes' | 'no_outcomes_for_head';

export interface PostStepPrice {
  readonly candidate: PostStepCandidate;
  readonly decisions: number;
  readonly labelled: number;
  /** Decisions (with or without an outcome) the post-step sent elsewhere than routing's pick. */
  readonly moved: number;
  /** Moved decisions with an outcome: the ones the estimate rests on. */
  readonly movedLabelled: number;
  readonly supported: boolean;
  readonly reason: PostStepPriceReason | null;
  readonly message: string | null;
  /** Success rate of the labelled decisions as logged (the post-step on). */
  readonly loggedSuccessRate: number | null;
  /**
   * Authorisation rate the post-step gave up over the labelled decisions: (candidate − logged),
   * a fraction; positive when the post-step cost approvals. Null when unsupported.
   */
  readonly rateGivenUp: RateInterval | null;
  /** The candidate's success rate: logged + given up, with the same interval. */
  readonly candidateSuccessRate: RateInterval | null;
  /**
   * What the router itself believed it gave up when it moved the payments: the mean score gap
   * (routing's pick minus the moved-to gateway, from the logged scores) over the labelled decisions.
   */
  readonly scoreGapAtDecision: number | null;
}

interface Rate {
  successes: number;
  total: number;
}

/**
 * Prices one post-step (volume-commitment steering or sticky routing) over logged decisions.
 *
 * For a moved payment the logs hold the outcome where it went, never where routing would have sent
 * it, and the post-step's own choice is not randomised in a way the policy log records, so the
 * inverse-propensity estimators of the configuration candidates do not apply. The estimate is
 * paired instead: for each moved payment with an outcome, the success rate of routing's pick
 * (estimated from the payments the post-step left alone, in the same routing dimension, else over
 * every dimension; Laplace-smoothed (s + 1) / (n + 2)) minus the outcome observed. Their sum over
 * the labelled decisions is the rate given up. Its variance adds the moved outcomes' binomial
 * variance and each model rate's, (p(1−p) / (n + 2)) weighted by how many moved payments it prices
 * (independent: the model is fitted on the payments left alone), for a normal 95 % interval.
 *
 * Routing's pick is the logged policy's unhedged choice (SR score with elimination): post-steps
 * never move a hedged payment, so it is what the payment had before the post-step, except where
 * the cost post-step had promoted another gateway first (a sticky pin over a cost win: the pick is
 * then the SR head, not the cost winner). The model is per gateway and dimension: it cannot see
 * what makes a pinned customer's payments likelier to succeed anywhere, so for sticky routing the
 * estimate leans towards crediting the pin.
 */
export function estimatePostStepPrice(decisions: readonly LoggedDecision[], candidate: PostStepCandidate): PostStepPrice {
  const approach = movedApproach[candidate];
  const headOf = (decision: LoggedDecision) => decision.candidates[pickIndex(decision.candidates, decision, false)];
  const isMoved = (decision: LoggedDecision) =>
    decision.routingApproach === approach && headOf(decision) !== undefined && headOf(decision)?.gateway !== decision.gateway;
  const labelled = decisions.filter((decision) => decision.success !== null);
  const moved = decisions.filter(isMoved);
  const movedLabelled = labelled.filter(isMoved);
  const base = { candidate, decisions: decisions.length, labelled: labelled.length, moved: moved.length, movedLabelled: movedLabelled.length };
  const none = { rateGivenUp: null, candidateSuccessRate: null, scoreGapAtDecision: null };
  if (decisions.length === 0) {
    return {
      ...base,
      ...none,
      supported: false,
      reason: 'no_logged_decisions',
      message: 'No decision in the range logged its policy.',
      loggedSuccessRate: null,
    };
  }
  if (labelled.length === 0) {
    return {
      ...base,
      ...none,
      supported: false,
      reason: 'no_outcomes',
      message: 'No decision in the range has a success or failure outcome yet.',
      loggedSuccessRate: null,
    };
  }
  const n = labelled.length;
  const loggedSuccessRate = labelled.filter((decision) => decision.success).length / n;
  if (movedLabelled.length === 0) {
    const zero = { value: 0, ci95: [0, 0] as const };
    return {
      ...base,
      supported: true,
      reason: null,
      message: null,
      loggedSuccessRate,
      rateGivenUp: zero,
      candidateSuccessRate: { value: loggedSuccessRate, ci95: [loggedSuccessRate, loggedSuccessRate] },
      scoreGapAtDecision: 0,
    };
  }

  // The model: outcomes of the payments the post-step left alone, per (dimension, gateway) and per gateway.
  const byDimension = new Map<string, Rate>();
  const byGateway = new Map<string, Rate>();
  const count = (map: Map<string, Rate>, key: string, success: boolean) => {
    const rate = map.get(key) ?? { successes: 0, total: 0 };
    rate.total += 1;
    if (success) rate.successes += 1;
    map.set(key, rate);
  };
  for (const decision of labelled) {
    if (isMoved(decision)) continue;
    count(byDimension, JSON.stringify([decision.windowDimension, decision.gateway]), decision.success === true);
    count(byGateway, decision.gateway, decision.success === true);
  }

  let givenUp = 0;
  let gap = 0;
  let movedSuccesses = 0;
  const priced = new Map<string, { rate: Rate; payments: number }>();
  const unpriced = new Set<string>();
  for (const decision of movedLabelled) {
    const head = headOf(decision);
    if (head === undefined) continue;
    const dimensionKey = JSON.stringify([decision.windowDimension, head.gateway]);
    const dimensionRate = byDimension.get(dimensionKey);
    const rate = dimensionRate ?? byGateway.get(head.gateway);
    if (rate === undefined) {
      unpriced.add(head.gateway);
      continue;
    }
    const key = dimensionRate === undefined ? head.gateway : dimensionKey;
    const entry = priced.get(key) ?? { rate, payments: 0 };
    entry.payments += 1;
    priced.set(key, entry);
    const chosen = decision.candidates.find((c) => c.gateway === decision.gateway);
    givenUp += smoothed(rate) - (decision.success ? 1 : 0);
    gap += head.score - (chosen?.score ?? head.score);
    if (decision.success) movedSuccesses += 1;
  }
  if (unpriced.size > 0) {
    const heads = [...unpriced].sort().join(', ');
    return {
      ...base,
      ...none,
      supported: false,
      reason: 'no_outcomes_for_head',
      message: `Routing's pick (${heads}) has no outcome in the range outside the payments the post-step moved: nothing says how those payments would have gone there.`,
      loggedSuccessRate,
    };
  }
  const movedRate = movedSuccesses / movedLabelled.length;
  let variance = movedLabelled.length * movedRate * (1 - movedRate);
  for (const { rate, payments } of priced.values()) {
    const p = smoothed(rate);
    variance += payments * payments * ((p * (1 - p)) / (rate.total + 2));
  }
  const value = givenUp / n;
  const half = (z95 * Math.sqrt(variance)) / n;
  const rateGivenUp: RateInterval = { value, ci95: [value - half, value + half] };
  const candidateRate = loggedSuccessRate + value;
  return {
    ...base,
    supported: true,
    reason: null,
    message: null,
    loggedSuccessRate,
    rateGivenUp,
    candidateSuccessRate: { value: clamp01(candidateRate), ci95: [clamp01(candidateRate - half), clamp01(candidateRate + half)] },
    scoreGapAtDecision: gap / n,
  };
}

function smoothed(rate: Rate): number {
  return (rate.successes + 1) / (rate.total + 2);
}

function clamp01(value: number): number {
  return Math.min(1, Math.max(0, value));
}
