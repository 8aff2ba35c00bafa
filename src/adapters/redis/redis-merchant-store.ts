import type { MerchantAccount, MerchantStore } from '../../ports/state-store.js';
import { parseStored, type RedisContext } from './redis-context.js';

/** Merchant accounts as JSON strings; `create` is SET NX so two creators cannot both win. */
export function createRedisMerchantStore(context: RedisContext): MerchantStore {
  const { keys } = context;
  return {
    get: (merchantId) => context.call('merchants.get', async (redis) => parseStored<MerchantAccount>(await redis.get(keys.merchant(merchantId)))),
    create: (account) =>
      context.call('merchants.create', async (redis) => {
        const set = await redis.set(keys.merchant(account.merchantId), JSON.stringify(account), 'NX');
        return set === null ? 'exists' : 'created';
      }),
    delete: (merchantId) => context.call('merchants.delete', async (redis) => (await redis.del(keys.merchant(merchantId))) > 0),
  };
}
