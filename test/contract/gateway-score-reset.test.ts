import { createMemoryStateStore } from '../../src/adapters/memory/memory-state-store.js';
import { silentLogger } from '../../src/logging/logger.js';
import { gatewayScoreResetSuite } from '../helpers/gateway-score-reset-suite.js';

gatewayScoreResetSuite('embedded store', async () => {
  const state = createMemoryStateStore({ dataDir: undefined, logger: silentLogger });
  return { state, dispose: () => state.close() };
});
