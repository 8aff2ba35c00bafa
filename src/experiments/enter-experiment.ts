import type { DecideGatewayRequest } from '../generated/schema-types.js';
import type { StateStore } from '../ports/state-store.js';
import type { AbTestData, ExperimentEndpoint } from '../ports/state/routing-algorithm.js';
import type { RoutingAlgorithmRecord } from '../ports/state/routing-rule-store.js';
import type { Decision, DecisionInputs, DecisionRule } from '../decision/decision.js';
import { isFeatureEnabled } from '../decision/features/merchant-features.js';
import { applySrOverride, srOverrideInputs, srOverrideRequest } from './apply-sr-override.js';
import type { ExperimentArm } from './assign-arm.js';
import { type ArmProjection, type EndpointPlan, endpointArmsOf, pickArm } from './experiment-arms.js';

/** What a decision in an experiment records (decision.created `experiment`). */
export interface ExperimentTag {
  readonly experimentId: string;
  readonly experimentArm: ExperimentArm;
  /** `sr_routing`, or the rule_id of the arm's rule layer. */
  readonly armAlgorithmId: string;
  /**
   * Always false since a breach stops the experiment (src/experiments/check-experiment-guardrail.ts);
   * kept for readers of older events, where true meant "sent to control by the guardrail".
   */
  readonly guardrailTripped: boolean;
  /** The endpoint that routed the payment (results are read per endpoint). */
  readonly endpoint: ExperimentEndpoint;
}

/** The payment as it enters the decision: its request and inputs for the arm, and the tag to record. */
export interface ExperimentEntry {
  readonly request: DecideGatewayRequest;
  readonly inputs: DecisionInputs;
  /** Undefined when the payment is not in the experiment (feature off, no split here, arm rule gone). */
  readonly tag: ExperimentTag | undefined;
  /** The arm has no SR layer: its rule's output is the answer (AB_TEST_STATIC_ALGORITHM). */
  readonly staticArm: boolean;
}

/** Where the decision is made: /decide-gateway (default) or the dynamic half of /routing/hybrid. */
export interface ExperimentCallSite {
  readonly endpoint: ExperimentEndpoint;
  /** The static half already evaluated the arm's rule layer (/routing/hybrid): only the SR layer is left. */
  readonly ruleLayerApplied: boolean;
}

export interface ExperimentDeps {
  readonly state: Pick<StateStore, 'routingRules'>;
}

export type RunningExperiment = RoutingAlgorithmRecord & { readonly algorithm: { readonly type: 'ab_test'; readonly data: AbTestData } };

/**
 * The merchant's running experiment among its active algorithms: the one in the experiment slot,
 * or one activated into the rule slot before that slot existed. Synchronous and allocation-free:
 * the hot path's check, on the list the decision already read.
 */
export function runningExperimentOf(active: readonly RoutingAlgorithmRecord[] | undefined): RunningExperiment | undefined {
  if (active === undefined) return undefined;
  for (const record of active) if (record.algorithm.type === 'ab_test') return record as RunningExperiment;
  return undefined;
}

/** The running experiment of the merchant whose inputs these are. */
export function activeExperimentOf(inputs: DecisionInputs): RunningExperiment | undefined {
  return runningExperimentOf(inputs.activeRules);
}

/**
 * Per list of active algorithms (the store serves the same list until the merchant changes it): the
 * list without its experiment. Every decision of a merchant with a running experiment asks.
 */
const rulesWithoutExperiment = new WeakMap<readonly RoutingAlgorithmRecord[], readonly RoutingAlgorithmRecord[]>();

/** The active rules without the experiment (the same array when there is none). */
export function activeRulesOf(active: readonly RoutingAlgorithmRecord[]): readonly RoutingAlgorithmRecord[] {
  if (runningExperimentOf(active) === undefined) return active;
  let rules = rulesWithoutExperiment.get(active);
  if (rules === undefined) {
    rules = active.filter((record) => record.algorithm.type !== 'ab_test');
    rulesWithoutExperiment.set(active, rules);
  }
  return rules;
}

/** Per arm's projection on one endpoint of one experiment (experiment-arms.ts keeps them per document): the tag its payments carry. */
const tags = new WeakMap<ArmProjection, ExperimentTag>();

function tagOf(experiment: RunningExperiment, arm: ExperimentArm, projection: ArmProjection, endpoint: ExperimentEndpoint): ExperimentTag {
  let tag = tags.get(projection);
  if (tag === undefined || tag.experimentId !== experiment.id) {
    tag = { experimentId: experiment.id, experimentArm: arm, armAlgorithmId: projection.rule ?? 'sr_routing', guardrailTripped: false, endpoint };
    tags.set(projection, tag);
  }
  return tag;
}

/** One arm of the running experiment as one endpoint routes it, for one merchant's inputs. */
class ArmRoute {
  #srInputs: DecisionInputs | undefined;

  constructor(
    readonly projection: ArmProjection,
    readonly tag: ExperimentTag,
    private readonly routes: ExperimentRoutes,
  ) {}

  /** The inputs an arm with an SR layer alone decides with on /decide-gateway: made on its first payment, then shared. */
  get srInputs(): DecisionInputs {
    this.#srInputs ??= srOverrideInputs(this.routes.inputs, this.projection.sr, this.routes.rules);
    return this.#srInputs;
  }
}

/**
 * What one endpoint does with the payments of a merchant's running experiment, worked out once per
 * merchant's inputs (the same object until they change, src/decision/inputs/): the active rules
 * without the experiment, whether the endpoint splits, and each arm's projection, tag and inputs.
 * One lookup per payment in an experiment, where finding each of these in a cache of its own took
 * four more (~80 instructions each, bench/README.md).
 */
class ExperimentRoutes {
  readonly rules: readonly RoutingAlgorithmRecord[];
  readonly splits: boolean;
  readonly control: ArmRoute;
  readonly variant: ArmRoute;
  #outsideInputs: DecisionInputs | undefined;

  constructor(
    readonly inputs: DecisionInputs,
    readonly experiment: RunningExperiment,
    endpoint: ExperimentEndpoint,
  ) {
    this.rules = activeRulesOf(inputs.activeRules ?? []);
    const arms = endpointArmsOf(experiment.algorithm.data, endpoint);
    this.splits = arms.splits;
    const route = (plan: EndpointPlan): ArmRoute => new ArmRoute(plan.projection, tagOf(experiment, plan.arm, plan.projection, endpoint), this);
    this.control = route(arms.controlPlan);
    this.variant = route(arms.variantPlan);
  }

  /** The inputs of a payment left out of the experiment (the active rules without it): made once, then shared. */
  get outsideInputs(): DecisionInputs {
    this.#outsideInputs ??= { ...this.inputs, activeRules: this.rules };
    return this.#outsideInputs;
  }
}

const routesByInputs = new WeakMap<DecisionInputs, Partial<Record<ExperimentEndpoint, ExperimentRoutes>>>();

function experimentRoutesOf(inputs: DecisionInputs, experiment: RunningExperiment, endpoint: ExperimentEndpoint): ExperimentRoutes {
  let byEndpoint = routesByInputs.get(inputs);
  if (byEndpoint === undefined) {
    byEndpoint = {};
    routesByInputs.set(inputs, byEndpoint);
  }
  let routes = byEndpoint[endpoint];
  // The running experiment is the inputs' own (activeExperimentOf); another one is routed afresh.
  if (routes === undefined || routes.experiment !== experiment) {
    routes = new ExperimentRoutes(inputs, experiment, endpoint);
    byEndpoint[endpoint] = routes;
  }
  return routes;
}

/** /decide-gateway's call site: one shared object, not a default parameter's literal made per payment. */
const decideGatewaySite: ExperimentCallSite = { endpoint: 'decide_gateway', ruleLayerApplied: false };

/**
 * Routes one payment into the merchant's running experiment (peer: the A/B interceptor). Only when
 * the merchant feature `ab-test-real-payments` is on and the experiment splits on this endpoint;
 * otherwise the payment is routed by the active rule and the live SR settings, outside the
 * experiment. The arm comes from the payment id's hash (sticky across retries and endpoints). The
 * arm's rule layer takes the active rule's place; its SR layer decides with the arm's override;
 * an arm without an SR layer answers its rule's output. An arm rule that is gone, belongs to
 * another merchant or is itself an experiment leaves the payment out of the experiment, so a
 * broken arm never pollutes its results.
 */
export function enterExperiment(
  request: DecideGatewayRequest,
  inputs: DecisionInputs,
  experiment: RunningExperiment,
  deps: ExperimentDeps,
  site: ExperimentCallSite = decideGatewaySite,
): ExperimentEntry | Promise<ExperimentEntry> {
  const routes = experimentRoutesOf(inputs, experiment, site.endpoint);
  // The flags came with the merchant's inputs (read once per decision).
  if (!isFeatureEnabled(inputs.features, 'ab-test-real-payments') || !routes.splits) return outsideOf(request, routes);
  const arm = pickArm(experiment.algorithm.data, request.paymentInfo.paymentId, routes.control, routes.variant);
  const { projection, tag } = arm;
  const ruleId = projection.rule;
  const sr = projection.sr;
  if (site.ruleLayerApplied) {
    // The static half answered with the arm's rule; an arm without an SR layer never gets here (decide-hybrid.ts).
    if (sr === undefined) return outsideOf(request, routes);
    const applied = applySrOverride(request, inputs, sr, []);
    return inArm(applied.request, applied.inputs, tag);
  }
  // An arm with an SR layer alone is entered without an await; only an arm rule is read.
  if (ruleId === undefined) {
    if (sr === undefined) return outsideOf(request, routes);
    return inArm(srOverrideRequest(request, sr), arm.srInputs, tag);
  }
  return deps.state.routingRules.get(ruleId).then((record): ExperimentEntry => {
    if (record === undefined || record.createdBy !== request.merchantId || record.algorithm.type === 'ab_test') return outsideOf(request, routes);
    if (sr === undefined) return { request, inputs: { ...inputs, activeRules: [record] }, tag, staticArm: true };
    const applied = applySrOverride(request, inputs, sr, [record]);
    return inArm(applied.request, applied.inputs, tag);
  });
}

/** A payment in an arm with an SR layer, as the override left it. */
function inArm(request: DecideGatewayRequest, inputs: DecisionInputs, tag: ExperimentTag): ExperimentEntry {
  return { request, inputs, tag, staticArm: false };
}

/** A payment left out of the experiment: decided with the active rules without it. */
function outsideOf(request: DecideGatewayRequest, routes: ExperimentRoutes): ExperimentEntry {
  return { request, inputs: routes.outsideInputs, tag: undefined, staticArm: false };
}

/**
 * A static arm's answer: the arm rule's order as is (first its pick, then the rest), with
 * `routing_approach` AB_TEST_STATIC_ALGORITHM. Undefined when the rule kept none of the
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
