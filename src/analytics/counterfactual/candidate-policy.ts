import { actionProbabilities, hedgeProbability, pickIndex, type PolicyCandidate, type PolicyParameters } from '../../decision/policy/decision-policy.js';
import type { FeeEstimate } from '../../ports/state/cost-model.js';
import type { LoggedDecision } from './logged-decision.js';

/** A configuration to evaluate: every knob set (the route fills omitted ones from the merchant's config). */
export interface CandidateConfig {
  readonly bucketSize: number;
  readonly hedgingPercent: number;
  readonly eliminationThreshold: number;
  readonly multiObjective: boolean;
  /** Merchant margin as a fraction of the ticket (settlement value = amount × margin − cost). */
  readonly margin: number;
}

/** The processing cost of `amount` on a gateway with fee estimate `fee`. */
export function processingCost(fee: FeeEstimate, amount: number): number {
  return (amount * fee.pctBps) / 10_000 + fee.fixed;
}

/** Settlement value of a payment on a gateway: amount × margin − cost; undefined without fee data. */
export function settlementValue(fees: ReadonlyMap<string, FeeEstimate>, gateway: string, amount: number, margin: number): number | undefined {
  const fee = fees.get(gateway);
  return fee === undefined ? undefined : amount * margin - processingCost(fee, amount);
}

/**
 * π(·) of the candidate configuration on one logged decision, by re-running the decision rule on the
 * logged candidates: `scores` (the candidates' scores under the candidate bucket size) → hedging
 * draw with the candidate percent (SR-scored decisions only: a priority-logic decision never hedged)
 * → elimination with the candidate threshold (only where the request had elimination on, since only
 * there were elimination scores read) → the cost post-step when on (unhedged branch only, as the
 * decision runs it: promote the gateway of strictly highest EV = score × settlement value over the
 * head; gateways without fee data never win on cost).
 */
export function candidateProbabilities(
  decision: LoggedDecision,
  scores: readonly number[],
  config: CandidateConfig,
  fees: ReadonlyMap<string, FeeEstimate>,
): ReadonlyMap<string, number> {
  const candidates: PolicyCandidate[] = decision.candidates.map((candidate, index) => ({ ...candidate, score: scores[index] as number }));
  const parameters: PolicyParameters = {
    hedgingPercent: decision.bucketSize === null ? 0 : config.hedgingPercent,
    eliminationThreshold: decision.eliminationThreshold === null ? null : config.eliminationThreshold,
    eliminationDivisor: decision.eliminationDivisor,
  };
  if (!config.multiObjective || decision.bucketSize === null) return actionProbabilities(candidates, parameters);
  const hedge = candidates.length >= 2 ? hedgeProbability(parameters.hedgingPercent) : 0;
  const probabilities = new Map<string, number>();
  const add = (gateway: string | undefined, probability: number) => {
    if (gateway === undefined || probability <= 0) return;
    probabilities.set(gateway, (probabilities.get(gateway) ?? 0) + probability);
  };
  add(costPromoted(candidates, parameters, decision.amount, config.margin, fees), 1 - hedge);
  add(candidates[pickIndex(candidates, parameters, true)]?.gateway, hedge);
  return probabilities;
}

/** The unhedged pick after the EV post-step. */
function costPromoted(
  candidates: readonly PolicyCandidate[],
  parameters: PolicyParameters,
  amount: number,
  margin: number,
  fees: ReadonlyMap<string, FeeEstimate>,
): string | undefined {
  const head = candidates[pickIndex(candidates, parameters, false)];
  if (head === undefined) return undefined;
  const finalScore = (candidate: PolicyCandidate) => {
    const eliminated =
      parameters.eliminationThreshold !== null && candidate.eliminationScore !== null && candidate.eliminationScore < parameters.eliminationThreshold;
    return eliminated ? candidate.score / parameters.eliminationDivisor : candidate.score;
  };
  const headValue = settlementValue(fees, head.gateway, amount, margin);
  if (headValue === undefined) return head.gateway;
  let best = head.gateway;
  let bestEv = finalScore(head) * headValue;
  for (const candidate of candidates) {
    const value = settlementValue(fees, candidate.gateway, amount, margin);
    if (value === undefined) continue;
    const ev = finalScore(candidate) * value;
    if (ev > bestEv) {
      best = candidate.gateway;
      bestEv = ev;
    }
  }
  return best;
}
