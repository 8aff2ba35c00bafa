import { createCachedStateStore } from '../../../src/adapters/cache/cached-state-store.js';
import { createRedisStateStore } from '../../../src/adapters/redis/redis-state-store.js';
import { silentLogger } from '../../../src/logging/logger.js';
import type { StateStore } from '../../../src/ports/state-store.js';
import { systemClock } from '../../../src/time/clock.js';
import { deleteRedisNamespace, redisAdminForFile, redisUrl, uniqueNamespace } from './local-services.js';

export interface ReplicaPair {
  readonly a: StateStore;
  readonly b: StateStore;
  dispose(): Promise<void>;
}

export type OpenReplicas = () => Promise<ReplicaPair>;

/**
 * Two replicas on real Redis, each with its own connections (as separate processes would), on one
 * key prefix per call; with `cached`, each behind its own cache, as the runtime composes them. Call at
 * the top of a test file (it registers the file's Redis admin client). Redis must be running: when
 * it is not, the suites fail rather than skip.
 */
export function redisReplicas(label: string): { readonly plain: OpenReplicas; readonly cached: OpenReplicas } {
  const admin = redisAdminForFile();
  const open =
    (wrap: (store: StateStore) => StateStore): OpenReplicas =>
    async () => {
      const keyPrefix = `${uniqueNamespace(label)}:`;
      const connect = () => createRedisStateStore({ url: redisUrl, keyPrefix, logger: silentLogger });
      const [a, b] = await Promise.all([connect(), connect()]);
      return {
        a: wrap(a),
        b: wrap(b),
        async dispose() {
          await Promise.all([a.close(), b.close()]);
          await deleteRedisNamespace(admin(), keyPrefix);
        },
      };
    };
  return {
    plain: open((store) => store),
    cached: open((store) => createCachedStateStore(store, { logger: silentLogger, clock: systemClock })),
  };
}
