import { Redis } from 'ioredis';
import { afterAll, beforeAll } from 'vitest';
import { createCachedStateStore } from '../../../src/adapters/cache/cached-state-store.js';
import { createRedisStateStore } from '../../../src/adapters/redis/redis-state-store.js';
import { silentLogger } from '../../../src/logging/logger.js';
import { systemClock } from '../../../src/time/clock.js';
import { membersReplicaSuite } from '../../helpers/members-replica-suite.js';
import { redisUrl, uniqueNamespace } from '../adapters/local-services.js';

/*
 * Merchant members (invite, removal) across two replicas on real Redis, each with its own connections and
 * cache (as the runtime composes them), on one key prefix per test. Redis must be running.
 */

let admin: Redis;

beforeAll(async () => {
  admin = new Redis(redisUrl, { lazyConnect: true, maxRetriesPerRequest: 0, retryStrategy: () => null });
  try {
    await admin.connect();
  } catch (error) {
    throw new Error(`Redis is not reachable at ${redisUrl}: start it with \`bash deploy/local/redis.sh start\``, { cause: error });
  }
});

afterAll(async () => {
  await admin?.quit();
});

async function deleteNamespace(prefix: string): Promise<void> {
  let cursor = '0';
  do {
    const [next, found] = await admin.scan(cursor, 'MATCH', `${prefix}*`, 'COUNT', 500);
    cursor = next;
    if (found.length > 0) await admin.del(...found);
  } while (cursor !== '0');
}

membersReplicaSuite('Redis behind a cache per replica', async () => {
  const keyPrefix = `${uniqueNamespace('members-replica')}:`;
  const open = () => createRedisStateStore({ url: redisUrl, keyPrefix, logger: silentLogger });
  const [a, b] = await Promise.all([open(), open()]);
  return {
    a: createCachedStateStore(a, { logger: silentLogger, clock: systemClock }),
    b: createCachedStateStore(b, { logger: silentLogger, clock: systemClock }),
    async dispose() {
      await Promise.all([a.close(), b.close()]);
      await deleteNamespace(keyPrefix);
    },
  };
});
