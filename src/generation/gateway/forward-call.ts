import { cacheAffinityOf } from './cache-affinity-key.js';
import type { Logger } from '../../logging/logger.js';
import type { CachedCompletion } from '../../ports/state-store.js';
import { isRetryableError } from '../fallback-chain.js';
import type { TokenUsage } from '../language-model-client.js';
import { isTerminalEvent, type NativeWire, type NativeWireEvent, type NativeWireResponse, type NativeWireSummary } from '../native-wire.js';
import type { GatewayCaller } from './gateway-caller.js';
import type { ImageUrlPolicy } from './image-url-policy.js';
import { chatAnswerOfBody, chatAnswerOfEvents } from './native-chat-completion.js';
import { refuseImageUrls } from './native-image-urls.js';
import { routeDecision, routedAttribution, type GatewayRoute, type GatewayRouter, type RouteDecision } from './gateway-router.js';
import type { GatewayCandidate, GatewayProviderCalls } from './gateway-provider-calls.js';
import { cacheStatusOf, type CachePlan, type CacheStatus, type ResponseCachePolicy } from './response-cache-policy.js';

/** One gateway request in a provider wire, validated only for what the gateway acts on. */
export interface ForwardCall {
  readonly caller: GatewayCaller;
  readonly wire: NativeWire;
  /** Where to send it: `provider/model`, a registry name, or one of the merchant's route groups. */
  readonly model: string;
  /** The body to forward as it is (its `model` is rewritten per candidate). */
  readonly body: Readonly<Record<string, unknown>>;
  /** The client's headers of the wire (`anthropic-version`, `anthropic-beta`), passed on to an upstream of the wire. */
  readonly headers: Readonly<Record<string, string>>;
  readonly stream: boolean;
  /** The prompt as sent (route rules estimate its tokens from its JSON). */
  readonly prompt: unknown;
  /** The request from which the response cache key is made (see `ChatCompletionCall.cacheKeySource`). */
  readonly cacheKeySource: Readonly<Record<string, unknown>>;
  readonly cacheControl: string | readonly string[] | undefined;
  /** Fires when the caller has gone: the provider call is cancelled. */
  readonly signal: AbortSignal;
  readonly log: Logger;
  /** GATEWAY_ALLOW_IMAGE_URLS for the wires it governs (Messages, Responses); absent: images by URL pass. */
  readonly imageUrls?: ImageUrlPolicy | undefined;
}

/**
 * Where the translated path takes over: an answer of its own the response cache held (the hit
 * already recorded), or the routing (narrowed to the candidates not yet tried), the response
 * cache's plan, and how many candidates failed before.
 */
export type RoutedCall =
  | { readonly kind: 'cached'; readonly answer: CachedCompletion }
  | {
      readonly kind: 'routed';
      readonly route: GatewayRoute;
      readonly plan: CachePlan | undefined;
      readonly cache: CacheStatus | undefined;
      /** Candidates tried natively (and failed retryably) before the translated path takes over. */
      readonly hops: number;
    };

export type ForwardOutcome =
  /** The response cache held this wire's native answer: replayed as received. */
  | { readonly kind: 'native-cached'; readonly answer: CachedCompletion; readonly response: NativeWireResponse }
  /** The provider's own answer (a JSON body, its events, or its refusal), with the routing decision. */
  | { readonly kind: 'native'; readonly decision: RouteDecision; readonly cache: CacheStatus | undefined; readonly response: NativeWireResponse }
  /** No candidate left that speaks the wire (or the cache held a translated answer): the translated path answers, on this routing. */
  | { readonly kind: 'translate'; readonly routed: RoutedCall };

export interface ForwardCallDeps {
  readonly calls: GatewayProviderCalls;
  readonly router: GatewayRouter;
  readonly responseCache: ResponseCachePolicy;
}

/**
 * The gateway's native pass-through (issue 34), for every wire a provider speaks (Messages,
 * Responses, Chat Completions): the response cache first, then the learning router (a target or a
 * route group's ranking), then each candidate in order: forwarded as the client sent it (only
 * `model` rewritten) when its provider speaks the wire, else handed to the translated path with
 * the candidates left. A retryable failure before the first byte (a refusal such as 429/5xx, a
 * network failure, an error event first) moves on to the next candidate; a refusal that is not
 * (a 400) is the client's answer, in the provider's own body and status. Every attempt is an
 * `llm.call` (the provider-protocol layer records it with the provider's usage), so spend, key limits, the
 * learning router's windows and spans count it as they count translated calls.
 */
export class ForwardCallUseCase {
  readonly #deps: ForwardCallDeps;

  constructor(deps: ForwardCallDeps) {
    this.#deps = deps;
  }

  /** @throws UnsupportedChatRequest for an image URL the operator's policy refuses; the router's errors. */
  async forward(call: ForwardCall): Promise<ForwardOutcome> {
    if (call.imageUrls !== undefined) refuseImageUrls(call.body, call.imageUrls);
    const started = performance.now();
    const { responseCache, router, calls } = this.#deps;
    const plan = await responseCache.planOf(call.caller, call.cacheKeySource, call.cacheControl);
    const hit = plan === undefined ? undefined : await responseCache.lookup(plan, call.log);
    const replay = hit === undefined ? 'none' : replayKindOf(hit, call);
    if (hit !== undefined && replay !== 'none') {
      responseCache.recordHit(hit, performance.now() - started, call.stream, call.caller.attribution);
      // A native answer of this form is replayed as received; any other as the translated path renders it.
      return replay === 'native'
        ? { kind: 'native-cached', answer: hit, response: replayOf(hit) }
        : { kind: 'translate', routed: { kind: 'cached', answer: hit } };
    }
    const cache = plan === undefined ? undefined : cacheStatusOf(plan, false);
    // A route group that keeps cache affinity sends a conversation back to the candidate holding its prompt cache.
    const route = await router.routeOf(call.caller.merchantId, call.model, call.prompt, { affinity: () => cacheAffinityOf(call.wire, call.body) });
    const candidates: readonly GatewayCandidate[] = route.kind === 'direct' ? [route.target] : route.ranking.candidates;
    const attribution = routedAttribution(call.caller.attribution, route);
    const request = { wire: call.wire, body: call.body, headers: call.headers, stream: call.stream, abortSignal: call.signal };
    // The merchant's credentials, read once for every candidate tried.
    const scope = await calls.scopeOf(call.caller.merchantId);
    for (const [hop, candidate] of candidates.entries()) {
      const last = hop === candidates.length - 1;
      // `forward` answers undefined for a candidate that does not speak the wire (translated then):
      // asking first would build the provider's client twice per request.
      let response: NativeWireResponse | undefined;
      try {
        response = await calls.forward(candidate, request, { attribution, hop, scope });
      } catch (error) {
        if (!last && isRetryableError(error)) continue;
        throw error;
      }
      if (response === undefined) return { kind: 'translate', routed: { kind: 'routed', route: narrowed(route, hop), plan, cache, hops: hop } };
      if (response.kind === 'error' && response.error.isRetryable && !last) continue;
      // A refusal of the gateway's own credentials (401/403) is not the client's to read: answered as
      // an upstream failure (502), as on the translated path, never with the provider's words about the key.
      if (response.kind === 'error' && response.error.code === 'AUTHENTICATION') throw response.error;
      const answered = response.kind === 'json' ? response.summary.model : candidate.model;
      const decision = routeDecision(route, candidate.provider, answered, hop);
      const kept = plan === undefined ? response : await this.#kept(response, plan, call, candidate);
      if (response.kind !== 'error') await this.#rememberServed(route, candidate, hop, call.log);
      return { kind: 'native', decision, cache, response: kept };
    }
    // Unreachable: the last candidate either answers or throws; a route has at least one candidate.
    return { kind: 'translate', routed: { kind: 'routed', route, plan, cache, hops: 0 } };
  }

  /** Who served the conversation is remembered for its cache affinity; a store that fails costs the next turn its warm cache, never this answer. */
  async #rememberServed(route: GatewayRoute, candidate: GatewayCandidate, hop: number, log: Logger): Promise<void> {
    try {
      await this.#deps.router.rememberServed(route, candidate.provider, candidate.model, hop);
    } catch (error) {
      log.warn({ err: error }, 'cache affinity not remembered');
    }
  }

  /**
   * The answer, stored in the response cache once complete: a plain one now, a stream at its
   * terminal event (before handing it on, so a client that asks again at once finds it).
   */
  async #kept(response: NativeWireResponse, plan: CachePlan, call: ForwardCall, candidate: GatewayCandidate): Promise<NativeWireResponse> {
    const { responseCache } = this.#deps;
    // A chat answer also keeps what the translated renderers need, so it is replayed in the other form too.
    const entry = (summary: NativeWireSummary, native: NonNullable<CachedCompletion['native']>): CachedCompletion => ({
      provider: candidate.provider,
      model: summary.model,
      ...(call.wire !== 'openai-chat'
        ? { content: '', toolCalls: [], finishReason: 'stop' as const }
        : native.streamed
          ? chatAnswerOfEvents(native.events ?? [])
          : chatAnswerOfBody(native.body ?? '')),
      usage: plainUsage(summary.usage),
      native,
    });
    if (response.kind === 'error') return response;
    if (response.kind === 'json') {
      await responseCache.store(
        plan,
        entry(response.summary, { wire: call.wire, streamed: false, contentType: response.contentType, body: response.body }),
        call.log,
      );
      return response;
    }
    const events = async function* (): AsyncGenerator<NativeWireEvent> {
      const seen: NativeWireEvent[] = [];
      for await (const event of response.events) {
        seen.push(event);
        // Stored before the terminal event passes: a client that asks again as soon as it reads it finds it.
        if (isTerminalEvent(call.wire, event))
          await responseCache.store(
            plan,
            entry(await response.summary, { wire: call.wire, streamed: true, events: seen, includeUsage: includesUsage(call.body) }),
            call.log,
          );
        yield event;
      }
    };
    return { kind: 'stream', events: events(), summary: response.summary };
  }
}

/**
 * How a cached answer answers `call`: a translated one (or a native chat answer asked in the other
 * form) as the translated path renders it, a native one of the same wire and form as received;
 * a native answer of another wire, or of Messages/Responses in the other form, not at all.
 */
function replayKindOf(hit: CachedCompletion, call: Pick<ForwardCall, 'wire' | 'stream' | 'body'>): 'native' | 'rendered' | 'none' {
  if (hit.native === undefined) return 'rendered';
  if (hit.native.wire !== call.wire) return 'none';
  const sameUsage = call.wire !== 'openai-chat' || !call.stream || (hit.native.includeUsage === true) === includesUsage(call.body);
  if (hit.native.streamed === call.stream && sameUsage) return 'native';
  return call.wire === 'openai-chat' ? 'rendered' : 'none';
}

/** Whether a chat request asks for the usage chunk (`stream_options.include_usage`). */
function includesUsage(body: Readonly<Record<string, unknown>>): boolean {
  const options = body['stream_options'];
  return typeof options === 'object' && options !== null && (options as Record<string, unknown>)['include_usage'] === true;
}

/** The route's candidates from `from` on (a direct route is its one target). */
function narrowed(route: GatewayRoute, from: number): GatewayRoute {
  if (route.kind === 'direct' || from === 0) return route;
  return { ...route, ranking: { ...route.ranking, candidates: route.ranking.candidates.slice(from) } };
}

/** The in/out/total counts the response cache keeps of an answer. */
function plainUsage(usage: TokenUsage): CachedCompletion['usage'] {
  return { inputTokens: usage.inputTokens, outputTokens: usage.outputTokens, totalTokens: usage.totalTokens };
}

/** A cached native answer as the response it was. */
function replayOf(hit: CachedCompletion): NativeWireResponse {
  const native = hit.native!;
  const summary: NativeWireSummary = { usage: hit.usage, estimated: false, model: hit.model };
  if (!native.streamed) return { kind: 'json', status: 200, contentType: native.contentType ?? 'application/json', body: native.body ?? '', summary };
  const events = native.events ?? [];
  return {
    kind: 'stream',
    events: (async function* () {
      yield* events;
    })(),
    summary: Promise.resolve(summary),
  };
}
