import { createCachedStateStore } from '../../src/adapters/cache/cached-state-store.js';
import { createMemoryStateStore } from '../../src/adapters/memory/memory-state-store.js';
import { silentLogger } from '../../src/logging/logger.js';
import { systemClock } from '../../src/time/clock.js';
import { membersReplicaSuite } from '../helpers/members-replica-suite.js';

membersReplicaSuite('embedded store behind a cache per replica', async () => {
  const shared = createMemoryStateStore({ dataDir: undefined, logger: silentLogger });
  const cached = () => createCachedStateStore(shared, { logger: silentLogger, clock: systemClock });
  return { a: cached(), b: cached(), dispose: () => shared.close() };
});
