import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createRuntime, type Runtime } from '../../../cli/create-runtime.js';
import { loadConfig } from '../../../src/config/load-config.js';
import { pino } from 'pino';
import { deleteClusterNamespace, startRedisCluster, type RedisClusterUnderTest } from '../../helpers/redis-cluster.js';
import { jobRoundTrip } from '../../helpers/job-round-trip.js';

/**
 * Issue 27: the composition root with REDIS_CLUSTER_NODES alone (no REDIS_URL) runs the state store
 * and BullMQ on the cluster (deploy/local/redis-cluster.sh, ports 17400-17405).
 */
describe('composition root on a Redis Cluster', () => {
  let cluster: RedisClusterUnderTest | undefined;
  let runtime: Runtime | undefined;
  const keyPrefix = `syrt-${Date.now().toString(36)}:`;

  beforeAll(async () => {
    cluster = await startRedisCluster(17_400);
    const config = loadConfig({
      REDIS_CLUSTER_NODES: cluster.nodes.join(','),
      REDIS_KEY_PREFIX: keyPrefix,
      DATA_DIR: mkdtempSync(join(tmpdir(), 'sytest-cluster-runtime-')),
    });
    runtime = await createRuntime(config, pino({ level: 'silent' }), { analytics: false });
  });

  afterAll(async () => {
    try {
      await runtime?.close();
      if (cluster !== undefined) {
        await deleteClusterNamespace(cluster.admin, keyPrefix);
        await deleteClusterNamespace(cluster.admin, `{${keyPrefix}`);
      }
    } finally {
      await cluster?.stop();
    }
  });

  it('picks Redis and BullMQ, and both work on the cluster', async () => {
    expect(runtime!.mode).toMatchObject({ state: 'redis', jobs: 'bullmq' });
    expect(await runtime!.state.probe()).toEqual({ ok: true });
    await runtime!.state.sessions.revokeToken('jti-runtime', Date.now() + 60_000);
    expect(await runtime!.state.sessions.isTokenRevoked('jti-runtime')).toBe(true);

    expect(await jobRoundTrip(runtime!.jobs, 'cluster-smoke', 'smoke:1', { n: 1 })).toEqual({ n: 1 });
    const [found] = await cluster!.admin.nodes('master').reduce<Promise<string[]>>(async (all, node) => {
      const [, keys] = await node.scan('0', 'MATCH', `{${keyPrefix}bull}:cluster-smoke:*`, 'COUNT', 10_000);
      return [...(await all), ...keys];
    }, Promise.resolve([]));
    expect(found).toBeDefined();
  });
});
