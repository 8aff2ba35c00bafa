import type { DecideGatewayRequest, RuleEvaluatedV1 } from '../generated/schema-types.js';
import type { RoutingAlgorithmRecord } from '../ports/state-store.js';
import type { RandomSource } from '../decision/random-source.js';
import type { DecisionRule } from '../decision/decision.js';
import { decisionRuleParameters } from './decision-rule-parameters.js';
import { evaluateActiveRule } from './evaluate-active-rule.js';

export interface RuleApplication {
  /** The request to decide: candidates narrowed to (and ordered by) the rule's output. */
  readonly request: DecideGatewayRequest;
  /** What the decision reports (priority-logic output and tag); undefined when no rule applied. */
  readonly rule: DecisionRule | undefined;
  /** The `rule.evaluated` payload to publish (without request ids); undefined when no rule is active. */
  readonly event: Omit<RuleEvaluatedV1, 'requestId' | 'source' | 'latencyMs'> | undefined;
}

/**
 * Runs the merchant's active routing rule inside a decision: its evaluated connectors narrow and
 * order the eligible gateways before scoring (or become the candidates when the request names
 * none). A rule whose output shares no gateway with the eligible list, or that cannot be
 * evaluated for this payment, leaves the request as it was: a rule never fails a decision.
 * Synchronous and allocation-free when no rule is active (the hot path).
 */
export function applyActiveRule(request: DecideGatewayRequest, active: readonly RoutingAlgorithmRecord[], random: RandomSource): RuleApplication {
  // A volume contract alone (its slot sorts last) is no rule: nothing to evaluate, no parameters to build.
  if (active.length === 0 || active[0]?.algorithmFor === 'volume_commitment') return { request, rule: undefined, event: undefined };
  const outcome = evaluateActiveRule(active, decisionRuleParameters(request.paymentInfo), null, random);
  if (outcome.kind === 'no_active') return { request, rule: undefined, event: undefined };
  const algorithm = { algorithmId: outcome.record.id, algorithmName: outcome.record.name, algorithmType: outcome.record.algorithm.type };
  const paymentId = request.paymentInfo.paymentId;
  if (outcome.kind === 'failed') {
    return {
      request,
      rule: undefined,
      event: { paymentId, ...algorithm, ruleName: null, status: 'failure', output: null, evaluatedOutput: [], errorMessage: outcome.message },
    };
  }
  const evaluation = outcome.evaluation;
  const ruled = [...new Set(evaluation.evaluatedOutput.map((connector) => connector.gateway_name))];
  const eligible = request.eligibleGatewayList ?? [];
  const narrowed = eligible.length === 0 ? ruled : ruled.filter((gateway) => eligible.includes(gateway));
  const event = {
    paymentId,
    ...algorithm,
    ruleName: evaluation.ruleName,
    status: evaluation.status,
    output: evaluation.output as unknown as Record<string, unknown>,
    evaluatedOutput: ruled,
    errorMessage: null,
  };
  if (narrowed.length === 0) return { request, rule: undefined, event };
  return {
    request: { ...request, eligibleGatewayList: narrowed },
    rule: { name: evaluation.ruleName ?? outcome.record.name, gateways: narrowed },
    event,
  };
}
