import { OldestFirst } from './oldest-first.js';
import type { CachedCompletion } from '../../ports/state/response-cache.js';
import type { ResponseCache } from '../../ports/state-store.js';
import type { Clock } from '../../time/clock.js';

export interface MemoryResponseCacheOptions {
  /** Entries kept at most; the least recently used go first. */
  readonly maxEntries: number;
  /** Bytes of stored answers (their JSON text, UTF-8) kept at most; an answer larger than this is not kept. */
  readonly maxBytes: number;
  /** Expiry is read from this clock (the app's, so tests move it by hand). */
  readonly clock: Clock;
}

/** 10,000 answers or 64 MiB, whichever is reached first: a few KiB per chat answer, and room to spare on a small host. */
export const defaultResponseCacheBounds = { maxEntries: 10_000, maxBytes: 64 * 1024 * 1024 } as const;

interface Entry {
  readonly json: string;
  readonly bytes: number;
  readonly expiresAtMs: number;
}

/**
 * The embedded `ResponseCache`: a bounded LRU in process memory, never journaled (a restart
 * starts cold, like a Redis flush would). Entries are kept as JSON text, as Redis keeps them, so
 * a reader never shares an object with another and the byte bound measures what is really held.
 */
export function createMemoryResponseCache(options: MemoryResponseCacheOptions): ResponseCache {
  /** Map order is recency order: a read moves its entry to the end, eviction takes from the front. */
  const entries = new Map<string, Entry>();
  const eviction = new OldestFirst(entries);
  let bytes = 0;
  const idOf = (merchantId: string, requestHash: string) => `${merchantId}\u0000${requestHash}`;

  function remove(id: string): void {
    const entry = entries.get(id);
    if (entry === undefined) return;
    entries.delete(id);
    bytes -= entry.bytes;
  }

  return {
    async get(key) {
      const id = idOf(key.merchantId, key.requestHash);
      const entry = entries.get(id);
      if (entry === undefined) return undefined;
      if (entry.expiresAtMs <= options.clock.now()) {
        remove(id);
        return undefined;
      }
      entries.delete(id);
      entries.set(id, entry);
      return JSON.parse(entry.json) as CachedCompletion;
    },
    async set(key, value, ttlS) {
      const id = idOf(key.merchantId, key.requestHash);
      const json = JSON.stringify(value);
      const size = Buffer.byteLength(json);
      remove(id);
      if (size > options.maxBytes || options.maxEntries < 1) return;
      entries.set(id, { json, bytes: size, expiresAtMs: options.clock.now() + ttlS * 1000 });
      bytes += size;
      while (entries.size > options.maxEntries || bytes > options.maxBytes) {
        const evicted = eviction.evict();
        if (evicted === undefined) break;
        bytes -= evicted[1].bytes;
      }
    },
  };
}
