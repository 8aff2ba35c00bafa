import { Redis } from 'ioredis';
import { afterAll, beforeAll } from 'vitest';
import { createRedisStateStore } from '../../src/adapters/redis/redis-state-store.js';
import { silentLogger } from '../../src/logging/logger.js';
import { deleteRedisNamespace, redisUrl, uniqueNamespace } from '../integration/adapters/local-services.js';
import { usageStoreSuite } from './usage-store.suite.js';

let admin: Redis;

beforeAll(async () => {
  admin = new Redis(redisUrl, { lazyConnect: true, maxRetriesPerRequest: 0, retryStrategy: () => null });
  await admin.connect();
});

afterAll(() => {
  admin?.disconnect();
});

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
      await deleteRedisNamespace(admin, keyPrefix);
    },
  };
});
