import type { DecideGatewayRequest } from '../generated/schema-types.js';
import type { StateStore } from '../ports/state-store.js';
import { srRoutingArm, type AbTestData } from '../ports/state/routing-algorithm.js';
import type { RoutingAlgorithmRecord } from '../ports/state/routing-rule-store.js';
import type { Decision, DecisionInputs, DecisionRule } from '../decision/decision.js';
import { isFeatureEnabled } from '../decision/features/merchant-features.js';
import { applySrOverride } from './apply-sr-override.js';
import { assignArm, type ExperimentArm } from './assign-arm.js';

/** What a decision in an experiment records (decision.created `experiment`). */
export interface ExperimentTag {
  readonly experimentId: string;
  readonly experimentArm: ExperimentArm;
  /** `sr_routing` or the arm algorithm's rule_id. */
  readonly armAlgorithmId: string;
  /** True when the guardrail had tripped and the payment went to control whatever its hash said. */
  readonly guardrailTripped: boolean;
}

/** The payment as it enters the decision: its request and inputs for the arm, and the tag to record. */
export interface ExperimentEntry {
  readonly request: DecideGatewayRequest;
  readonly inputs: DecisionInputs;
  /** Undefined when the payment is not in the experiment (feature off, arm algorithm gone). */
  readonly tag: ExperimentTag | undefined;
  /** The arm is another algorithm: its output is the answer (AB_TEST_STATIC_ALGORITHM). */
  readonly staticArm: boolean;
}

export interface ExperimentDeps {
  readonly state: Pick<StateStore, 'configs' | 'routingRules'>;
}

/** The active experiment of the merchant, if its active algorithm is one (synchronous: the hot path's check). */
export function activeExperimentOf(inputs: DecisionInputs): (RoutingAlgorithmRecord & { algorithm: { type: 'ab_test'; data: AbTestData } }) | undefined {
  const first = inputs.activeRules?.[0];
  return first?.algorithm.type === 'ab_test' ? (first as RoutingAlgorithmRecord & { algorithm: { type: 'ab_test'; data: AbTestData } }) : undefined;
}

/**
 * Routes one payment into the merchant's active experiment (peer: the A/B interceptor of
 * /decide-gateway). Only when the merchant feature `ab-test-real-payments` is on; otherwise the
 * experiment is inert and the payment is decided without a rule. The arm comes from the payment
 * id's hash (sticky across retries), or is control for everyone once the guardrail tripped.
 * An `sr_routing` arm decides by success rate with the arm's override; another algorithm's arm
 * becomes that payment's active rule. An arm naming an algorithm that is gone, belongs to another
 * merchant or is itself an experiment leaves the payment out of the experiment (decided normally,
 * nothing recorded), so a broken arm never pollutes its results.
 */
export async function enterExperiment(
  request: DecideGatewayRequest,
  inputs: DecisionInputs,
  experiment: RoutingAlgorithmRecord & { algorithm: { type: 'ab_test'; data: AbTestData } },
  deps: ExperimentDeps,
): Promise<ExperimentEntry> {
  const merchantId = request.merchantId;
  // The flags came with the merchant's inputs (read once per decision); only the guardrail is read here.
  if (!isFeatureEnabled(inputs.features, 'ab-test-real-payments')) return outsideOf(request, inputs);
  const trip = await deps.state.configs.get(merchantId, 'experimentGuardrail');
  const data = experiment.algorithm.data;
  const guardrailTripped = trip !== undefined && trip.experimentId === experiment.id && trip.experimentModifiedAt === experiment.modifiedAt;
  const arm: ExperimentArm = guardrailTripped ? 'control' : assignArm(request.paymentInfo.paymentId, data.variant_split_pct);
  const armAlgorithmId = arm === 'variant' ? data.variant_algorithm_id : data.control_algorithm_id;
  const tag: ExperimentTag = { experimentId: experiment.id, experimentArm: arm, armAlgorithmId, guardrailTripped };
  if (armAlgorithmId === srRoutingArm) {
    const applied = applySrOverride(request, { ...inputs, activeRules: [] }, arm === 'variant' ? data.variant_sr_config : data.control_sr_config);
    return { ...applied, tag, staticArm: false };
  }
  const record = await deps.state.routingRules.get(armAlgorithmId);
  if (record === undefined || record.createdBy !== merchantId || record.algorithm.type === 'ab_test') return outsideOf(request, inputs);
  return { request, inputs: { ...inputs, activeRules: [record] }, tag, staticArm: true };
}

/** A payment left out of the experiment (built only then: it copies the inputs). */
function outsideOf(request: DecideGatewayRequest, inputs: DecisionInputs): ExperimentEntry {
  return { request, inputs: { ...inputs, activeRules: [] }, tag: undefined, staticArm: false };
}

/**
 * A static arm's answer: the arm algorithm's order as is (first its pick, then the rest), with
 * `routing_approach` AB_TEST_STATIC_ALGORITHM. Undefined when the algorithm kept none of the
 * payment's gateways (the payment is then decided normally and left out of the experiment).
 */
export function staticArmDecision(decision: Decision, rule: DecisionRule | undefined): Decision | undefined {
  const first = rule?.gateways[0];
  if (rule === undefined || first === undefined) return undefined;
  // The arm's algorithm answers, not the SR scoring: its policy log and cost step describe a pick
  // that was not made, so they go (counterfactual evaluation cannot replay a static algorithm).
  const { policy: _scoredPolicy, multiObjectiveInfo: _scoredCostStep, ...scored } = decision;
  return { ...scored, decidedGateway: first, fallbackGateways: rule.gateways.slice(1), routingApproach: 'AB_TEST_STATIC_ALGORITHM' };
}

/** The decision to answer and the tag to record, once the payment in an experiment was decided. */
export function experimentOutcome(
  entry: ExperimentEntry | undefined,
  rule: DecisionRule | undefined,
  decision: Decision,
): { readonly decision: Decision; readonly tag: ExperimentTag | undefined } {
  if (entry?.tag === undefined) return { decision, tag: undefined };
  if (!entry.staticArm) return { decision, tag: entry.tag };
  const answered = staticArmDecision(decision, rule);
  return answered === undefined ? { decision, tag: undefined } : { decision: answered, tag: entry.tag };
}
