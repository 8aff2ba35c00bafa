import type { Decision, DecisionInputs } from '../decision/decide-gateway.js';
import type { RandomSource } from '../decision/random-source.js';
import type { RoutingAlgorithmRecord } from '../ports/state-store.js';
import type { SteeringPlan } from '../ports/state/volume-commitment.js';
import { activeContractOf, steeredApproach } from './run-volume-forecast.js';
import type { SteeringPlans } from './steering-plan-cache.js';
import { steerPayment } from './steer-payment.js';

export interface VolumeSteeringDeps {
  readonly merchantId: string;
  readonly plans: SteeringPlans;
  readonly random: RandomSource;
  readonly nowMs: number;
}

/**
 * Decide-time steering on a decided SR payment (after the cost-aware post-step), for a merchant
 * whose `volume-contracts` feature is on: the caller checks the flag (once, from the merchant's
 * inputs). Costs nothing unless a contract is active (it came with the inputs); then the plan, from
 * memory while held (src/volume-commitment/steering-plan-cache.ts), so no await once it is. Only a
 * plain SR choice is steered (never hedging, network routing, a rule's priority logic or a cost-won
 * choice), and only with the plan of the active document; a moved payment gets the routing approach
 * `SR_SELECTION_VOLUME_COMMITMENT` and its `volumeSteerInfo`.
 */
export function applyVolumeCommitment(decision: Decision, inputs: DecisionInputs, deps: VolumeSteeringDeps): Decision | Promise<Decision> {
  const approach = decision.routingApproach;
  if (decision.gatewayPriorityMap === null || !approach.startsWith('SR_') || approach.includes('HEDGING') || approach === 'SR_SELECTION_MULTI_OBJECTIVE')
    return decision;
  const contract = activeContractOf(inputs.activeRules ?? []);
  if (contract === undefined) return decision;
  const plan = deps.plans.planOf(deps.merchantId);
  return plan instanceof Promise ? plan.then((read) => steered(decision, contract, read, deps)) : steered(decision, contract, plan, deps);
}

function steered(decision: Decision, contract: RoutingAlgorithmRecord, plan: SteeringPlan | undefined, deps: VolumeSteeringDeps): Decision {
  if (plan === undefined || plan.ruleId !== contract.id || plan.contractAnchorMs !== contract.modifiedAt) return decision;
  const scores = decision.gatewayPriorityMap ?? {};
  const steer = steerPayment(scores, decision.decidedGateway, plan, deps.nowMs, () => deps.random.next());
  if (steer.chosen === undefined) return { ...decision, volumeSteerInfo: steer.info };
  const chosen = steer.chosen;
  const fallbackGateways = [decision.decidedGateway, ...decision.fallbackGateways.filter((gateway) => gateway !== chosen)];
  return { ...decision, decidedGateway: chosen, fallbackGateways, routingApproach: steeredApproach, volumeSteerInfo: steer.info };
}
