import { Redis } from 'ioredis';
import { afterAll, beforeAll } from 'vitest';
import { createCachedStateStore } from '../../../src/adapters/cache/cached-state-store.js';
import { createRedisStateStore } from '../../../src/adapters/redis/redis-state-store.js';
import { silentLogger } from '../../../src/logging/logger.js';
import type { StateStore } from '../../../src/ports/state-store.js';
import { systemClock } from '../../../src/time/clock.js';
import { routingRuleReplicaSuite } from '../../helpers/routing-rule-replica-suite.js';
import { redisUrl, uniqueNamespace } from '../adapters/local-services.js';

/*
 * The routing-rule replica suite on real Redis: each replica opens its own connections (as separate processes
 * would), on one key prefix per test. Redis must be running (deploy/local/redis.sh start); when it
 * is not, these tests fail rather than skip.
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

/** Deletes every key under a prefix (SCAN, never KEYS, so a shared server is not blocked). */
async function deleteNamespace(prefix: string): Promise<void> {
  let cursor = '0';
  do {
    const [next, found] = await admin.scan(cursor, 'MATCH', `${prefix}*`, 'COUNT', 500);
    cursor = next;
    if (found.length > 0) await admin.del(...found);
  } while (cursor !== '0');
}

async function openReplicas(wrap: (store: StateStore) => StateStore) {
  const keyPrefix = `${uniqueNamespace('rules-replica')}:`;
  const open = () => createRedisStateStore({ url: redisUrl, keyPrefix, logger: silentLogger });
  const [a, b] = await Promise.all([open(), open()]);
  return {
    a: wrap(a),
    b: wrap(b),
    async dispose() {
      await Promise.all([a.close(), b.close()]);
      await deleteNamespace(keyPrefix);
    },
  };
}

routingRuleReplicaSuite('Redis, one connection set per replica', () => openReplicas((store) => store));

routingRuleReplicaSuite('Redis behind a cache per replica, as the runtime composes it', () =>
  openReplicas((store) => createCachedStateStore(store, { logger: silentLogger, clock: systemClock })),
);
