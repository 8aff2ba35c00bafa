import type { Logger } from '../../logging/logger.js';
import { checkStructuredOutput } from '../build-result.js';
import type { CachedCompletion } from '../../ports/state-store.js';
import type { ModelCallResult } from '../language-model-client.js';
import type { ProviderCallContext, ProviderCallStream } from '../provider-calls.js';
import { completionOf } from './completion-of.js';
import type { RoutedCall } from './forward-call.js';
import type { GatewayCaller } from './gateway-caller.js';
import { routeDecision, routedAttribution, type AffinitySource, type GatewayRoute, type GatewayRouter, type RouteDecision } from './gateway-router.js';
import type { GatewayCandidate, GatewayProviderCalls } from './gateway-provider-calls.js';
import { cacheStatusOf, type CachePlan, type CacheStatus, type ResponseCachePolicy } from './response-cache-policy.js';
import type { TranslatedCall } from './translated-call.js';

/** One chat generation, already validated and mapped from its wire. */
export interface ChatCompletionCall {
  readonly caller: GatewayCaller;
  /** Where to send it: `provider/model`, a registry name, or one of the merchant's route groups. */
  readonly model: string;
  /** The request mapped from its wire for the provider-protocol layer (the use case picks the candidates, signal and attribution). */
  readonly call: TranslatedCall;
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
  readonly calls: GatewayProviderCalls;
  readonly router: GatewayRouter;
  readonly responseCache: ResponseCachePolicy;
}

/**
 * The gateway's translated generation, whatever wire asked (chat completions, Messages, Responses):
 * the response cache first, then the learning router (a target or a route group's ranking), then
 * the provider-protocol layer, which fails over across candidates before the first byte and records
 * every call as an `llm.call` (the spend counter reads those). The request goes as its client sent
 * it: nothing of the toolkit's options, so none of its defaults. Limits and budgets were applied before this call
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

  /** Where one routed call may go, and what bounds and records it; a target the client named must be configured. */
  async #targetOf(call: ChatCompletionCall, route: GatewayRoute): Promise<{ candidates: readonly GatewayCandidate[]; context: ProviderCallContext }> {
    // The merchant's credentials are read once for the whole call (the check and every attempt).
    const scope = await this.#deps.calls.scopeOf(call.caller.merchantId);
    if (route.kind === 'direct') await this.#deps.calls.requireConfigured(route.target.provider, scope);
    const { schema } = call.call;
    return {
      candidates: route.kind === 'direct' ? [route.target] : route.ranking.candidates,
      context: {
        attribution: routedAttribution(call.caller.attribution, route),
        abortSignal: call.signal,
        scope,
        ...(schema !== undefined ? { checkAnswer: (result: ModelCallResult, provider: string) => checkStructuredOutput(schema, result, provider) } : {}),
      },
    };
  }

  async #generate(call: ChatCompletionCall, route: GatewayRoute, plan: CachePlan | undefined, cache: CacheStatus | undefined): Promise<ChatCompletionOutcome> {
    const { candidates, context } = await this.#targetOf(call, route);
    const answered = await this.#deps.calls.generate(candidates, call.call.request, context);
    const provider = answered.client.provider;
    const model = answered.result.modelId || answered.client.modelId;
    await this.#rememberServed(route, provider, model, answered.attempts.length, call.log);
    const answer = completionOf(
      { provider, model, ...answered.result },
      answered.object !== undefined ? JSON.stringify(answered.object) : answered.result.text,
    );
    if (plan !== undefined) await this.#deps.responseCache.store(plan, answer, call.log);
    const hops = (call.routed?.kind === 'routed' ? call.routed.hops : 0) + answered.attempts.length;
    return { kind: 'answer', answer, decision: routeDecision(route, provider, model, hops), cache };
  }

  async #stream(call: ChatCompletionCall, route: GatewayRoute, plan: CachePlan | undefined, cache: CacheStatus | undefined): Promise<ChatCompletionOutcome> {
    const { candidates, context } = await this.#targetOf(call, route);
    const streamed = await this.#deps.calls.stream(candidates, call.call.request, context);
    // A streamed answer reports one hop when it fell over to another candidate before its first chunk.
    const fellOver = streamed.attempts.length > 0 ? 1 : 0;
    await this.#rememberServed(route, streamed.client.provider, streamed.client.modelId, fellOver, call.log);
    const decision = routeDecision(
      route,
      streamed.client.provider,
      streamed.client.modelId,
      (call.routed?.kind === 'routed' ? call.routed.hops : 0) + fellOver,
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

  async *#chunksOf(streamed: ProviderCallStream, plan: CachePlan | undefined, log: Logger): AsyncGenerator<ChatChunk> {
    const pieces: string[] = [];
    for await (const text of streamed.textStream) {
      // An empty delta says nothing: no chunk for it.
      if (text === '') continue;
      pieces.push(text);
      yield { type: 'text', text };
    }
    const { result } = await streamed.answer;
    const answer = completionOf({ provider: streamed.client.provider, model: result.modelId || streamed.client.modelId, ...result }, pieces.join(''));
    // Stored before the finish chunk: a client that asks again as soon as its stream ends finds it.
    if (plan !== undefined) await this.#deps.responseCache.store(plan, answer, log);
    yield { type: 'finish', answer };
  }
}
