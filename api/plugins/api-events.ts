import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { createEvent } from '../../src/events/event-envelope.js';
import type { ApiRequestedV1 } from '../../src/generated/schema-types.js';
import type { EventBus } from '../../src/ports/event-bus.js';
import type { Clock } from '../../src/time/clock.js';
import { routeConfigOf } from '../route-config.js';

declare module 'fastify' {
  interface FastifyContextConfig {
    /** Set on routes whose calls become `api.requested` events (decision-engine's classified flows). */
    flowType?: string;
  }
}

const apiFlowOf = (flowType: string): ApiRequestedV1['apiFlow'] => {
  if (flowType.startsWith('merchant_account')) return 'merchant_account';
  if (flowType.startsWith('rule_config') || flowType.startsWith('routing_') || flowType === 'config_sr_dimension') return 'rule_based_routing';
  if (flowType.startsWith('analytics')) return 'analytics';
  return 'dynamic_routing';
};

type Body = Record<string, unknown> | undefined;

/** The merchant and payment a request is about, from whichever body shape the route takes. */
function subjectOf(request: FastifyRequest): { merchantId: string; paymentId: string | null } {
  const body = (typeof request.body === 'object' && request.body !== null ? request.body : undefined) as Body;
  const params = request.params as Record<string, string> | undefined;
  // txn_detail: legacy /update-score; txnDetail and merchantAccount: legacy /decision_gateway.
  const detail = (body?.['txn_detail'] ?? body?.['txnDetail']) as Body;
  const account = body?.['merchantAccount'] as Body;
  const paymentInfo = body?.['paymentInfo'] as Body;
  const merchantId = body?.['merchantId'] ?? body?.['merchant_id'] ?? account?.['merchantId'] ?? detail?.['merchantId'] ?? params?.['merchantId'] ?? '';
  const paymentId = paymentInfo?.['paymentId'] ?? body?.['paymentId'] ?? detail?.['txnUuid'] ?? null;
  return { merchantId: typeof merchantId === 'string' ? merchantId : '', paymentId: typeof paymentId === 'string' ? paymentId : null };
}

/** Error code and message of a rejected call, from whichever envelope the route answered with. */
function errorOf(payload: unknown): { code: string | null; message: string | null } {
  if (typeof payload !== 'string' || !payload.startsWith('{'))
    return { code: null, message: typeof payload === 'string' && payload !== '' ? payload.slice(0, 512) : null };
  try {
    const body = JSON.parse(payload) as Record<string, unknown>;
    const info = body['error_info'] as Record<string, unknown> | undefined;
    const code = info?.['code'] ?? body['code'] ?? null;
    const message = body['error_message'] ?? body['message'] ?? null;
    return { code: typeof code === 'string' ? code : null, message: typeof message === 'string' ? message : null };
  } catch (error) {
    return { code: null, message: error instanceof Error ? `unparseable error body: ${error.message}` : null };
  }
}

/**
 * Publishes one `api.requested` event per call of a classified route (after the response is sent,
 * so it never adds latency). These feed /analytics/log-summaries, overview and payment-audit.
 */
export function registerApiEvents(app: FastifyInstance, deps: { bus: EventBus; clock: Clock }): void {
  const errorPayloads = new WeakMap<FastifyRequest, unknown>();
  // Both hooks are synchronous (done-style): every request passes them, and most have nothing to do.
  app.addHook('onSend', (request: FastifyRequest, reply: FastifyReply, payload: unknown, done: (error: null, payload: unknown) => void) => {
    if (reply.statusCode >= 400 && routeConfigOf(request).flowType !== undefined) errorPayloads.set(request, payload);
    done(null, payload);
  });
  app.addHook('onResponse', (request, reply, done) => {
    const flowType = routeConfigOf(request).flowType;
    if (flowType !== undefined) publishApiRequested(request, reply, flowType, errorPayloads, deps);
    done();
  });
}

/** Publishes the call's `api.requested` event; a failed publish is logged (the answer is already sent). */
function publishApiRequested(
  request: FastifyRequest,
  reply: FastifyReply,
  flowType: string,
  errorPayloads: WeakMap<FastifyRequest, unknown>,
  deps: { bus: EventBus; clock: Clock },
): void {
  const { merchantId, paymentId } = subjectOf(request);
  const failed = reply.statusCode >= 400 ? errorOf(errorPayloads.get(request)) : { code: null, message: null };
  const userAgent = request.headers['user-agent'];
  const logFailure = (error: unknown) => request.log.error({ err: error, flowType }, 'api event not published');
  try {
    deps.bus
      .publish([
        createEvent(
          'api.requested',
          merchantId,
          {
            requestId: String(request.id),
            flowType,
            apiFlow: apiFlowOf(flowType),
            route: routeConfigOf(request).url ?? request.url,
            method: request.method,
            statusCode: reply.statusCode,
            latencyMs: Math.round(reply.elapsedTime * 1000) / 1000,
            paymentId,
            errorCode: failed.code,
            errorMessage: failed.message,
            userAgent: typeof userAgent === 'string' ? userAgent.slice(0, 256) : null,
          },
          deps.clock.now(),
        ),
      ])
      .catch(logFailure);
  } catch (error) {
    logFailure(error);
  }
}
