import type { FastifyInstance } from 'fastify';
import { SwitchyardError } from '../../src/errors/switchyard-error.js';
import { resetGatewayScores } from '../../src/feedback/reset-gateway-scores.js';
import type { GatewayScoreReset, GatewayScoreResetRequest } from '../../src/generated/schema-types.js';
import type { AppDeps } from '../app-deps.js';
import { ref } from '../http-schemas.js';

/**
 * POST /gateway-score/reset (decision-engine's current line): flushes a merchant's learned gateway
 * scores and autopilot's sub-level overrides, keeping human ones (src/feedback/reset-gateway-scores.ts).
 */
export async function gatewayScoreRoutes(app: FastifyInstance, deps: Pick<AppDeps, 'state'>): Promise<void> {
  app.post<{ Body: GatewayScoreResetRequest | undefined }>(
    '/gateway-score/reset',
    {
      schema: {
        tags: ['Score Feedback'],
        summary: "Reset a merchant's learned gateway scores",
        body: ref('GatewayScoreResetRequest'),
        response: { 200: ref('GatewayScoreReset') },
      },
      config: { flowType: 'gateway_score_reset', auth: 'either', merchantFrom: { body: ['merchant_id'] } },
    },
    async (request): Promise<GatewayScoreReset> => {
      const merchantId = request.body?.merchant_id?.trim() ?? '';
      // Not a schema `required`: a missing field would be a 422 there; decision-engine answers 400.
      if (merchantId === '') throw new SwitchyardError('SY_REQUEST_INVALID', { message: 'Missing required field: merchant_id' });
      const reset = await resetGatewayScores(deps.state, merchantId);
      request.log.info({ merchantId, deletedKeys: reset.deletedKeys, removedOverrides: reset.removedOverrides }, 'gateway scores reset');
      return { merchant_id: merchantId, deleted_keys: reset.deletedKeys, removed_overrides: reset.removedOverrides };
    },
  );
}
