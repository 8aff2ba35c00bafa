/**
 * What names a Redis deployment, apart from connecting to it: the composition root reads these
 * before it decides to load ioredis at all (an embedded start never does).
 */

/**
 * Where the Redis adapters connect: one server (`url`: a single node, or the primary of a managed
 * service or Sentinel set-up behind one address) or, with `clusterNodes`, a Redis Cluster through
 * ioredis' cluster client. With a cluster, `url` still carries the credentials and TLS (`rediss://`)
 * every node shares; its host is only a fallback seed.
 */
export interface RedisTarget {
  /** `redis://[user:password@]host:port[/db]` */
  readonly url: string;
  /** Seed nodes of a Redis Cluster, `host:port` each (e.g. from REDIS_CLUSTER_NODES). */
  readonly clusterNodes?: readonly string[] | undefined;
  /**
   * Credentials and TLS material that win over the URL's (REDIS_USERNAME, REDIS_PASSWORD,
   * REDIS_TLS_*_FILE, resolved by src/config/service-security.ts). Applied to every connection,
   * each cluster node's included.
   */
  readonly security?: RedisConnectionSecurity | undefined;
}

export interface RedisConnectionSecurity {
  readonly username?: string;
  readonly password?: string;
  /** TLS with these (PEM): `ca` replaces the system CAs, `cert` + `key` are a client certificate. Set for rediss://. */
  readonly tls?: { readonly ca?: Buffer; readonly cert?: Buffer; readonly key?: Buffer };
}

/** `a:1, b:2` → ['a:1', 'b:2']; blanks dropped. */
export function parseClusterNodes(list: string | undefined): string[] | undefined {
  if (list === undefined) return undefined;
  const nodes = list
    .split(',')
    .map((node) => node.trim())
    .filter((node) => node !== '');
  return nodes.length === 0 ? undefined : nodes;
}

/** `redis://host:port` or `cluster host:port,…` for logs; never credentials. */
export function describeTarget(target: RedisTarget): string {
  if (target.clusterNodes !== undefined && target.clusterNodes.length > 0) return `cluster ${target.clusterNodes.join(',')}`;
  try {
    const parsed = new URL(target.url);
    return `${parsed.protocol}//${parsed.host}${parsed.pathname === '/' ? '' : parsed.pathname}`;
  } catch {
    return '(unparseable url)';
  }
}
