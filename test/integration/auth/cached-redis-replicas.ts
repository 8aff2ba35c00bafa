import { createCachedStateStore } from '../../../src/adapters/cache/cached-state-store.js';
import { createRedisStateStore } from '../../../src/adapters/redis/redis-state-store.js';
import { silentLogger } from '../../../src/logging/logger.js';
import type { StateStore } from '../../../src/ports/state-store.js';
import { systemClock } from '../../../src/time/clock.js';
import { deleteRedisNamespace, redisAdminForFile, redisUrl, uniqueNamespace } from '../adapters/local-services.js';

/**
 * Two replicas on real Redis, each with its own connections and cache (as the runtime composes them),
 * on one key prefix per call: the factory the two-replica suites take. Call at the top of a test file
 * (it registers the file's Redis admin client). Redis must be running.
 */
export function cachedRedisReplicas(label: string): () => Promise<{ a: StateStore; b: StateStore; dispose(): Promise<void> }> {
  const admin = redisAdminForFile();
  return async () => {
    const keyPrefix = `${uniqueNamespace(label)}:`;
    const open = () => createRedisStateStore({ url: redisUrl, keyPrefix, logger: silentLogger });
    const [a, b] = await Promise.all([open(), open()]);
    return {
      a: createCachedStateStore(a, { logger: silentLogger, clock: systemClock }),
      b: createCachedStateStore(b, { logger: silentLogger, clock: systemClock }),
      async dispose() {
        await Promise.all([a.close(), b.close()]);
        await deleteRedisNamespace(admin(), keyPrefix);
      },
    };
  };
}
