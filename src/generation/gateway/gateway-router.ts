import { SwitchyardError } from '../../errors/switchyard-error.js';
import type { RandomSource } from '../../decision/random-source.js';
import type { TokenPrice } from '../../governance/reservation.js';
import type { AffinityHolder, CacheAffinityKey, CacheAffinityStore, ConfigStore, ScoreStore } from '../../ports/state-store.js';
import type { CallAttribution } from '../llm-call-record.js';
import type { DynamicModelRegistry } from '../models/dynamic-model-registry.js';
import { averagePrice } from '../models/model-config.js';
import { recentOutcomesRead, servedCandidate, warmAveragePrice, warmShare, type AffinityOutcome } from './cache-affinity.js';
import { cacheAffinityOfKey, type CacheAffinity } from './cache-affinity-key.js';
import { UnsupportedChatRequest } from './openai-chat-request.js';
import { resolveGatewayModel, type GatewayTarget } from './resolve-gateway-model.js';
import { readConfig } from '../../ports/state/config-store.js';
import { candidateId } from '../../ports/state/route-group.js';
import {
  candidateLatencyWindowKey,
  candidateWindowKey,
  learnsLatency,
  rankCandidates,
  routeAttribution,
  type CandidateFacts,
  type Ranking,
  type RouteGroup,
} from './route-group.js';
import { applyRouteRules, estimatePromptTokens } from './route-rules.js';

/** A routed request's conversation cache: where its holder is remembered, for how long, and what it leaves cached. */
export interface RouteAffinity {
  readonly storeKey: CacheAffinityKey;
  readonly ttlS: number;
  readonly cacheableTokens: number;
}

/** Where one request goes: a single target, or a route group's ranked candidates (its failover order). */
export type GatewayRoute =
  | { readonly kind: 'direct'; readonly target: GatewayTarget }
  | {
      readonly kind: 'group';
      readonly group: RouteGroup;
      readonly ranking: Ranking;
      /** Present when the request carried an affinity key and the group keeps affinity: who answers is remembered ({@link GatewayRouter.rememberServed}). */
      readonly affinity?: RouteAffinity;
    };

/** The affinity of a request, or how to work it out: worked out only for a route group that keeps affinity (it walks the whole body). */
export type AffinitySource = CacheAffinity | (() => CacheAffinity | undefined);

/** What a caller may add to a routing: the request's cache affinity (cache-affinity-key.ts). */
export interface RouteOptions {
  /** The affinity of the request as its wire carries it (`() => cacheAffinityOf(wire, body)`). */
  readonly affinity?: AffinitySource | undefined;
  /** A bare client cache key (e.g. `prompt_cache_key` read by a pass-through), when `affinity` is not given. */
  readonly affinityKey?: string | undefined;
}

/** What a wire shows of the routing decision of an answered request (OpenAI's: `x-switchyard-*` headers). */
export interface RouteDecision {
  readonly provider: string;
  readonly model: string;
  /** How `model` was read: `explicit`, `registry`, or `route_group:<sr | sr_downtime | explore>`. */
  readonly approach: string;
  /** Candidates that failed before the one that answered. */
  readonly hops: number;
  readonly routeGroup?: string;
  /** What cache affinity did (`kept`, `new`, `left_<why>`, `off`), when the request carried an affinity key. */
  readonly cacheAffinity?: AffinityOutcome;
}

export function routeDecision(route: GatewayRoute, provider: string, model: string, hops: number): RouteDecision {
  return {
    provider,
    model,
    approach: route.kind === 'direct' ? route.target.approach : `route_group:${route.ranking.approach}`,
    hops,
    ...(route.kind === 'group' ? { routeGroup: route.group.name } : {}),
    ...(route.kind === 'group' && route.ranking.affinity !== undefined ? { cacheAffinity: route.ranking.affinity } : {}),
  };
}

/** The caller's attribution plus, for a route group, what its calls' records say of the ranking (the learning router's input). */
export function routedAttribution(attribution: CallAttribution, route: GatewayRoute): CallAttribution {
  return { ...attribution, ...(route.kind === 'group' ? routeAttribution(route.group, route.ranking) : {}) };
}

/** What the gateway reads of the model registry: models, embedding prices, and each model's output limit (`maxOutputTokensOf`). */
export type GatewayModelRegistry = Pick<DynamicModelRegistry, 'getModelConfig' | 'getEmbeddingPricing' | 'maxOutputTokensOf'>;

/** What the registry says of a candidate model (capabilities, average price), when it knows it. */
export function registryFactsOf(models: GatewayModelRegistry, provider: string, model: string): CandidateFacts | undefined {
  const found = models.getModelConfig(model, provider);
  return found === undefined ? undefined : { capabilities: found.capabilities, averagePrice: averagePrice(found) };
}

/**
 * A merchant's stored route groups ([] when it has none): without a promise while the store holds
 * them in memory (the caching decorator's copy, dropped when the groups are written), else read.
 */
export function routeGroupsOf(configs: Pick<ConfigStore, 'get' | 'held'>, merchantId: string): readonly RouteGroup[] | Promise<readonly RouteGroup[]> {
  const groups = readConfig(configs, merchantId, 'llmRouteGroups');
  return groups instanceof Promise ? groups.then((read) => read ?? []) : (groups ?? []);
}

export interface GatewayRouterDeps {
  /** The merchant's route groups (`llmRouteGroups`). */
  readonly configs: Pick<ConfigStore, 'get' | 'held'>;
  /** Each candidate's success-rate (and speed) window. */
  readonly scores: Pick<ScoreStore, 'readWindows'>;
  readonly models: GatewayModelRegistry;
  /** Exploration draws of the learning router. */
  readonly random: RandomSource;
  /** Which candidate holds each conversation's prompt cache; without it the router keeps no affinity. */
  readonly affinity?: CacheAffinityStore | undefined;
}

/**
 * The gateway's learning router: where a request's `model` goes. A merchant's route group of that
 * name wins: its rules narrow the candidates for this prompt, then they are ranked (success rate,
 * and latency and cost when the group weighs them). Else `provider/model` or a registry name.
 */
export class GatewayRouter {
  readonly #deps: GatewayRouterDeps;

  constructor(deps: GatewayRouterDeps) {
    this.#deps = deps;
  }

  /**
   * @throws SwitchyardError `SY_MODEL_NOT_FOUND` when `model` names nothing known, and
   * `SY_GATEWAY_REQUEST_UNSUPPORTED` when the group's rules leave no candidate for this prompt.
   */
  async routeOf(merchantId: string, model: string, prompt: unknown, options: RouteOptions = {}): Promise<GatewayRoute> {
    const stored = (await routeGroupsOf(this.#deps.configs, merchantId)).find((candidate) => candidate.name === model);
    if (stored !== undefined) return this.#rankGroup(merchantId, stored, prompt, options);
    const target = resolveGatewayModel(model, this.#deps.models);
    if (target === undefined) {
      throw new SwitchyardError('SY_MODEL_NOT_FOUND', {
        message: `The model \`${model}\` does not exist: use provider/model, a registry alias (GET /v1/models) or a route group (GET /v1/route-groups)`,
      });
    }
    return { kind: 'direct', target };
  }

  /** The registry prices of where `model` goes: the target, or every candidate of a route group (what a budget reservation is priced at). */
  async pricesOf(merchantId: string, model: string): Promise<(TokenPrice | undefined)[]> {
    const { models } = this.#deps;
    const group = (await routeGroupsOf(this.#deps.configs, merchantId)).find((candidate) => candidate.name === model);
    // A chat model's price, else an embedding model's (the embeddings route reserves through here too).
    const priceOf = (provider: string, id: string) => models.getModelConfig(id, provider)?.pricing ?? models.getEmbeddingPricing(id, provider);
    if (group !== undefined) return group.candidates.map((candidate) => priceOf(candidate.provider, candidate.model));
    const target = resolveGatewayModel(model, models);
    return [target === undefined ? undefined : priceOf(target.provider, target.model)];
  }

  /**
   * Remembers which candidate answered a routed request, as the holder of its conversation's
   * cache, for the cache's lifetime (refreshed by every call). Nothing for a direct route or a
   * request without affinity; a candidate the answer cannot be matched to is not remembered.
   */
  async rememberServed(route: GatewayRoute, provider: string, model: string, hops: number): Promise<void> {
    const store = this.#deps.affinity;
    if (route.kind !== 'group' || route.affinity === undefined || store === undefined) return;
    const served = servedCandidate(route.ranking.candidates, provider, model, hops);
    if (served === undefined) return;
    const holder: AffinityHolder = { candidate: candidateId(served.provider, served.model), cachedTokens: route.affinity.cacheableTokens };
    await store.set(route.affinity.storeKey, holder, route.affinity.ttlS);
  }

  async #rankGroup(merchantId: string, stored: RouteGroup, prompt: unknown, options: RouteOptions): Promise<GatewayRoute> {
    const { models, scores, random } = this.#deps;
    const contextWindowOf = (provider: string, model: string) => models.getModelConfig(model, provider)?.contextWindow;
    const promptTokens = estimatePromptTokens(JSON.stringify(prompt));
    const ruled = applyRouteRules(stored, { promptTokens }, contextWindowOf);
    if (ruled.kind === 'refused')
      throw new UnsupportedChatRequest(`No candidate of route group "${stored.name}" may serve this request under its rule "${ruled.rule}"`, 'model');
    const group: RouteGroup = { ...stored, candidates: ruled.candidates };
    const keysOf = (window: typeof candidateWindowKey) =>
      group.candidates.map((candidate) => window(merchantId, group.name, candidate.provider, candidate.model));
    const asked = options.affinity !== undefined || options.affinityKey !== undefined;
    const keeps = group.cacheAffinity !== false && this.#deps.affinity !== undefined;
    const requested = asked && keeps ? affinityOf(options, promptTokens) : undefined;
    const affinity: RouteAffinity | undefined =
      requested !== undefined
        ? { storeKey: { merchantId, routeGroup: group.name, key: requested.key }, ttlS: requested.ttlS, cacheableTokens: requested.cacheableTokens }
        : undefined;
    const [windows, latencyWindows, recent, holder] = await Promise.all([
      scores.readWindows(keysOf(candidateWindowKey), group.bucketSize),
      learnsLatency(group) ? scores.readWindows(keysOf(candidateLatencyWindowKey), group.bucketSize) : undefined,
      affinity !== undefined ? scores.readWindows(keysOf(candidateWindowKey), recentOutcomesRead) : undefined,
      affinity !== undefined ? this.#deps.affinity?.get(affinity.storeKey) : undefined,
    ]);
    // Where the group weighs cost, the holder's cached share of this prompt is priced at the cache-read price; every other candidate is cold.
    const share = warmShare(holder, requested?.promptTokens ?? promptTokens);
    const prices =
      (group.objectives?.costWeight ?? 0) > 0
        ? group.candidates.map((candidate) => {
            const pricing = models.getModelConfig(candidate.model, candidate.provider)?.pricing;
            if (pricing === undefined) return undefined;
            const warm = share > 0 && holder?.candidate === candidateId(candidate.provider, candidate.model);
            return warm ? warmAveragePrice(pricing, share) : registryFactsOf(models, candidate.provider, candidate.model)?.averagePrice;
          })
        : undefined;
    const signals = {
      ...(latencyWindows !== undefined ? { latencyWindows } : {}),
      ...(prices !== undefined ? { prices } : {}),
      ...(asked && !keeps ? { affinity: 'off' as const } : recent !== undefined ? { affinity: { holder, recent } } : {}),
    };
    const ranking = rankCandidates(group, windows, random, signals);
    return { kind: 'group', group, ranking, ...(affinity !== undefined ? { affinity } : {}) };
  }
}

/** The request's affinity from what the caller gave: its wire's (worked out now), else a bare client key's. */
function affinityOf(options: RouteOptions, promptTokens: number): CacheAffinity | undefined {
  const given = typeof options.affinity === 'function' ? options.affinity() : options.affinity;
  return given ?? (options.affinityKey !== undefined ? cacheAffinityOfKey(options.affinityKey, promptTokens) : undefined);
}
