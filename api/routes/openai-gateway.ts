import type { FastifyInstance } from 'fastify';
import type { RandomSource } from '../../src/decision/random-source.js';
import { MessageTokenCounter } from '../../src/generation/gateway/count-message-tokens.js';
import { ResponsesUseCase } from '../../src/generation/gateway/create-response.js';
import { ForwardResponseUseCase } from '../../src/generation/gateway/forward-response.js';
import { createGatewayUseCases } from '../../src/generation/gateway/gateway-use-cases.js';
import type { GatewayProviderCalls } from '../../src/generation/gateway/gateway-provider-calls.js';
import type { LlmCallRecorder } from '../../src/generation/llm-call-record.js';
import { providerGuardChecks } from '../../src/generation/guard-checks.js';
import { GuardrailResolver } from '../../src/guardrails/guardrail-resolver.js';
import type { DynamicModelRegistry } from '../../src/generation/models/dynamic-model-registry.js';
import type { StateStore } from '../../src/ports/state-store.js';
import type { GuardEvidence } from '../wire/gateway-guards.js';
import { anthropicMessagesRoutes } from './anthropic-messages.js';
import { openAiChatCompletionRoutes } from './openai-chat-completions.js';
import { openAiEmbeddingRoutes } from './openai-embeddings.js';
import { openAiModelRoutes } from './openai-models.js';
import { openAiResponsesRoutes } from './openai-responses.js';
import { routeGroupRoutes } from './route-groups.js';

export interface OpenAiGatewayDeps {
  /** The provider-protocol layer the gateway calls models through (the toolkit's `providerCalls`, never its options). */
  readonly calls: GatewayProviderCalls;
  readonly models: DynamicModelRegistry;
  /**
   * Route groups and key defaults (configs), candidates' success-rate windows (scores), cached
   * answers (responseCache), stored Responses API responses (responses).
   */
  readonly state: Pick<StateStore, 'configs' | 'scores' | 'responseCache' | 'responses' | 'cacheAffinity'>;
  /** Which guards apply to a call (issue 38); default: the defaults and the merchant's settings in `state.configs`. */
  readonly guardrails?: GuardrailResolver;
  /** Where each call's guard outcomes go (the `guard.applied` events); unset, they are not published. */
  readonly guardEvidence?: GuardEvidence;
  /** Exploration draws of the learning router. */
  readonly random: RandomSource;
  /**
   * Records what no provider call does: an answer served from the response cache (its `llm.call`
   * with `cacheHit`). The service's recorder (src/governance/spend-counting-recorder.ts); unset, hits go unrecorded.
   */
  readonly recordCall?: LlmCallRecorder;
  readonly now?: () => Date;
  /** How long a stored response of /v1/responses is kept (RESPONSES_TTL_DAYS); default 30 days. */
  readonly responsesTtlS?: number;
  /** Whether /v1/responses and /v1/messages take images by http(s) URL (GATEWAY_ALLOW_IMAGE_URLS); default: base64 only. */
  readonly allowImageUrls?: boolean;
}

/** 30 days: RESPONSES_TTL_DAYS's default (schemas/config.json), for apps built without the setting. */
const defaultResponsesTtlS = 30 * 86_400;

/**
 * The OpenAI-compatible gateway: `/v1/chat/completions` (plain and streamed), `/v1/embeddings`,
 * `/v1/models` and `/v1/route-groups`, with OpenAI's shapes (and Anthropic's `/v1/messages`), so the official clients work by
 * changing their base URL. The use cases (src/generation/gateway/) are built once here from the
 * app's deps and shared by the routes, so they rank and price with one router; each route module
 * only maps OpenAI's wire.
 */
export async function openAiGatewayRoutes(app: FastifyInstance, deps: OpenAiGatewayDeps): Promise<void> {
  const now = deps.now ?? (() => new Date());
  const useCases = createGatewayUseCases(deps);
  const guards = {
    guardrails: deps.guardrails ?? new GuardrailResolver({ configs: deps.state.configs }),
    evidence: deps.guardEvidence,
    checks: providerGuardChecks(deps.calls, 'gateway'),
    configs: deps.state.configs,
  };
  await routeGroupRoutes(app, { routeGroups: useCases.routeGroups });
  await openAiEmbeddingRoutes(app, { embeddings: useCases.embeddings, router: useCases.router, guards });
  await openAiModelRoutes(app, { models: deps.models, now });
  await openAiChatCompletionRoutes(app, { chat: useCases.chat, forward: useCases.forward, router: useCases.router, now, guards });
  const allowImageUrls = deps.allowImageUrls === true;
  const ttlS = deps.responsesTtlS ?? defaultResponsesTtlS;
  const responses = new ResponsesUseCase({ chat: useCases.chat, store: deps.state.responses, ttlS, now, allowImageUrls });
  const forward = new ForwardResponseUseCase({ forward: useCases.forward, store: deps.state.responses, ttlS, now, allowImageUrls });
  await openAiResponsesRoutes(app, { responses, forward, router: useCases.router, guards });
  const tokens = new MessageTokenCounter(useCases.router, deps.calls);
  await anthropicMessagesRoutes(app, { chat: useCases.chat, forward: useCases.forward, router: useCases.router, tokens, allowImageUrls, guards });
}
