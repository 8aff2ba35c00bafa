import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { randomUUID } from 'node:crypto';
import {
  anthropicUpstreamHeaders,
  messagesCacheKeySource,
  messagesCall,
  messagesPrompt,
  type AnthropicMessagesRequest,
} from '../../src/generation/gateway/anthropic-messages-request.js';
import { gatewayReservationUsd } from '../../src/generation/gateway/budget-reservation.js';
import { cacheAffinityOf } from '../../src/generation/gateway/cache-affinity-key.js';
import type { ChatCompletionOutcome, ChatCompletionUseCase } from '../../src/generation/gateway/complete-chat.js';
import type { MessageTokenCounter } from '../../src/generation/gateway/count-message-tokens.js';
import type { ForwardCallUseCase } from '../../src/generation/gateway/forward-call.js';
import type { GatewayRouter } from '../../src/generation/gateway/gateway-router.js';
import { guardNativeResponse } from '../../src/generation/gateway/guard-answer.js';
import { guardChatOutcome } from '../../src/generation/gateway/guard-outcome.js';
import { ref } from '../http-schemas.js';
import { credentialMerchantOf } from '../plugins/authentication.js';
import { hijackedHead } from '../plugins/security-headers.js';
import { anthropicMessageBody } from '../wire/anthropic-message.js';
import { anthropicStreamError } from '../wire/anthropic-error.js';
import { anthropicEvent, replayedChunks, writeMessagesStream } from '../wire/anthropic-sse.js';
import { whileClientStays } from '../wire/client-gone.js';
import { gatewayCallContext } from '../wire/gateway-caller.js';
import { type GatewayGuardDeps, guardGatewayRequest } from '../wire/gateway-guards.js';
import { cacheHitHeaders, decisionHeaders, streamHeaders, translatedHeaders } from '../wire/gateway-headers.js';
import { sendNativeAnswer } from '../wire/native-answer.js';
import { gatewayGuard } from './gateway-route-config.js';

export interface AnthropicMessagesDeps {
  readonly chat: ChatCompletionUseCase;
  /** The native pass-through to Anthropic-protocol upstreams (./forward-call.ts); the translated path serves the rest. */
  readonly forward: ForwardCallUseCase;
  /** Prices the request's budget reservation. */
  readonly router: Pick<GatewayRouter, 'pricesOf'>;
  readonly tokens: MessageTokenCounter;
  /** Whether image blocks may name a URL (`source.type: "url"`); else only base64 images are taken. */
  readonly allowImageUrls?: boolean;
  /** The guards of every call (issue 38): the body's texts guarded before any provider call, the answer after. */
  readonly guards: GatewayGuardDeps;
}

type MessagesRequest = FastifyRequest<{ Body: AnthropicMessagesRequest }>;

/** What every Messages route declares: the gateway's guard (x-api-key or Bearer), Anthropic's error body. */
const messagesGuard = { ...gatewayGuard, envelope: 'anthropic' } as const;
const tags = ['Anthropic-compatible gateway'];

/** Anthropic's `msg_…` id of an answer. */
function messageId(): string {
  return `msg_${randomUUID().replaceAll('-', '')}`;
}

/**
 * Sends an outcome in Anthropic's Messages wire: a `message` body, or an SSE stream of its events
 * (the whole stream at once for a cached answer), with the routing decision and cache status in headers.
 */
async function sendOutcome(request: MessagesRequest, reply: FastifyReply, outcome: ChatCompletionOutcome, clientGone: () => boolean): Promise<unknown> {
  const id = messageId();
  if (outcome.kind === 'answer') {
    void reply.headers(translatedHeaders('anthropic-messages', request.body, outcome.decision, outcome.cache));
    return anthropicMessageBody(id, outcome.answer);
  }
  if (outcome.kind === 'cached' && request.body.stream !== true) {
    void reply.headers(cacheHitHeaders(outcome.answer));
    return anthropicMessageBody(id, outcome.answer);
  }
  reply.hijack();
  const cached = outcome.kind === 'cached';
  const headers =
    outcome.kind === 'cached' ? cacheHitHeaders(outcome.answer) : translatedHeaders('anthropic-messages', request.body, outcome.decision, outcome.cache);
  reply.raw.writeHead(200, hijackedHead(reply, { ...streamHeaders(request), 'cache-control': 'no-cache', ...headers }));
  const model = outcome.kind === 'cached' ? outcome.answer.model : outcome.decision.model;
  await writeMessagesStream({ raw: reply.raw, id, model, clientGone }, cached ? replayedChunks(outcome.answer) : outcome.chunks);
  return reply; // hijacked: fastify sends nothing more
}

/** Per-key limits; the reservation is the dearest place the request can go, at its max_tokens. */
function messagesReservation(router: AnthropicMessagesDeps['router']) {
  return async (request: FastifyRequest) => {
    const body = request.body as AnthropicMessagesRequest;
    return gatewayReservationUsd(router, {
      merchantId: credentialMerchantOf(request),
      model: body.model,
      prompt: messagesPrompt(body),
      maxTokens: body.max_tokens,
    });
  };
}

/** `POST /v1/messages`: the request mapped onto the gateway's generation use case, the outcome onto Anthropic's wire. */
function messagesRoute(app: FastifyInstance, deps: AnthropicMessagesDeps): void {
  const policy = { allowImageUrls: deps.allowImageUrls === true };
  const reserveUsd = messagesReservation(deps.router);
  app.post<{ Body: AnthropicMessagesRequest }>(
    '/v1/messages',
    {
      schema: {
        tags,
        summary:
          "Anthropic Messages (plain, or streamed as Anthropic's SSE events), routed like /v1/chat/completions (provider/model, registry alias or route group) to any provider kind; API key as x-api-key or Authorization: Bearer; anthropic-version and anthropic-beta accepted",
        body: ref('AnthropicMessagesRequest'),
      },
      config: { ...messagesGuard, keyLimits: { kind: 'llm', reserveUsd } },
    },
    async (request, reply) => {
      // Guarded before anything else: a blocked request reaches no cache, router or provider.
      const { session, body } = await guardGatewayRequest(deps.guards, request, reply, 'anthropic-messages', request.body, request.body.model);
      return whileClientStays(reply, async (signal, clientGone) => {
        const context = gatewayCallContext(request, signal, 'messages');
        const forwarded = await deps.forward.forward({
          ...context,
          wire: 'anthropic-messages',
          model: body.model,
          body: body as unknown as Readonly<Record<string, unknown>>,
          // anthropic-version and anthropic-beta go on to an Anthropic upstream only.
          headers: anthropicUpstreamHeaders(request.headers),
          stream: body.stream === true,
          prompt: messagesPrompt(body),
          cacheKeySource: messagesCacheKeySource(body),
          imageUrls: policy,
        });
        if (forwarded.kind === 'native' || forwarded.kind === 'native-cached') {
          const headers = forwarded.kind === 'native' ? decisionHeaders(forwarded.decision, forwarded.cache) : cacheHitHeaders(forwarded.answer);
          const streamFailure = (error: unknown) => anthropicEvent({ ...anthropicStreamError(error) });
          return sendNativeAnswer(
            { request, reply, headers, clientGone, streamFailure },
            guardNativeResponse('anthropic-messages', forwarded.response, session),
          );
        }
        // Translated: no candidate speaks Messages natively (or the response cache holds its translated answer).
        const outcome = await deps.chat.complete({
          ...context,
          model: body.model,
          call: messagesCall(body, policy, anthropicUpstreamHeaders(request.headers)),
          prompt: messagesPrompt(body),
          stream: body.stream === true,
          cacheKeySource: messagesCacheKeySource(body),
          affinity: () => cacheAffinityOf('messages', body),
          routed: forwarded.routed,
        });
        return sendOutcome(request, reply, guardChatOutcome(outcome, session), clientGone);
      });
    },
  );
}

/** `POST /v1/messages/count_tokens`: `{input_tokens}`, with where the count came from in a header. */
function countTokensRoute(app: FastifyInstance, deps: AnthropicMessagesDeps): void {
  app.post<{ Body: AnthropicMessagesRequest }>(
    '/v1/messages/count_tokens',
    {
      schema: {
        tags,
        summary:
          "Anthropic's token count of a Messages request ({input_tokens}); x-switchyard-token-count-source says whether the provider counted (provider) or the registry's heuristic estimated (estimate)",
        body: ref('AnthropicCountTokensRequest'),
      },
      // Counting spends nothing and changes nothing: a read for sessions' roles.
      config: { ...messagesGuard, minRole: 'member' },
    },
    async (request, reply) => {
      const context = { anthropicHeaders: anthropicUpstreamHeaders(request.headers), log: request.log };
      // The count may be the provider's own (Anthropic's count_tokens): the body goes there guarded too.
      // Counting sends nothing to a model: no moderation or judge call for it.
      const { body } = await guardGatewayRequest(deps.guards, request, reply, 'anthropic-messages', request.body, request.body.model, { checks: false });
      const counted = await deps.tokens.count(credentialMerchantOf(request), body, context);
      void reply.header('x-switchyard-token-count-source', counted.source);
      return { input_tokens: counted.inputTokens };
    },
  );
}

/**
 * `/v1/messages` and `/v1/messages/count_tokens`: Anthropic's Messages API, plain and streamed,
 * through the gateway's one generation use case (src/generation/gateway/complete-chat.ts) as chat
 * completions are: key limits and budgets (one counter), response cache, learning router,
 * failover before the first byte, `llm.call` records. Any provider kind answers.
 */
export async function anthropicMessagesRoutes(app: FastifyInstance, deps: AnthropicMessagesDeps): Promise<void> {
  messagesRoute(app, deps);
  countTokensRoute(app, deps);
}
