import type { FastifyInstance, FastifyRequest } from 'fastify';
import { decideHybrid, type HybridOutcome } from '../../src/decision/decide-hybrid.js';
import type { DecideGatewayRequest, HybridRoutingRequest } from '../../src/generated/schema-types.js';
import type { ConnectorInfo } from '../../src/routing-rules/index.js';
import type { AppDeps } from '../app-deps.js';
import { ref } from '../http-schemas.js';
import { assertOwnMerchant } from '../plugins/authentication.js';
import { requestIdOf } from '../request-context.js';
import { toWireDecision } from '../wire/decision-answer.js';
import type { DeciderErrorEnvelope } from '../wire/decider-error-envelope.js';
import { evaluateResponse, runStaticEvaluation } from './routing-rules-static.js';

/** decision-engine splits `decided_gateway` on ':' into name and (optional) id. */
function connectorOf(decidedGateway: string): ConnectorInfo {
  const [name = decidedGateway, ...rest] = decidedGateway.split(':');
  return { gateway_name: name, gateway_id: rest.length > 0 ? rest.join(':') : null };
}

/**
 * The hybrid answer in decision-engine's shape, or the decider envelope to send with HTTP 400 when
 * the dynamic decision was refused with nothing to fall back on. A refusal is logged at info, as
 * /decide-gateway logs it.
 */
function hybridResponse(
  request: FastifyRequest,
  paymentId: string | null | undefined,
  outcome: HybridOutcome,
): Record<string, unknown> | { readonly refused: DeciderErrorEnvelope } {
  const response: Record<string, unknown> = {};
  if (outcome.kind !== 'refused' && outcome.evaluation !== undefined) response['static_routing'] = evaluateResponse(paymentId, outcome.evaluation);
  if (outcome.kind === 'static_only') return { ...response, evaluated_connectors: outcome.connectors };
  const answer = toWireDecision(outcome.decision);
  if (answer.ok) {
    return {
      ...response,
      dynamic_routing: { status: 'success', decision: answer.decided, fallback_connectors: null },
      evaluated_connectors: [connectorOf(answer.decided.decided_gateway)],
    };
  }
  request.log.info({ code: answer.envelope.error_info.code }, 'decision refused');
  if (outcome.kind !== 'fallback') return { refused: answer.envelope };
  return {
    ...response,
    dynamic_routing: { status: 'fallback', decision: null, fallback_connectors: outcome.connectors },
    evaluated_connectors: outcome.connectors,
  };
}

/**
 * POST /routing/hybrid: the static (euclid) evaluation, whose evaluated connectors (or the request's
 * `fallback_output` when it failed) become the candidate list of the dynamic (/decide-gateway)
 * request when that one names none; then the dynamic decision (src/decision/decide-hybrid.ts).
 */
export async function hybridRoutingRoute(app: FastifyInstance, deps: AppDeps): Promise<void> {
  app.post<{ Body: HybridRoutingRequest }>(
    '/routing/hybrid',
    {
      schema: { tags: ['Gateway Decision'], summary: 'Static rule evaluation, then a dynamic decision over its output', body: ref('HybridRoutingRequest') },
      // Two merchant ids (static created_by, dynamic merchantId): the handler checks both.
      config: { flowType: 'routing_hybrid', auth: 'either', merchantFrom: 'resource', keyLimits: { kind: 'payment' } },
    },
    async (request, reply) => {
      const staticRequest = request.body.static_routing_request ?? undefined;
      const dynamicRequest = (request.body.dynamic_routing_request ?? undefined) as DecideGatewayRequest | undefined;
      if (staticRequest !== undefined) assertOwnMerchant(request, staticRequest.created_by);
      if (dynamicRequest !== undefined) assertOwnMerchant(request, dynamicRequest.merchantId);
      const evaluateStatic = (body: typeof staticRequest & object) => runStaticEvaluation(deps, request, body, 'hybrid');
      const outcome = await decideHybrid({ ...deps, evaluateStatic }, { staticRequest, dynamicRequest }, requestIdOf(request));
      const answer = hybridResponse(request, staticRequest?.payment_id, outcome);
      return 'refused' in answer ? reply.code(400).send(answer.refused) : answer;
    },
  );
}
