import { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createBullMqJobQueue } from '../../src/adapters/bullmq/bullmq-job-queue.js';
import { silentLogger } from '../../src/logging/logger.js';
import type { JobQueue } from '../../src/ports/job-queue.js';
import { deleteRedisNamespace, redisUrl, uniqueNamespace } from '../integration/adapters/local-services.js';
import { jobQueueSuite } from './job-queue.suite.js';

let admin: Redis;

beforeAll(async () => {
  admin = new Redis(redisUrl, { lazyConnect: true, maxRetriesPerRequest: 0, retryStrategy: () => null });
  await admin.connect();
});

afterAll(() => {
  admin?.disconnect();
});

jobQueueSuite('bullmq', async () => {
  const keyPrefix = `${uniqueNamespace('jobs')}:`;
  const opened: JobQueue[] = [];
  const open = async (): Promise<JobQueue> => {
    const queue = await createBullMqJobQueue({ url: redisUrl, keyPrefix, logger: silentLogger, lockMs: 5000 });
    opened.push(queue);
    return queue;
  };
  return {
    queue: await open(),
    openPeer: open,
    async dispose() {
      await Promise.all(opened.map((queue) => queue.close()));
      await deleteRedisNamespace(admin, keyPrefix);
    },
  };
});

describe('BullMQ job queue on Redis', () => {
  it('keeps its keys under the state key prefix', async () => {
    const keyPrefix = `${uniqueNamespace('jobs-layout')}:`;
    const queue = await createBullMqJobQueue({ url: redisUrl, keyPrefix, logger: silentLogger, lockMs: 5000 });
    try {
      await queue.enqueue('layout', [{ id: 'x:1', data: { n: 1 } }], { attempts: 1, backoffMs: 10 });
      // SCAN to the end: one call covers only part of the keyspace (a Redis shared with benches holds many keys).
      const keys: string[] = [];
      let cursor = '0';
      do {
        const [next, found] = await admin.scan(cursor, 'MATCH', `${keyPrefix}bull:layout:*`, 'COUNT', 1000);
        keys.push(...found);
        cursor = next;
      } while (cursor !== '0');
      expect(keys.length).toBeGreaterThan(0);
    } finally {
      await queue.close();
      await deleteRedisNamespace(admin, keyPrefix);
    }
  });

  it('fails at start with SY_QUEUE_UNAVAILABLE naming the server when nothing listens', async () => {
    await expect(createBullMqJobQueue({ url: 'redis://127.0.0.1:1', keyPrefix: 'unused:', logger: silentLogger, lockMs: 5000 })).rejects.toMatchObject({
      code: 'SY_QUEUE_UNAVAILABLE',
      message: expect.stringContaining('127.0.0.1:1'),
    });
  });
});
