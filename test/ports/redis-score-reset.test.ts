import { createRedisStateStore } from '../../src/adapters/redis/redis-state-store.js';
import { silentLogger } from '../../src/logging/logger.js';
import { deleteRedisNamespace, redisAdminForFile, redisUrl, uniqueNamespace } from '../integration/adapters/local-services.js';
import { scoreResetSuite } from './score-reset.suite.js';

const admin = redisAdminForFile();

scoreResetSuite('redis', async () => {
  const keyPrefix = `${uniqueNamespace('score-reset')}:`;
  const store = await createRedisStateStore({ url: redisUrl, keyPrefix, logger: silentLogger });
  return {
    store,
    async dispose() {
      await store.close();
      await deleteRedisNamespace(admin(), keyPrefix);
    },
  };
});
