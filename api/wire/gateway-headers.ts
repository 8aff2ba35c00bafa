import type { FastifyRequest } from 'fastify';
import type { RouteDecision } from '../../src/generation/gateway/gateway-router.js';
import type { CacheStatus } from '../../src/generation/gateway/response-cache-policy.js';
import { droppedFieldsHeader, droppedFor, type InboundWire } from '../../src/generation/gateway/translated-fields.js';

/** Response headers that make the routing decision visible (and the cache's part, for a key with a cache). */
export function decisionHeaders(decision: RouteDecision, cache?: CacheStatus): Record<string, string> {
  return {
    'x-switchyard-provider': decision.provider,
    'x-switchyard-model': decision.model,
    'x-switchyard-routing-approach': decision.approach,
    'x-switchyard-hops': String(decision.hops),
    ...(decision.routeGroup !== undefined ? { 'x-switchyard-route-group': decision.routeGroup } : {}),
    ...(decision.cacheAffinity !== undefined ? { 'x-switchyard-cache-affinity': decision.cacheAffinity } : {}),
    ...(cache !== undefined ? { 'x-cache': cache } : {}),
  };
}

/**
 * Headers of an answer the gateway translated for another provider's wire: its routing decision and,
 * in `x-switchyard-dropped-fields`, what of the client's request the translation could not carry.
 */
export function translatedHeaders(wire: InboundWire, body: unknown, decision: RouteDecision, cache?: CacheStatus): Record<string, string> {
  const dropped = droppedFor(wire, body as Readonly<Record<string, unknown>>, decision.provider);
  return { ...decisionHeaders(decision, cache), ...(dropped.length > 0 ? { [droppedFieldsHeader]: dropped.join(', ') } : {}) };
}

/** Headers of an answer from the response cache: who answered first, and HIT. */
export function cacheHitHeaders(answer: { readonly provider: string; readonly model: string }): Record<string, string> {
  return { 'x-switchyard-provider': answer.provider, 'x-switchyard-model': answer.model, 'x-cache': 'HIT' };
}

/** Headers of every SSE answer. */
export function streamHeaders(request: FastifyRequest): Record<string, string> {
  return { 'content-type': 'text/event-stream; charset=utf-8', connection: 'keep-alive', 'x-request-id': String(request.id) };
}
