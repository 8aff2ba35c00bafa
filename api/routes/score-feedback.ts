import type { FastifyInstance } from 'fastify';
import { createEvent } from '../../src/events/event-envelope.js';
import { outcomeOf } from '../../src/feedback/classify-status.js';
import type { UpdateGatewayScoreRequest, UpdateScoreLegacyRequest } from '../../src/generated/schema-types.js';
import type { AppDeps } from '../app-deps.js';
import { ref } from '../http-schemas.js';
import { requestIdOf } from '../request-context.js';
import { deciderError } from '../wire/decider-error-envelope.js';
import { decisionFailureEnvelope } from '../wire/decision-failure-envelope.js';

const merchantNotFound = (merchantId: string) => decisionFailureEnvelope({ kind: 'merchant_not_found', message: 'Merchant not found' }, merchantId);

/**
 * Score Feedback: classify, publish a `feedback.received` event and answer at once (1.4.14+
 * behaviour). The sr-windows worker applies it to the windows, idempotently.
 */
export async function scoreFeedbackRoutes(app: FastifyInstance, deps: AppDeps): Promise<void> {
  app.post<{ Body: UpdateGatewayScoreRequest }>(
    '/update-gateway-score',
    {
      schema: { tags: ['Score Feedback'], summary: 'Report the outcome of a routed payment', body: ref('UpdateGatewayScoreRequest') },
      config: { envelope: 'decider', flowType: 'update_gateway_score', auth: 'either', merchantFrom: { body: ['merchantId'] }, keyLimits: { kind: 'payment' } },
    },
    async (request, reply) => {
      const body = request.body;
      if ((await deps.state.merchants.get(body.merchantId)) === undefined) return reply.code(400).send(merchantNotFound(body.merchantId));
      await deps.bus.publish([
        createEvent('feedback.received', body.merchantId, {
          paymentId: body.paymentId,
          gateway: body.gateway,
          status: body.status,
          outcome: outcomeOf(body.status),
          enforceDynamicRoutingFailure: body.enforceDynamicRoutingFailure === true,
          gatewayLatencyMs: body.txnLatency?.gatewayLatency ?? null,
          requestId: requestIdOf(request),
          source: 'update_gateway_score',
        }, deps.clock.now()),
      ]);
      return { message: 'Gateway score updated successfully', merchant_id: body.merchantId, gateway: body.gateway, payment_id: body.paymentId };
    },
  );

  app.post<{ Body: UpdateScoreLegacyRequest }>(
    '/update-score',
    {
      schema: { tags: ['Compatibility'], summary: 'Legacy score feedback (Euler transaction records)', body: ref('UpdateScoreLegacyRequest') },
      config: { envelope: 'decider', flowType: 'update_score_legacy', auth: 'either', merchantFrom: { body: ['txn_detail', 'merchantId'] }, keyLimits: { kind: 'payment' } },
    },
    async (request, reply) => {
      const detail = request.body.txn_detail;
      if (detail.gateway.trim() === '') {
        return reply.code(400).send(deciderError({ status: 'Invalid Request', errorCode: 'invalid_request_error', message: 'Gateway not found', infoCode: 'GATEWAY_NOT_FOUND', developerMessage: 'txn_detail.gateway is empty' }));
      }
      if ((await deps.state.merchants.get(detail.merchantId)) === undefined) return reply.code(400).send(merchantNotFound(detail.merchantId));
      const status = detail.status.toUpperCase();
      await deps.bus.publish([
        createEvent('feedback.received', detail.merchantId, {
          paymentId: detail.txnUuid,
          gateway: detail.gateway,
          status,
          outcome: outcomeOf(status),
          enforceDynamicRoutingFailure: request.body.enforce_dynaic_routing_failure === true,
          gatewayLatencyMs: request.body.txn_latency?.gatewayLatency ?? null,
          requestId: requestIdOf(request),
          source: 'update_score_legacy',
        }, deps.clock.now()),
      ]);
      return reply.type('text/plain; charset=utf-8').send('Success');
    },
  );
}
