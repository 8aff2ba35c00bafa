import { createCachedStateStore } from '../../../src/adapters/cache/cached-state-store.js';
import { createRedisStateStore } from '../../../src/adapters/redis/redis-state-store.js';
import { silentLogger } from '../../../src/logging/logger.js';
import { systemClock } from '../../../src/time/clock.js';
import { gatewayScoreResetSuite } from '../../helpers/gateway-score-reset-suite.js';
import { deleteRedisNamespace, redisAdminForFile, redisUrl, uniqueNamespace } from '../adapters/local-services.js';

/*
 * POST /gateway-score/reset on real Redis, behind the cache as the runtime composes it: the reset
 * SCANs the merchant's hash-tagged keys. Redis must be running; when it is not, this fails.
 */
const admin = redisAdminForFile();

gatewayScoreResetSuite('Redis', async () => {
  const keyPrefix = `${uniqueNamespace('score-reset')}:`;
  const redis = await createRedisStateStore({ url: redisUrl, keyPrefix, logger: silentLogger });
  const state = createCachedStateStore(redis, { logger: silentLogger, clock: systemClock });
  const scoreKeys = async () => {
    const found: string[] = [];
    let cursor = '0';
    do {
      const [next, batch] = await admin().scan(cursor, 'MATCH', `${keyPrefix}{gw_*`, 'COUNT', 500);
      cursor = next;
      found.push(...batch.filter((key) => key.endsWith('_}queue') || key.endsWith('}')));
    } while (cursor !== '0');
    return found;
  };
  return {
    state,
    scoreKeys,
    async dispose() {
      await state.close();
      await deleteRedisNamespace(admin(), keyPrefix);
    },
  };
});
