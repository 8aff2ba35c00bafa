import { Cluster, Redis, type ClusterOptions, type RedisOptions } from 'ioredis';
import type { RedisTarget } from './redis-target.js';

export type RedisClient = Redis | Cluster;

function seed(node: string): { host: string; port: number } {
  const at = node.lastIndexOf(':');
  const port = Number(node.slice(at + 1));
  if (at <= 0 || !Number.isInteger(port) || port <= 0 || port > 65_535) throw new TypeError(`cluster node "${node}" is not host:port`);
  return { host: node.slice(0, at).replace(/^\[(.*)\]$/, '$1'), port };
}

/**
 * The connection's credentials and TLS, which every node of a cluster shares: the URL's, with
 * `security` winning over them.
 */
function credentialsOf(target: RedisTarget): Pick<RedisOptions, 'username' | 'password' | 'tls'> {
  const parsed = new URL(target.url);
  const security = target.security;
  const username = security?.username ?? (parsed.username !== '' ? decodeURIComponent(parsed.username) : undefined);
  const password = security?.password ?? (parsed.password !== '' ? decodeURIComponent(parsed.password) : undefined);
  const tls = parsed.protocol === 'rediss:' ? { ...(security?.tls ?? {}) } : undefined;
  return {
    ...(username !== undefined ? { username } : {}),
    ...(password !== undefined ? { password } : {}),
    ...(tls !== undefined ? { tls } : {}),
  };
}

/** The URL without its credentials: ioredis would let the URL's win over the options'. */
function withoutCredentials(url: string): string {
  const parsed = new URL(url);
  if (parsed.username === '' && parsed.password === '') return url;
  parsed.username = '';
  parsed.password = '';
  return parsed.toString();
}

export function isCluster(client: RedisClient): client is Cluster {
  return client instanceof Cluster;
}

/**
 * One client for `target` with the per-connection `options`: every ioredis client of the service
 * is made here, so credentials and TLS apply to all of them. On a cluster, `retryStrategy` becomes
 * the cluster's reconnect strategy and `enableOfflineQueue` the cluster's; the rest applies to every
 * node connection. Commands go to masters only (no stale reads from a replica); a MOVED/ASK or
 * CLUSTERDOWN during a failover is retried by ioredis after `retryDelayOnFailover`.
 */
export function createRedisClient(target: RedisTarget, options: RedisOptions): RedisClient {
  if (target.clusterNodes === undefined || target.clusterNodes.length === 0) {
    return new Redis(withoutCredentials(target.url), { ...options, ...credentialsOf(target) });
  }
  const { retryStrategy, enableOfflineQueue, lazyConnect, ...perNode } = options;
  const clusterOptions: ClusterOptions = {
    lazyConnect: lazyConnect ?? false,
    enableOfflineQueue: enableOfflineQueue ?? true,
    scaleReads: 'master',
    retryDelayOnFailover: 200,
    retryDelayOnClusterDown: 200,
    retryDelayOnTryAgain: 100,
    ...(typeof retryStrategy === 'function' ? { clusterRetryStrategy: (attempt: number) => retryStrategy(attempt) } : {}),
    redisOptions: { ...perNode, ...credentialsOf(target) },
  };
  return new Cluster(target.clusterNodes.map(seed), clusterOptions);
}

/**
 * Why a cluster's first connection failed, when the cluster client cannot say: ioredis reports a
 * node's refused certificate or password only as "Connection is closed.", so the first seed node is
 * asked alone, with the credentials and TLS every node gets, and its own error returned (undefined
 * when it answers, or fails without an error of its own). Used only after a failed start.
 */
export async function seedNodeFailure(target: RedisTarget, timeoutMs = 3_000): Promise<Error | undefined> {
  const first = target.clusterNodes?.[0];
  if (first === undefined) return undefined;
  const node = new Redis({
    ...seed(first),
    ...credentialsOf(target),
    lazyConnect: true,
    enableOfflineQueue: false,
    maxRetriesPerRequest: 0,
    connectTimeout: timeoutMs,
    retryStrategy: () => null,
  });
  let failure: Error | undefined;
  node.on('error', (error: Error) => {
    failure ??= error;
  });
  try {
    await node.connect();
    await node.ping();
    return undefined;
  } catch (error) {
    return failure ?? (error instanceof Error ? error : undefined);
  } finally {
    node.disconnect();
  }
}
