import type { FastifyInstance } from 'fastify';
import type { RandomSource } from '../../src/decision/random-source.js';
import { createGatewayUseCases } from '../../src/generation/gateway/gateway-use-cases.js';
import type { GatewayToolkit } from '../../src/generation/gateway/gateway-toolkit.js';
import type { LlmCallRecorder } from '../../src/generation/llm-call-record.js';
import type { DynamicModelRegistry } from '../../src/generation/models/dynamic-model-registry.js';
import type { StateStore } from '../../src/ports/state-store.js';
import { openAiChatCompletionRoutes } from './openai-chat-completions.js';
import { openAiEmbeddingRoutes } from './openai-embeddings.js';
import { openAiModelRoutes } from './openai-models.js';
import { routeGroupRoutes } from './route-groups.js';

export interface OpenAiGatewayDeps {
  readonly toolkit: GatewayToolkit;
  readonly models: DynamicModelRegistry;
  /** Route groups and key defaults (configs), candidates' success-rate windows (scores), cached answers (responseCache). */
  readonly state: Pick<StateStore, 'configs' | 'scores' | 'responseCache'>;
  /** Exploration draws of the learning router. */
  readonly random: RandomSource;
  /**
   * Records what no toolkit call does: an answer served from the response cache (its `llm.call`
   * with `cacheHit`). The service's recorder (src/governance/spend-counting-recorder.ts); unset, hits go unrecorded.
   */
  readonly recordCall?: LlmCallRecorder;
  readonly now?: () => Date;
}

/**
 * The OpenAI-compatible gateway: `/v1/chat/completions` (plain and streamed), `/v1/embeddings`,
 * `/v1/models` and `/v1/route-groups`, with OpenAI's shapes, so the official clients work by
 * changing their base URL. The use cases (src/generation/gateway/) are built once here from the
 * app's deps and shared by the routes, so they rank and price with one router; each route module
 * only maps OpenAI's wire.
 */
export async function openAiGatewayRoutes(app: FastifyInstance, deps: OpenAiGatewayDeps): Promise<void> {
  const now = deps.now ?? (() => new Date());
  const useCases = createGatewayUseCases(deps);
  await routeGroupRoutes(app, { routeGroups: useCases.routeGroups });
  await openAiEmbeddingRoutes(app, { embeddings: useCases.embeddings, router: useCases.router });
  await openAiModelRoutes(app, { models: deps.models, now });
  await openAiChatCompletionRoutes(app, { chat: useCases.chat, router: useCases.router, now });
}
