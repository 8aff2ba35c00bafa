import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { EmbeddingRequest } from '../../src/generated/schema-types.js';
import { gatewayReservationUsd } from '../../src/generation/gateway/budget-reservation.js';
import type { EmbeddingUseCase } from '../../src/generation/gateway/embed-texts.js';
import type { GatewayRouter } from '../../src/generation/gateway/gateway-router.js';
import { UnsupportedChatRequest } from '../../src/generation/gateway/openai-chat-request.js';
import { ref } from '../http-schemas.js';
import { credentialMerchantOf } from '../plugins/authentication.js';
import { whileClientStays } from '../wire/client-gone.js';
import { gatewayCallerOf } from '../wire/gateway-caller.js';
import { decisionHeaders } from '../wire/gateway-headers.js';
import { embeddingListBody } from '../wire/openai-embedding.js';
import { type GatewayGuardDeps, guardScopeOf } from '../wire/gateway-guards.js';
import { GuardrailBlocked } from '../../src/guardrails/guardrail-blocked.js';
import { gatewayGuard, gatewayTags as tags } from './gateway-route-config.js';

export interface OpenAiEmbeddingDeps {
  readonly embeddings: EmbeddingUseCase;
  /** Prices the request's budget reservation. */
  readonly router: Pick<GatewayRouter, 'pricesOf'>;
  /** The guards of every call (issue 38): texts sent to be embedded go to a provider too, so they are guarded. */
  readonly guards?: GatewayGuardDeps;
}

/** `/v1/embeddings`: OpenAI's embeddings, routed to the provider `model` names or across a route group. */
export async function openAiEmbeddingRoutes(app: FastifyInstance, deps: OpenAiEmbeddingDeps): Promise<void> {
  // Per-key limits; embeddings produce no tokens, so only the input is reserved against the budget.
  const reserveUsd = async (request: FastifyRequest) => {
    const body = request.body as EmbeddingRequest;
    return gatewayReservationUsd(deps.router, { merchantId: credentialMerchantOf(request), model: body.model, prompt: body.input, maxTokens: 0 });
  };

  app.post<{ Body: EmbeddingRequest }>(
    '/v1/embeddings',
    {
      schema: {
        tags,
        summary: 'OpenAI embeddings (float or base64 vectors), routed to the provider `model` names or across a route group',
        body: ref('EmbeddingRequest'),
      },
      config: { ...gatewayGuard, keyLimits: { kind: 'llm', reserveUsd } },
      // Before the schema: its coercion would turn token ids into digit strings and embed those.
      preValidation: async (request) => {
        const input = (request.body as { input?: unknown } | undefined)?.input;
        if (Array.isArray(input) && input.some((item) => typeof item !== 'string'))
          throw new UnsupportedChatRequest('input as token ids is not supported: send the text to embed', 'input');
      },
    },
    async (request, reply) => {
      const body = request.body;
      const input = deps.guards === undefined ? body.input : await guardedInput(deps.guards, request, body);
      return whileClientStays(reply, async (signal) => {
        const call = { caller: gatewayCallerOf(request, 'embeddings'), model: body.model, input, signal };
        const { result, decision } = await deps.embeddings.embed(body.dimensions !== undefined ? { ...call, dimensions: body.dimensions } : call);
        void reply.headers(decisionHeaders(decision));
        return embeddingListBody(result, body.encoding_format);
      });
    },
  );
}

/**
 * The texts to embed, guarded (a card number is masked before it reaches the provider; an embedding has no
 * answer to restore it in). A blocking guard refuses the request before any provider call.
 */
async function guardedInput(guards: GatewayGuardDeps, request: FastifyRequest, body: EmbeddingRequest): Promise<EmbeddingRequest['input']> {
  const session = await guards.guardrails.sessionFor(guardScopeOf(request, body.model));
  const guard = (text: string) => session.input(text, 'user');
  const input: EmbeddingRequest['input'] = typeof body.input === 'string' ? guard(body.input) : [guard(body.input[0]), ...body.input.slice(1).map(guard)];
  session.finishInput();
  if (session.blocked !== undefined) throw new GuardrailBlocked(session.blocked);
  return input;
}
