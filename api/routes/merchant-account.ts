import type { FastifyInstance } from 'fastify';
import { generateApiKey } from '../../src/auth/api-key.js';
import type { AdminSecretGuard } from '../../src/auth/admin-secret.js';
import { SwitchyardError } from '../../src/errors/switchyard-error.js';
import { unattributedMerchant } from '../../src/generation/publish-llm-calls.js';
import type { DebitRoutingToggle, MerchantAccountCreate } from '../../src/generated/schema-types.js';
import { legacyDeciderInput } from '../../src/decision/inputs/legacy-decider-input.js';
import type { AppDeps } from '../app-deps.js';
import { ref } from '../http-schemas.js';
import { attemptOriginOf, sendAdminSecretThrottled } from '../plugins/authentication.js';
import { merchantAccountGatewayRoutes } from './merchant-account-gateways.js';

const merchantIdParams = {
  type: 'object',
  required: ['merchantId'],
  properties: { merchantId: { type: 'string', minLength: 1, maxLength: 255 } },
} as const;

const merchantNotFound = () => new SwitchyardError('SY_MERCHANT_NOT_FOUND', { message: 'MerchantId not found' });

/** Merchant Account: create (admin secret), read, delete, the debit-routing switch and the gateway capabilities. */
export async function merchantAccountRoutes(app: FastifyInstance, deps: AppDeps & { adminSecret: AdminSecretGuard; adminSecretHeader: string }): Promise<void> {
  app.post<{ Body: MerchantAccountCreate }>(
    '/merchant-account/create',
    {
      schema: { tags: ['Merchant Account'], summary: 'Create a merchant account (admin secret)', body: ref('MerchantAccountCreate') },
      config: { flowType: 'merchant_account_create', auth: 'admin-secret' },
    },
    async (request, reply) => {
      const presented = request.headers[deps.adminSecretHeader];
      const check = await deps.adminSecret.check(typeof presented === 'string' ? presented : undefined, attemptOriginOf(request), request.body.merchant_id);
      if (check.kind === 'throttled') return sendAdminSecretThrottled(request, reply, check.retryAfterMs);
      if (check.kind !== 'ok') {
        throw new SwitchyardError('SY_AUTH_INVALID_ADMIN_SECRET', { message: `Invalid or missing ${deps.adminSecretHeader} header` });
      }
      const body = request.body;
      // Reserved: model calls made for no merchant are recorded under it, and no credential may read them.
      if (body.merchant_id === unattributedMerchant) {
        throw new SwitchyardError('SY_REQUEST_INVALID', { message: `merchant_id ${unattributedMerchant} is reserved` });
      }
      const now = deps.clock.now();
      const created = await deps.state.merchants.create({
        merchantId: body.merchant_id,
        merchantName: null,
        deciderInput: body.gateway_success_rate_based_decider_input ?? null,
        createdAt: now,
      });
      if (created === 'exists') throw new SwitchyardError('SY_MERCHANT_EXISTS', { message: 'Merchant account already exists' });
      const key = generateApiKey();
      await deps.state.apiKeys.create({
        keyId: crypto.randomUUID(),
        merchantId: body.merchant_id,
        keyHash: key.hash,
        keyPrefix: key.prefix,
        description: 'Default API key',
        isActive: true,
        createdAt: now,
      });
      request.log.info({ merchantId: body.merchant_id }, 'merchant account created');
      return {
        message: 'Merchant account created successfully',
        merchant_id: body.merchant_id,
        gateway_success_rate_based_decider_input: body.gateway_success_rate_based_decider_input ?? null,
        api_key: key.raw,
      };
    },
  );

  app.get<{ Params: { merchantId: string } }>(
    '/merchant-account/:merchantId',
    { schema: { tags: ['Merchant Account'], summary: 'Read a merchant account', params: merchantIdParams }, config: { flowType: 'merchant_account_get', auth: 'either', merchantFrom: { params: 'merchantId' } } },
    async (request) => {
      const { merchantId } = request.params;
      const merchant = await deps.state.merchants.get(merchantId);
      if (merchant === undefined) throw merchantNotFound();
      const elimination = await deps.state.configs.get(merchantId, 'elimination');
      return {
        merchant_id: merchantId,
        gateway_success_rate_based_decider_input: elimination === undefined ? (merchant.deciderInput ?? '') : legacyDeciderInput(elimination),
      };
    },
  );

  app.delete<{ Params: { merchantId: string } }>(
    '/merchant-account/:merchantId',
    { schema: { tags: ['Merchant Account'], summary: 'Delete a merchant account', params: merchantIdParams }, config: { flowType: 'merchant_account_delete', auth: 'either', merchantFrom: { params: 'merchantId' } } },
    async (request) => {
      const { merchantId } = request.params;
      // 1.4.x answers 500 for an unknown id; a client mistake is a 404 here.
      if (!(await deps.state.merchants.delete(merchantId))) throw merchantNotFound();
      request.log.info({ merchantId }, 'merchant account deleted');
      return { message: 'Merchant account deleted successfully', merchant_id: merchantId };
    },
  );

  app.get<{ Params: { merchantId: string } }>(
    '/merchant-account/:merchantId/debit-routing',
    { schema: { tags: ['Merchant Account'], summary: 'Is network (debit) routing enabled', params: merchantIdParams }, config: { auth: 'either', merchantFrom: { params: 'merchantId' } } },
    async (request) => {
      const { merchantId } = request.params;
      if ((await deps.state.merchants.get(merchantId)) === undefined) throw merchantNotFound();
      const enabled = (await deps.state.configs.get(merchantId, 'debitRoutingEnabled')) === true;
      return { merchant_id: merchantId, debit_routing_enabled: enabled };
    },
  );

  app.post<{ Params: { merchantId: string }; Body: DebitRoutingToggle }>(
    '/merchant-account/:merchantId/debit-routing',
    { schema: { tags: ['Merchant Account'], summary: 'Enable or disable network (debit) routing', params: merchantIdParams, body: ref('DebitRoutingToggle') }, config: { auth: 'either', merchantFrom: { params: 'merchantId' } } },
    async (request) => {
      const { merchantId } = request.params;
      if ((await deps.state.merchants.get(merchantId)) === undefined) throw merchantNotFound();
      await deps.state.configs.put(merchantId, 'debitRoutingEnabled', request.body.enabled, 'upsert');
      return { merchant_id: merchantId, debit_routing_enabled: request.body.enabled };
    },
  );

  await merchantAccountGatewayRoutes(app, deps);
}
