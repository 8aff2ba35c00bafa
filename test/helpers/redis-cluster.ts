import { execFile } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { Cluster } from 'ioredis';

const run = promisify(execFile);
const clusterScript = fileURLToPath(new URL('../../deploy/local/redis-cluster.sh', import.meta.url));
const secureScript = fileURLToPath(new URL('../../deploy/local/secure-services.sh', import.meta.url));

/** How a TLS cluster is reached: its CA, and the ACL user every node has (user `default` is off). */
export interface ClusterTls {
  /** Directory of ca.pem, client.pem/client.key and other-ca.pem (a CA that signed nothing of it). */
  readonly tlsDir: string;
  readonly username: string;
  readonly password: string;
}

/** A Redis Cluster of deploy/local/redis-cluster.sh (three masters, one replica each) for one test file. */
export interface RedisClusterUnderTest {
  /** `host:port` of the six nodes (REDIS_CLUSTER_NODES). */
  readonly nodes: readonly string[];
  /** SIGKILLs node `index` (1-based) and returns once the survivors flag it failed. */
  kill(index: number): Promise<void>;
  /** Starts node `index` again and waits until every node says cluster_state:ok. */
  startNode(index: number): Promise<void>;
  /** Waits until every running node says cluster_state:ok and every slot is on a live master. */
  waitOk(): Promise<void>;
  /** The 1-based index of the node that is master for `key`'s slot now. */
  masterIndexOf(key: string): Promise<number>;
  /** An admin client on the cluster (closed by `stop`). */
  readonly admin: Cluster;
  /** Set for a cluster started with `{ tls: true }`. */
  readonly tls: ClusterTls | undefined;
  stop(): Promise<void>;
}

/**
 * SYTEST_REDIS_CLUSTER_PORT_OFFSET moves every file's cluster (default 0), so a second test run on the
 * same machine (with its own services on other ports) does not meet this one's clusters: the files'
 * base ports are 100 apart and a cluster takes six, so an offset below 94 keeps them apart.
 */
function portOffset(): number {
  const offset = Number(process.env['SYTEST_REDIS_CLUSTER_PORT_OFFSET'] ?? 0);
  if (!Number.isInteger(offset) || offset < 0 || offset > 93) throw new Error(`SYTEST_REDIS_CLUSTER_PORT_OFFSET must be 0..93, got ${offset}`);
  return offset;
}

/**
 * Starts a cluster through the script on `basePort`..`basePort + 5` (plus the offset above) with its
 * own run directory, so test files running at once never share (or stop) each other's cluster. `stop` is for a finally /
 * afterAll: it always stops every node, whatever failed. `{ tls: true }`: TLS only with an ACL user
 * (the script's REDIS_CLUSTER_TLS_DIR), certificates made by secure-services.sh in that run directory
 * and a fresh password.
 */
export async function startRedisCluster(fileBasePort: number, options: { readonly tls?: boolean } = {}): Promise<RedisClusterUnderTest> {
  const basePort = fileBasePort + portOffset();
  const runDir = join(tmpdir(), `sytest-redis-cluster-${basePort}`);
  const env: NodeJS.ProcessEnv = { ...process.env, SWITCHYARD_RUN_DIR: runDir, REDIS_CLUSTER_BASE_PORT: String(basePort) };
  async function sh(path: string, ...args: string[]): Promise<string> {
    try {
      return (await run('bash', [path, ...args], { env, timeout: 90_000 })).stdout;
    } catch (error) {
      const output = error as { stderr?: string; stdout?: string };
      throw new Error(`${path} ${args.join(' ')} failed:\n${output.stderr ?? ''}${output.stdout ?? ''}`, { cause: error });
    }
  }
  const script = (...args: string[]) => sh(clusterScript, ...args);
  let tls: ClusterTls | undefined;
  if (options.tls === true) {
    tls = { tlsDir: (await sh(secureScript, 'tls')).trim().split('\n').at(-1)!, username: 'switchyard', password: randomBytes(12).toString('hex') };
    Object.assign(env, { REDIS_CLUSTER_TLS_DIR: tls.tlsDir, REDIS_CLUSTER_USER: tls.username, REDIS_CLUSTER_PASSWORD: tls.password });
  }
  let admin: Cluster | undefined;
  try {
    const started = await script('start');
    const nodes = (/REDIS_CLUSTER_NODES=(\S+)/.exec(started)?.[1] ?? '').split(',').filter((node) => node !== '');
    if (nodes.length !== 6) throw new Error(`expected six cluster nodes, got: ${started}`);
    const security = tls === undefined ? {} : { tls: { ca: readFileSync(join(tls.tlsDir, 'ca.pem')) }, username: tls.username, password: tls.password };
    const ready = new Cluster(
      nodes.map((node) => ({ host: '127.0.0.1', port: Number(node.split(':')[1]) })),
      { retryDelayOnFailover: 200, retryDelayOnClusterDown: 200, redisOptions: { connectionName: 'sytest-cluster-admin', ...security } },
    );
    admin = ready;
    ready.on('error', () => undefined);
    await ready.ping();
    return {
      nodes,
      admin: ready,
      tls,
      kill: async (index) => void (await script('kill', String(index))),
      startNode: async (index) => void (await script('start-node', String(index))),
      waitOk: async () => void (await script('wait-ok')),
      async masterIndexOf(key) {
        const slot = Number(await ready.cluster('KEYSLOT', key));
        const shards = await ready.cluster('SLOTS');
        const master = shards.find(([from, to]) => slot >= from && slot <= to)?.[2];
        if (master === undefined) throw new Error(`no master serves slot ${slot}`);
        return nodes.indexOf(`${master[0]}:${master[1]}`) + 1;
      },
      async stop() {
        ready.disconnect();
        await script('stop');
      },
    };
  } catch (error) {
    admin?.disconnect();
    await script('stop').catch(() => undefined);
    throw error;
  }
}

/** Deletes every key under `prefix` on every master of the cluster. */
export async function deleteClusterNamespace(admin: Cluster, prefix: string): Promise<void> {
  for (const node of admin.nodes('master')) {
    let cursor = '0';
    do {
      const [next, found] = await node.scan(cursor, 'MATCH', `${prefix}*`, 'COUNT', 500);
      cursor = next;
      for (const key of found) await node.unlink(key);
    } while (cursor !== '0');
  }
}
