import type { FastifyInstance } from 'fastify';
import { gatewayCapabilitiesOf, removeGatewayCapability, upsertGatewayCapability } from '../../src/decision/inputs/gateway-capabilities.js';
import type { GatewayCapabilities, GatewayCapability } from '../../src/generated/schema-types.js';
import type { AppDeps } from '../app-deps.js';
import { ref } from '../http-schemas.js';
import { genericError } from '../wire/generic-error-envelope.js';

const tags = ['Merchant Account'];

const merchantIdParams = {
  type: 'object',
  required: ['merchantId'],
  properties: { merchantId: { type: 'string', minLength: 1, maxLength: 255 } },
} as const;

const gatewayParams = {
  type: 'object',
  required: ['merchantId', 'gateway'],
  properties: { merchantId: { type: 'string', minLength: 1, maxLength: 255 }, gateway: { type: 'string', minLength: 1, maxLength: 64 } },
} as const;

const view = (merchantId: string, gateways: readonly GatewayCapability[]): GatewayCapabilities => ({ merchant_id: merchantId, gateways: [...gateways] });

/**
 * The merchant's gateway capabilities (what decision-engine keeps in merchant_gateway_account rows):
 * upsert one gateway, list them, delete one (src/decision/inputs/gateway-capabilities.ts). Read by
 * the legacy POST /decision_gateway filter chain.
 */
export async function merchantAccountGatewayRoutes(app: FastifyInstance, deps: AppDeps): Promise<void> {
  app.post<{ Params: { merchantId: string }; Body: GatewayCapability }>(
    '/merchant-account/:merchantId/gateways',
    {
      schema: {
        tags,
        summary: "Add or replace one gateway's capabilities (legacy /decision_gateway filters)",
        params: merchantIdParams,
        body: ref('GatewayCapability'),
        response: { 200: ref('GatewayCapabilities') },
      },
      config: { auth: 'either', merchantFrom: { params: 'merchantId' } },
    },
    async (request) => {
      const { merchantId } = request.params;
      const { gateways, replaced } = await upsertGatewayCapability(deps.state, merchantId, request.body);
      request.log.info({ merchantId, gateway: request.body.gateway, replaced }, 'gateway capabilities written');
      return view(merchantId, gateways);
    },
  );

  app.get<{ Params: { merchantId: string } }>(
    '/merchant-account/:merchantId/gateways',
    {
      schema: {
        tags,
        summary: "The merchant's configured gateways and their capabilities",
        params: merchantIdParams,
        response: { 200: ref('GatewayCapabilities') },
      },
      config: { auth: 'either', merchantFrom: { params: 'merchantId' } },
    },
    async (request) => view(request.params.merchantId, await gatewayCapabilitiesOf(deps.state, request.params.merchantId)),
  );

  app.delete<{ Params: { merchantId: string; gateway: string } }>(
    '/merchant-account/:merchantId/gateways/:gateway',
    {
      schema: { tags, summary: "Remove one gateway's capabilities", params: gatewayParams },
      config: { auth: 'either', merchantFrom: { params: 'merchantId' } },
    },
    async (request, reply) => {
      const { merchantId, gateway } = request.params;
      if ((await removeGatewayCapability(deps.state, merchantId, gateway)) === 'missing')
        return reply.code(404).send(genericError('TE_04', 'Gateway configuration not found'));
      request.log.info({ merchantId, gateway }, 'gateway capabilities deleted');
      return { message: 'Gateway configuration deleted successfully', merchant_id: merchantId, gateway };
    },
  );
}
