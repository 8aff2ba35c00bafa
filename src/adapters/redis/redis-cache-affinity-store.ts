import type { AffinityHolder, CacheAffinityStore } from '../../ports/state-store.js';
import { parseStored, type RedisContext } from './redis-context.js';

/**
 * The distributed `CacheAffinityStore`: one string key per conversation (the holder's JSON),
 * written with `SET … EX` so Redis expires it, under the merchant's `{aff:<merchant>}` hash tag
 * (redis-keys.ts). Every replica routes a conversation by what any replica stored.
 */
export function createRedisCacheAffinityStore(context: RedisContext): CacheAffinityStore {
  return {
    get: (key) =>
      context.call('cacheAffinity.get', async (redis) =>
        parseStored<AffinityHolder>(await redis.get(context.keys.cacheAffinity(key.merchantId, key.routeGroup, key.key))),
      ),
    set: (key, holder, ttlS) =>
      context.call('cacheAffinity.set', async (redis) => {
        const value = JSON.stringify({ candidate: holder.candidate, cachedTokens: holder.cachedTokens });
        await redis.set(context.keys.cacheAffinity(key.merchantId, key.routeGroup, key.key), value, 'EX', Math.max(1, Math.ceil(ttlS)));
      }),
  };
}
