import { createRedisKeys } from '../../src/adapters/redis/redis-keys.js';
import { createRedisStateStore } from '../../src/adapters/redis/redis-state-store.js';
import { silentLogger } from '../../src/logging/logger.js';
import { deleteRedisNamespace, redisAdminForFile, redisUrl, uniqueNamespace } from '../integration/adapters/local-services.js';
import { cacheAffinityStoreSuite } from './cache-affinity-store.suite.js';

const admin = redisAdminForFile();

// Two replicas: two clients of their own on one Redis namespace; Redis expires entries on its own time.
cacheAffinityStoreSuite('redis', async () => {
  const keyPrefix = `${uniqueNamespace('cache-affinity')}:`;
  const keys = createRedisKeys(keyPrefix);
  const first = await createRedisStateStore({ url: redisUrl, keyPrefix, logger: silentLogger });
  const second = await createRedisStateStore({ url: redisUrl, keyPrefix, logger: silentLogger });
  return {
    replicas: [first.cacheAffinity, second.cacheAffinity],
    ttlMsOf: async (key) => admin().pttl(keys.cacheAffinity(key.merchantId, key.routeGroup, key.key)),
    async dispose() {
      await first.close();
      await second.close();
      await deleteRedisNamespace(admin(), keyPrefix);
    },
  };
});
