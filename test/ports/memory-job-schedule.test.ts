import { createMemoryJobQueue } from '../../src/adapters/memory/memory-job-queue.js';
import { silentLogger } from '../../src/logging/logger.js';
import { jobScheduleSuite } from './job-schedule.suite.js';

// In process there is one queue; both "replicas" are it (schedule called twice, consumed twice).
jobScheduleSuite(
  'in-process',
  async () => {
    const queue = createMemoryJobQueue({ logger: silentLogger });
    return { first: queue, second: queue, dispose: () => queue.close() };
  },
  150,
);
