import { createEvent, type EventEnvelope } from '../events/event-envelope.js';
import type { DecideGatewayRequest, DecisionCreatedV1 } from '../generated/schema-types.js';
import type { EventBus } from '../ports/event-bus.js';
import type { StateStore } from '../ports/state-store.js';
import { activeExperimentOf, enterExperiment, experimentOutcome, type ExperimentCallSite, type ExperimentTag } from '../experiments/enter-experiment.js';
import { experimentFieldOf } from '../experiments/experiment-event-field.js';
import { applyActiveRule } from '../routing-rules/apply-active-rule.js';
import { applyVolumeCommitment } from '../volume-commitment/apply-volume-commitment.js';
import { createSteeringPlanCache } from '../volume-commitment/steering-plan-cache.js';
import type { Clock } from '../time/clock.js';
import { decideGateway, type Decision, type DecisionFailure, type DecisionInputs } from './decide-gateway.js';
import { createDecisionInputsLoader } from './inputs/load-decision-inputs.js';
import { applyMultiObjective, costStepRankingOf } from './multi-objective/apply-multi-objective.js';
import type { EvRanking } from './multi-objective/rank-by-expected-value.js';
import { multiObjectiveFieldOf } from './multi-objective/multi-objective-event-field.js';
import { policyRecordOf, type DecisionPolicyRecord } from './policy/policy-record.js';
import type { RandomSource } from './random-source.js';
import type { RoutingDefaults } from './routing-defaults.js';
import { applyStickyRouting, stickyRoutingOn, type StickyRoutingDeps } from './sticky/apply-sticky-routing.js';
import { LookupDeadlines } from './sticky/lookup-deadlines.js';
import { defaultStickySettings } from './sticky/sticky-settings.js';

export interface DecidePaymentDeps {
  /** `onInvalidation` (when given) drops a held steering plan the moment the forecaster publishes another. */
  readonly state: Pick<StateStore, 'merchants' | 'configs' | 'routingRules' | 'scores' | 'sticky'> & Partial<Pick<StateStore, 'onInvalidation'>>;
  readonly bus: Pick<EventBus, 'publish'>;
  readonly random: RandomSource;
  readonly clock: Clock;
  readonly defaults: RoutingDefaults;
  /** Sticky routing's counters (for /metrics) and settings; absent: uncounted, with the default settings. */
  readonly sticky?: Omit<StickyRoutingDeps, 'store'>;
}

/** Who asked and when: what the events carry besides the decision itself. */
export interface DecisionCall {
  /** The request id every event of this call carries. */
  readonly requestId: string;
  /**
   * The caller's start (`performance.now()`), so the latency covers whatever it did first (the
   * legacy filter chain, a static rule evaluation).
   */
  readonly startedAt: number;
  /** The merchant's inputs when the caller already read them (in the same round as its own reads). */
  readonly inputs?: DecisionInputs;
  /** /routing/hybrid's dynamic half; absent on /decide-gateway. */
  readonly experimentSite?: ExperimentCallSite;
}

/**
 * A decision made and published. `request` is the body as decided: after the merchant's active
 * routing rule narrowed and ordered its candidates.
 */
export type PaymentDecision =
  | { readonly ok: true; readonly decision: Decision; readonly request: DecideGatewayRequest; readonly latencyMs: number }
  | { readonly ok: false; readonly failure: DecisionFailure; readonly request: DecideGatewayRequest };

/** The decision use case behind /decide-gateway, /decision_gateway and /routing/hybrid. */
export type DecidePayment = (input: DecideGatewayRequest, call: DecisionCall) => Promise<PaymentDecision>;

/**
 * Builds the decision use case: loads the merchant's inputs, applies its active routing rule,
 * decides, and publishes `rule.evaluated`, then `decision.created` or `decision.failed` (what
 * feedback, the sr-windows worker and analytics read). The bus buffers; a broker is never awaited.
 */
export function createDecidePayment(deps: DecidePaymentDeps): DecidePayment {
  // Volume-commitment plans held in memory (a decision with the feature on reads its plan without an
  // await), dropped on the state store's invalidation when the forecaster publishes.
  const plans = createSteeringPlanCache({
    configs: deps.state.configs,
    clock: deps.clock,
    ...(deps.state.onInvalidation === undefined ? {} : { onInvalidation: deps.state.onInvalidation.bind(deps.state) }),
  });
  // One timer for the fail-open deadlines of every sticky lookup in flight (a remote store's).
  const sticky: StickyRoutingDeps = {
    store: deps.state.sticky,
    ...deps.sticky,
    deadlines: new LookupDeadlines(deps.sticky?.settings?.lookupTimeoutMs ?? defaultStickySettings.lookupTimeoutMs),
  };
  // Without an await when the store holds the merchant's inputs in memory, and built once per change
  // of them when it versions what it holds (src/decision/inputs/).
  const loadInputs = createDecisionInputsLoader(deps.state);
  const scoringDeps = { scores: deps.state.scores, random: deps.random, clock: deps.clock, defaults: deps.defaults };
  return async (input, call) => {
    const read = call.inputs ?? loadInputs(input.merchantId);
    const loaded = read instanceof Promise ? await read : read;
    // An active A/B experiment routes the payment into its arm first (src/experiments/; an await only to read an arm's rule).
    const experiment = activeExperimentOf(loaded);
    const entered = experiment === undefined ? undefined : enterExperiment(input, loaded, experiment, deps, call.experimentSite);
    const entry = entered instanceof Promise ? await entered : entered;
    const inputs = entry?.inputs ?? loaded;
    // The active rule narrows and orders the candidates (synchronous; a no-op without one).
    const applied = applyActiveRule(entry?.request ?? input, inputs.activeRules ?? [], deps.random);
    const request = applied.request;
    const ruleEvents: EventEnvelope[] =
      applied.event === undefined
        ? []
        : [
            createEvent(
              'rule.evaluated',
              request.merchantId,
              { ...applied.event, source: 'decide_gateway', requestId: call.requestId, latencyMs: performance.now() - call.startedAt },
              deps.clock.now(),
            ),
          ];
    const decided = applied.rule === undefined ? inputs : { ...inputs, rule: applied.rule };
    // Synchronous when the score store answers from process memory (the embedded one).
    const scoring = decideGateway(request, decided, scoringDeps);
    const scored = scoring instanceof Promise ? await scoring : scoring;
    // Sticky routing runs last (src/decision/sticky/): no store read unless it is on for the payment.
    const sticking = stickyRoutingOn(request, decided);
    const volumeOn = decided.features?.['volume-contracts'] === true;
    // The cost-aware post-step (synchronous; a no-op unless switched on for an SR decision). With
    // sticky routing on, a pin may supersede its pick and drop its info block, so the sticky step
    // applies its ranking in the one copy of the decision it makes, and builds the block only for a
    // decision that keeps it. Volume steering in between needs the post-step's decision itself.
    let costed = scored;
    let ranking: EvRanking | undefined;
    if (sticking && !volumeOn) ranking = costStepRankingOf(scored, request, decided);
    else costed = applyMultiObjective(scored, request, decided);
    // Volume-commitment steering (the flag checked here, once; no await while the merchant's plan is held).
    let steered = costed;
    if (costed.ok && volumeOn) {
      const volume = applyVolumeCommitment(costed.decision, decided, { merchantId: request.merchantId, plans, random: deps.random, nowMs: deps.clock.now() });
      steered = { ok: true, decision: volume instanceof Promise ? await volume : volume };
    }
    // Sticky routing (no await on a store in process memory).
    let outcome = steered;
    if (sticking) {
      const stuck = applyStickyRouting(steered, request, decided, entry?.tag !== undefined && entry.staticArm, sticky, ranking);
      outcome = stuck instanceof Promise ? await stuck : stuck;
    }
    const latencyMs = Math.round(performance.now() - call.startedAt);
    if (!outcome.ok) {
      await deps.bus.publish([...ruleEvents, failedEvent(request, outcome.failure, call.requestId, deps.clock.now())]);
      return { ok: false, failure: outcome.failure, request };
    }
    const { decision, tag } = experimentOutcome(entry, applied.rule, outcome.decision);
    await deps.bus.publish([...ruleEvents, createdEvent(request, decision, call.requestId, latencyMs, tag)]);
    return { ok: true, decision, request, latencyMs };
  };
}

function failedEvent(request: DecideGatewayRequest, failure: DecisionFailure, requestId: string, nowMs: number): EventEnvelope {
  return createEvent(
    'decision.failed',
    request.merchantId,
    { paymentId: request.paymentInfo.paymentId, requestId, errorCode: failure.kind, errorMessage: failure.message, stage: 'request_failed' },
    nowMs,
  );
}

function createdEvent(request: DecideGatewayRequest, decision: Decision, requestId: string, latencyMs: number, experiment?: ExperimentTag): EventEnvelope {
  // An object literal in the key order the event has always had, `experiment` first (analytics finds
  // its keys in `details` by first occurrence: src/adapters/clickhouse/sql/experiment-sql.ts), and
  // the optional parts added after it. Not stores onto `{}`: the first property stored on `{}` is a
  // transition of the one map every `{}` in the process shares, and once that map holds V8's most
  // transitions (dictionaries built on `{}` fill it in a long-running service) the store can miss
  // its inline cache every time. Adding `experiment` so took 2–3 µs per row-2c decision in the
  // service (bench/README.md, 2026-12-04); a literal's map comes from V8's cache of literal maps.
  // `gatewayPriorityMap` is the decision's own map, not a copy: nothing writes to it once scored
  // (src/decision/score-map.ts).
  const inExperiment = experimentFieldOf(experiment, decision);
  const payload: Mutable<DecisionCreatedV1> =
    inExperiment === undefined
      ? {
          paymentId: request.paymentInfo.paymentId,
          requestId,
          gateway: decision.decidedGateway,
          routingApproach: decision.routingApproach,
          gatewayPriorityMap: decision.gatewayPriorityMap as DecisionCreatedV1['gatewayPriorityMap'],
          rankingAlgorithm: request.rankingAlgorithm ?? null,
          eliminationEnabled: decision.eliminationEnabled,
          latencyMs,
          payment: decision.payment,
          windowDimension: decision.windowDimension,
          eliminationDimension: decision.eliminationDimension,
        }
      : {
          experiment: inExperiment,
          paymentId: request.paymentInfo.paymentId,
          requestId,
          gateway: decision.decidedGateway,
          routingApproach: decision.routingApproach,
          gatewayPriorityMap: decision.gatewayPriorityMap as DecisionCreatedV1['gatewayPriorityMap'],
          rankingAlgorithm: request.rankingAlgorithm ?? null,
          eliminationEnabled: decision.eliminationEnabled,
          latencyMs,
          payment: decision.payment,
          windowDimension: decision.windowDimension,
          eliminationDimension: decision.eliminationDimension,
        };
  const multiObjective = multiObjectiveFieldOf(decision);
  if (multiObjective !== undefined) payload.multiObjective = multiObjective;
  if (decision.sticky !== undefined) payload.sticky = decision.sticky;
  // The additive `policy` field (propensity, candidates, parameters); absent when the decision logged none.
  const policy: DecisionPolicyRecord | undefined = policyRecordOf(decision);
  if (policy !== undefined) payload.policy = policy;
  return createEvent('decision.created', request.merchantId, payload, decision.decidedAt);
}

type Mutable<T> = { -readonly [K in keyof T]: T[K] };
