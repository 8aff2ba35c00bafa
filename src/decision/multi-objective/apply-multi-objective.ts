import { type CostScenario, costScenarioOf, effectiveCostBps } from '../../costs/cost-scenario.js';
import { type FeeSources, lookupFeeEstimate } from '../../costs/lookup-fee-estimate.js';
import { effectiveSeedTable } from '../../costs/seed-cost-table.js';
import type { DecideGatewayRequest } from '../../generated/schema-types.js';
import { isFeatureEnabled } from '../features/merchant-features.js';
import type { Decision, DecisionInputs, DecisionOutcome } from '../decision.js';
import { type RoutingApproach, routingApproaches } from '../routing-approach.js';
import type { MultiObjectiveInfo } from './multi-objective-info.js';
import { type EvCandidate, type EvRanking, rankByExpectedValue } from './rank-by-expected-value.js';

/** The merchant margin (fraction of ticket) when its success-rate config sets none. */
export const defaultMargin = 1;

/**
 * The margin a merchant's success-rate config sets (its schema allows any number ≥ 0), else
 * {@link defaultMargin}. The decide path and the counterfactual evaluation read it here alike.
 */
export function merchantMargin(successRate: { readonly margin?: unknown } | null | undefined): number {
  const margin = successRate?.margin;
  return typeof margin === 'number' && Number.isFinite(margin) && margin >= 0 ? margin : defaultMargin;
}

/**
 * Whether the post-step applies: the request's `enableMultiObjective` when given, else the merchant's
 * `multi-objective-routing` flag; and only on SR-scored decisions without hedging (an SR approach
 * whose name has no HEDGING: SR_SELECTION_V3_ROUTING and the downtime variants).
 */
export function multiObjectiveApplies(decision: Decision, request: DecideGatewayRequest, inputs: DecisionInputs): boolean {
  const enabled = request.enableMultiObjective ?? isFeatureEnabled(inputs.features, 'multi-objective-routing');
  return enabled && decision.gatewayPriorityMap !== null && costStepApproaches.has(decision.routingApproach);
}

/**
 * The approaches the post-step applies to, picked from the list once: a lookup in a set of
 * internalized strings per decision, where testing the name (`startsWith`, `includes`) searched it
 * on every cost-aware decision (~190 instructions, bench/README.md).
 */
const costStepApproaches: ReadonlySet<RoutingApproach> = new Set(
  routingApproaches.filter((approach) => approach.startsWith('SR_') && !approach.includes('HEDGING') && approach !== 'SR_SELECTION_MULTI_OBJECTIVE'),
);

/**
 * The cost-aware ("multi-objective") post-step on a decided payment (decision-engine's current
 * line): prices every candidate (src/costs/lookup-fee-estimate.ts), re-ranks them on expected value
 * and, on COST_WON, promotes the higher-EV gateway with routing approach SR_SELECTION_MULTI_OBJECTIVE.
 * The decision carries `multiObjectiveInfo` whenever the step ran. Synchronous: everything it reads
 * came with the merchant's inputs.
 */
export function applyMultiObjective(outcome: DecisionOutcome, request: DecideGatewayRequest, inputs: DecisionInputs): DecisionOutcome {
  if (!outcome.ok || !multiObjectiveApplies(outcome.decision, request, inputs)) return outcome;
  const ranking = rankDecision(outcome.decision, request, inputs);
  return { ok: true, decision: reordered(outcome.decision, ranking, ranking.info()) };
}

/**
 * The post-step's ranking of a decision, not yet built into it (undefined when the step does not
 * apply), for a later step that builds the decision once: a sticky pin may take the payment away
 * from the post-step's pick and then drop its claim (apply-sticky-routing.ts), so the order, the
 * routing approach ({@link rankedApproachOf}) and the info block are applied there, in one copy.
 */
export function costStepRankingOf(outcome: DecisionOutcome, request: DecideGatewayRequest, inputs: DecisionInputs): EvRanking | undefined {
  if (!outcome.ok || !multiObjectiveApplies(outcome.decision, request, inputs)) return undefined;
  return rankDecision(outcome.decision, request, inputs);
}

/** The gateway a decision leads with once the ranking is applied. */
export function rankedHeadOf(decision: Decision, ranking: EvRanking): string {
  return ranking.order[0] ?? decision.decidedGateway;
}

/** The fallbacks of a decision the ranking was applied to: the ranking's order after its head (a copy). */
export function rankedFallbacksOf(ranking: EvRanking): string[] {
  return ranking.order.slice(1);
}

/** The routing approach of a decision the ranking was applied to: SR_SELECTION_MULTI_OBJECTIVE when cost won, else the decision's own. */
export function rankedApproachOf(decision: Decision, ranking: EvRanking): RoutingApproach {
  return ranking.outcome === 'COST_WON' ? 'SR_SELECTION_MULTI_OBJECTIVE' : decision.routingApproach;
}

/** The decision's candidates, priced and ranked on expected value. */
function rankDecision(decision: Decision, request: DecideGatewayRequest, inputs: DecisionInputs): EvRanking {
  const scores = decision.gatewayPriorityMap ?? {};
  const info = request.paymentInfo;
  const amount = info.amount;
  const scenario = costScenarioOf({
    amount,
    currency: info.currency,
    cardNetwork: info.cardSwitchProvider,
    funding: info.cardType,
    program: info.cardProgram,
    issuerCountry: info.cardIssuerCountry,
  });
  const sources = { costModel: inputs.costModel, seedTable: effectiveSeedTable(inputs.seedCosts) };
  // The decided gateway, then the fallbacks: the SR order, priced (a loop, no spread and map per
  // decision, into an array made at its length: one grown by push gets room for 17 at its first push).
  const fallbacks = decision.fallbackGateways;
  const candidates: EvCandidate[] = new Array(1 + fallbacks.length);
  candidates[0] = priced(decision.decidedGateway, scores, scenario, sources, amount);
  for (let index = 0; index < fallbacks.length; index += 1) candidates[index + 1] = priced(fallbacks[index] as string, scores, scenario, sources, amount);
  return rankByExpectedValue(candidates, merchantMargin(inputs.successRate));
}

/** The decision in the ranking's order, carrying `info` (one copy). */
function reordered(decision: Decision, ranking: EvRanking, info: MultiObjectiveInfo): Decision {
  return {
    ...decision,
    decidedGateway: rankedHeadOf(decision, ranking),
    fallbackGateways: rankedFallbacksOf(ranking),
    routingApproach: rankedApproachOf(decision, ranking),
    multiObjectiveInfo: info,
  };
}

/** One candidate with its auth rate (SR score) and its cost in bps for this payment (undefined: no fee data). */
function priced(psp: string, scores: Readonly<Record<string, number>>, scenario: CostScenario, sources: FeeSources, amount: number): EvCandidate {
  const fee = lookupFeeEstimate(psp, scenario, sources);
  return { psp, authRate: scores[psp] ?? 0, costBps: fee === undefined ? undefined : effectiveCostBps(fee.fee.pctBps, fee.fee.fixed, amount) };
}
