import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { randomUUID } from 'node:crypto';
import { gatewayReservationUsd } from '../../src/generation/gateway/budget-reservation.js';
import { cacheAffinityOf } from '../../src/generation/gateway/cache-affinity-key.js';
import type { ChatCompletionOutcome, ChatCompletionUseCase } from '../../src/generation/gateway/complete-chat.js';
import type { ForwardCallUseCase } from '../../src/generation/gateway/forward-call.js';
import type { GatewayRouter } from '../../src/generation/gateway/gateway-router.js';
import { guardNativeResponse } from '../../src/generation/gateway/guard-answer.js';
import { guardChatOutcome } from '../../src/generation/gateway/guard-outcome.js';
import { toChatCall, type OpenAiChatRequest } from '../../src/generation/gateway/openai-chat-request.js';
import { ref } from '../http-schemas.js';
import { credentialMerchantOf } from '../plugins/authentication.js';
import { hijackedHead } from '../plugins/security-headers.js';
import { whileClientStays } from '../wire/client-gone.js';
import { gatewayCallContext } from '../wire/gateway-caller.js';
import { type GatewayGuardDeps, guardGatewayRequest } from '../wire/gateway-guards.js';
import { cacheHitHeaders, decisionHeaders, streamHeaders, translatedHeaders } from '../wire/gateway-headers.js';
import { sendNativeAnswer } from '../wire/native-answer.js';
import { chatCompletionBody } from '../wire/openai-chat-completion.js';
import { openAiStreamError } from '../wire/openai-error.js';
import { replayedStream, sseData, writeChatStream } from '../wire/openai-sse.js';
import { gatewayGuard, gatewayTags as tags } from './gateway-route-config.js';

export interface OpenAiChatCompletionDeps {
  readonly chat: ChatCompletionUseCase;
  /** The native pass-through to OpenAI-wire upstreams (./forward-call.ts); the translated path serves the rest. */
  readonly forward: ForwardCallUseCase;
  /** Prices the request's budget reservation. */
  readonly router: Pick<GatewayRouter, 'pricesOf'>;
  readonly now: () => Date;
  /** The guards of every call (issue 38): the body's texts guarded before any provider call, the answer after. */
  readonly guards: GatewayGuardDeps;
}

type ChatRequest = FastifyRequest<{ Body: OpenAiChatRequest }>;

/** The answer's identity on the wire: OpenAI's `chatcmpl-…` id and creation second. */
interface AnswerId {
  readonly id: string;
  readonly created: number;
}

/**
 * Sends an outcome in OpenAI's chat-completions wire: a `chat.completion` body, or an SSE stream
 * of chunks (the whole stream at once for a cached answer: the client cannot tell it from a fresh
 * one but for its speed), with the routing decision and cache status in headers.
 */
async function sendOutcome(
  request: ChatRequest,
  reply: FastifyReply,
  outcome: ChatCompletionOutcome,
  at: AnswerId,
  clientGone: () => boolean,
): Promise<unknown> {
  const includeUsage = request.body.stream_options?.include_usage === true;
  if (outcome.kind === 'answer') {
    void reply.headers(translatedHeaders('openai-chat', request.body, outcome.decision, outcome.cache));
    return chatCompletionBody(at.id, at.created, outcome.answer);
  }
  if (outcome.kind === 'cached' && request.body.stream !== true) {
    void reply.headers(cacheHitHeaders(outcome.answer));
    return chatCompletionBody(at.id, at.created, outcome.answer);
  }
  reply.hijack();
  if (outcome.kind === 'cached') {
    reply.raw.writeHead(200, hijackedHead(reply, { ...streamHeaders(request), ...cacheHitHeaders(outcome.answer) }));
    reply.raw.end(replayedStream(at.id, at.created, outcome.answer, includeUsage));
    return reply; // hijacked: fastify sends nothing more
  }
  reply.raw.writeHead(
    200,
    hijackedHead(reply, { ...streamHeaders(request), ...translatedHeaders('openai-chat', request.body, outcome.decision, outcome.cache) }),
  );
  await writeChatStream({ raw: reply.raw, id: at.id, created: at.created, model: outcome.decision.model, includeUsage, clientGone }, outcome.chunks);
  return reply;
}

/**
 * `/v1/chat/completions`: OpenAI chat completions, plain and streamed, through the gateway's one
 * generation use case (src/generation/gateway/complete-chat.ts): response cache, learning router,
 * failover before the first byte, `llm.call` records.
 */
export async function openAiChatCompletionRoutes(app: FastifyInstance, deps: OpenAiChatCompletionDeps): Promise<void> {
  // Per-key limits; the reservation is the dearest place the request can go, at its most output tokens.
  const reserveUsd = async (request: FastifyRequest) => {
    const body = request.body as OpenAiChatRequest;
    const maxTokens = body.max_completion_tokens ?? body.max_tokens;
    return gatewayReservationUsd(deps.router, { merchantId: credentialMerchantOf(request), model: body.model, prompt: body.messages, maxTokens });
  };

  app.post<{ Body: OpenAiChatRequest }>(
    '/v1/chat/completions',
    {
      schema: {
        tags,
        summary:
          'OpenAI chat completions (plain, or streamed with stream_options.include_usage), routed to the provider `model` names; answered from the response cache for a key with one (x-cache: HIT | MISS | BYPASS, Cache-Control no-cache / no-store)',
        body: ref('ChatCompletionRequest'),
      },
      config: { ...gatewayGuard, keyLimits: { kind: 'llm', reserveUsd } },
    },
    async (request, reply) => {
      const at = { id: `chatcmpl-${randomUUID()}`, created: Math.floor(deps.now().getTime() / 1000) };
      // Guarded before anything else: a blocked request reaches no cache, router or provider.
      const { session, body } = await guardGatewayRequest(deps.guards, request, reply, 'openai-chat', request.body, request.body.model);
      return whileClientStays(reply, async (signal, clientGone) => {
        const context = gatewayCallContext(request, signal, 'chat_completions');
        const cacheKeySource = body as unknown as Readonly<Record<string, unknown>>;
        const forwarded = await deps.forward.forward({
          ...context,
          wire: 'openai-chat',
          model: body.model,
          body: cacheKeySource,
          headers: {},
          stream: body.stream === true,
          prompt: body.messages,
          cacheKeySource,
        });
        if (forwarded.kind === 'native' || forwarded.kind === 'native-cached') {
          const headers = forwarded.kind === 'native' ? decisionHeaders(forwarded.decision, forwarded.cache) : cacheHitHeaders(forwarded.answer);
          const streamFailure = (error: unknown) => sseData(openAiStreamError(error));
          return sendNativeAnswer({ request, reply, headers, clientGone, streamFailure }, guardNativeResponse('openai-chat', forwarded.response, session));
        }
        // Translated: no candidate speaks Chat Completions natively (or the response cache holds its translated answer).
        const outcome = await deps.chat.complete({
          ...context,
          model: body.model,
          call: toChatCall(body),
          prompt: body.messages,
          stream: body.stream === true,
          cacheKeySource,
          routed: forwarded.routed,
          affinity: () => cacheAffinityOf('chat', body),
        });
        return sendOutcome(request, reply, guardChatOutcome(outcome, session), at, clientGone);
      });
    },
  );
}
