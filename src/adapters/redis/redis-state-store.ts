import { randomUUID } from 'node:crypto';
import calculateSlot from 'cluster-key-slot';
import { createRedisUsageStore } from './redis-usage-store.js';
import { createRedisResponseCache } from './redis-response-cache.js';
import { createRedisResponseStore } from './redis-response-store.js';
import { createRedisStickyStore } from './redis-sticky-store.js';
import { createRedisCacheAffinityStore } from './redis-cache-affinity-store.js';
import { createRedisMcpSessionStore } from './redis-mcp-session-store.js';
import { createRedisConversationStore } from './redis-conversation-store.js';
import type { RedisOptions } from 'ioredis';
import { SwitchyardError } from '../../errors/switchyard-error.js';
import type { Logger } from '../../logging/logger.js';
import type { StateStore, StoreProbe } from '../../ports/state-store.js';
import { systemClock, type Clock } from '../../time/clock.js';
import { toStateError } from './map-redis-error.js';
import { createRedisApiKeyStore } from './redis-api-key-store.js';
import { createRedisBatchStore } from './redis-batch-store.js';
import type { RedisContext } from './redis-context.js';
import { createRedisKeys } from './redis-keys.js';
import { createRedisConfigStore } from './redis-config-store.js';
import { createRedisMerchantStore } from './redis-merchant-store.js';
import { createRedisRoutingRuleStore } from './redis-routing-rule-store.js';
import { createRedisScoreStore } from './redis-score-store.js';
import { defineScripts, type ScriptedRedis } from './redis-scripts.js';
import { createRedisCredentialStore } from './redis-credential-store.js';
import { createRedisSessionStore } from './redis-session-store.js';
import { createRedisUserStore } from './redis-user-store.js';
import { createTickPipeline } from './tick-pipeline.js';
import { createRedisClient, isCluster, type RedisClient, seedNodeFailure } from './redis-connection.js';
import { describeTarget, type RedisConnectionSecurity, type RedisTarget } from './redis-target.js';

export interface RedisStateStoreOptions {
  /** `redis://[user:password@]host:port[/db]` */
  readonly url: string;
  /**
   * Seed nodes (`host:port`) of a Redis Cluster: the store then uses ioredis' cluster client, `url`
   * only giving credentials and TLS. Every script and MULTI touches one hash slot (redis-keys.ts).
   */
  readonly clusterNodes?: readonly string[] | undefined;
  /** Credentials and TLS over the URL's (REDIS_USERNAME, REDIS_PASSWORD, REDIS_TLS_*_FILE): every connection gets them. */
  readonly security?: RedisConnectionSecurity | undefined;
  /** Prepended to every key and the invalidation channel; no braces (see redis-keys.ts). */
  readonly keyPrefix: string;
  readonly logger: Logger;
  readonly clock?: Clock;
  /** A command without a reply after this many ms fails as SY_STATE_UNAVAILABLE. Default 1000 ms. */
  readonly commandTimeoutMs?: number;
}

/** 1 s: far above a healthy Redis round trip (sub-ms locally), short enough that a request degrades rather than hangs. */
const defaultCommandTimeoutMs = 1000;
/** 2 s: the longest gap between reconnect attempts, so recovery is noticed within about that much. */
const maxReconnectDelayMs = 2000;
/** 100 ms: a loopback or in-zone replica acknowledges in well under this; a shard without one costs no more. */
const replicaAckTimeoutMs = 100;
/** 30 s: a probe key outlives any probe, and a crashed probe cleans itself up. */
const probeTtlSeconds = 30;

function clientOptions(name: string, commandTimeoutMs: number | undefined): RedisOptions {
  return {
    lazyConnect: true,
    connectionName: name,
    // Fail fast while Redis is down: no offline queue, no resending after a reconnect. The domain
    // degrades on SY_STATE_UNAVAILABLE; queued writes replayed minutes later would be worse.
    enableOfflineQueue: false,
    maxRetriesPerRequest: 0,
    commandTimeout: commandTimeoutMs,
    retryStrategy: (attempt: number) => Math.min(50 * 2 ** Math.min(attempt, 6), maxReconnectDelayMs),
  };
}

async function closeClient(client: RedisClient, log: Logger): Promise<void> {
  if (client.status === 'ready') {
    try {
      await client.quit();
      return;
    } catch (error) {
      log.warn({ err: error }, 'state store connection did not quit cleanly; disconnecting');
    }
  }
  client.disconnect();
}

async function connectOrFail(client: RedisClient, target: RedisTarget, where: string): Promise<void> {
  // connect() rejects with a bare "Connection is closed."; the reason (a refused certificate or
  // password) comes as an 'error' event, so keep it as the cause. A cluster client has no such event
  // for its nodes: a seed node asked alone gives it.
  let reason: unknown;
  const remember = (error: unknown): void => {
    reason = error;
  };
  client.on('error', remember);
  try {
    await client.connect();
  } catch (error) {
    client.disconnect();
    const nodeReason = isCluster(client) ? await seedNodeFailure(target) : undefined;
    throw new SwitchyardError('SY_STATE_UNAVAILABLE', {
      message: `state store unreachable at ${where}`,
      cause: nodeReason ?? reason ?? error,
      isRetryable: true,
      details: { url: where },
    });
  } finally {
    client.off('error', remember);
  }
}

/**
 * The distributed StateStore on Redis (ioredis). Connects before resolving, so a wrong URL fails at
 * start with SY_STATE_UNAVAILABLE naming the server; afterwards an outage makes calls fail fast with
 * SY_STATE_UNAVAILABLE (retryable), is logged once ('state store unavailable' / 'state store
 * recovered') and heals by reconnecting in the background.
 *
 * Invalidations travel over Redis pub/sub on `<keyPrefix>invalidation`, read by a second connection
 * (a subscribed connection cannot run other commands).
 *
 * @remarks Invalidations published while a replica's subscriber is disconnected are not replayed;
 * caches bound that staleness with their own TTL.
 */
export async function createRedisStateStore(options: RedisStateStoreOptions): Promise<StateStore> {
  const log = options.logger.child({ component: 'redis-state-store' });
  const clock = options.clock ?? systemClock;
  const keys = createRedisKeys(options.keyPrefix);
  const channel = keys.invalidationChannel();
  const where = describeTarget(options);
  const client = createRedisClient(options, clientOptions('switchyard-state', options.commandTimeoutMs ?? defaultCommandTimeoutMs));
  const redis: ScriptedRedis = defineScripts(client);
  // On a cluster, PUBLISH reaches every node, so the subscriber listens on whichever node ioredis picks.
  const subscriber = createRedisClient(options, { ...clientOptions('switchyard-invalidation', undefined), enableOfflineQueue: true });
  const listeners = new Set<(key: string) => void>();
  let available = false;
  let closed = false;
  let downSince = 0;
  let lastError: unknown;

  function markDown(cause: unknown): void {
    if (!available || closed) return;
    available = false;
    downSince = clock.now();
    log.error({ err: cause, url: where }, 'state store unavailable');
  }

  function markUp(): void {
    if (available || closed) return;
    available = true;
    if (downSince !== 0) log.info({ url: where, downForMs: clock.now() - downSince }, 'state store recovered');
  }

  // Every error also surfaces as a failed call or a 'close'; keep the latest as the outage's cause.
  redis.on('error', (error: unknown) => {
    lastError = error;
    log.debug({ err: error }, 'state store connection error');
  });
  redis.on('close', () => markDown(lastError));
  redis.on('ready', markUp);
  subscriber.on('error', (error: unknown) => log.debug({ err: error }, 'invalidation subscriber connection error'));
  subscriber.on('message', (from: string, key: string) => {
    if (from !== channel) return;
    for (const listener of listeners) {
      try {
        listener(key);
      } catch (error) {
        log.error({ err: error }, 'invalidation listener failed');
      }
    }
  });

  await connectOrFail(client, options, where);
  try {
    await connectOrFail(subscriber, options, where);
    await subscriber.subscribe(channel);
  } catch (error) {
    client.disconnect();
    subscriber.disconnect();
    throw toStateError(error, 'subscribe');
  }
  available = true;

  const tick = createTickPipeline(client);

  async function guarded<T>(operation: string, run: () => Promise<T>): Promise<T> {
    if (closed) throw new SwitchyardError('SY_STATE_UNAVAILABLE', { message: 'state store is closed', details: { operation } });
    try {
      return await run();
    } catch (error) {
      if (client.status !== 'ready') markDown(error);
      throw toStateError(error, operation);
    }
  }

  const context: RedisContext = {
    keys,
    clock,
    call: (operation, run) => guarded(operation, () => run(redis)),
    pipelined: (operation, add) => guarded(operation, () => tick.send(add)),
    async replicated(scripted, key) {
      if (!isCluster(client)) return;
      // A shard known to have no replica (its master just took over) has nothing to wait for.
      if ((client.slots[calculateSlot(key)]?.length ?? 0) < 2) return;
      // A keyed command takes the WAIT to the master of `key`, on the connection that made the write.
      const replies = await (scripted as unknown as RedisClient).pipeline().exists(key).wait(1, replicaAckTimeoutMs).exec();
      const failed = replies?.find(([error]) => error !== null);
      if (failed !== undefined) throw failed[0];
    },
  };

  async function probe(): Promise<StoreProbe> {
    if (client.status !== 'ready') return { ok: false, failedStage: 'connection' };
    const key = keys.probe(randomUUID());
    const value = String(clock.now());
    const stage = async (name: 'write' | 'read' | 'delete', step: () => Promise<boolean>): Promise<boolean> => {
      try {
        return await step();
      } catch (error) {
        log.warn({ err: error, stage: name }, 'state store probe failed');
        return false;
      }
    };
    if (!(await stage('write', async () => (await redis.set(key, value, 'EX', probeTtlSeconds)) === 'OK'))) {
      return { ok: false, failedStage: 'write' };
    }
    if (!(await stage('read', async () => (await redis.get(key)) === value))) return { ok: false, failedStage: 'read' };
    if (!(await stage('delete', async () => (await redis.del(key)) === 1))) return { ok: false, failedStage: 'delete' };
    return { ok: true };
  }

  return {
    merchants: createRedisMerchantStore(context),
    configs: createRedisConfigStore(context),
    scores: createRedisScoreStore(context),
    users: createRedisUserStore(context),
    apiKeys: createRedisApiKeyStore(context),
    sessions: createRedisSessionStore(context),
    credentials: createRedisCredentialStore(context),
    routingRules: createRedisRoutingRuleStore(context),
    batches: createRedisBatchStore(context),
    usage: createRedisUsageStore(context),
    responseCache: createRedisResponseCache(context),
    responses: createRedisResponseStore(context),
    conversations: createRedisConversationStore(context),
    cacheAffinity: createRedisCacheAffinityStore(context),
    sticky: createRedisStickyStore(context),
    mcpSessions: createRedisMcpSessionStore(context),
    async publishInvalidation(key) {
      await context.call('publishInvalidation', (client) => client.publish(channel, key));
    },
    onInvalidation(listener) {
      listeners.add(listener);
      return () => {
        listeners.delete(listener);
      };
    },
    probe,
    isAvailable: () => available && !closed,
    async close() {
      if (closed) return;
      closed = true;
      listeners.clear();
      await Promise.all([closeClient(client, log), closeClient(subscriber, log)]);
    },
  };
}
