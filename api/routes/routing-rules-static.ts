import type { FastifyRequest } from 'fastify';
import type { RoutingEvaluateRequest, RuleEvaluatedV1 } from '../../src/generated/schema-types.js';
import type { EvaluationAnswer } from '../../src/routing-rules/index.js';
import { runStaticEvaluation as runEvaluation, type StaticEvaluation } from '../../src/routing-rules/run-static-evaluation.js';
import type { AppDeps } from '../app-deps.js';
import { requestIdOf } from '../request-context.js';

/** The evaluate response body of one evaluation (`eligible_connectors`: no pm_filters graph here, so every evaluated connector is eligible). */
export function evaluateResponse(paymentId: string | null | undefined, evaluation: EvaluationAnswer) {
  return {
    payment_id: paymentId ?? null,
    status: evaluation.status,
    output: evaluation.output,
    evaluated_output: evaluation.evaluatedOutput,
    eligible_connectors: evaluation.evaluatedOutput,
  };
}

/**
 * The static evaluation use case (src/routing-rules/run-static-evaluation.ts) for one request of
 * /routing/evaluate or /routing/hybrid: its events carry the request's id.
 */
export function runStaticEvaluation(
  deps: AppDeps,
  request: FastifyRequest,
  body: RoutingEvaluateRequest,
  source: RuleEvaluatedV1['source'],
): Promise<StaticEvaluation> {
  return runEvaluation(deps, body, { source, requestId: requestIdOf(request) });
}
