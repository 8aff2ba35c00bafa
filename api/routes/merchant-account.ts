import type { FastifyInstance } from 'fastify';
import type { AdminSecretGuard } from '../../src/auth/admin-secret.js';
import { createMerchantAccount } from '../../src/auth/create-merchant-account.js';
import { readDebitRouting, readDeciderInput, merchantNotFound, writeDebitRouting } from '../../src/decision/inputs/merchant-settings.js';
import { SwitchyardError } from '../../src/errors/switchyard-error.js';
import type { DebitRoutingToggle, MerchantAccountCreate } from '../../src/generated/schema-types.js';
import type { AppDeps } from '../app-deps.js';
import { ref } from '../http-schemas.js';
import { attemptOriginOf, sendAdminSecretThrottled } from '../plugins/authentication.js';
import { merchantAccountGatewayRoutes } from './merchant-account-gateways.js';
import { merchantFeatureRoutes } from './merchant-features.js';
import { seedCostRoutes } from './seed-costs.js';
import { reportingCurrencyRoutes } from './reporting-currency.js';

type MerchantAccountRouteDeps = AppDeps & { adminSecret: AdminSecretGuard; adminSecretHeader: string };
type MerchantParams = { Params: { merchantId: string } };

const tags = ['Merchant Account'];

const merchantIdParams = {
  type: 'object',
  required: ['merchantId'],
  properties: { merchantId: { type: 'string', minLength: 1, maxLength: 255 } },
} as const;

function registerCreateMerchantAccount(app: FastifyInstance, deps: MerchantAccountRouteDeps): void {
  app.post<{ Body: MerchantAccountCreate }>(
    '/merchant-account/create',
    {
      schema: { tags, summary: 'Create a merchant account (admin secret)', body: ref('MerchantAccountCreate') },
      config: { flowType: 'merchant_account_create', auth: 'admin-secret' },
    },
    async (request, reply) => {
      const presented = request.headers[deps.adminSecretHeader];
      const check = await deps.adminSecret.check(typeof presented === 'string' ? presented : undefined, attemptOriginOf(request), request.body.merchant_id);
      if (check.kind === 'throttled') return sendAdminSecretThrottled(request, reply, check.retryAfterMs);
      if (check.kind !== 'ok') {
        throw new SwitchyardError('SY_AUTH_INVALID_ADMIN_SECRET', { message: `Invalid or missing ${deps.adminSecretHeader} header` });
      }
      const created = await createMerchantAccount(
        { state: deps.state, now: () => deps.clock.now() },
        { merchantId: request.body.merchant_id, deciderInput: request.body.gateway_success_rate_based_decider_input ?? null },
      );
      request.log.info({ merchantId: created.merchantId }, 'merchant account created');
      return {
        message: 'Merchant account created successfully',
        merchant_id: created.merchantId,
        gateway_success_rate_based_decider_input: created.deciderInput,
        api_key: created.rawApiKey,
      };
    },
  );
}

function registerReadMerchantAccount(app: FastifyInstance, deps: MerchantAccountRouteDeps): void {
  app.get<MerchantParams>(
    '/merchant-account/:merchantId',
    {
      schema: { tags, summary: 'Read a merchant account', params: merchantIdParams },
      config: { flowType: 'merchant_account_get', auth: 'either', merchantFrom: { params: 'merchantId' } },
    },
    async (request) => {
      const { merchantId } = request.params;
      return { merchant_id: merchantId, gateway_success_rate_based_decider_input: await readDeciderInput(deps.state, merchantId) };
    },
  );
}

function registerDeleteMerchantAccount(app: FastifyInstance, deps: MerchantAccountRouteDeps): void {
  app.delete<MerchantParams>(
    '/merchant-account/:merchantId',
    {
      schema: { tags, summary: 'Delete a merchant account', params: merchantIdParams },
      config: { flowType: 'merchant_account_delete', auth: 'either', merchantFrom: { params: 'merchantId' } },
    },
    async (request) => {
      const { merchantId } = request.params;
      // 1.4.x answers 500 for an unknown id; a client mistake is a 404 here.
      if (!(await deps.state.merchants.delete(merchantId))) throw merchantNotFound();
      request.log.info({ merchantId }, 'merchant account deleted');
      return { message: 'Merchant account deleted successfully', merchant_id: merchantId };
    },
  );
}

function registerDebitRouting(app: FastifyInstance, deps: MerchantAccountRouteDeps): void {
  app.get<MerchantParams>(
    '/merchant-account/:merchantId/debit-routing',
    {
      schema: { tags, summary: 'Is network (debit) routing enabled', params: merchantIdParams },
      config: { auth: 'either', merchantFrom: { params: 'merchantId' } },
    },
    async (request) => {
      const { merchantId } = request.params;
      return { merchant_id: merchantId, debit_routing_enabled: await readDebitRouting(deps.state, merchantId) };
    },
  );

  app.post<MerchantParams & { Body: DebitRoutingToggle }>(
    '/merchant-account/:merchantId/debit-routing',
    {
      schema: { tags, summary: 'Enable or disable network (debit) routing', params: merchantIdParams, body: ref('DebitRoutingToggle') },
      config: { auth: 'either', merchantFrom: { params: 'merchantId' } },
    },
    async (request) => {
      const { merchantId } = request.params;
      await writeDebitRouting(deps.state, merchantId, request.body.enabled);
      return { merchant_id: merchantId, debit_routing_enabled: request.body.enabled };
    },
  );
}

/** Merchant Account: create (admin secret), read, delete, the debit-routing switch, the gateway capabilities, the feature flags, the seed cost table and the reporting currency. */
export async function merchantAccountRoutes(app: FastifyInstance, deps: MerchantAccountRouteDeps): Promise<void> {
  registerCreateMerchantAccount(app, deps);
  registerReadMerchantAccount(app, deps);
  registerDeleteMerchantAccount(app, deps);
  registerDebitRouting(app, deps);
  await merchantAccountGatewayRoutes(app, deps);
  await merchantFeatureRoutes(app, deps);
  await seedCostRoutes(app, deps);
  await reportingCurrencyRoutes(app, deps);
}
