import { createMemoryStateStore } from '../../src/adapters/memory/memory-state-store.js';
import { silentLogger } from '../../src/logging/logger.js';
import { createManualClock } from '../../src/time/clock.js';
import { responseCacheSuite } from './response-cache.suite.js';

// Embedded replicas share one store object, so both views are the same cache; expiry reads the store's clock.
responseCacheSuite('memory', async () => {
  const clock = createManualClock();
  const state = createMemoryStateStore({ dataDir: undefined, logger: silentLogger, clock });
  return { replicas: [state.responseCache, state.responseCache], elapse: (ms) => clock.advance(ms), dispose: () => state.close() };
});
