import type { FastifyInstance } from 'fastify';
import { SwitchyardError } from '../../src/errors/switchyard-error.js';
import type { GatewayCapabilities, GatewayCapability } from '../../src/generated/schema-types.js';
import type { AppDeps } from '../app-deps.js';
import { ref } from '../http-schemas.js';
import { genericError } from '../wire/generic-error-envelope.js';

const tags = ['Merchant Account'];

/** A merchant configures at most this many gateways (the legacy filter chain walks them all). */
const maxGatewaysPerMerchant = 256;

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

const merchantNotFound = () => new SwitchyardError('SY_MERCHANT_NOT_FOUND', { message: 'MerchantId not found' });

/**
 * The merchant's gateway capabilities (what decision-engine keeps in merchant_gateway_account rows):
 * upsert one gateway, list them, delete one. Read by the legacy POST /decision_gateway filter chain.
 *
 * @remarks One config document per merchant, rewritten on each change: two concurrent upserts of
 * different gateways of one merchant can lose one of them (last write wins).
 */
export async function merchantAccountGatewayRoutes(app: FastifyInstance, deps: AppDeps): Promise<void> {
  const load = async (merchantId: string): Promise<readonly GatewayCapability[]> => {
    const [merchant, configured] = await Promise.all([deps.state.merchants.get(merchantId), deps.state.configs.get(merchantId, 'gatewayCapabilities')]);
    if (merchant === undefined) throw merchantNotFound();
    return configured ?? [];
  };
  const view = (merchantId: string, gateways: readonly GatewayCapability[]): GatewayCapabilities => ({ merchant_id: merchantId, gateways: [...gateways] });

  app.post<{ Params: { merchantId: string }; Body: GatewayCapability }>(
    '/merchant-account/:merchantId/gateways',
    {
      schema: { tags, summary: "Add or replace one gateway's capabilities (legacy /decision_gateway filters)", params: merchantIdParams, body: ref('GatewayCapability'), response: { 200: ref('GatewayCapabilities') } },
      config: { auth: 'either', merchantFrom: { params: 'merchantId' } },
    },
    async (request) => {
      const { merchantId } = request.params;
      const capability = request.body;
      const configured = await load(merchantId);
      const index = configured.findIndex((gateway) => gateway.gateway === capability.gateway);
      if (index === -1 && configured.length >= maxGatewaysPerMerchant) {
        throw new SwitchyardError('SY_REQUEST_INVALID', { message: `A merchant configures at most ${maxGatewaysPerMerchant} gateways` });
      }
      const next = index === -1 ? [...configured, capability] : configured.map((gateway, at) => (at === index ? capability : gateway));
      await deps.state.configs.put(merchantId, 'gatewayCapabilities', next, 'upsert');
      request.log.info({ merchantId, gateway: capability.gateway, replaced: index !== -1 }, 'gateway capabilities written');
      return view(merchantId, next);
    },
  );

  app.get<{ Params: { merchantId: string } }>(
    '/merchant-account/:merchantId/gateways',
    {
      schema: { tags, summary: "The merchant's configured gateways and their capabilities", params: merchantIdParams, response: { 200: ref('GatewayCapabilities') } },
      config: { auth: 'either', merchantFrom: { params: 'merchantId' } },
    },
    async (request) => view(request.params.merchantId, await load(request.params.merchantId)),
  );

  app.delete<{ Params: { merchantId: string; gateway: string } }>(
    '/merchant-account/:merchantId/gateways/:gateway',
    {
      schema: { tags, summary: "Remove one gateway's capabilities", params: gatewayParams },
      config: { auth: 'either', merchantFrom: { params: 'merchantId' } },
    },
    async (request, reply) => {
      const { merchantId, gateway } = request.params;
      const configured = await load(merchantId);
      const next = configured.filter((item) => item.gateway !== gateway);
      if (next.length === configured.length) return reply.code(404).send(genericError('TE_04', 'Gateway configuration not found'));
      await (next.length === 0 ? deps.state.configs.delete(merchantId, 'gatewayCapabilities') : deps.state.configs.put(merchantId, 'gatewayCapabilities', next, 'upsert'));
      request.log.info({ merchantId, gateway }, 'gateway capabilities deleted');
      return { message: 'Gateway configuration deleted successfully', merchant_id: merchantId, gateway };
    },
  );
}
