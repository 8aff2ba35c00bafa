import { createMemoryStateStore } from '../../src/adapters/memory/memory-state-store.js';
import { silentLogger } from '../../src/logging/logger.js';
import { scoreResetSuite } from './score-reset.suite.js';

scoreResetSuite('memory', async () => {
  const store = createMemoryStateStore({ dataDir: undefined, logger: silentLogger });
  return { store, dispose: () => store.close() };
});
