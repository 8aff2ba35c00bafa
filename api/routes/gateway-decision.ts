import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { DecisionCall } from '../../src/decision/decide-payment.js';
import type { DecideGatewayRequest } from '../../src/generated/schema-types.js';
import type { AppDeps } from '../app-deps.js';
import { ref } from '../http-schemas.js';
import { requestIdOf } from '../request-context.js';
import { toWireDecision, type WireDecision } from '../wire/decision-answer.js';

/**
 * Runs the decision use case for one request and maps its outcome to the 1.4.x wire. A refusal is
 * logged at info (a client's payment, not our failure).
 */
export async function decideOnWire(
  deps: Pick<AppDeps, 'decidePayment'>,
  request: FastifyRequest,
  input: DecideGatewayRequest,
  call: Omit<DecisionCall, 'requestId'>,
): Promise<WireDecision> {
  const answer = toWireDecision(await deps.decidePayment(input, { ...call, requestId: requestIdOf(request) }));
  if (!answer.ok) request.log.info({ code: answer.envelope.error_info.code }, 'decision refused');
  return answer;
}

/**
 * Gateway Decision: POST /decide-gateway (its compatibility twin POST /decision_gateway, which also
 * takes the legacy Euler body, is in legacy-decision-gateway.ts). Answers synchronously from hot
 * state; the decision event is handed to the bus (buffered, never awaited on a broker) for the
 * sr-windows and analytics workers.
 */
export async function gatewayDecisionRoutes(app: FastifyInstance, deps: AppDeps): Promise<void> {
  app.post<{ Body: DecideGatewayRequest }>(
    '/decide-gateway',
    {
      schema: {
        tags: ['Gateway Decision'],
        summary: 'Pick a gateway for a payment',
        body: ref('DecideGatewayRequest'),
        response: { 200: ref('DecidedGateway') },
      },
      config: { envelope: 'decider', flowType: 'decide_gateway', auth: 'either', merchantFrom: { body: ['merchantId'] }, keyLimits: { kind: 'payment' } },
    },
    async (request: FastifyRequest<{ Body: DecideGatewayRequest }>, reply: FastifyReply) => {
      const result = await decideOnWire(deps, request, request.body, { startedAt: performance.now() });
      return result.ok ? result.decided : reply.code(400).send(result.envelope);
    },
  );
}
