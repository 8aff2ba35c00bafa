import { createRedisKeys } from '../../src/adapters/redis/redis-keys.js';
import { createRedisStateStore } from '../../src/adapters/redis/redis-state-store.js';
import { silentLogger } from '../../src/logging/logger.js';
import { createManualClock } from '../../src/time/clock.js';
import { deleteRedisNamespace, redisAdminForFile, redisUrl, uniqueNamespace } from '../integration/adapters/local-services.js';
import { conversationStoreSuite } from './conversation-store.suite.js';

const admin = redisAdminForFile();

// Two replicas: two clients of their own on one Redis namespace; Redis expires sessions on its own time.
conversationStoreSuite('redis', async () => {
  const keyPrefix = `${uniqueNamespace('conversations')}:`;
  const keys = createRedisKeys(keyPrefix);
  const clock = createManualClock();
  const first = await createRedisStateStore({ url: redisUrl, keyPrefix, logger: silentLogger, clock });
  const second = await createRedisStateStore({ url: redisUrl, keyPrefix, logger: silentLogger, clock });
  return {
    replicas: [first.conversations, second.conversations],
    now: () => clock.now(),
    ttlMsOf: async (key) => {
      const [turns, meta] = await Promise.all([
        admin().pttl(keys.conversationTurns(key.merchantId, key.sessionId)),
        admin().pttl(keys.conversationMeta(key.merchantId, key.sessionId)),
      ]);
      // Both keys of a session expire together.
      return Math.abs(turns - meta) < 1000 ? Math.min(turns, meta) : -1;
    },
    async dispose() {
      await first.close();
      await second.close();
      await deleteRedisNamespace(admin(), keyPrefix);
    },
  };
});
