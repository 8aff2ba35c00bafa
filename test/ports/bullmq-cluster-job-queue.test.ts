import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createBullMqJobQueue } from '../../src/adapters/bullmq/bullmq-job-queue.js';
import { silentLogger } from '../../src/logging/logger.js';
import type { JobQueue } from '../../src/ports/job-queue.js';
import { uniqueNamespace } from '../integration/adapters/local-services.js';
import { deleteClusterNamespace, startRedisCluster, type RedisClusterUnderTest } from '../helpers/redis-cluster.js';
import { jobQueueSuite } from './job-queue.suite.js';
import { jobScheduleSuite } from './job-schedule.suite.js';

/**
 * Issue 27: the JobQueue and schedule port suites with BullMQ on a three-master Redis Cluster
 * (deploy/local/redis-cluster.sh, ports 17200-17205). BullMQ's keys carry the `{<prefix>bull}` hash tag.
 */
let cluster: RedisClusterUnderTest | undefined;

beforeAll(async () => {
  cluster = await startRedisCluster(17_200);
});

afterAll(async () => {
  await cluster?.stop();
});

function openQueue(keyPrefix: string): Promise<JobQueue> {
  return createBullMqJobQueue({ url: `redis://${cluster!.nodes[0]}`, clusterNodes: cluster!.nodes, keyPrefix, logger: silentLogger, lockMs: 5000 });
}

jobQueueSuite('bullmq on a redis cluster', async () => {
  const keyPrefix = `${uniqueNamespace('cjobs')}:`;
  const opened: JobQueue[] = [];
  const open = async (): Promise<JobQueue> => {
    const queue = await openQueue(keyPrefix);
    opened.push(queue);
    return queue;
  };
  return {
    queue: await open(),
    openPeer: open,
    async dispose() {
      await Promise.all(opened.map((queue) => queue.close()));
      await deleteClusterNamespace(cluster!.admin, `{${keyPrefix}`);
    },
  };
});

jobScheduleSuite(
  'bullmq on a redis cluster, two instances',
  async () => {
    const keyPrefix = `${uniqueNamespace('cschedule')}:`;
    const first = await openQueue(keyPrefix);
    const second = await openQueue(keyPrefix);
    return {
      first,
      second,
      async dispose() {
        await Promise.all([first.close(), second.close()]);
        await deleteClusterNamespace(cluster!.admin, `{${keyPrefix}`);
      },
    };
  },
  600,
);

describe('BullMQ job queue on a Redis Cluster', () => {
  it('keeps every key of its queues under one hash tag, on one master', async () => {
    const keyPrefix = `${uniqueNamespace('cjobs-layout')}:`;
    const queue = await openQueue(keyPrefix);
    try {
      await queue.enqueue('layout', [{ id: 'x:1', data: { n: 1 } }], { attempts: 1, backoffMs: 10 });
      await queue.enqueue('other', [{ id: 'y:1', data: { n: 2 } }], { attempts: 1, backoffMs: 10 });
      const found: string[] = [];
      for (const node of cluster!.admin.nodes('master')) {
        let cursor = '0';
        do {
          const [next, keys] = await node.scan(cursor, 'MATCH', `*${keyPrefix}*`, 'COUNT', 1000);
          found.push(...keys);
          cursor = next;
        } while (cursor !== '0');
      }
      expect(found.length).toBeGreaterThan(2);
      for (const key of found) expect(key.startsWith(`{${keyPrefix}bull}:`)).toBe(true);
      const slots = new Set(await Promise.all(found.map(async (key) => Number(await cluster!.admin.cluster('KEYSLOT', key)))));
      expect(slots.size).toBe(1);
    } finally {
      await queue.close();
      await deleteClusterNamespace(cluster!.admin, `{${keyPrefix}`);
    }
  });
});
