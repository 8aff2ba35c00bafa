import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pino } from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createRuntime, type Runtime } from '../../../cli/create-runtime.js';
import { loadConfig } from '../../../src/config/load-config.js';
import type { SwitchyardError } from '../../../src/errors/switchyard-error.js';
import { deleteClusterNamespace, type RedisClusterUnderTest, startRedisCluster } from '../../helpers/redis-cluster.js';
import { runtimeStartFailure } from '../../helpers/runtime-start-failure.js';
import { jobRoundTrip } from '../../helpers/job-round-trip.js';

/**
 * Issue 28: a Redis Cluster as managed services run one, TLS only with an ACL user (user `default`
 * off; deploy/local/redis-cluster.sh with REDIS_CLUSTER_TLS_DIR, ports 17500-17505). The composition
 * root reaches it from the documented variables (REDIS_URL=rediss://… turns TLS on, REDIS_CLUSTER_NODES,
 * REDIS_USERNAME / REDIS_PASSWORD, REDIS_TLS_CA_FILE) for the state store and BullMQ alike, and a
 * refused password or an untrusted certificate stops the start naming the variable.
 */
describe('composition root on a Redis Cluster over TLS with an ACL user', () => {
  let cluster: RedisClusterUnderTest | undefined;
  const runtimes: Runtime[] = [];
  const keyPrefix = `sytls-cluster-${Date.now().toString(36)}:`;
  const silent = pino({ level: 'silent' });

  beforeAll(async () => {
    cluster = await startRedisCluster(17_500, { tls: true });
  });

  afterAll(async () => {
    try {
      for (const runtime of runtimes) await runtime.close();
      if (cluster !== undefined) {
        await deleteClusterNamespace(cluster.admin, keyPrefix);
        await deleteClusterNamespace(cluster.admin, `{${keyPrefix}`);
      }
    } finally {
      await cluster?.stop();
    }
  });

  function config(overrides: Record<string, string | undefined> = {}) {
    const tls = cluster!.tls!;
    return loadConfig({
      REDIS_URL: `rediss://${cluster!.nodes[0]}`,
      REDIS_CLUSTER_NODES: cluster!.nodes.join(','),
      REDIS_USERNAME: tls.username,
      REDIS_PASSWORD: tls.password,
      REDIS_TLS_CA_FILE: join(tls.tlsDir, 'ca.pem'),
      REDIS_KEY_PREFIX: keyPrefix,
      DATA_DIR: mkdtempSync(join(tmpdir(), 'sytest-cluster-tls-')),
      ...overrides,
    });
  }

  function startFailure(overrides: Record<string, string | undefined>): Promise<SwitchyardError> {
    return runtimeStartFailure(config(overrides), { analytics: false });
  }

  it('runs the state store and the job queue on every shard as the ACL user over TLS', async () => {
    const runtime = await createRuntime(config(), silent, { analytics: false });
    runtimes.push(runtime);
    expect(runtime.mode).toMatchObject({ state: 'redis', jobs: 'bullmq' });
    expect(await runtime.state.probe()).toEqual({ ok: true });
    // Tokens whose keys hash to different slots, so more than one master is written.
    const tokens = Array.from({ length: 12 }, (_, index) => `jti-cluster-tls-${index}`);
    for (const token of tokens) await runtime.state.sessions.revokeToken(token, Date.now() + 60_000);
    for (const token of tokens) expect(await runtime.state.sessions.isTokenRevoked(token)).toBe(true);
    expect(await runtime.state.sessions.isTokenRevoked('jti-cluster-tls-other')).toBe(false);
    const masters = new Set(await Promise.all(tokens.map((token) => cluster!.masterIndexOf(`${keyPrefix}${token}`))));
    expect(masters.size).toBeGreaterThan(1);

    expect(await jobRoundTrip(runtime.jobs, 'cluster-tls-smoke', 'tls:1', { over: 'tls-cluster' })).toEqual({ over: 'tls-cluster' });
  });

  it('stops the start naming REDIS_PASSWORD when the password is refused, without the password', async () => {
    const error = await startFailure({ REDIS_PASSWORD: 'not-the-cluster-password-9' });
    expect(error.message).toMatch(/^REDIS_PASSWORD: authentication failed for user switchyard at /);
    expect(JSON.stringify({ message: error.message, details: error.details })).not.toContain('not-the-cluster-password-9');
  });

  it('stops the start naming REDIS_TLS_CA_FILE when the node certificates are not signed by that CA', async () => {
    const error = await startFailure({ REDIS_TLS_CA_FILE: join(cluster!.tls!.tlsDir, 'other-ca.pem') });
    expect(error.message).toMatch(/^REDIS_TLS_CA_FILE: certificate verify failed \([A-Z_]+\)/);
  });
});
