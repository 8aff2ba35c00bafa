import { Redis } from 'ioredis';
import { afterAll, beforeAll } from 'vitest';
import { createBullMqJobQueue } from '../../src/adapters/bullmq/bullmq-job-queue.js';
import { silentLogger } from '../../src/logging/logger.js';
import { deleteRedisNamespace, redisUrl, uniqueNamespace } from '../integration/adapters/local-services.js';
import { jobScheduleSuite } from './job-schedule.suite.js';

let admin: Redis;

beforeAll(async () => {
  admin = new Redis(redisUrl, { lazyConnect: true, maxRetriesPerRequest: 0, retryStrategy: () => null });
  await admin.connect();
});

afterAll(() => {
  admin?.disconnect();
});

// Two BullMQ instances on one Redis namespace: two replicas of the autopilot worker.
jobScheduleSuite(
  'bullmq, two instances',
  async () => {
    const keyPrefix = `${uniqueNamespace('schedule')}:`;
    const open = () => createBullMqJobQueue({ url: redisUrl, keyPrefix, logger: silentLogger, lockMs: 5000 });
    const first = await open();
    const second = await open();
    return {
      first,
      second,
      async dispose() {
        await Promise.all([first.close(), second.close()]);
        await deleteRedisNamespace(admin, keyPrefix);
      },
    };
  },
  600,
);
