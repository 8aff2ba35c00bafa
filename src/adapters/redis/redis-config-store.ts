import type { ConfigStore } from '../../ports/state-store.js';
import { parseStored, type RedisContext } from './redis-context.js';

/** Per-merchant config documents as JSON strings; the write modes map to SET NX / SET XX / SET. */
export function createRedisConfigStore(context: RedisContext): ConfigStore {
  const { keys } = context;
  return {
    get: (merchantId, name) => context.call('configs.get', async (redis) => parseStored(await redis.get(keys.config(merchantId, name)))),
    put: (merchantId, name, value, mode) =>
      context.call('configs.put', async (redis) => {
        const key = keys.config(merchantId, name);
        const json = JSON.stringify(value);
        if (mode === 'upsert') {
          await redis.set(key, json);
          return 'written';
        }
        const set = mode === 'create' ? await redis.set(key, json, 'NX') : await redis.set(key, json, 'XX');
        if (set !== null) return 'written';
        return mode === 'create' ? 'exists' : 'missing';
      }),
    delete: (merchantId, name) => context.call('configs.delete', async (redis) => (await redis.del(keys.config(merchantId, name))) > 0),
  };
}
