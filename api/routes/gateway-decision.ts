import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { createEvent } from '../../src/events/event-envelope.js';
import type { DecidedGateway, DecideGatewayRequest } from '../../src/generated/schema-types.js';
import { loadDecisionInputs } from '../../src/decision/inputs/load-decision-inputs.js';
import { decideGateway } from '../../src/decision/decide-gateway.js';
import { applyActiveRule } from '../../src/routing-rules/apply-active-rule.js';
import type { AppDeps } from '../app-deps.js';
import { ref } from '../http-schemas.js';
import { requestIdOf } from '../request-context.js';
import type { DeciderErrorEnvelope } from '../wire/decider-error-envelope.js';
import { decisionFailureEnvelope } from '../wire/decision-failure-envelope.js';
import { toDecidedGateway } from '../wire/to-decided-gateway.js';

/** A decision in 1.4.x wire form: the DecidedGateway, or the decider envelope to send with HTTP 400. */
export type WireDecision =
  | { readonly ok: true; readonly decided: DecidedGateway }
  | { readonly ok: false; readonly envelope: DeciderErrorEnvelope };

/**
 * The /decide-gateway pipeline behind every decision route: loads the merchant's inputs, applies
 * its active routing rule, decides, publishes `decision.created` / `decision.failed` (what feedback
 * and analytics read) and answers in wire form. `startedAt` is the handler's start
 * (`performance.now()`), so the latency covers whatever the caller did first (e.g. legacy filters).
 */
export async function decideAndPublish(
  deps: AppDeps,
  request: FastifyRequest,
  input: DecideGatewayRequest,
  startedAt: number,
  preloaded?: Awaited<ReturnType<typeof loadDecisionInputs>>,
): Promise<WireDecision> {
  const requestId = requestIdOf(request);
  const inputs = preloaded ?? (await loadDecisionInputs(deps.state, input.merchantId));
  // The merchant's active routing rule narrows and orders the candidates (synchronous; a no-op
  // without one). `body` is the request as decided from here on.
  const applied = applyActiveRule(input, inputs.activeRules ?? [], deps.random);
  const body = applied.request;
  const ruleEvents = applied.event === undefined
    ? []
    : [createEvent('rule.evaluated', body.merchantId, { ...applied.event, source: 'decide_gateway', requestId, latencyMs: performance.now() - startedAt }, deps.clock.now())];
  const outcome = await decideGateway(body, applied.rule === undefined ? inputs : { ...inputs, rule: applied.rule }, { scores: deps.state.scores, random: deps.random, clock: deps.clock, defaults: deps.routingDefaults });
  const latencyMs = Math.round(performance.now() - startedAt);

  if (!outcome.ok) {
    await deps.bus.publish([
      ...ruleEvents,
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
    return { ok: false, envelope };
  }

  const decision = outcome.decision;
  await deps.bus.publish([
    ...ruleEvents,
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
  return { ok: true, decided: toDecidedGateway(decision, body.rankingAlgorithm === 'NTW_BASED_ROUTING' ? null : latencyMs) };
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
      const result = await decideAndPublish(deps, request, request.body, performance.now());
      return result.ok ? result.decided : reply.code(400).send(result.envelope);
    },
  );
}
