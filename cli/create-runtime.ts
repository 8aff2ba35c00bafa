import { join } from 'node:path';
import type { Logger as PinoLogger } from 'pino';
import { createCachedStateStore } from '../src/adapters/cache/cached-state-store.js';
import { createChdbAnalytics } from '../src/adapters/chdb/chdb-analytics-store.js';
import type { CostRowStore } from '../src/ports/analytics/cost-rows.js';
import { createMemoryEventBus } from '../src/adapters/memory/memory-event-bus.js';
import { createMemoryJobQueue } from '../src/adapters/memory/memory-job-queue.js';
import { createMemoryStateStore } from '../src/adapters/memory/memory-state-store.js';
import { describeTarget, parseClusterNodes } from '../src/adapters/redis/redis-target.js';
import type { Config } from '../src/config/load-config.js';
import { type ClickHouseSecurity, resolveServiceSecurity } from '../src/config/service-security.js';
import { explainStartFailure } from '../src/config/service-start-failure.js';
import { validateEvent } from '../src/events/validate-event.js';
import type { AnalyticsHandoff, AnalyticsStore } from '../src/ports/analytics-store.js';
import type { EventBus } from '../src/ports/event-bus.js';
import type { JobQueue } from '../src/ports/job-queue.js';
import type { StateStore } from '../src/ports/state-store.js';
import { mathRandom } from '../src/decision/random-source.js';
import { defaultRoutingDefaults } from '../src/decision/routing-defaults.js';
import { systemClock } from '../src/time/clock.js';

/** The adapters of one process, picked from the config: a URL selects the distributed adapter. */
export interface Runtime {
  readonly mode: {
    readonly state: 'embedded' | 'redis';
    readonly bus: 'embedded' | 'kafka';
    readonly analytics: 'chdb' | 'clickhouse' | 'none';
    readonly jobs: 'embedded' | 'bullmq';
  };
  readonly state: StateStore;
  readonly bus: EventBus;
  readonly analytics: AnalyticsStore | undefined;
  /**
   * Set when the bus is in-process and analytics is chDB: the analytics sink hands events to chDB's
   * thread instead of mapping and inserting them on the API's (in-process events die with the
   * process anyway, so committing them before their insert loses nothing a crash would not).
   */
  readonly analyticsHandoff: AnalyticsHandoff | undefined;
  /** Cost ingestion's raw settlement rows, on the analytics engine (undefined without analytics). */
  readonly costRows: CostRowStore | undefined;
  /** Batch generation jobs: BullMQ on the state store's Redis, or in-process. */
  readonly jobs: JobQueue;
  /** Flushes and drains the bus (in-process consumers handle everything published). Idempotent. */
  drainBus(): Promise<void>;
  /** Stops the job consumers (jobs in hand finish), drains the bus (if not yet), then closes the stores. */
  close(): Promise<void>;
}

export interface RuntimeNeeds {
  /** Whether this process reads or writes analytics (the API and the analytics-sink do; sr-windows does not). */
  readonly analytics: boolean;
}

/**
 * The composition root's adapter choice, the one place (with buildApp's callers) that picks
 * infrastructure: REDIS_URL (or REDIS_CLUSTER_NODES: a Redis Cluster) → Redis (behind an invalidating cache), KAFKA_BROKERS → Kafka,
 * CLICKHOUSE_URL → ClickHouse server; each unset one stays embedded (in-process, chDB). The job
 * queue follows the state store: BullMQ on the same Redis, or in-process. A distributed adapter's
 * module is imported only when its URL is set: Kafka's client alone costs about 0.6 s of CPU to load
 * (it compiles its schemas at import), which an embedded start or a CLI command never needs.
 */
export async function createRuntime(config: Config, logger: PinoLogger, needs: RuntimeNeeds = { analytics: true }): Promise<Runtime> {
  // What the start opened so far is closed (last first) when a later part fails: a failed start leaves
  // no connection behind, so a worker whose ClickHouse is down exits with its error (and is restarted
  // by its supervisor) instead of hanging on the open Redis and Kafka sockets.
  const opened: Opened[] = [];
  try {
    return await openRuntime(config, logger, needs, opened);
  } catch (error) {
    for (const resource of opened.reverse()) {
      try {
        await resource.close();
      } catch (closeError) {
        logger.warn({ err: closeError, resource: resource.name }, 'closing after a failed start failed');
      }
    }
    throw error;
  }
}

/** A connection (or store) the start has opened. */
interface Opened {
  readonly name: string;
  close(): Promise<void>;
}

async function openRuntime(config: Config, logger: PinoLogger, needs: RuntimeNeeds, opened: Opened[]): Promise<Runtime> {
  const clock = systemClock;
  // TLS files are read and credentials checked before any connection: a bad one stops the start naming its variable.
  const security = resolveServiceSecurity(config);
  const redisTarget = { url: config.redisUrl ?? '', clusterNodes: parseClusterNodes(config.redisClusterNodes), security: security.redis };
  const kafkaBrokers = (config.kafkaBrokers ?? '')
    .split(',')
    .map((broker) => broker.trim())
    .filter((broker) => broker !== '');
  const state: StateStore =
    config.redisUrl === undefined
      ? createMemoryStateStore({
          dataDir: join(config.dataDir, 'state'),
          logger: logger.child({ component: 'state' }),
          clock,
          ...(config.maxDecisionContexts !== undefined ? { maxDecisionContexts: config.maxDecisionContexts } : {}),
          responseCache: {
            ...(config.responseCacheMaxEntries !== undefined ? { maxEntries: config.responseCacheMaxEntries } : {}),
            ...(config.responseCacheMaxBytes !== undefined ? { maxBytes: config.responseCacheMaxBytes } : {}),
          },
        })
      : createCachedStateStore(
          await explained({ service: 'redis', security: security.redis, where: describeTarget(redisTarget) }, async () =>
            (await import('../src/adapters/redis/redis-state-store.js')).createRedisStateStore({
              ...redisTarget,
              keyPrefix: config.redisKeyPrefix,
              logger: logger.child({ component: 'state' }),
              clock,
            }),
          ),
          {
            logger: logger.child({ component: 'state-cache' }),
            clock,
          },
        );

  opened.push({ name: 'state', close: () => state.close() });

  const bus: EventBus =
    config.kafkaBrokers === undefined
      ? createMemoryEventBus({ logger: logger.child({ component: 'bus' }), validate: validateEvent, maxRetainedEvents: config.embeddedBusMaxEvents })
      : await explained({ service: 'kafka', security: security.kafka, where: kafkaBrokers.join(',') }, async () =>
          (await import('../src/adapters/kafka/kafka-event-bus.js')).createKafkaEventBus({
            brokers: kafkaBrokers,
            security: security.kafka,
            clientId: config.kafkaClientId,
            topicPrefix: config.kafkaTopicPrefix,
            layout: {
              replicationFactor: config.kafkaReplicationFactor,
              minInsyncReplicas: config.kafkaMinInsyncReplicas,
              partitions: config.kafkaPartitions,
              partitionsByTopic: config.kafkaTopicPartitions,
            },
            spoolDir: join(config.dataDir, 'spool'),
            spoolMaxEvents: config.spoolMaxEvents,
            lingerMs: config.kafkaLingerMs,
            logger: logger.child({ component: 'bus' }),
            validate: validateEvent,
          }),
        );

  opened.push({ name: 'bus', close: () => bus.close() });

  const jobs: JobQueue =
    config.redisUrl === undefined
      ? createMemoryJobQueue({ logger: logger.child({ component: 'jobs' }) })
      : await explained({ service: 'redis', security: security.redis, where: describeTarget(redisTarget) }, async () =>
          (await import('../src/adapters/bullmq/bullmq-job-queue.js')).createBullMqJobQueue({
            ...redisTarget,
            keyPrefix: config.redisKeyPrefix,
            logger: logger.child({ component: 'jobs' }),
            lockMs: config.jobLockMs,
            retentionSeconds: config.batchRetentionDays * 86_400,
          }),
        );

  opened.push({ name: 'jobs', close: () => jobs.close() });

  let busClosing: Promise<void> | undefined;
  let analytics: AnalyticsStore | undefined;
  let analyticsHandoff: AnalyticsHandoff | undefined;
  let costRows: CostRowStore | undefined;
  if (needs.analytics) {
    if (config.clickhouseUrl === undefined) {
      const chdb = createChdbAnalytics({
        path: join(config.dataDir, 'analytics'),
        database: config.clickhouseDatabase,
        logger: logger.child({ component: 'analytics' }),
      });
      analytics = chdb.store;
      costRows = chdb.costRows;
      if (config.kafkaBrokers === undefined) analyticsHandoff = chdb.handoff;
    } else {
      const server = clickhouseServerOptions(security.clickhouse, config.clickhouseUrl);
      const { createClickHouseServerAnalyticsStore, createClickHouseServerCostRowStore } = await import(
        '../src/adapters/clickhouse/clickhouse-server-analytics-store.js'
      );
      analytics = createClickHouseServerAnalyticsStore({
        ...server,
        database: config.clickhouseDatabase,
        ...(config.clickhouseCluster === undefined ? {} : { cluster: config.clickhouseCluster }),
      });
      costRows = createClickHouseServerCostRowStore({
        ...server,
        database: config.clickhouseDatabase,
        ...(config.clickhouseCluster === undefined ? {} : { cluster: config.clickhouseCluster }),
      });
    }
    const migrating = analytics;
    const rows = costRows;
    opened.push({ name: 'analytics', close: () => migrating.close() }, { name: 'cost rows', close: () => rows.close() });
    await explained({ service: 'clickhouse', security: security.clickhouse, where: security.clickhouse?.url ?? 'chdb' }, () => migrating.migrate());
  }

  return {
    mode: {
      state: config.redisUrl === undefined ? 'embedded' : 'redis',
      bus: config.kafkaBrokers === undefined ? 'embedded' : 'kafka',
      analytics: analytics === undefined ? 'none' : config.clickhouseUrl === undefined ? 'chdb' : 'clickhouse',
      jobs: config.redisUrl === undefined ? 'embedded' : 'bullmq',
    },
    state,
    bus,
    analytics,
    analyticsHandoff,
    costRows,
    jobs,
    async close() {
      // Job consumers finish the jobs in hand first: those still publish llm.call records and write outcomes.
      await jobs.close();
      busClosing ??= bus.close();
      await busClosing;
      await state.close();
      await costRows?.close();
      await analytics?.close();
    },
    drainBus() {
      busClosing ??= bus.close();
      return busClosing;
    },
  };
}

/** Rethrows a TLS or authentication failure of a service's first connection as an error naming the variable. */
async function explained<T>(target: Parameters<typeof explainStartFailure>[0], start: () => Promise<T>): Promise<T> {
  try {
    return await start();
  } catch (error) {
    throw explainStartFailure(target, error) ?? error;
  }
}

/** URL (credentials taken out), user, password and TLS of the ClickHouse server. */
function clickhouseServerOptions(resolved: ClickHouseSecurity | undefined, url: string) {
  return resolved === undefined
    ? { url }
    : { url: resolved.url, username: resolved.username, password: resolved.password, ...(resolved.tls === undefined ? {} : { tls: resolved.tls }) };
}

export const runtimeDefaults = { clock: systemClock, random: mathRandom, routingDefaults: defaultRoutingDefaults } as const;
