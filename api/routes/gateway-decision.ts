import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { createEvent } from '../../src/events/event-envelope.js';
import type { DecideGatewayRequest } from '../../src/generated/schema-types.js';
import { loadDecisionInputs } from '../../src/merchants/load-decision-inputs.js';
import { decideGateway } from '../../src/routing/decide-gateway.js';
import type { AppDeps } from '../app-deps.js';
import { ref } from '../http-schemas.js';
import { requestIdOf } from '../request-context.js';
import { decisionFailureEnvelope } from '../wire/decision-failure-envelope.js';
import { toDecidedGateway } from '../wire/to-decided-gateway.js';

/**
 * Gateway Decision: POST /decide-gateway and its compatibility twin POST /decision_gateway.
 * Answers synchronously from hot state; the decision event is handed to the bus (buffered, never
 * awaited on a broker) for the sr-windows and analytics workers.
 */
export async function gatewayDecisionRoutes(app: FastifyInstance, deps: AppDeps): Promise<void> {
  const decide = async (request: FastifyRequest<{ Body: DecideGatewayRequest }>, reply: FastifyReply) => {
    const startedAt = performance.now();
    const body = request.body;
    const requestId = requestIdOf(request);
    const inputs = await loadDecisionInputs(deps.state, body.merchantId);
    const outcome = await decideGateway(body, inputs, { scores: deps.state.scores, random: deps.random, clock: deps.clock, defaults: deps.routingDefaults });
    const latencyMs = Math.round(performance.now() - startedAt);

    if (!outcome.ok) {
      await deps.bus.publish([
        createEvent('decision.failed', body.merchantId, {
          paymentId: body.paymentInfo.paymentId,
          requestId,
          errorCode: outcome.failure.kind,
          errorMessage: outcome.failure.message,
          stage: 'request_failed',
        }, deps.clock.now()),
      ]);
      const envelope = decisionFailureEnvelope(outcome.failure, body.merchantId);
      request.log.info({ code: envelope.error_info.code }, 'decision refused');
      return reply.code(400).send(envelope);
    }

    const decision = outcome.decision;
    await deps.bus.publish([
      createEvent('decision.created', body.merchantId, {
        paymentId: body.paymentInfo.paymentId,
        requestId,
        gateway: decision.decidedGateway,
        routingApproach: decision.routingApproach,
        gatewayPriorityMap: decision.gatewayPriorityMap === null ? null : { ...decision.gatewayPriorityMap },
        rankingAlgorithm: body.rankingAlgorithm ?? null,
        eliminationEnabled: decision.eliminationEnabled,
        latencyMs,
        payment: decision.payment,
        windowDimension: decision.windowDimension,
        eliminationDimension: decision.eliminationDimension,
      }, decision.decidedAt),
    ]);
    // 1.4.x reports no latency for network-only decisions.
    return toDecidedGateway(decision, body.rankingAlgorithm === 'NTW_BASED_ROUTING' ? null : latencyMs);
  };

  for (const url of ['/decide-gateway', '/decision_gateway']) {
    app.post<{ Body: DecideGatewayRequest }>(
      url,
      {
        schema: {
          tags: [url === '/decide-gateway' ? 'Gateway Decision' : 'Compatibility'],
          summary: 'Pick a gateway for a payment',
          body: ref('DecideGatewayRequest'),
          response: { 200: ref('DecidedGateway') },
        },
        config: { envelope: 'decider', flowType: url === '/decide-gateway' ? 'decide_gateway' : 'decision_gateway_legacy', auth: 'either', merchantFrom: { body: ['merchantId'] } },
      },
      decide,
    );
  }
}
