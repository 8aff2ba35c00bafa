import type { RandomSource } from '../decision/random-source.js';
import type { SwitchyardError } from '../errors/switchyard-error.js';
import { createEvent } from '../events/event-envelope.js';
import type { RoutingEvaluateRequest, RuleEvaluatedV1 } from '../generated/schema-types.js';
import type { EventBus } from '../ports/event-bus.js';
import type { RoutingAlgorithmRecord, StateStore } from '../ports/state-store.js';
import type { Clock } from '../time/clock.js';
import { evaluateActiveRule } from './evaluate-active-rule.js';
import { evaluationInExperiment, type EvaluationExperimentTag } from '../experiments/enter-evaluation.js';
import type { RunningExperiment } from '../experiments/enter-experiment.js';
import { routingRuleRejected } from './routing-rule-rejected.js';
import { noActiveAlgorithmEvaluation, validateEvaluationParameters, type ConnectorInfo, type EvaluationAnswer, type RuleEvaluation } from './index.js';

export interface StaticEvaluationDeps {
  readonly state: Pick<StateStore, 'routingRules' | 'configs'>;
  readonly bus: Pick<EventBus, 'publish'>;
  readonly clock: Clock;
  readonly random: RandomSource;
}

/** Who asked: what the `rule.evaluated` event carries besides the evaluation. */
export interface StaticEvaluationCall {
  readonly source: RuleEvaluatedV1['source'];
  readonly requestId: string;
}

/** `record` is the evaluated algorithm; absent for a `no_active_algorithm` answer (nothing was evaluated). */
export type StaticEvaluation =
  | {
      readonly ok: true;
      readonly evaluation: EvaluationAnswer;
      readonly record?: RoutingAlgorithmRecord;
      /** Set when a running experiment routed this payment by its arm. */
      readonly experiment?: EvaluationExperimentTag;
      readonly experimentRecord?: RunningExperiment;
    }
  | { readonly ok: false; readonly error: SwitchyardError };

/**
 * The algorithm `id` of `createdBy` as a one-element list, for a preview (`routing_algorithm_id`):
 * evaluated exactly as if it were active. Another merchant's algorithm is as unknown as a missing one.
 */
async function ownAlgorithms(deps: StaticEvaluationDeps, createdBy: string, id: string): Promise<readonly RoutingAlgorithmRecord[]> {
  const record = await deps.state.routingRules.get(id);
  return record === undefined || record.createdBy !== createdBy ? [] : [record];
}

/** 400 `No active routing algorithm found for the created_by entity : <id>` (1.4.x's text). */
export function noActiveAlgorithm(createdBy: string): SwitchyardError {
  return routingRuleRejected(`No active routing algorithm found for the created_by entity : ${createdBy}`);
}

/** The `rule.evaluated` payload fields of a successful evaluation. */
export function evaluatedFields(evaluation: RuleEvaluation) {
  return {
    ruleName: evaluation.ruleName,
    status: evaluation.status,
    output: evaluation.output as unknown as Record<string, unknown>,
    evaluatedOutput: evaluation.evaluatedOutput.map((connector) => connector.gateway_name),
    errorMessage: null,
  };
}

/**
 * The static (euclid) evaluation behind /routing/evaluate and /routing/hybrid: parameter checks,
 * the active algorithm (from the caching store: compiled once per activation on each replica) or
 * the one named by `routing_algorithm_id` (a preview), evaluation, and the `rule.evaluated` event.
 * Never throws for a client mistake; returns the `SY_ROUTING_RULE_REJECTED` error instead, so
 * /routing/hybrid can fall back.
 */
export async function runStaticEvaluation(deps: StaticEvaluationDeps, body: RoutingEvaluateRequest, call: StaticEvaluationCall): Promise<StaticEvaluation> {
  const startedAt = performance.now();
  const checked = validateEvaluationParameters(body.parameters);
  if (!checked.ok) return { ok: false, error: routingRuleRejected(checked.wireMessage) };
  const previewId = body.routing_algorithm_id ?? null;
  const loaded = previewId === null ? await deps.state.routingRules.loadActive(body.created_by) : await ownAlgorithms(deps, body.created_by, previewId);
  if (previewId !== null && loaded.length === 0)
    return { ok: false, error: routingRuleRejected(`Routing algorithm not found for the provided id : ${previewId}`) };
  // A running experiment routes the payments it covers by their arm's rule layer (src/experiments/; no await without one).
  const routed = evaluationInExperiment(deps, body, loaded, call.source === 'hybrid' ? 'hybrid_routing' : 'evaluate');
  const { candidates, experiment, experimentRecord } = routed instanceof Promise ? await routed : routed;
  const outcome = evaluateActiveRule(candidates, checked.parameters, body.fallback_output as readonly ConnectorInfo[] | null | undefined, deps.random);
  const latencyMs = performance.now() - startedAt;
  if (outcome.kind === 'no_active') {
    // With a fallback the caller has an answer coming (route by it); without one there is none.
    const fallback = noActiveAlgorithmEvaluation(body.fallback_output as readonly ConnectorInfo[] | null | undefined);
    return fallback === undefined ? { ok: false, error: noActiveAlgorithm(body.created_by) } : { ok: true, evaluation: fallback };
  }
  const base = {
    source: call.source,
    paymentId: body.payment_id ?? null,
    requestId: call.requestId,
    latencyMs,
    ...(experiment === undefined ? {} : { experiment }),
  };
  const algorithm = { algorithmId: outcome.record.id, algorithmName: outcome.record.name, algorithmType: outcome.record.algorithm.type };
  if (outcome.kind === 'failed') {
    const message = `Invalid request received : ${outcome.message}`;
    const failed = { ruleName: null, status: 'failure' as const, output: null, evaluatedOutput: [], errorMessage: message };
    await deps.bus.publish([createEvent('rule.evaluated', body.created_by, { ...base, ...algorithm, ...failed }, deps.clock.now())]);
    return { ok: false, error: routingRuleRejected(message) };
  }
  await deps.bus.publish([createEvent('rule.evaluated', body.created_by, { ...base, ...algorithm, ...evaluatedFields(outcome.evaluation) }, deps.clock.now())]);
  return { ok: true, evaluation: outcome.evaluation, record: outcome.record, ...(experiment === undefined ? {} : { experiment, experimentRecord }) };
}
