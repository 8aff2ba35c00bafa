import { normalizeEmbedOptions, type EmbedResult } from '../embeddings/embed-options.js';
import type { GatewayCaller } from './gateway-caller.js';
import { routeDecision, routedAttribution, type GatewayRouter, type RouteDecision } from './gateway-router.js';
import type { GatewayProviderCalls } from './gateway-provider-calls.js';

/** One embeddings request, already validated and mapped from its wire. */
export interface EmbeddingCall {
  readonly caller: GatewayCaller;
  /** `provider/model`, a registry name, or a route group of embedding models. */
  readonly model: string;
  readonly input: string | readonly string[];
  readonly dimensions?: number;
  /** Fires when the caller has gone: the provider call is cancelled. */
  readonly signal: AbortSignal;
}

export interface EmbeddingOutcome {
  readonly result: EmbedResult;
  readonly decision: RouteDecision;
}

export interface EmbeddingDeps {
  readonly calls: GatewayProviderCalls;
  readonly router: GatewayRouter;
}

/**
 * The gateway's embeddings, whatever wire asked: the learning router picks the target or ranks a
 * route group, the provider-protocol layer embeds on the first candidate that answers and records
 * the call.
 * Embeddings are never cached (only chat answers are).
 */
export class EmbeddingUseCase {
  readonly #deps: EmbeddingDeps;

  constructor(deps: EmbeddingDeps) {
    this.#deps = deps;
  }

  /** @throws InvalidRequestError for input the toolkit's embed refuses (empty texts, too many, dimensions out of range). */
  async embed(call: EmbeddingCall): Promise<EmbeddingOutcome> {
    const { calls, router } = this.#deps;
    const route = await router.routeOf(call.caller.merchantId, call.model, call.input);
    const request = normalizeEmbedOptions({ input: call.input, ...(call.dimensions !== undefined ? { dimensions: call.dimensions } : {}) });
    const scope = await calls.scopeOf(call.caller.merchantId);
    if (route.kind === 'direct') await calls.requireConfigured(route.target.provider, scope);
    const started = performance.now();
    const answer = await calls.embed(
      route.kind === 'direct' ? [route.target] : route.ranking.candidates,
      { values: request.values, dimensions: request.dimensions },
      { attribution: routedAttribution(call.caller.attribution, route), abortSignal: call.signal, scope },
    );
    const result: EmbedResult = {
      embeddings: answer.result.embeddings,
      provider: answer.client.provider,
      model: answer.client.modelId,
      usage: { inputTokens: answer.result.inputTokens },
      responseTime: Math.round(performance.now() - started),
      attempts: answer.attempts,
    };
    return { result, decision: routeDecision(route, result.provider, result.model, result.attempts.length) };
  }
}
