import type { AffinityHolder, WindowRead } from '../../ports/state-store.js';
import type { ModelPricing } from '../models/model-config.js';

/*
 * Cache-aware routing (issue 34 point 4): a conversation whose prompt is cached stays on the
 * route-group candidate that holds its cache, unless that candidate is eliminated, failing, or no
 * longer a candidate of the request. Where a group ranks by price, the holder's cached share is
 * priced at its cache-read price and every other candidate at full input price, and the holder
 * stays first only while that warm price keeps its score the best (a cold cache is a cost to
 * weigh, not a rule: a cheaper model cold can still beat a dear one warm). Pure rules; the router
 * (gateway-router.ts) reads and writes the holders.
 */

/** How many of a candidate's newest outcomes say whether it is failing now (its window may still average well). */
export const recentOutcomesRead = 3;

/**
 * 1,024 tokens: the shortest prefix Anthropic (Sonnet, Opus) and OpenAI cache at all; below it a
 * holder has nothing cached, so it is priced cold.
 */
export const minimumCachedTokens = 1024;

/**
 * 0.1: Anthropic's cache-read multiple of the base input price (OpenAI's cached input is 0.1–0.5×).
 * Used only where the registry gives no cache-read price of its own.
 */
export const fallbackCacheReadShare = 0.1;

/**
 * Why a conversation's holder was not put first: eliminated, failing, no longer a candidate, or (in
 * a group that weighs cost) scored below another candidate even with its warm cache priced in.
 */
export type AffinityLeft = 'eliminated' | 'failing' | 'not_candidate' | 'costlier';

/**
 * What affinity did to one request's ranking: `kept` (its holder put first), `new` (no holder yet:
 * ranked as usual, the one that answers becomes it), `left_<why>`, or `off` (the group turned it off).
 */
export type AffinityOutcome = 'kept' | 'new' | `left_${AffinityLeft}` | 'off';

export type AffinityVerdict = { readonly follow: true; readonly index: number } | { readonly follow: false; readonly outcome: AffinityOutcome };

/** True when more than half of a candidate's newest outcomes failed (a single newest failure counts). */
export function isFailing(recent: WindowRead | undefined): boolean {
  return recent !== undefined && recent.length > 0 && recent.successes * 2 < recent.length;
}

/**
 * Whether a request follows its conversation's holder: only while the holder is one of the
 * request's candidates (its rules may have narrowed them), is not eliminated (below the group's
 * threshold) and is not failing now. Elsewhere the usual ranking decides, and whoever answers
 * becomes the holder: a cold cache once beats a warm cache on a failing deployment.
 */
export function affinityVerdict(input: {
  readonly holder: AffinityHolder | undefined;
  /** `provider/model` of each candidate, in group order. */
  readonly candidates: readonly string[];
  readonly eliminated: readonly boolean[];
  /** Each candidate's newest outcomes (`recentOutcomesRead`), in group order. */
  readonly recent: readonly (WindowRead | undefined)[];
}): AffinityVerdict {
  if (input.holder === undefined) return { follow: false, outcome: 'new' };
  const index = input.candidates.indexOf(input.holder.candidate);
  if (index === -1) return { follow: false, outcome: 'left_not_candidate' };
  if (input.eliminated[index] === true) return { follow: false, outcome: 'left_eliminated' };
  if (isFailing(input.recent[index])) return { follow: false, outcome: 'left_failing' };
  return { follow: true, index };
}

/** The share of a request's prompt its holder has cached: 0 below the minimum a provider caches. */
export function warmShare(holder: AffinityHolder | undefined, promptTokens: number): number {
  if (holder === undefined || holder.cachedTokens < minimumCachedTokens || !(promptTokens > 0)) return 0;
  return Math.min(1, holder.cachedTokens / promptTokens);
}

/** A registry price that may carry cache prices (the cache-pricing change adds them; absent, the fallback applies). */
export type CachePricing = ModelPricing & { readonly cacheRead?: number };

/** The price of a cached input token (USD per 1K): the registry's `cacheRead`, else {@link fallbackCacheReadShare} of input. */
export function cacheReadPriceOf(pricing: CachePricing): number {
  return pricing.cacheRead ?? pricing.input * fallbackCacheReadShare;
}

/**
 * The average price (input and output, USD per 1K, as cost ranking compares) of a candidate for a
 * request of which `share` is in its warm cache: that share of the input at the cache-read price,
 * the rest at full input price. A cold candidate is `warmAveragePrice(pricing, 0)`, its plain average.
 */
export function warmAveragePrice(pricing: CachePricing, share: number): number {
  const input = pricing.input * (1 - share) + cacheReadPriceOf(pricing) * share;
  return (input + pricing.output) / 2;
}

/**
 * Which of a ranking's candidates answered, from what the answer names: the candidate of that
 * provider and model, else (a provider reports a dated model id) the one tried at `hops` if its
 * provider matches, else the only candidate of that provider; undefined when it cannot tell.
 */
export function servedCandidate<C extends { readonly provider: string; readonly model: string }>(
  candidates: readonly C[],
  provider: string,
  model: string,
  hops: number,
): C | undefined {
  const exact = candidates.find((candidate) => candidate.provider === provider && candidate.model === model);
  if (exact !== undefined) return exact;
  const tried = candidates[hops];
  if (tried !== undefined && tried.provider === provider) return tried;
  const sameProvider = candidates.filter((candidate) => candidate.provider === provider);
  return sameProvider.length === 1 ? sameProvider[0] : undefined;
}
