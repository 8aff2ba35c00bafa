import { createRedisStateStore } from '../../src/adapters/redis/redis-state-store.js';
import { silentLogger } from '../../src/logging/logger.js';
import { deleteRedisNamespace, redisAdminForFile, redisUrl, uniqueNamespace } from '../integration/adapters/local-services.js';
import { usageStoreSuite } from './usage-store.suite.js';

const admin = redisAdminForFile();

// Two replicas: two clients of their own on one Redis namespace.
usageStoreSuite('redis', async () => {
  const keyPrefix = `${uniqueNamespace('usage')}:`;
  const first = await createRedisStateStore({ url: redisUrl, keyPrefix, logger: silentLogger });
  const second = await createRedisStateStore({ url: redisUrl, keyPrefix, logger: silentLogger });
  return {
    replicas: [first.usage, second.usage],
    async dispose() {
      await first.close();
      await second.close();
      await deleteRedisNamespace(admin(), keyPrefix);
    },
  };
});
