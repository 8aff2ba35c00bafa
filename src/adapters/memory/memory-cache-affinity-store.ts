import { OldestFirst } from './oldest-first.js';
import type { AffinityHolder, CacheAffinityStore } from '../../ports/state-store.js';
import type { Clock } from '../../time/clock.js';

/**
 * 100,000 conversations: an entry is a candidate id and a number (about 200 bytes with its key), so
 * about 20 MiB at most; more live conversations than that in 5 minutes on one embedded process is
 * beyond what the embedded mode is for, and an evicted entry only costs one cold prompt.
 */
export const defaultMaxAffinityEntries = 100_000;

interface Entry {
  readonly holder: AffinityHolder;
  readonly expiresAtMs: number;
}

/**
 * The embedded `CacheAffinityStore`: a bounded LRU in process memory, never journaled (a restart
 * starts cold, as the providers' caches may have by then too). Expiry reads the store's clock.
 */
export function createMemoryCacheAffinityStore(options: { readonly clock: Clock; readonly maxEntries?: number }): CacheAffinityStore {
  const maxEntries = options.maxEntries ?? defaultMaxAffinityEntries;
  /** Map order is recency order: a read or write moves its entry to the end, eviction takes from the front. */
  const entries = new Map<string, Entry>();
  const eviction = new OldestFirst(entries);
  const idOf = (merchantId: string, routeGroup: string, key: string) => `${merchantId}\u0000${routeGroup}\u0000${key}`;
  return {
    async get(key) {
      const id = idOf(key.merchantId, key.routeGroup, key.key);
      const entry = entries.get(id);
      if (entry === undefined) return undefined;
      entries.delete(id);
      if (entry.expiresAtMs <= options.clock.now()) return undefined;
      entries.set(id, entry);
      return { ...entry.holder };
    },
    async set(key, holder, ttlS) {
      const id = idOf(key.merchantId, key.routeGroup, key.key);
      entries.delete(id);
      if (maxEntries < 1) return;
      entries.set(id, { holder: { candidate: holder.candidate, cachedTokens: holder.cachedTokens }, expiresAtMs: options.clock.now() + ttlS * 1000 });
      eviction.trimTo(maxEntries);
    },
  };
}
