import { createCachedStateStore } from '../../src/adapters/cache/cached-state-store.js';
import { createMemoryStateStore } from '../../src/adapters/memory/memory-state-store.js';
import { silentLogger } from '../../src/logging/logger.js';
import { systemClock } from '../../src/time/clock.js';
import { mcpGatewayReplicaSuite } from '../helpers/mcp-gateway-replica-suite.js';

// Embedded: the replicas of one process share one store, each behind its own cache as the runtime composes them.
mcpGatewayReplicaSuite('embedded store behind a cache per replica', async () => {
  const shared = createMemoryStateStore({ dataDir: undefined, logger: silentLogger, clock: systemClock });
  return {
    a: createCachedStateStore(shared, { logger: silentLogger, clock: systemClock }),
    b: createCachedStateStore(shared, { logger: silentLogger, clock: systemClock }),
    dispose: () => shared.close(),
  };
});
