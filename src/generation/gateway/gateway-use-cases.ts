import type { RandomSource } from '../../decision/random-source.js';
import type { StateStore } from '../../ports/state-store.js';
import type { LlmCallRecorder } from '../llm-call-record.js';
import { ChatCompletionUseCase } from './complete-chat.js';
import { EmbeddingUseCase } from './embed-texts.js';
import { ForwardCallUseCase } from './forward-call.js';
import { GatewayRouter, type GatewayModelRegistry } from './gateway-router.js';
import type { GatewayProviderCalls } from './gateway-provider-calls.js';
import { ResponseCachePolicy } from './response-cache-policy.js';
import { RouteGroupService } from './route-group-service.js';

export interface GatewayUseCaseDeps {
  /** The provider-protocol layer the gateway calls models through (the toolkit's `providerCalls`). */
  readonly calls: GatewayProviderCalls;
  readonly models: GatewayModelRegistry;
  /** Route groups and key defaults (configs), candidates' windows (scores), cached answers (responseCache), conversations' cache holders (cacheAffinity). */
  readonly state: Pick<StateStore, 'configs' | 'scores' | 'responseCache' | 'cacheAffinity'>;
  /** Exploration draws of the learning router. */
  readonly random: RandomSource;
  /** Where response-cache hits are recorded as `llm.call` (the provider-protocol layer records every other call itself). */
  readonly recordCall?: LlmCallRecorder | undefined;
}

/** The LLM gateway's use cases over one router, so every wire (and the budget reservation) ranks and prices alike. */
export interface GatewayUseCases {
  readonly router: GatewayRouter;
  readonly chat: ChatCompletionUseCase;
  /** The native pass-through of every wire (Messages, Responses, Chat Completions), handing over to `chat` for translation. */
  readonly forward: ForwardCallUseCase;
  readonly embeddings: EmbeddingUseCase;
  readonly routeGroups: RouteGroupService;
}

export function createGatewayUseCases(deps: GatewayUseCaseDeps): GatewayUseCases {
  const { configs, scores, responseCache, cacheAffinity } = deps.state;
  const router = new GatewayRouter({ configs, scores, models: deps.models, random: deps.random, affinity: cacheAffinity });
  const cache = new ResponseCachePolicy({ cache: responseCache, configs, models: deps.models, recordCall: deps.recordCall });
  return {
    router,
    chat: new ChatCompletionUseCase({ calls: deps.calls, router, responseCache: cache }),
    forward: new ForwardCallUseCase({ calls: deps.calls, router, responseCache: cache }),
    embeddings: new EmbeddingUseCase({ calls: deps.calls, router }),
    routeGroups: new RouteGroupService({ configs, scores, models: deps.models }),
  };
}
