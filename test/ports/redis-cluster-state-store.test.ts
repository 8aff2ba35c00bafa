import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createRedisStateStore } from '../../src/adapters/redis/redis-state-store.js';
import { silentLogger } from '../../src/logging/logger.js';
import type { StateStore } from '../../src/ports/state-store.js';
import { uniqueNamespace } from '../integration/adapters/local-services.js';
import { deleteClusterNamespace, startRedisCluster, type RedisClusterUnderTest } from '../helpers/redis-cluster.js';
import { stateStoreSuite } from './state-store.suite.js';
import { usageStoreSuite } from './usage-store.suite.js';

/**
 * Issue 27: the StateStore port suite on a three-master Redis Cluster (deploy/local/redis-cluster.sh,
 * ports 17100-17105): every script, MULTI and pipeline of the adapter works through ioredis' cluster
 * client, with keys spread over the three masters.
 */
let cluster: RedisClusterUnderTest | undefined;

beforeAll(async () => {
  cluster = await startRedisCluster(17_100);
});

afterAll(async () => {
  await cluster?.stop();
});

function redisUrlOf(): string {
  return `redis://${cluster!.nodes[0]}`;
}

stateStoreSuite('redis-cluster', async () => {
  const keyPrefix = `${uniqueNamespace('cstate')}:`;
  const opened: StateStore[] = [];
  const open = async (): Promise<StateStore> => {
    const store = await createRedisStateStore({ url: redisUrlOf(), clusterNodes: cluster!.nodes, keyPrefix, logger: silentLogger });
    opened.push(store);
    return store;
  };
  const store = await open();
  return {
    store,
    now: () => Date.now(),
    openPeer: open,
    async dispose() {
      await Promise.all(opened.map((instance) => instance.close()));
      await deleteClusterNamespace(cluster!.admin, keyPrefix);
    },
  };
});

// The usage scripts on a cluster: a key's end users' counters share its slot (one atomic admission).
usageStoreSuite('redis-cluster', async () => {
  const keyPrefix = `${uniqueNamespace('cusage')}:`;
  const first = await createRedisStateStore({ url: redisUrlOf(), clusterNodes: cluster!.nodes, keyPrefix, logger: silentLogger });
  const second = await createRedisStateStore({ url: redisUrlOf(), clusterNodes: cluster!.nodes, keyPrefix, logger: silentLogger });
  return {
    replicas: [first.usage, second.usage],
    async dispose() {
      await Promise.all([first.close(), second.close()]);
      await deleteClusterNamespace(cluster!.admin, keyPrefix);
    },
  };
});

describe('RedisStateStore on a cluster', () => {
  it('spreads keys over more than one master', async () => {
    const keyPrefix = `${uniqueNamespace('cspread')}:`;
    const store = await createRedisStateStore({ url: redisUrlOf(), clusterNodes: cluster!.nodes, keyPrefix, logger: silentLogger });
    try {
      for (let i = 0; i < 30; i++) await store.sessions.revokeToken(`jti-${i}`, Date.now() + 60_000);
      const holding = [];
      for (const node of cluster!.admin.nodes('master')) {
        const [, found] = await node.scan('0', 'MATCH', `${keyPrefix}*`, 'COUNT', 1000);
        if (found.length > 0) holding.push(node);
      }
      expect(holding.length).toBeGreaterThan(1);
      for (let i = 0; i < 30; i++) expect(await store.sessions.isTokenRevoked(`jti-${i}`)).toBe(true);
    } finally {
      await store.close();
      await deleteClusterNamespace(cluster!.admin, keyPrefix);
    }
  });

  it('fails at start with SY_STATE_UNAVAILABLE naming the nodes when no seed answers', async () => {
    await expect(
      createRedisStateStore({ url: 'redis://127.0.0.1:1', clusterNodes: ['127.0.0.1:1', '127.0.0.1:2'], keyPrefix: 'unused:', logger: silentLogger }),
    ).rejects.toMatchObject({ code: 'SY_STATE_UNAVAILABLE', message: expect.stringContaining('127.0.0.1:1,127.0.0.1:2') });
  });
});
