import type { FastifyBaseLogger, FastifyRequest } from 'fastify';
import { callCostUsd, resolvePricing } from '../src/generation/analytics/model-pricing.js';
import type { CachedCompletion } from '../src/ports/state/response-cache.js';
import { cacheDirectiveOf, responseCacheKey, type CacheDirective } from '../src/generation/gateway/response-cache-key.js';
import type { LlmCallRecorder } from '../src/generation/llm-call-record.js';
import type { DynamicModelRegistry } from '../src/generation/models/dynamic-model-registry.js';
import { effectivePolicy } from '../src/governance/key-policy.js';
import type { ConfigStore, ResponseCache, ResponseCacheKey } from '../src/ports/state-store.js';
import { credentialOf } from './plugins/authentication.js';
import { callAttributionOf } from './wire/call-attribution.js';

export interface GatewayResponseCacheDeps {
  readonly cache: ResponseCache;
  /** The merchant's `apiKeyDefaults` (a key without a cache setting of its own takes the merchant's). */
  readonly configs: Pick<ConfigStore, 'get'>;
  /** Prices of a hit's model: what the hit saved. */
  readonly models: Pick<DynamicModelRegistry, 'getModelConfig'>;
  /** Where a hit's `llm.call` record goes (no toolkit call records it: no provider is called). */
  readonly recordCall?: LlmCallRecorder | undefined;
}

/** How one request uses the cache: its key, the TTL of its API key, and what `Cache-Control` asked. */
export interface CachePlan {
  readonly key: ResponseCacheKey;
  readonly ttlS: number;
  readonly directive: CacheDirective;
}

/** The `x-cache` answer header: HIT or MISS for a looked-up request, BYPASS when Cache-Control skipped the lookup. */
export type CacheStatus = 'HIT' | 'MISS' | 'BYPASS';

export interface GatewayResponseCache {
  /** The request's plan; undefined when its API key has no cache (sessions never do): no header, no caching. */
  planOf(request: FastifyRequest, merchantId: string, body: object): Promise<CachePlan | undefined>;
  /** The cached answer when the plan allows a lookup and there is one; a failed read is a miss (logged). */
  lookup(plan: CachePlan, log: FastifyBaseLogger): Promise<CachedCompletion | undefined>;
  /** Stores a successful answer unless the request said `no-store`; a failed write is logged, never the request's failure. */
  store(plan: CachePlan, answer: CachedCompletion, log: FastifyBaseLogger): Promise<void>;
  /** Records a hit as an `llm.call` (cost 0, `cacheHit`, the cached tokens, what it saved). */
  recordHit(request: FastifyRequest, answer: CachedCompletion, latencyMs: number, streamed: boolean): void;
}

export function cacheStatusOf(plan: CachePlan, hit: boolean): CacheStatus {
  return plan.directive !== 'use' ? 'BYPASS' : hit ? 'HIT' : 'MISS';
}

/**
 * The gateway's exact-match response cache (issue 14), opt-in per API key (`cache: { ttl_s }`,
 * the key's own over its merchant's default) and per request (`Cache-Control: no-cache` /
 * `no-store`). Entries are per merchant and normalized request (src/generation/gateway/response-cache-key.ts).
 */
export function createGatewayResponseCache(deps: GatewayResponseCacheDeps): GatewayResponseCache {
  return {
    async planOf(request, merchantId, body) {
      const credential = credentialOf(request);
      if (credential.kind !== 'api_key') return undefined;
      const cache = effectivePolicy(credential.policy, await deps.configs.get(merchantId, 'apiKeyDefaults')).cache;
      if (cache === undefined) return undefined;
      return { key: responseCacheKey(merchantId, body as Record<string, unknown>), ttlS: cache.ttlS, directive: cacheDirectiveOf(request.headers['cache-control']) };
    },

    async lookup(plan, log) {
      if (plan.directive !== 'use') return undefined;
      try {
        return await deps.cache.get(plan.key);
      } catch (error) {
        log.warn({ err: error }, 'response cache unreadable: answering as a miss');
        return undefined;
      }
    },

    async store(plan, answer, log) {
      if (plan.directive === 'no-store') return;
      try {
        await deps.cache.set(plan.key, answer, plan.ttlS);
      } catch (error) {
        log.warn({ err: error }, 'answer not stored in the response cache');
      }
    },

    recordHit(request, answer, latencyMs, streamed) {
      const pricing = resolvePricing(answer.provider, answer.model, (modelId) => deps.models.getModelConfig(modelId, answer.provider)?.pricing);
      deps.recordCall?.({
        provider: answer.provider,
        model: answer.model,
        operation: streamed ? 'stream' : 'generate',
        inputTokens: answer.usage.inputTokens,
        outputTokens: answer.usage.outputTokens,
        costUsd: 0,
        latencyMs,
        outcome: 'success',
        fallbackHops: 0,
        cacheHit: true,
        ...(pricing !== undefined ? { savedCostUsd: callCostUsd(answer.usage.inputTokens, answer.usage.outputTokens, pricing) } : {}),
        attribution: callAttributionOf(request, 'gateway'),
      });
    },
  };
}
