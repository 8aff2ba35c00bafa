import type { FastifyInstance } from 'fastify';
import { writeSrDimension } from '../../src/decision/inputs/sr-dimension.js';
import type { SrDimensionRequest } from '../../src/generated/schema-types.js';
import type { AppDeps } from '../app-deps.js';
import { ref } from '../http-schemas.js';

/** Config: POST and GET /config-sr-dimension (extra success-rate window dimensions). */
export async function configRoutes(app: FastifyInstance, deps: AppDeps): Promise<void> {
  app.post<{ Body: SrDimensionRequest }>(
    '/config-sr-dimension',
    {
      schema: { tags: ['Config'], summary: 'Configure success-rate window dimensions', body: ref('SrDimensionRequest') },
      config: { flowType: 'config_sr_dimension', auth: 'either', merchantFrom: { body: ['merchant_id'] } },
    },
    async (request, reply) => {
      const { merchant_id: merchantId, paymentInfo } = request.body;
      await writeSrDimension(deps.state, merchantId, paymentInfo);
      // 1.4.x answers with a JSON string body.
      return reply.type('application/json; charset=utf-8').send(JSON.stringify('SR Dimension configuration updated successfully'));
    },
  );

  app.get<{ Params: { merchant_id: string } }>(
    '/config-sr-dimension/:merchant_id',
    {
      schema: {
        tags: ['Config'],
        summary: 'Read the success-rate window dimensions (an empty configuration when none is stored)',
        params: { type: 'object', required: ['merchant_id'], properties: { merchant_id: { type: 'string', minLength: 1, maxLength: 255 } } },
        // The answer has the request's shape: what was stored is what a POST would send.
        response: { 200: ref('SrDimensionRequest') },
      },
      config: { auth: 'either', merchantFrom: { params: 'merchant_id' } },
    },
    async (request) => {
      const { merchant_id: merchantId } = request.params;
      // Like the POST (and decision-engine), no merchant-existence check: a config may precede its merchant.
      const stored = await deps.state.configs.get(merchantId, 'srDimension');
      return { merchant_id: merchantId, paymentInfo: { udfs: stored?.udfs ?? [], fields: stored?.fields ?? null } };
    },
  );
}
