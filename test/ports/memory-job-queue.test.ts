import { createMemoryJobQueue } from '../../src/adapters/memory/memory-job-queue.js';
import { silentLogger } from '../../src/logging/logger.js';
import { jobQueueSuite } from './job-queue.suite.js';

jobQueueSuite('memory', async () => {
  const queue = createMemoryJobQueue({ logger: silentLogger });
  return {
    queue,
    // One process: a second worker is a second consumer on the same queue.
    openPeer: async () => queue,
    dispose: () => queue.close(),
  };
});
