import type { ResponseStore, StoredResponse } from '../../ports/state-store.js';
import { parseStored, type RedisContext } from './redis-context.js';

/**
 * The distributed `ResponseStore`: one string key per response (its JSON), written with `SET … EX`
 * so Redis expires it, under the merchant's `{resp:<merchant>}` hash tag (redis-keys.ts).
 */
export function createRedisResponseStore(context: RedisContext): ResponseStore {
  return {
    put: (record, ttlS) =>
      context.call('responses.put', async (redis) => {
        await redis.set(context.keys.storedResponse(record.merchantId, record.id), JSON.stringify(record), 'EX', Math.max(1, Math.ceil(ttlS)));
      }),
    get: (merchantId, id) =>
      context.call('responses.get', async (redis) => parseStored<StoredResponse>(await redis.get(context.keys.storedResponse(merchantId, id)))),
    delete: (merchantId, id) => context.call('responses.delete', async (redis) => (await redis.del(context.keys.storedResponse(merchantId, id))) === 1),
  };
}
