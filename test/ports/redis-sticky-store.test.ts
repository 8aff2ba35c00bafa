import { createRedisKeys } from '../../src/adapters/redis/redis-keys.js';
import { createRedisStateStore } from '../../src/adapters/redis/redis-state-store.js';
import { silentLogger } from '../../src/logging/logger.js';
import { deleteRedisNamespace, redisAdminForFile, redisUrl, uniqueNamespace } from '../integration/adapters/local-services.js';
import { stickyStoreSuite } from './sticky-store.suite.js';

const admin = redisAdminForFile();

// Two replicas: two clients of their own on one Redis namespace; Redis expires counts on its own time.
stickyStoreSuite('redis', async () => {
  const keyPrefix = `${uniqueNamespace('sticky')}:`;
  const keys = createRedisKeys(keyPrefix);
  const first = await createRedisStateStore({ url: redisUrl, keyPrefix, logger: silentLogger });
  const second = await createRedisStateStore({ url: redisUrl, keyPrefix, logger: silentLogger });
  return {
    replicas: [first.sticky, second.sticky],
    ttlMsOf: async (customer) => admin().pttl(keys.stickyCounts(customer.merchantId, customer.customerKey)),
    async dispose() {
      await first.close();
      await second.close();
      await deleteRedisNamespace(admin(), keyPrefix);
    },
  };
});
