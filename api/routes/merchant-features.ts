import type { FastifyInstance } from 'fastify';
import { readFeatureList, toggleFeature } from '../../src/decision/features/feature-settings.js';
import type { MerchantFeatureToggle, MerchantFeatures } from '../../src/generated/schema-types.js';
import type { AppDeps } from '../app-deps.js';
import { ref } from '../http-schemas.js';

const tags = ['Merchant Account'];

const merchantIdParams = {
  type: 'object',
  required: ['merchantId'],
  properties: { merchantId: { type: 'string', minLength: 1, maxLength: 255 } },
} as const;

const featureParams = {
  type: 'object',
  required: ['merchantId', 'feature'],
  properties: { merchantId: { type: 'string', minLength: 1, maxLength: 255 }, feature: { type: 'string', minLength: 1, maxLength: 64 } },
} as const;

/**
 * Merchant feature flags (decision-engine's current line): list every known flag, toggle one by its
 * slug. The toggle answers the whole list re-read after the write (src/decision/features/).
 */
export async function merchantFeatureRoutes(app: FastifyInstance, deps: Pick<AppDeps, 'state'>): Promise<void> {
  app.get<{ Params: { merchantId: string } }>(
    '/merchant-account/:merchantId/features',
    {
      schema: { tags, summary: "The merchant's feature flags", params: merchantIdParams, response: { 200: ref('MerchantFeatures') } },
      config: { flowType: 'merchant_account_features_get', auth: 'either', merchantFrom: { params: 'merchantId' } },
    },
    async (request): Promise<MerchantFeatures> => {
      const { merchantId } = request.params;
      return { merchant_id: merchantId, features: await readFeatureList(deps.state, merchantId) };
    },
  );

  app.post<{ Params: { merchantId: string; feature: string }; Body: MerchantFeatureToggle }>(
    '/merchant-account/:merchantId/features/:feature',
    {
      schema: {
        tags,
        summary: 'Turn one feature flag on or off (answers every flag, re-read)',
        params: featureParams,
        body: ref('MerchantFeatureToggle'),
        response: { 200: ref('MerchantFeatures') },
      },
      config: { flowType: 'merchant_account_features_update', auth: 'either', merchantFrom: { params: 'merchantId' } },
    },
    async (request): Promise<MerchantFeatures> => {
      const { merchantId, feature } = request.params;
      const features = await toggleFeature(deps.state, merchantId, feature, request.body.enabled);
      request.log.info({ merchantId, feature, enabled: request.body.enabled }, 'merchant feature toggled');
      return { merchant_id: merchantId, features };
    },
  );
}
