import type { FastifyInstance } from 'fastify';
import { receiveFeedback } from '../../src/feedback/receive-feedback.js';
import type { UpdateGatewayScoreRequest, UpdateScoreLegacyRequest } from '../../src/generated/schema-types.js';
import type { AppDeps } from '../app-deps.js';
import { ref } from '../http-schemas.js';
import { requestIdOf } from '../request-context.js';
import { deciderError } from '../wire/decider-error-envelope.js';
import { gsmInfoWire } from '../wire/gsm-info.js';
import { decisionFailureEnvelope } from '../wire/decision-failure-envelope.js';

const merchantNotFound = (merchantId: string) => decisionFailureEnvelope({ kind: 'merchant_not_found', message: 'Merchant not found' }, merchantId);

/**
 * Score Feedback: each route maps its body to one reported outcome for receiveFeedback
 * (src/feedback/receive-feedback.ts), which publishes it, and answers at once in its 1.4.x shape.
 */
export async function scoreFeedbackRoutes(app: FastifyInstance, deps: AppDeps): Promise<void> {
  registerUpdateGatewayScore(app, deps);
  registerLegacyUpdateScore(app, deps);
}

function registerUpdateGatewayScore(app: FastifyInstance, deps: AppDeps): void {
  app.post<{ Body: UpdateGatewayScoreRequest }>(
    '/update-gateway-score',
    {
      schema: { tags: ['Score Feedback'], summary: 'Report the outcome of a routed payment', body: ref('UpdateGatewayScoreRequest') },
      config: { envelope: 'decider', flowType: 'update_gateway_score', auth: 'either', merchantFrom: { body: ['merchantId'] }, keyLimits: { kind: 'payment' } },
    },
    async (request, reply) => {
      const body = request.body;
      const published = await receiveFeedback(deps, {
        merchantId: body.merchantId,
        paymentId: body.paymentId,
        gateway: body.gateway,
        status: body.status,
        enforceDynamicRoutingFailure: body.enforceDynamicRoutingFailure === true,
        gatewayLatencyMs: body.txnLatency?.gatewayLatency ?? null,
        requestId: requestIdOf(request),
        source: 'update_gateway_score',
        errorInfo: body.errorInfo ?? null,
      });
      if (published.kind === 'merchant_not_found') return reply.code(400).send(merchantNotFound(body.merchantId));
      // Like 1.4.33: gsm_info only when errorInfo was sent and a status-map rule matched it.
      return {
        message: 'Gateway score updated successfully',
        merchant_id: body.merchantId,
        gateway: body.gateway,
        payment_id: body.paymentId,
        ...(published.gsm === undefined ? {} : { gsm_info: gsmInfoWire(published.gsm) }),
      };
    },
  );
}

function registerLegacyUpdateScore(app: FastifyInstance, deps: AppDeps): void {
  app.post<{ Body: UpdateScoreLegacyRequest }>(
    '/update-score',
    {
      schema: { tags: ['Compatibility'], summary: 'Legacy score feedback (Euler transaction records)', body: ref('UpdateScoreLegacyRequest') },
      config: {
        envelope: 'decider',
        flowType: 'update_score_legacy',
        auth: 'either',
        merchantFrom: { body: ['txn_detail', 'merchantId'] },
        keyLimits: { kind: 'payment' },
      },
    },
    async (request, reply) => {
      const detail = request.body.txn_detail;
      if (detail.gateway.trim() === '') {
        return reply.code(400).send(
          deciderError({
            status: 'Invalid Request',
            errorCode: 'invalid_request_error',
            message: 'Gateway not found',
            infoCode: 'GATEWAY_NOT_FOUND',
            developerMessage: 'txn_detail.gateway is empty',
          }),
        );
      }
      const published = await receiveFeedback(deps, {
        merchantId: detail.merchantId,
        paymentId: detail.txnUuid,
        gateway: detail.gateway,
        status: detail.status.toUpperCase(),
        enforceDynamicRoutingFailure: request.body.enforce_dynaic_routing_failure === true,
        gatewayLatencyMs: request.body.txn_latency?.gatewayLatency ?? null,
        requestId: requestIdOf(request),
        source: 'update_score_legacy',
        errorInfo: request.body.error_info ?? null,
      });
      if (published.kind === 'merchant_not_found') return reply.code(400).send(merchantNotFound(detail.merchantId));
      return reply.type('text/plain; charset=utf-8').send('Success');
    },
  );
}
