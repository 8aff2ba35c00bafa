import type { EmbedResult } from '../embeddings/embed-options.js';
import type { GatewayCaller } from './gateway-caller.js';
import { routeDecision, routedAttribution, type GatewayRouter, type RouteDecision } from './gateway-router.js';
import type { GatewayToolkit } from './gateway-toolkit.js';

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
  readonly toolkit: GatewayToolkit;
  readonly router: GatewayRouter;
}

/**
 * The gateway's embeddings, whatever wire asked: the learning router picks the target or ranks a
 * route group, the toolkit embeds on the first candidate that answers and records the call.
 * Embeddings are never cached (only chat answers are).
 */
export class EmbeddingUseCase {
  readonly #deps: EmbeddingDeps;

  constructor(deps: EmbeddingDeps) {
    this.#deps = deps;
  }

  async embed(call: EmbeddingCall): Promise<EmbeddingOutcome> {
    const { toolkit, router } = this.#deps;
    const route = await router.routeOf(call.caller.merchantId, call.model, call.input);
    const options = {
      input: call.input,
      ...(route.kind === 'direct' ? { provider: route.target.provider, model: route.target.model } : {}),
      ...(call.dimensions !== undefined ? { dimensions: call.dimensions } : {}),
      abortSignal: call.signal,
      attribution: routedAttribution(call.caller.attribution, route),
    };
    const result = route.kind === 'direct' ? await toolkit.embed(options) : await toolkit.embedAcross(route.ranking.candidates, options);
    return { result, decision: routeDecision(route, result.provider, result.model, result.attempts.length) };
  }
}
