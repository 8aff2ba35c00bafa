import type { Decision, DecisionInputs } from '../decision/decide-gateway.js';
import type { RandomSource } from '../decision/random-source.js';
import type { ConfigStore } from '../ports/state/config-store.js';
import { activeContractOf, steeredApproach } from './run-volume-forecast.js';
import { steerPayment } from './steer-payment.js';

/**
 * Decide-time steering on a decided SR payment (after the cost-aware post-step). Costs nothing
 * unless the merchant's `volume-contracts` feature is on and a contract is active (both came with
 * the merchant's inputs); then one plan read through the config cache. Only a plain SR choice is
 * steered (never hedging, network routing, a rule's priority logic or a cost-won choice), and only
 * with the plan of the active document; a moved payment gets the routing approach
 * `SR_SELECTION_VOLUME_COMMITMENT` and its `volumeSteerInfo`.
 */
export async function applyVolumeCommitment(
  decision: Decision,
  inputs: DecisionInputs,
  deps: { readonly merchantId: string; readonly configs: Pick<ConfigStore, 'get'>; readonly random: RandomSource; readonly nowMs: number },
): Promise<Decision> {
  if (inputs.features?.['volume-contracts'] !== true) return decision;
  const approach = decision.routingApproach;
  if (decision.gatewayPriorityMap === null || !approach.startsWith('SR_') || approach.includes('HEDGING') || approach === 'SR_SELECTION_MULTI_OBJECTIVE')
    return decision;
  const contract = activeContractOf(inputs.activeRules ?? []);
  if (contract === undefined) return decision;
  const plan = await deps.configs.get(deps.merchantId, 'volumeCommitmentPlan');
  if (plan === undefined || plan.ruleId !== contract.id || plan.contractAnchorMs !== contract.modifiedAt) return decision;
  const scores = decision.gatewayPriorityMap;
  const steer = steerPayment(scores, decision.decidedGateway, plan, deps.nowMs, () => deps.random.next());
  if (steer.chosen === undefined) return { ...decision, volumeSteerInfo: steer.info };
  const chosen = steer.chosen;
  const fallbackGateways = [decision.decidedGateway, ...decision.fallbackGateways.filter((gateway) => gateway !== chosen)];
  return { ...decision, decidedGateway: chosen, fallbackGateways, routingApproach: steeredApproach, volumeSteerInfo: steer.info };
}
