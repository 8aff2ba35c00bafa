import { createRedisKeys } from '../../src/adapters/redis/redis-keys.js';
import { createRedisStateStore } from '../../src/adapters/redis/redis-state-store.js';
import { silentLogger } from '../../src/logging/logger.js';
import { deleteRedisNamespace, redisAdminForFile, redisUrl, uniqueNamespace } from '../integration/adapters/local-services.js';
import { responseStoreSuite } from './response-store.suite.js';

const admin = redisAdminForFile();

// Two replicas: two clients of their own on one Redis namespace; Redis expires responses on its own time.
responseStoreSuite('redis', async () => {
  const keyPrefix = `${uniqueNamespace('response-store')}:`;
  const keys = createRedisKeys(keyPrefix);
  const first = await createRedisStateStore({ url: redisUrl, keyPrefix, logger: silentLogger });
  const second = await createRedisStateStore({ url: redisUrl, keyPrefix, logger: silentLogger });
  return {
    replicas: [first.responses, second.responses],
    ttlMsOf: async (merchantId, id) => admin().pttl(keys.storedResponse(merchantId, id)),
    async dispose() {
      await first.close();
      await second.close();
      await deleteRedisNamespace(admin(), keyPrefix);
    },
  };
});
