import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import responseCreateRequest from '../../schemas/http/generation/response-create-request.json' with { type: 'json' };
import { gatewayReservationUsd } from '../../src/generation/gateway/budget-reservation.js';
import type { CreateResponseOutcome, ResponsesUseCase } from '../../src/generation/gateway/create-response.js';
import type { ForwardResponseUseCase } from '../../src/generation/gateway/forward-response.js';
import type { GatewayRouter } from '../../src/generation/gateway/gateway-router.js';
import { guardNativeResponse } from '../../src/generation/gateway/guard-answer.js';
import { guardResponseOutcome } from '../../src/generation/gateway/guard-outcome.js';
import type { ResponsesRequest } from '../../src/generation/gateway/responses-request.js';
import { credentialMerchantOf } from '../plugins/authentication.js';
import { hijackedHead } from '../plugins/security-headers.js';
import { whileClientStays } from '../wire/client-gone.js';
import { gatewayCallContext } from '../wire/gateway-caller.js';
import { type GatewayGuardDeps, guardGatewayRequest } from '../wire/gateway-guards.js';
import { cacheHitHeaders, decisionHeaders, streamHeaders, translatedHeaders } from '../wire/gateway-headers.js';
import { sendNativeAnswer } from '../wire/native-answer.js';
import { openAiStreamError } from '../wire/openai-error.js';
import { openAiResponseBody } from '../wire/openai-response.js';
import { replayedResponseStream, writeResponseStream } from '../wire/openai-response-events.js';
import { gatewayGuard, gatewayTags as tags } from './gateway-route-config.js';
import { storedResponseRoutes } from './openai-stored-responses.js';

export interface OpenAiResponsesDeps {
  readonly responses: ResponsesUseCase;
  /** The native pass-through to OpenAI's and Azure's Responses API; `responses` translates for the rest. */
  readonly forward: ForwardResponseUseCase;
  /** Prices the request's budget reservation. */
  readonly router: Pick<GatewayRouter, 'pricesOf'>;
  /** The guards of every call (issue 38): the body's texts guarded before any provider call, the answer after. */
  readonly guards: GatewayGuardDeps;
}

type CreateRequest = FastifyRequest<{ Body: ResponsesRequest }>;

// The generated types need the schema's $id; an inline route schema must not carry one.
const { $id: _schemaId, ...createBody } = responseCreateRequest;

/** Headers of an outcome: the routing decision (or a cache hit's first answerer), and the tool types dropped. */
function outcomeHeaders(body: ResponsesRequest, outcome: CreateResponseOutcome & { readonly ignoredTools: readonly string[] }): Record<string, string> {
  const ignored: Record<string, string> =
    outcome.ignoredTools.length > 0 ? { 'x-switchyard-ignored-tools': [...new Set(outcome.ignoredTools)].join(', ') } : {};
  if (outcome.kind === 'response' && outcome.decision === undefined) return { ...cacheHitHeaders(outcome.response), ...ignored };
  if (outcome.decision === undefined) return ignored;
  return { ...translatedHeaders('openai-responses', body, outcome.decision, outcome.cache), ...ignored };
}

/** The `error` event of a natively passed stream that broke after its first byte (the provider sent none). */
function responsesStreamFailure(error: unknown): string {
  const { error: body } = openAiStreamError(error);
  return `event: error\ndata: ${JSON.stringify({ type: 'error', code: body.code, message: body.message, param: null })}\n\n`;
}

/**
 * Sends an outcome in the Responses API's wire: the response object, or its server-sent events
 * (the whole stream at once for an answer from the response cache).
 */
async function sendOutcome(
  request: CreateRequest,
  reply: FastifyReply,
  outcome: CreateResponseOutcome & { readonly ignoredTools: readonly string[] },
  clientGone: () => boolean,
): Promise<unknown> {
  const headers = outcomeHeaders(request.body, outcome);
  if (outcome.kind === 'response' && request.body.stream !== true) {
    void reply.headers(headers);
    return openAiResponseBody(outcome.response);
  }
  reply.hijack();
  reply.raw.writeHead(200, hijackedHead(reply, { ...streamHeaders(request), 'cache-control': 'no-cache', ...headers }));
  if (outcome.kind === 'response') {
    reply.raw.end(replayedResponseStream(outcome.response));
    return reply; // hijacked: fastify sends nothing more
  }
  await writeResponseStream({ raw: reply.raw, draft: outcome.draft, clientGone }, outcome.chunks);
  return reply;
}

/**
 * `/v1/responses`: OpenAI's Responses API (plain and streamed) through the gateway's one chat
 * generation use case, and its stored responses (retrieve, delete, input items).
 */
export async function openAiResponsesRoutes(app: FastifyInstance, deps: OpenAiResponsesDeps): Promise<void> {
  // Per-key limits; the reservation is the dearest place the request can go, at its most output
  // tokens, with the whole input it sends: a `previous_response_id` chain's items too.
  const reserveUsd = async (request: FastifyRequest) => {
    const body = request.body as ResponsesRequest;
    const merchantId = credentialMerchantOf(request);
    const carried = await deps.responses.carriedConversation(merchantId, body.previous_response_id);
    const prompt = [body.instructions ?? '', carried, body.input ?? ''];
    return gatewayReservationUsd(deps.router, {
      merchantId,
      model: body.model,
      prompt,
      maxTokens: body.max_output_tokens ?? undefined,
    });
  };

  app.post<{ Body: ResponsesRequest }>(
    '/v1/responses',
    {
      schema: {
        tags,
        summary:
          'OpenAI Responses API: a response (plain, or streamed as its server-sent events), routed to the provider `model` names as chat completions are; kept for GET /v1/responses/{id} unless `store` is false; `previous_response_id` continues a stored one',
        body: createBody,
      },
      config: { ...gatewayGuard, keyLimits: { kind: 'llm', reserveUsd } },
    },
    async (request, reply) => {
      // Guarded before anything else: a blocked request reaches no cache, router, store or provider. A
      // `previous_response_id` chain's items were guarded when they were stored.
      const { session, body } = await guardGatewayRequest(deps.guards, request, reply, 'openai-responses', request.body, request.body.model);
      return whileClientStays(reply, async (signal, clientGone) => {
        const call = { ...gatewayCallContext(request, signal, 'responses'), request: body };
        const forwarded = await deps.forward.forward(call);
        if (forwarded.kind === 'native' || forwarded.kind === 'native-cached') {
          const headers = forwarded.kind === 'native' ? decisionHeaders(forwarded.decision, forwarded.cache) : cacheHitHeaders(forwarded.answer);
          const response = guardNativeResponse('openai-responses', forwarded.response, session);
          return sendNativeAnswer({ request, reply, headers, clientGone, streamFailure: responsesStreamFailure }, response);
        }
        // Translated: no candidate speaks the Responses API natively (or the response cache holds its translated answer).
        const outcome = await deps.responses.create({ ...call, routed: forwarded.routed });
        if (outcome.ignoredTools.length > 0) request.log.info({ ignoredTools: outcome.ignoredTools }, 'tool types no provider serves were dropped');
        return sendOutcome(request, reply, guardResponseOutcome(outcome, session), clientGone);
      });
    },
  );

  await storedResponseRoutes(app, { responses: deps.responses });
}
