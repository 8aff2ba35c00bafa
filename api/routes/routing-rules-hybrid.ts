import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { SwitchyardError } from '../../src/errors/switchyard-error.js';
import type { DecideGatewayRequest, HybridRoutingRequest } from '../../src/generated/schema-types.js';
import { loadDecisionInputs } from '../../src/decision/inputs/load-decision-inputs.js';
import type { ConnectorInfo } from '../../src/routing-rules/index.js';
import type { AppDeps } from '../app-deps.js';
import { ref } from '../http-schemas.js';
import { assertOwnMerchant } from '../plugins/authentication.js';
import type { WireDecision } from '../wire/decision-answer.js';
import { decideOnWire } from './gateway-decision.js';
import { evaluateResponse, runStaticEvaluation } from './routing-rules-static.js';

/** decision-engine splits `decided_gateway` on ':' into name and (optional) id. */
function connectorOf(decidedGateway: string): ConnectorInfo {
  const [name = decidedGateway, ...rest] = decidedGateway.split(':');
  return { gateway_name: name, gateway_id: rest.length > 0 ? rest.join(':') : null };
}

/**
 * POST /routing/hybrid: the static (euclid) evaluation, whose evaluated connectors (or the request's
 * `fallback_output` when it failed) become the candidate list of the dynamic (/decide-gateway)
 * request when that one names none; then the dynamic decision.
 */
export async function hybridRoutingRoute(app: FastifyInstance, deps: AppDeps): Promise<void> {
  app.post<{ Body: HybridRoutingRequest }>(
    '/routing/hybrid',
    {
      schema: { tags: ['Gateway Decision'], summary: 'Static rule evaluation, then a dynamic decision over its output', body: ref('HybridRoutingRequest') },
      // Two merchant ids (static created_by, dynamic merchantId): the handler checks both.
      config: { flowType: 'routing_hybrid', auth: 'either', merchantFrom: 'resource', keyLimits: { kind: 'payment' } },
    },
    async (request: FastifyRequest<{ Body: HybridRoutingRequest }>, reply: FastifyReply) => {
      const staticRequest = request.body.static_routing_request ?? undefined;
      const dynamicRequest = (request.body.dynamic_routing_request ?? undefined) as DecideGatewayRequest | undefined;
      if (staticRequest !== undefined) assertOwnMerchant(request, staticRequest.created_by);
      if (dynamicRequest !== undefined) assertOwnMerchant(request, dynamicRequest.merchantId);
      if (staticRequest === undefined && dynamicRequest === undefined) {
        throw new SwitchyardError('SY_ROUTING_RULE_REJECTED', {
          message: 'Invalid request received : At least one of static_routing_request or dynamic_routing_request must be provided.',
        });
      }

      const response: Record<string, unknown> = {};
      let staticConnectors: readonly ConnectorInfo[] | undefined;
      let ruleName: string | undefined;
      if (staticRequest !== undefined) {
        const result = await runStaticEvaluation(deps, request, staticRequest, 'hybrid');
        if (result.ok) {
          response['static_routing'] = evaluateResponse(staticRequest.payment_id, result.evaluation);
          staticConnectors = result.evaluation.evaluatedOutput;
          ruleName = result.evaluation.ruleName ?? result.record.name;
        } else if (staticRequest.fallback_output && staticRequest.fallback_output.length > 0) {
          staticConnectors = staticRequest.fallback_output.map((connector) => ({ gateway_name: connector.gateway_name, gateway_id: connector.gateway_id ?? null }));
        } else if (dynamicRequest === undefined) {
          throw result.error;
        }
      }

      if (dynamicRequest === undefined) {
        response['evaluated_connectors'] = staticConnectors ?? [];
        return response;
      }

      const startedAt = performance.now();
      const candidates = dynamicRequest.eligibleGatewayList;
      const narrowed: DecideGatewayRequest =
        (candidates === undefined || candidates === null || candidates.length === 0) && staticConnectors !== undefined
          ? { ...dynamicRequest, eligibleGatewayList: [...new Set(staticConnectors.map((connector) => connector.gateway_name))] }
          : dynamicRequest;
      let result: WireDecision;
      if (staticRequest === undefined) {
        // Dynamic only: exactly /decide-gateway, the merchant's active rule included.
        result = await decideOnWire(deps, request, dynamicRequest, { startedAt });
      } else {
        // The static half already evaluated the active rule; it is not applied a second time. When
        // its output supplied the candidates, it is the decision's priority logic.
        const loaded = await loadDecisionInputs(deps.state, narrowed.merchantId);
        const inputs = narrowed !== dynamicRequest && ruleName !== undefined
          ? { ...loaded, activeRules: [], rule: { name: ruleName, gateways: narrowed.eligibleGatewayList ?? [] } }
          : { ...loaded, activeRules: [] };
        result = await decideOnWire(deps, request, narrowed, { startedAt, inputs });
      }

      if (!result.ok) {
        if (staticConnectors === undefined || staticConnectors.length === 0) return reply.code(400).send(result.envelope);
        response['dynamic_routing'] = { status: 'fallback', decision: null, fallback_connectors: staticConnectors };
        response['evaluated_connectors'] = staticConnectors;
        return response;
      }
      response['dynamic_routing'] = { status: 'success', decision: result.decided, fallback_connectors: null };
      response['evaluated_connectors'] = [connectorOf(result.decided.decided_gateway)];
      return response;
    },
  );
}
