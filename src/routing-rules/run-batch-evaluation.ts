import type { SwitchyardError } from '../errors/switchyard-error.js';
import { createEvent } from '../events/event-envelope.js';
import type { RoutingEvaluateBatchRequest } from '../generated/schema-types.js';
import { evaluateActiveRule } from './evaluate-active-rule.js';
import { noActiveAlgorithmEvaluation, validateEvaluationParameters, type ConnectorInfo, type EvaluationAnswer, type EvaluationParameters } from './index.js';
import { routingRuleRejected } from './routing-rule-rejected.js';
import { evaluatedFields, noActiveAlgorithm, type StaticEvaluationCall, type StaticEvaluationDeps } from './run-static-evaluation.js';

/** decision-engine's cap on one batch (#378): more entries fail the whole request. */
export const maxBatchEvaluations = 50;

/** One entry's answer: its evaluation, or (`error`) the interpreter's refusal of that entry alone. */
export type BatchEntryResult =
  | { readonly kind: 'evaluated'; readonly paymentId: string | null; readonly evaluation: EvaluationAnswer }
  | { readonly kind: 'error'; readonly paymentId: string | null; readonly message: string };

export type BatchEvaluation = { readonly ok: true; readonly results: readonly BatchEntryResult[] } | { readonly ok: false; readonly error: SwitchyardError };

/**
 * POST /routing/evaluate/batch (decision-engine #378, #398): the merchant's active algorithm is
 * resolved once and evaluated for each parameter set, results in request order. Request-level
 * problems fail the whole batch (more than 50 entries, an invalid parameter in any entry, no
 * active algorithm and no `fallback_output`); an entry the interpreter refuses answers `error` at
 * its position while the others stand. An empty batch is a vacuous success. With no active
 * algorithm and a fallback, every entry answers `no_active_algorithm` (as /routing/evaluate).
 * One `rule.evaluated` event per evaluated entry, published together.
 */
export async function runBatchEvaluation(deps: StaticEvaluationDeps, body: RoutingEvaluateBatchRequest, call: StaticEvaluationCall): Promise<BatchEvaluation> {
  const startedAt = performance.now();
  if (body.requests.length > maxBatchEvaluations) {
    return { ok: false, error: routingRuleRejected(`Batch size ${body.requests.length} exceeds the maximum of ${maxBatchEvaluations} evaluations`) };
  }
  if (body.requests.length === 0) return { ok: true, results: [] };
  const checked: EvaluationParameters[] = [];
  for (const [index, entry] of body.requests.entries()) {
    const result = validateEvaluationParameters(entry.parameters);
    if (!result.ok) return { ok: false, error: routingRuleRejected(`requests[${index}]: ${result.wireMessage}`) };
    checked.push(result.parameters);
  }
  const fallback = body.fallback_output as readonly ConnectorInfo[] | null | undefined;
  const active = await deps.state.routingRules.loadActive(body.created_by);
  if (active.length === 0) {
    const answer = noActiveAlgorithmEvaluation(fallback);
    if (answer === undefined) return { ok: false, error: noActiveAlgorithm(body.created_by) };
    return { ok: true, results: body.requests.map((entry) => ({ kind: 'evaluated', paymentId: entry.payment_id ?? null, evaluation: answer })) };
  }
  const results: BatchEntryResult[] = [];
  const events = [];
  for (const [index, entry] of body.requests.entries()) {
    const paymentId = entry.payment_id ?? null;
    const outcome = evaluateActiveRule(active, checked[index]!, fallback, deps.random);
    // loadActive answered a non-empty list, so every outcome names its algorithm.
    if (outcome.kind === 'no_active') return { ok: false, error: noActiveAlgorithm(body.created_by) };
    const base = { source: call.source, paymentId, requestId: call.requestId, latencyMs: performance.now() - startedAt };
    const algorithm = { algorithmId: outcome.record.id, algorithmName: outcome.record.name, algorithmType: outcome.record.algorithm.type };
    if (outcome.kind === 'failed') {
      const message = `Invalid request received : ${outcome.message}`;
      results.push({ kind: 'error', paymentId, message });
      const failed = { ruleName: null, status: 'failure' as const, output: null, evaluatedOutput: [], errorMessage: message };
      events.push(createEvent('rule.evaluated', body.created_by, { ...base, ...algorithm, ...failed }, deps.clock.now()));
      continue;
    }
    results.push({ kind: 'evaluated', paymentId, evaluation: outcome.evaluation });
    events.push(createEvent('rule.evaluated', body.created_by, { ...base, ...algorithm, ...evaluatedFields(outcome.evaluation) }, deps.clock.now()));
  }
  await deps.bus.publish(events);
  return { ok: true, results };
}
