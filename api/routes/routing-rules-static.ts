import type { FastifyRequest } from 'fastify';
import { SwitchyardError } from '../../src/errors/switchyard-error.js';
import { createEvent } from '../../src/events/event-envelope.js';
import type { RoutingEvaluateRequest, RuleEvaluatedV1 } from '../../src/generated/schema-types.js';
import type { RoutingAlgorithmRecord } from '../../src/ports/state-store.js';
import { evaluateActiveRule } from '../../src/routing-rules/evaluate-active-rule.js';
import { validateEvaluationParameters, type ConnectorInfo, type RuleEvaluation } from '../../src/routing-rules/index.js';
import type { AppDeps } from '../app-deps.js';
import { requestIdOf } from '../request-context.js';

/** A euclid 400: `{"code":"TE_04","message":<message>,"data":null}`. */
export const rejected = (message: string) => new SwitchyardError('SY_ROUTING_RULE_REJECTED', { message });

/** The evaluate response body of one evaluation (`eligible_connectors`: no pm_filters graph here, so every evaluated connector is eligible). */
export function evaluateResponse(paymentId: string | null | undefined, evaluation: RuleEvaluation) {
  return {
    payment_id: paymentId ?? null,
    status: evaluation.status,
    output: evaluation.output,
    evaluated_output: evaluation.evaluatedOutput,
    eligible_connectors: evaluation.evaluatedOutput,
  };
}

export type StaticEvaluation =
  | { readonly ok: true; readonly evaluation: RuleEvaluation; readonly record: RoutingAlgorithmRecord }
  | { readonly ok: false; readonly error: SwitchyardError };

/**
 * The algorithm `id` of `createdBy` as a one-element list, for a preview (`routing_algorithm_id`):
 * evaluated exactly as if it were active. Another merchant's algorithm is as unknown as a missing one.
 */
async function ownAlgorithms(deps: AppDeps, createdBy: string, id: string): Promise<readonly RoutingAlgorithmRecord[]> {
  const record = await deps.state.routingRules.get(id);
  return record === undefined || record.createdBy !== createdBy ? [] : [record];
}

/**
 * The /routing/evaluate steps shared with /routing/hybrid: parameter checks, the active algorithm
 * (from the caching store: compiled once per activation on each replica) or the one named by
 * `routing_algorithm_id` (a preview), evaluation, and the `rule.evaluated` event. Never throws for a client mistake; returns the 400 to send instead.
 */
export async function runStaticEvaluation(
  deps: AppDeps,
  request: FastifyRequest,
  body: RoutingEvaluateRequest,
  source: RuleEvaluatedV1['source'],
): Promise<StaticEvaluation> {
  const startedAt = performance.now();
  const checked = validateEvaluationParameters(body.parameters);
  if (!checked.ok) return { ok: false, error: rejected(checked.wireMessage) };
  const previewId = body.routing_algorithm_id ?? null;
  const candidates = previewId === null ? await deps.state.routingRules.loadActive(body.created_by) : await ownAlgorithms(deps, body.created_by, previewId);
  if (previewId !== null && candidates.length === 0) return { ok: false, error: rejected(`Routing algorithm not found for the provided id : ${previewId}`) };
  const outcome = evaluateActiveRule(candidates, checked.parameters, body.fallback_output as readonly ConnectorInfo[] | null | undefined, deps.random);
  const latencyMs = performance.now() - startedAt;
  const base = { source, paymentId: body.payment_id ?? null, requestId: requestIdOf(request), latencyMs };
  if (outcome.kind === 'no_active') {
    return { ok: false, error: rejected(`No active routing algorithm found for the created_by entity : ${body.created_by}`) };
  }
  const algorithm = { algorithmId: outcome.record.id, algorithmName: outcome.record.name, algorithmType: outcome.record.algorithm.type };
  if (outcome.kind === 'failed') {
    const message = `Invalid request received : ${outcome.message}`;
    await deps.bus.publish([
      createEvent('rule.evaluated', body.created_by, { ...base, ...algorithm, ruleName: null, status: 'failure', output: null, evaluatedOutput: [], errorMessage: message }, deps.clock.now()),
    ]);
    return { ok: false, error: rejected(message) };
  }
  const evaluation = outcome.evaluation;
  await deps.bus.publish([
    createEvent('rule.evaluated', body.created_by, {
      ...base,
      ...algorithm,
      ruleName: evaluation.ruleName,
      status: evaluation.status,
      output: evaluation.output as unknown as Record<string, unknown>,
      evaluatedOutput: evaluation.evaluatedOutput.map((connector) => connector.gateway_name),
      errorMessage: null,
    }, deps.clock.now()),
  ]);
  return { ok: true, evaluation, record: outcome.record };
}

