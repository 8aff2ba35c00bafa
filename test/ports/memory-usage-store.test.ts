import { createMemoryStateStore } from '../../src/adapters/memory/memory-state-store.js';
import { silentLogger } from '../../src/logging/logger.js';
import { usageStoreSuite } from './usage-store.suite.js';

// Embedded replicas share one store object, so both views are the same store.
usageStoreSuite('memory', async () => {
  const state = createMemoryStateStore({ dataDir: undefined, logger: silentLogger });
  return { replicas: [state.usage, state.usage], dispose: () => state.close() };
});
