import { createHash } from 'node:crypto';
import type { ResponseCacheKey } from '../../ports/state-store.js';

/**
 * Request fields that never change the answer, so they stay out of the cache key: who asks
 * (`user`, an end-user id for abuse tracking) and how the answer travels (`stream`,
 * `stream_options`; a cached answer is replayed in either form). Everything else is in the key,
 * fields the gateway ignores today included (`top_p`, `stop`, `seed`, …): a field that could matter
 * must split entries, never merge them.
 */
const transportFields: ReadonlySet<string> = new Set(['user', 'stream', 'stream_options']);

/** JSON with object keys sorted at every depth: one text per value, whatever the client's key order. */
export function canonicalJson(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map((item) => (item === undefined ? 'null' : canonicalJson(item))).join(',')}]`;
  if (value !== null && typeof value === 'object') {
    const entries = Object.entries(value as Record<string, unknown>)
      .filter(([, item]) => item !== undefined)
      .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
    return `{${entries.map(([key, item]) => `${JSON.stringify(key)}:${canonicalJson(item)}`).join(',')}}`;
  }
  return JSON.stringify(value);
}

/**
 * The cache key of a chat request for a merchant: SHA-256 over the canonical JSON of the request
 * without its transport fields, under the merchant's id (the adapters keep merchants apart in
 * their key layout, and the merchant is hashed in too, so no two merchants can ever share).
 */
export function responseCacheKey(merchantId: string, request: Readonly<Record<string, unknown>>): ResponseCacheKey {
  const normalized = Object.fromEntries(Object.entries(request).filter(([field]) => !transportFields.has(field)));
  const requestHash = createHash('sha256').update(merchantId).update('\u0000').update(canonicalJson(normalized)).digest('hex');
  return { merchantId, requestHash };
}

/**
 * What a request's `Cache-Control` asks of the response cache: `no-cache` skips the lookup (the
 * fresh answer is still stored), `no-store` skips both lookup and store. Other directives
 * (`max-age`, …) are not honoured: the key's TTL alone decides how old a reused answer may be.
 */
export type CacheDirective = 'use' | 'no-cache' | 'no-store';

export function cacheDirectiveOf(header: string | readonly string[] | undefined): CacheDirective {
  if (header === undefined) return 'use';
  const directives = (typeof header === 'string' ? [header] : header).flatMap((value) => value.split(',')).map((value) => value.trim().toLowerCase());
  if (directives.includes('no-store')) return 'no-store';
  if (directives.includes('no-cache')) return 'no-cache';
  return 'use';
}
