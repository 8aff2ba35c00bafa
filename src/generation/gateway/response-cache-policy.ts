import { effectivePolicy } from '../../governance/key-policy.js';
import type { Logger } from '../../logging/logger.js';
import type { CachedCompletion, ConfigStore, ResponseCache, ResponseCacheKey } from '../../ports/state-store.js';
import { callCostUsd, resolvePricing } from '../analytics/model-pricing.js';
import type { CallAttribution, LlmCallRecorder } from '../llm-call-record.js';
import type { GatewayCaller } from './gateway-caller.js';
import type { GatewayModelRegistry } from './gateway-router.js';
import { cacheDirectiveOf, responseCacheKey, type CacheDirective } from './response-cache-key.js';

export interface ResponseCachePolicyDeps {
  readonly cache: ResponseCache;
  /** The merchant's `apiKeyDefaults` (a key without a cache setting of its own takes the merchant's). */
  readonly configs: Pick<ConfigStore, 'get'>;
  /** Prices of a hit's model: what the hit saved. */
  readonly models: GatewayModelRegistry;
  /** Where a hit's `llm.call` record goes (no toolkit call records it: no provider is called). */
  readonly recordCall?: LlmCallRecorder | undefined;
}

/** How one request uses the cache: its key, the TTL of its API key, and what `Cache-Control` asked. */
export interface CachePlan {
  readonly key: ResponseCacheKey;
  readonly ttlS: number;
  readonly directive: CacheDirective;
}

/** What a wire reports of the cache (OpenAI's `x-cache`): HIT or MISS for a looked-up request, BYPASS when Cache-Control skipped the lookup. */
export type CacheStatus = 'HIT' | 'MISS' | 'BYPASS';

export function cacheStatusOf(plan: CachePlan, hit: boolean): CacheStatus {
  return plan.directive !== 'use' ? 'BYPASS' : hit ? 'HIT' : 'MISS';
}

/**
 * The gateway's exact-match response cache (issue 14), opt-in per API key (`cache: { ttl_s }`,
 * the key's own over its merchant's default) and per request (`Cache-Control: no-cache` /
 * `no-store`). Entries are per merchant and normalized request (./response-cache-key.ts). A cache
 * that fails never fails the request: a failed read is a miss, a failed write is logged.
 */
export class ResponseCachePolicy {
  readonly #deps: ResponseCachePolicyDeps;

  constructor(deps: ResponseCachePolicyDeps) {
    this.#deps = deps;
  }

  /**
   * The request's plan; undefined when its caller has no cache (sessions never do): no status, no caching.
   * @param request the request as its wire sent it; its transport fields stay out of the key.
   * @param cacheControl the request's `Cache-Control`, when its wire has one.
   */
  async planOf(
    caller: GatewayCaller,
    request: Readonly<Record<string, unknown>>,
    cacheControl: string | readonly string[] | undefined,
  ): Promise<CachePlan | undefined> {
    if (caller.apiKeyPolicy === undefined) return undefined;
    const cache = effectivePolicy(caller.apiKeyPolicy, await this.#deps.configs.get(caller.merchantId, 'apiKeyDefaults')).cache;
    if (cache === undefined) return undefined;
    return { key: responseCacheKey(caller.merchantId, request), ttlS: cache.ttlS, directive: cacheDirectiveOf(cacheControl) };
  }

  /** The cached answer when the plan allows a lookup and there is one; a failed read is a miss (logged). */
  async lookup(plan: CachePlan, log: Logger): Promise<CachedCompletion | undefined> {
    if (plan.directive !== 'use') return undefined;
    try {
      return await this.#deps.cache.get(plan.key);
    } catch (error) {
      log.warn({ err: error }, 'response cache unreadable: answering as a miss');
      return undefined;
    }
  }

  /** Stores a successful answer unless the request said `no-store`; a failed write is logged, never the request's failure. */
  async store(plan: CachePlan, answer: CachedCompletion, log: Logger): Promise<void> {
    if (plan.directive === 'no-store') return;
    try {
      await this.#deps.cache.set(plan.key, answer, plan.ttlS);
    } catch (error) {
      log.warn({ err: error }, 'answer not stored in the response cache');
    }
  }

  /** Records a hit as an `llm.call` (cost 0, `cacheHit`, the cached tokens, what it saved): spend counting skips it. */
  recordHit(answer: CachedCompletion, latencyMs: number, streamed: boolean, attribution: CallAttribution): void {
    const pricing = resolvePricing(answer.provider, answer.model, (modelId) => this.#deps.models.getModelConfig(modelId, answer.provider)?.pricing);
    this.#deps.recordCall?.({
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
      ...(pricing !== undefined ? { savedCostUsd: callCostUsd(answer.usage, pricing) } : {}),
      attribution,
    });
  }
}
