import { createRedisKeys } from '../../src/adapters/redis/redis-keys.js';
import { createRedisStateStore } from '../../src/adapters/redis/redis-state-store.js';
import { silentLogger } from '../../src/logging/logger.js';
import { deleteRedisNamespace, redisAdminForFile, redisUrl, uniqueNamespace } from '../integration/adapters/local-services.js';
import { mcpSessionStoreSuite } from './mcp-session-store.suite.js';

const admin = redisAdminForFile();

// Two replicas: two clients of their own on one Redis namespace; Redis expires sessions on its own time.
mcpSessionStoreSuite('redis', async () => {
  const keyPrefix = `${uniqueNamespace('mcp-sessions')}:`;
  const keys = createRedisKeys(keyPrefix);
  const first = await createRedisStateStore({ url: redisUrl, keyPrefix, logger: silentLogger });
  const second = await createRedisStateStore({ url: redisUrl, keyPrefix, logger: silentLogger });
  return {
    replicas: [first.mcpSessions, second.mcpSessions],
    ttlMsOf: async (sessionId) => admin().pttl(keys.mcpSession(sessionId)),
    async dispose() {
      await first.close();
      await second.close();
      await deleteRedisNamespace(admin(), keyPrefix);
    },
  };
});
