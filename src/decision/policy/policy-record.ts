import type { DecisionCreatedV1 } from '../../generated/schema-types.js';
import type { Decision } from '../decision.js';
import { propensityOf } from './decision-policy.js';

export type DecisionPolicyRecord = NonNullable<DecisionCreatedV1['policy']>;

/**
 * The `policy` of a `decision.created` event: the decision's policy log plus the propensity of the
 * gateway finally decided (computed here, after every step of the decision, the cost post-step
 * included, has run) and whether the cost post-step was on. Undefined for
 * decisions without a policy log (network routing, whose gateway is not consumed).
 */
export function policyRecordOf(decision: Decision): DecisionPolicyRecord | undefined {
  const log = decision.policy;
  if (log === undefined) return undefined;
  return {
    propensity: propensityOf(log, decision.decidedGateway),
    hedged: log.hedged,
    candidates: log.candidates.map((candidate) => ({ ...candidate })),
    hedgingPercent: log.hedgingPercent,
    bucketSize: log.bucketSize,
    eliminationThreshold: log.eliminationThreshold,
    eliminationDivisor: log.eliminationDivisor,
    // The cost post-step ran (it reports its info whenever it was on for an SR decision).
    multiObjective: decision.multiObjectiveInfo !== undefined,
  };
}
