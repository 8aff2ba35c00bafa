import type { Logger } from '../../logging/logger.js';
import type { CachedCompletion } from '../../ports/state-store.js';
import type { GenerateOptions } from '../generate-options.js';
import type { StreamResult } from '../generate-result.js';
import { completionOf } from './completion-of.js';
import type { RoutedCall } from './forward-call.js';
import type { GatewayCaller } from './gateway-caller.js';
import { routeDecision, routedAttribution, type AffinitySource, type GatewayRoute, type GatewayRouter, type RouteDecision } from './gateway-router.js';
import type { GatewayToolkit } from './gateway-toolkit.js';
import { cacheStatusOf, type CachePlan, type CacheStatus, type ResponseCachePolicy } from './response-cache-policy.js';

/** One chat generation, already validated and mapped from its wire. */
export interface ChatCompletionCall {
  readonly caller: GatewayCaller;
  /** Where to send it: `provider/model`, a registry name, or one of the merchant's route groups. */
  readonly model: string;
  /** The toolkit options of the request, without provider, model, abort signal or attribution (the use case sets those). */
  readonly options: GenerateOptions;
  /** The prompt as sent (route rules estimate its tokens from its JSON). */
  readonly prompt: unknown;
  readonly stream: boolean;
  /**
   * The request as its wire sent it, from which the response cache key is made (its transport
   * fields, `stream` and `user`, left out): a wire must pass a shape no other wire's requests take.
   */
  readonly cacheKeySource: Readonly<Record<string, unknown>>;
  /** The request's `Cache-Control` (`no-cache`, `no-store`), when its wire carries one. */
  readonly cacheControl: string | readonly string[] | undefined;
  /** The conversation's prompt-cache key (`() => cacheAffinityOf(wire, body)`): a route group keeps it on the candidate holding its cache. */
  readonly affinity?: AffinitySource | undefined;
  /** Fires when the caller has gone: the provider call is cancelled. */
  readonly signal: AbortSignal;
  readonly log: Logger;
  /**
   * Set when the native pass-through (./forward-call.ts) has already looked the cache up and routed
   * the request, and hands its untried candidates over to translation.
   */
  readonly routed?: RoutedCall | undefined;
}

/** What a stream yields: text as it arrives, then the whole answer once it has ended (and is cached). */
export type ChatChunk = { readonly type: 'text'; readonly text: string } | { readonly type: 'finish'; readonly answer: CachedCompletion };

export type ChatCompletionOutcome =
  /** Answered from the response cache: no routing, no provider; the hit is recorded. */
  | { readonly kind: 'cached'; readonly answer: CachedCompletion }
  | { readonly kind: 'answer'; readonly answer: CachedCompletion; readonly decision: RouteDecision; readonly cache: CacheStatus | undefined }
  /**
   * A stream whose provider has answered (the candidate can no longer change). Iterating
   * `chunks` throws when the stream fails after its start.
   */
  | { readonly kind: 'stream'; readonly decision: RouteDecision; readonly cache: CacheStatus | undefined; readonly chunks: AsyncIterable<ChatChunk> };

export interface ChatCompletionDeps {
  readonly toolkit: GatewayToolkit;
  readonly router: GatewayRouter;
  readonly responseCache: ResponseCachePolicy;
}

/**
 * The gateway's chat generation, whatever wire asked (OpenAI chat completions today): the response
 * cache first, then the learning router (a target or a route group's ranking), then the toolkit,
 * which fails over across candidates before the first byte and records every call as an
 * `llm.call` (the spend counter reads those). Limits and budgets were applied before this call
 * (the key-limits plugin); authentication by the caller's credential.
 */
export class ChatCompletionUseCase {
  readonly #deps: ChatCompletionDeps;

  constructor(deps: ChatCompletionDeps) {
    this.#deps = deps;
  }

  async complete(call: ChatCompletionCall): Promise<ChatCompletionOutcome> {
    if (call.routed?.kind === 'cached') return { kind: 'cached', answer: call.routed.answer };
    if (call.routed !== undefined) {
      const { route, plan, cache } = call.routed;
      return call.stream ? this.#stream(call, route, plan, cache) : this.#generate(call, route, plan, cache);
    }
    const started = performance.now();
    const { responseCache, router } = this.#deps;
    const plan = await responseCache.planOf(call.caller, call.cacheKeySource, call.cacheControl);
    const hit = plan === undefined ? undefined : await responseCache.lookup(plan, call.log);
    if (hit !== undefined) {
      responseCache.recordHit(hit, performance.now() - started, call.stream, call.caller.attribution);
      return { kind: 'cached', answer: hit };
    }
    const cache = plan === undefined ? undefined : cacheStatusOf(plan, false);
    const route = await router.routeOf(call.caller.merchantId, call.model, call.prompt, { affinity: call.affinity });
    return call.stream ? this.#stream(call, route, plan, cache) : this.#generate(call, route, plan, cache);
  }

  /**
   * The toolkit options of one routed call. `defaults: 'provider'`: the gateway forwards what its
   * client sent, so a sampling or length setting the client left out is left out upstream too
   * (never the toolkit's documented temperature 0.7 / maxTokens 1000).
   */
  #optionsOf(call: ChatCompletionCall, route: GatewayRoute): GenerateOptions {
    return {
      ...call.options,
      defaults: 'provider',
      ...(route.kind === 'direct' ? { provider: route.target.provider, model: route.target.model } : {}),
      abortSignal: call.signal,
      attribution: routedAttribution(call.caller.attribution, route),
    };
  }

  async #generate(call: ChatCompletionCall, route: GatewayRoute, plan: CachePlan | undefined, cache: CacheStatus | undefined): Promise<ChatCompletionOutcome> {
    const { toolkit } = this.#deps;
    const options = this.#optionsOf(call, route);
    const result = route.kind === 'direct' ? await toolkit.generate(options) : await toolkit.generateAcross(route.ranking.candidates, options);
    await this.#rememberServed(route, result.provider, result.model, result.attempts.length, call.log);
    const answer = completionOf(result, result.object !== undefined ? JSON.stringify(result.object) : result.content);
    if (plan !== undefined) await this.#deps.responseCache.store(plan, answer, call.log);
    const hops = (call.routed?.kind === 'routed' ? call.routed.hops : 0) + result.attempts.length;
    return { kind: 'answer', answer, decision: routeDecision(route, result.provider, result.model, hops), cache };
  }

  async #stream(call: ChatCompletionCall, route: GatewayRoute, plan: CachePlan | undefined, cache: CacheStatus | undefined): Promise<ChatCompletionOutcome> {
    const { toolkit } = this.#deps;
    const options = this.#optionsOf(call, route);
    const streamed = route.kind === 'direct' ? await toolkit.stream(options) : await toolkit.streamAcross(route.ranking.candidates, options);
    await this.#rememberServed(route, streamed.provider, streamed.model, streamed.metadata.fallback === true ? 1 : 0, call.log);
    // A streamed answer reports one hop when it fell over to another candidate before its first chunk.
    const decision = routeDecision(
      route,
      streamed.provider,
      streamed.model,
      (call.routed?.kind === 'routed' ? call.routed.hops : 0) + (streamed.metadata.fallback === true ? 1 : 0),
    );
    return { kind: 'stream', decision, cache, chunks: this.#chunksOf(streamed, plan, call.log) };
  }

  /** The answering candidate becomes its conversation's cache holder; a store that fails costs a cold cache later, never this answer. */
  async #rememberServed(route: GatewayRoute, provider: string, model: string, hops: number, log: Logger): Promise<void> {
    try {
      await this.#deps.router.rememberServed(route, provider, model, hops);
    } catch (error) {
      log.warn({ err: error }, 'cache affinity not remembered');
    }
  }

  async *#chunksOf(streamed: StreamResult, plan: CachePlan | undefined, log: Logger): AsyncGenerator<ChatChunk> {
    const pieces: string[] = [];
    for await (const piece of streamed.stream) {
      pieces.push(piece.content);
      yield { type: 'text', text: piece.content };
    }
    const answer = completionOf(await streamed.final, pieces.join(''));
    // Stored before the finish chunk: a client that asks again as soon as its stream ends finds it.
    if (plan !== undefined) await this.#deps.responseCache.store(plan, answer, log);
    yield { type: 'finish', answer };
  }
}
