import type { CachedCompletion } from '../../ports/state/response-cache.js';
import type { ResponseCache } from '../../ports/state-store.js';
import { parseStored, type RedisContext } from './redis-context.js';

/**
 * The distributed `ResponseCache`: one string key per answer (its JSON), written with `SET … EX`
 * so Redis expires it, under the merchant's `{cache:<merchant>}` hash tag (redis-keys.ts). Every
 * replica reads what any replica stored. Bounded by Redis's own `maxmemory` policy, not here.
 */
export function createRedisResponseCache(context: RedisContext): ResponseCache {
  return {
    get: (key) =>
      context.call('responseCache.get', async (redis) =>
        parseStored<CachedCompletion>(await redis.get(context.keys.responseCache(key.merchantId, key.requestHash))),
      ),
    set: (key, value, ttlS) =>
      context.call('responseCache.set', async (redis) => {
        await redis.set(context.keys.responseCache(key.merchantId, key.requestHash), JSON.stringify(value), 'EX', Math.max(1, Math.ceil(ttlS)));
      }),
  };
}
