import type { DecidedGateway } from '../../src/generated/schema-types.js';
import type { Decision } from '../../src/decision/decide-gateway.js';

/** The domain decision in decision-engine 1.4.x wire form (snake_case, every key present). */
export function toDecidedGateway(decision: Decision, latencyMs: number | null): DecidedGateway {
  return {
    decided_gateway: decision.decidedGateway,
    fallback_gateways: [...decision.fallbackGateways],
    gateway_priority_map: decision.gatewayPriorityMap as DecidedGateway['gateway_priority_map'],
    filter_wise_gateways: null,
    priority_logic_tag: decision.priorityLogicOutput?.priorityLogicTag ?? null,
    routing_approach: decision.routingApproach,
    gateway_before_evaluation: decision.gatewayBeforeEvaluation,
    priority_logic_output: decision.priorityLogicOutput as DecidedGateway['priority_logic_output'],
    debit_routing_output:
      decision.debitRoutingOutput === null
        ? null
        : {
            co_badged_card_networks_info: decision.debitRoutingOutput.coBadgedCardNetworksInfo.map((info) => ({
              network: info.network,
              saving_percentage: info.savingPercentage,
            })),
            issuer_country: decision.debitRoutingOutput.issuerCountry,
            is_regulated: decision.debitRoutingOutput.isRegulated,
            regulated_name: decision.debitRoutingOutput.regulatedName,
            card_type: decision.debitRoutingOutput.cardType,
          },
    reset_approach: decision.resetApproach,
    routing_dimension: decision.routingDimension,
    routing_dimension_level: decision.routingDimensionLevel,
    is_scheduled_outage: decision.isScheduledOutage,
    is_dynamic_mga_enabled: false,
    gateway_mga_id_map: null,
    is_rust_based_decider: true,
    latency: latencyMs,
    multi_objective_info: decision.multiObjectiveInfo === undefined ? null : { ...decision.multiObjectiveInfo },
    // Present only when volume-commitment steering ran for the merchant (its feature on, a contract active).
    ...(decision.volumeSteerInfo === undefined ? {} : { volume_steer_info: { ...decision.volumeSteerInfo } }),
  };
}
