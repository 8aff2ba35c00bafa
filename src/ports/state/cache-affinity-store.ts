/**
 * Where a conversation's provider-side prompt cache lives (issue 34): the route-group candidate
 * that last served a request carrying the same affinity key. A prompt cache belongs to one
 * provider account and deployment, so the learning router keeps a cached conversation there
 * (src/generation/gateway/cache-affinity.ts decides when not to).
 */
export interface AffinityHolder {
  /** `provider/model` of the candidate that served the key last (candidateId of ./route-group.ts). */
  readonly candidate: string;
  /** Estimated tokens that call left cached on the candidate (its prompt up to its last cache breakpoint). */
  readonly cachedTokens: number;
}

/** One affinity entry: always under its merchant and route group, so neither two merchants nor two groups share one. */
export interface CacheAffinityKey {
  readonly merchantId: string;
  /** The route group the key was routed through (the same conversation in two groups may sit on two candidates). */
  readonly routeGroup: string;
  /** SHA-256 (hex) of the request's affinity source (src/generation/gateway/cache-affinity-key.ts), never the client's text. */
  readonly key: string;
}

/**
 * The candidate holding each conversation's prompt cache, kept as long as a provider keeps a
 * cache after its last use (5 minutes; an hour when the request asked for a 1h cache). Every
 * replica reads what any replica stored.
 *
 * @remarks A cache of a cache: an entry may be gone before its TTL (the embedded adapter evicts the
 * least recently used beyond its bound, Redis under memory pressure), and a lost entry only costs
 * one cold prompt. No delete or listing: nothing needs them; the TTL bounds how long a holder counts.
 */
export interface CacheAffinityStore {
  /** The holder stored under `key`, or undefined when there is none or it expired. */
  get(key: CacheAffinityKey): Promise<AffinityHolder | undefined>;
  /** Stores (or replaces) the holder under `key` for `ttlS` seconds: each call that stores it again refreshes it. */
  set(key: CacheAffinityKey, holder: AffinityHolder, ttlS: number): Promise<void>;
}
