import type { DecideGatewayRequest, RoutingEvaluateRequest } from '../generated/schema-types.js';
import type { StateStore } from '../ports/state-store.js';
import type { ConnectorInfo, EvaluationAnswer } from '../routing-rules/index.js';
import { routingRuleRejected } from '../routing-rules/routing-rule-rejected.js';
import type { StaticEvaluation } from '../routing-rules/run-static-evaluation.js';
import type { DecidePayment, PaymentDecision } from './decide-payment.js';
import type { DecisionInputs } from './decide-gateway.js';
import { isFeatureEnabled } from './features/merchant-features.js';
import { loadDecisionInputs } from './inputs/load-decision-inputs.js';
import { runningExperimentOf, type RunningExperiment } from '../experiments/enter-experiment.js';
import { project, resolvedArm } from '../experiments/experiment-arms.js';
import type { EvaluationExperimentTag } from '../experiments/enter-evaluation.js';

/** The refusal of a dynamic-only /routing/hybrid request for a merchant without `sr-routing`. */
export const srRoutingDisabledMessage = 'SR routing is not enabled for this merchant (feature sr-routing)';

export interface DecideHybridDeps {
  readonly state: Pick<StateStore, 'merchants' | 'configs' | 'routingRules'>;
  readonly decidePayment: DecidePayment;
  /** The static (euclid) evaluation of one request (src/routing-rules/run-static-evaluation.ts). */
  readonly evaluateStatic: (body: RoutingEvaluateRequest) => Promise<StaticEvaluation>;
}

/** The two halves of /routing/hybrid; at least one is given. */
export interface HybridRequest {
  readonly staticRequest: RoutingEvaluateRequest | undefined;
  readonly dynamicRequest: DecideGatewayRequest | undefined;
}

type Decided = Extract<PaymentDecision, { ok: true }>;
type Refused = Extract<PaymentDecision, { ok: false }>;

/**
 * What the hybrid answer is made of. `evaluation` is the static half's, when it evaluated;
 * `connectors` its evaluated connectors (or the request's `fallback_output` when it failed).
 * `refused`: the dynamic decision failed with no static connectors to fall back on.
 */
export type HybridOutcome =
  | { readonly kind: 'static_only'; readonly evaluation?: EvaluationAnswer; readonly connectors: readonly ConnectorInfo[] }
  | { readonly kind: 'decided'; readonly evaluation?: EvaluationAnswer; readonly decision: Decided }
  | { readonly kind: 'fallback'; readonly evaluation?: EvaluationAnswer; readonly decision: Refused; readonly connectors: readonly ConnectorInfo[] }
  | { readonly kind: 'refused'; readonly decision: Refused };

interface StaticHalf {
  readonly evaluation?: EvaluationAnswer;
  /** The experiment arm whose rule layer the static half evaluated. */
  readonly experiment?: EvaluationExperimentTag;
  readonly experimentRecord?: RunningExperiment;
  readonly connectors?: readonly ConnectorInfo[];
  readonly ruleName?: string;
}

/** The static half: its evaluation, or the request's fallback connectors; its error when neither and no dynamic half follows. */
async function staticHalf(deps: DecideHybridDeps, request: HybridRequest): Promise<StaticHalf> {
  const staticRequest = request.staticRequest;
  if (staticRequest === undefined) return {};
  const result = await deps.evaluateStatic(staticRequest);
  if (result.ok) {
    return {
      evaluation: result.evaluation,
      connectors: result.evaluation.evaluatedOutput,
      ruleName: result.evaluation.ruleName ?? result.record?.name,
      ...(result.experiment === undefined ? {} : { experiment: result.experiment, experimentRecord: result.experimentRecord }),
    };
  }
  if (staticRequest.fallback_output && staticRequest.fallback_output.length > 0) {
    return {
      connectors: staticRequest.fallback_output.map((connector) => ({ gateway_name: connector.gateway_name, gateway_id: connector.gateway_id ?? null })),
    };
  }
  if (request.dynamicRequest === undefined) throw result.error;
  return {};
}

/** The dynamic half: the decision over the request's candidates, or the static connectors when it names none. */
async function dynamicHalf(
  deps: DecideHybridDeps,
  dynamicRequest: DecideGatewayRequest,
  half: StaticHalf,
  evaluatedStatic: boolean,
  requestId: string,
  loaded: DecisionInputs,
): Promise<PaymentDecision> {
  const startedAt = performance.now();
  // Dynamic only: exactly /decide-gateway, the merchant's active rule (or an experiment arm's) included.
  if (!evaluatedStatic)
    return deps.decidePayment(dynamicRequest, {
      requestId,
      startedAt,
      inputs: loaded,
      experimentSite: { endpoint: 'hybrid_routing', ruleLayerApplied: false },
    });
  const candidates = dynamicRequest.eligibleGatewayList;
  const narrowed: DecideGatewayRequest =
    (candidates === undefined || candidates === null || candidates.length === 0) && half.connectors !== undefined
      ? { ...dynamicRequest, eligibleGatewayList: [...new Set(half.connectors.map((connector) => connector.gateway_name))] }
      : dynamicRequest;
  // The static half already evaluated the active rule; it is not applied a second time. When its
  // output supplied the candidates, it is the decision's priority logic.
  // A payment the static half routed by an experiment arm keeps the experiment, for the arm's SR layer.
  const running = half.experiment === undefined ? undefined : runningExperimentOf(loaded.activeRules);
  const activeRules = running === undefined ? [] : [running];
  const inputs =
    narrowed !== dynamicRequest && half.ruleName !== undefined
      ? { ...loaded, activeRules, rule: { name: half.ruleName, gateways: narrowed.eligibleGatewayList ?? [] } }
      : { ...loaded, activeRules };
  return deps.decidePayment(narrowed, { requestId, startedAt, inputs, experimentSite: { endpoint: 'hybrid_routing', ruleLayerApplied: true } });
}

/**
 * Whether the static half routed the payment by an experiment arm without an SR layer: such an arm
 * answers with its rule's output (decision-engine #434), whatever the dynamic half asks.
 */
function ruleOnlyArm(half: StaticHalf): boolean {
  const tag = half.experiment;
  const experiment = half.experimentRecord;
  if (tag === undefined || experiment === undefined) return false;
  return project(resolvedArm(experiment.algorithm.data, tag.experimentArm), 'hybrid_routing').sr === undefined;
}

/**
 * POST /routing/hybrid's use case: the static (euclid) evaluation, whose evaluated connectors (or
 * the request's `fallback_output` when it failed) become the candidate list of the dynamic
 * (/decide-gateway) request when that one names none; then the dynamic decision, falling back to
 * the static connectors when it fails. The dynamic half needs the merchant's `sr-routing` feature
 * (decision-engine #433); without it the static result is the answer. Throws `SY_ROUTING_RULE_REJECTED` when neither half is
 * given, or when the static half fails with no fallback and no dynamic half.
 */
export async function decideHybrid(deps: DecideHybridDeps, request: HybridRequest, requestId: string): Promise<HybridOutcome> {
  if (request.staticRequest === undefined && request.dynamicRequest === undefined) {
    throw routingRuleRejected('Invalid request received : At least one of static_routing_request or dynamic_routing_request must be provided.');
  }
  const half = await staticHalf(deps, request);
  const evaluation = half.evaluation === undefined ? {} : { evaluation: half.evaluation };
  if (request.dynamicRequest === undefined || ruleOnlyArm(half)) return { kind: 'static_only', ...evaluation, connectors: half.connectors ?? [] };
  // decision-engine #433: the dynamic (SR) half runs only for a merchant with `sr-routing` on; off,
  // the static result is the answer, and a request with nothing else is refused.
  // An unknown merchant is left to the decision, which refuses it as /decide-gateway does. The
  // merchant and its flags come with the decision's inputs, read once and handed to the decision.
  const loaded = await loadDecisionInputs(deps.state, request.dynamicRequest.merchantId);
  if (loaded.merchant !== undefined && !isFeatureEnabled(loaded.features, 'sr-routing')) {
    if (request.staticRequest === undefined) throw routingRuleRejected(srRoutingDisabledMessage);
    return { kind: 'static_only', ...evaluation, connectors: half.connectors ?? [] };
  }
  const decision = await dynamicHalf(deps, request.dynamicRequest, half, request.staticRequest !== undefined, requestId, loaded);
  if (decision.ok) return { kind: 'decided', ...evaluation, decision };
  if (half.connectors === undefined || half.connectors.length === 0) return { kind: 'refused', decision };
  return { kind: 'fallback', ...evaluation, decision, connectors: half.connectors };
}
