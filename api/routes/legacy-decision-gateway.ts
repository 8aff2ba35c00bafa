import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { DecideGatewayRequest, LegacyDeciderRequest, LegacyDecisionResponse } from '../../src/generated/schema-types.js';
import { loadDecisionInputs } from '../../src/decision/inputs/load-decision-inputs.js';
import { runFilterChain } from '../../src/decision/filters/run-filter-chain.js';
import { fromLegacyRequest } from '../../src/decision/from-legacy-request.js';
import type { AppDeps } from '../app-deps.js';
import { ref } from '../http-schemas.js';
import { assertOwnMerchant } from '../plugins/authentication.js';
import { decideOnWire } from './gateway-decision.js';

type Body = DecideGatewayRequest | LegacyDeciderRequest;

/** The same test as the body schema's `if` (schemas/http/gateway-decision/decision-gateway-request.json). */
function isLegacy(body: Body): body is LegacyDeciderRequest {
  return 'orderReference' in body || 'txnDetail' in body || 'txnCardInfo' in body || 'merchantAccount' in body;
}

/**
 * POST /decision_gateway (Compatibility). Takes decision-engine's real legacy body, Euler's
 * `DomainDeciderRequest`: the merchant's configured gateways (POST /merchant-account/{id}/gateways)
 * go through the legacy filter chain (§3.8), the survivors are scored as `/decide-gateway` scores
 * them (SR v3 windows), and the answer is `{decided_gateway, filter_list, latency}` with
 * `filter_wise_gateways` naming what each filter removed. It also still takes the `/decide-gateway`
 * body, answered exactly as /decide-gateway answers it.
 *
 * Every merchant id a legacy body names (merchantAccount, txnDetail, orderReference) must be the
 * credential's own. A merchant without any configured gateway gets GATEWAY_NOT_FOUND, as upstream
 * does without merchant_gateway_account rows.
 */
export async function legacyDecisionGatewayRoutes(app: FastifyInstance, deps: AppDeps): Promise<void> {
  app.post<{ Body: Body }>(
    '/decision_gateway',
    {
      schema: {
        tags: ['Compatibility'],
        summary: 'Pick a gateway: the legacy Euler body through the filter chain, or the /decide-gateway body',
        body: ref('DecisionGatewayRequest'),
        response: { 200: { anyOf: [ref('LegacyDecisionResponse'), ref('DecidedGateway')] } },
      },
      config: {
        envelope: 'decider',
        deciderParseMessage: 'Error parsing request payload',
        flowType: 'decision_gateway_legacy',
        auth: 'either',
        // The merchant sits at a different place in each body shape; the handler checks it.
        merchantFrom: 'resource',
        keyLimits: { kind: 'payment' },
      },
    },
    async (request: FastifyRequest<{ Body: Body }>, reply: FastifyReply) => {
      const startedAt = performance.now();
      const body = request.body;
      if (!isLegacy(body)) {
        assertOwnMerchant(request, body.merchantId);
        const result = await decideOnWire(deps, request, body, { startedAt });
        return result.ok ? result.decided : reply.code(400).send(result.envelope);
      }

      const legacy = fromLegacyRequest(body);
      for (const merchantId of legacy.namedMerchants) assertOwnMerchant(request, merchantId);
      // The capabilities come in the same concurrent round as the other decision inputs.
      const [inputs, capabilities] = await Promise.all([
        loadDecisionInputs(deps.state, legacy.merchantId),
        deps.state.configs.get(legacy.merchantId, 'gatewayCapabilities'),
      ]);
      const chain = runFilterChain(capabilities ?? [], legacy.enforcedGateways, legacy.txn);
      const result = await decideOnWire(deps, request, legacy.decideRequest(chain.gateways), { startedAt, inputs });
      if (!result.ok) {
        const envelope =
          result.envelope.error_info.code === 'GATEWAY_NOT_FOUND' ? { ...result.envelope, filter_wise_gateways: chain.removed } : result.envelope;
        return reply.code(400).send(envelope);
      }
      const response: LegacyDecisionResponse = {
        decided_gateway: { ...result.decided, filter_wise_gateways: mutable(chain.removed) },
        filter_list: chain.steps.map(([name, gateways]) => [name, [...gateways]]),
        latency: result.decided.latency ?? Math.round(performance.now() - startedAt),
      };
      return response;
    },
  );
}

function mutable(removed: Readonly<Record<string, readonly string[]>>): Record<string, string[]> {
  return Object.fromEntries(Object.entries(removed).map(([name, gateways]) => [name, [...gateways]]));
}
