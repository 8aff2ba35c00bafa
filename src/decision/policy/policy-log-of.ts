import type { EliminationScore } from '../../ports/state-store.js';
import type { RoutingDefaults } from '../routing-defaults.js';
import type { DecisionPolicyLog, PolicyCandidate } from './decision-policy.js';

export interface PolicyLogInput {
  readonly candidates: readonly string[];
  /** Scores before hedging and elimination, one per candidate. */
  readonly scores: readonly number[];
  /** The hedging percent that applied (0 when hedging did not run for this decision). */
  readonly hedgingPercent: number;
  readonly hedged: boolean;
  readonly bucketSize: number | null;
  /** Stored elimination scores, one per candidate; undefined when elimination was off. */
  readonly eliminations: readonly (EliminationScore | undefined)[] | undefined;
  readonly eliminationThreshold: number | null;
  readonly defaults: RoutingDefaults;
  readonly nowMs: number;
}

/**
 * The policy record of a scored decision (Decision.policy): candidates with their pre-hedging
 * scores and live elimination scores (an expired one reads as absent, as elimination.ts treats it).
 */
export function policyLogOf(input: PolicyLogInput): DecisionPolicyLog {
  const { eliminations, defaults, nowMs } = input;
  const candidates: PolicyCandidate[] = input.candidates.map((gateway, index) => {
    const stored = eliminations?.[index];
    const live = stored !== undefined && nowMs - stored.updatedAt < defaults.eliminationKeyTtlMs;
    return { gateway, score: input.scores[index] as number, eliminationScore: live ? stored.score : null };
  });
  return {
    candidates,
    hedgingPercent: input.hedgingPercent,
    hedged: input.hedged,
    bucketSize: input.bucketSize,
    eliminationThreshold: input.eliminationThreshold,
    eliminationDivisor: defaults.eliminationDivisor,
  };
}

/** A decision with one possible answer (merchant preference): chosen with probability 1. */
export function singleCandidatePolicy(gateway: string, defaults: RoutingDefaults): DecisionPolicyLog {
  return {
    candidates: [{ gateway, score: 1, eliminationScore: null }],
    hedgingPercent: 0,
    hedged: false,
    bucketSize: null,
    eliminationThreshold: null,
    eliminationDivisor: defaults.eliminationDivisor,
  };
}
