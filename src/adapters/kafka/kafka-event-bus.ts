import { Admin, type ClusterMetadata, ConfigResourceTypes } from '@platformatic/kafka';
import { topics, type EventEnvelope, type Topic } from '../../events/event-envelope.js';
import { securityFailureOf } from '../../config/service-start-failure.js';
import { SwitchyardError } from '../../errors/switchyard-error.js';
import type { Logger } from '../../logging/logger.js';
import type { BusHealth, EventBus, SubscribeOptions, Subscription } from '../../ports/event-bus.js';
import { openDiskSpool } from './disk-spool.js';
import { type ObservedTopic, resolveTopicLayout, type TopicLayout, type TopicLayoutSettings, topicMismatches } from './topic-layout.js';
import { type KafkaConnection, type KafkaConnectionSecurity, kafkaConnectionOf } from './kafka-connection.js';
import { createKafkaPublisher } from './kafka-publisher.js';
import { startKafkaSubscription, type KafkaSubscription } from './kafka-subscription.js';
import { isKafkaProtocolError, isRetryableKafkaError, toBusError } from './map-kafka-error.js';

export interface KafkaEventBusOptions {
  /** `host:port` of each seed broker. */
  readonly brokers: readonly string[];
  readonly clientId: string;
  /** TLS and SASL for every producer, consumer and admin client (KAFKA_SECURITY_PROTOCOL …); unset: PLAINTEXT. */
  readonly security?: KafkaConnectionSecurity | undefined;
  /** Prepended to every topic (`<prefix>routing`) and consumer group id (`<prefix><group>`). */
  readonly topicPrefix: string;
  /**
   * Replication, `min.insync.replicas` and partitions of each topic: missing topics are created with
   * it, existing ones are checked against it (a mismatch fails the start, naming each difference).
   */
  readonly layout: TopicLayoutSettings;
  /** Where events wait while the broker is unreachable (created if missing). */
  readonly spoolDir: string;
  /** Events the spool may hold; past it, publish() rejects with SY_BUS_UNAVAILABLE. */
  readonly spoolMaxEvents: number;
  /** How long an event may wait for companions before its batch is sent, in ms. */
  readonly lingerMs: number;
  readonly logger: Logger;
  /** Throws for an event that fails its schema; applied on publish and on consume. */
  readonly validate?: (event: unknown) => void;
  /** Most events per producer request. Default 500. */
  readonly maxBatchEvents?: number;
  /** How long close() lets live subscriptions catch up before stopping them, in ms. Default 10 s. */
  readonly closeDrainTimeoutMs?: number;
  /**
   * How long close() gives a bus that is spooling (a send failed) to reconnect and replay its spool
   * before draining, in ms. Default 5 s; past it the bus closes with the spool on disk, replayed at
   * the next start.
   */
  readonly closeReconnectWaitMs?: number;
  /** The spool's reconnect backoff: first delay, doubling up to max, in ms. Default 250 ms → 5 s. */
  readonly reconnectDelayMs?: { readonly first: number; readonly max: number };
}

export interface KafkaBusHealth extends BusHealth {
  /** Events refused because the spool was full. */
  readonly refused: number;
  /** Consumed messages skipped because they were not valid events. */
  readonly invalidConsumed: number;
}

export interface KafkaEventBus extends EventBus {
  health(): KafkaBusHealth;
}

const defaultMaxBatchEvents = 500;
const defaultCloseDrainTimeoutMs = 10_000;

function toInvalidEventError(error: unknown): SwitchyardError {
  if (SwitchyardError.isInstance(error)) return error;
  return new SwitchyardError('SY_EVENT_INVALID', { cause: error });
}

/** 30 s: a busy single-node KRaft broker can take several seconds to elect leaders for new partitions. */
const topicReadyDeadlineMs = 30_000;

/** Creates the missing topics with the layout, checks the existing ones against it, and waits for leaders. */
async function ensureTopics(admin: Admin, names: ReadonlyMap<Topic, string>, settings: TopicLayoutSettings, log: Logger): Promise<TopicLayout> {
  const deadline = Date.now() + topicReadyDeadlineMs;
  for (let attempt = 1; ; attempt++) {
    try {
      const cluster = await admin.metadata({ topics: [], forceUpdate: true });
      const layout = resolveTopicLayout(settings, cluster.brokers.size);
      const existing = new Set(await admin.listTopics());
      const missing = [...names].filter(([, name]) => !existing.has(name));
      if (missing.length > 0) {
        try {
          await admin.createTopics({
            topics: missing.map(([topic, name]) => ({ topic: name, partitions: layout.partitions[topic] })),
            replicas: layout.replicationFactor,
            configs: [{ name: 'min.insync.replicas', value: String(layout.minInsyncReplicas) }],
          });
        } catch (error) {
          // Another process created them between the listing and the request: fine.
          if (!isKafkaProtocolError(error, 'TOPIC_ALREADY_EXISTS')) throw error;
        }
      }
      // Metadata that names a leader for every partition: producers and consumers can start.
      const metadata = await admin.metadata({ topics: [...names.values()], forceUpdate: true });
      const ready = [...names.values()].every((name) => {
        const topic = metadata.topics.get(name);
        return topic !== undefined && topic.partitionsCount > 0 && topic.partitions.every((partition) => partition.leader >= 0);
      });
      if (!ready) throw new SwitchyardError('SY_BUS_UNAVAILABLE', { message: 'topic partitions have no leader yet', isRetryable: true });
      const problems = await layoutProblems(admin, metadata, names, layout);
      if (problems.length > 0) {
        throw new SwitchyardError('SY_CONFIG_INVALID', {
          message: `existing Kafka topics do not match the configured layout: ${problems.join('; ')} (alter the topics or change the settings; see docs/kafka-event-bus.md)`,
          details: { problems },
        });
      }
      return layout;
    } catch (error) {
      // A refused password or certificate does not heal by waiting: fail now, for the start-up error to name it.
      const retryable = SwitchyardError.isInstance(error) ? error.isRetryable : isRetryableKafkaError(error) && securityFailureOf(error) === undefined;
      if (!retryable || Date.now() > deadline) throw error;
      log.warn({ err: error, attempt }, 'topics not ready yet; retrying');
      await new Promise((resolve) => setTimeout(resolve, Math.min(2000, 100 * 2 ** attempt)));
    }
  }
}

/** Every difference between the topics as the cluster has them and the layout. */
async function layoutProblems(admin: Admin, metadata: ClusterMetadata, names: ReadonlyMap<Topic, string>, layout: TopicLayout): Promise<string[]> {
  const configs = await admin.describeConfigs({
    resources: [...names.values()].map((name) => ({ resourceType: ConfigResourceTypes.TOPIC, resourceName: name, configurationKeys: ['min.insync.replicas'] })),
  });
  const minInsync = new Map(
    configs.map((config) => [config.resourceName, Number(config.configs.find((entry) => entry.name === 'min.insync.replicas')?.value)]),
  );
  return [...names].flatMap(([topic, name]) => {
    const partitions = metadata.topics.get(name)?.partitions ?? [];
    const observed: ObservedTopic = {
      topic,
      partitions: partitions.length,
      replicationFactor: Math.min(...partitions.map((partition) => partition.replicas.length)),
      minInsyncReplicas: minInsync.get(name) ?? Number.NaN,
    };
    return topicMismatches(layout, observed, name);
  });
}

/**
 * The distributed EventBus on Kafka (@platformatic/kafka, chosen over kafkajs by measurement: see
 * bench/README.md, Kafka client comparison). Resolves once the topics exist, so an unreachable
 * broker at start fails with SY_BUS_UNAVAILABLE naming the brokers; an outage afterwards is absorbed
 * by the disk spool (see kafka-publisher.ts) and consumers reconnect on their own.
 *
 * @remarks `caughtUp()` waits for events accepted by this process (buffered or spooled) to reach the
 * broker, then for the group's committed offsets to reach the high watermarks. Events another
 * process still holds in its own buffer are not known here.
 */
export async function createKafkaEventBus(options: KafkaEventBusOptions): Promise<KafkaEventBus> {
  const log = options.logger.child({ component: 'kafka-event-bus' });
  const topicName = (topic: Topic): string => `${options.topicPrefix}${topic}`;
  const connection: KafkaConnection = kafkaConnectionOf(options.clientId, options.brokers, options.security);
  const admin = new Admin({ ...connection, retries: 5, retryDelay: 200 });
  try {
    const layout = await ensureTopics(admin, new Map(topics.map((topic) => [topic, topicName(topic)])), options.layout, log);
    log.info({ ...layout }, 'Kafka topics match the layout');
  } catch (error) {
    throw toBusError(error, 'start', `event bus unreachable at ${options.brokers.join(',')}`);
  } finally {
    // Only topic creation needs it: offsets for caughtUp() are read by each subscription's consumer.
    await admin.close().catch((closeError: unknown) => log.debug({ err: closeError }, 'admin close after start'));
  }

  const spool = await openDiskSpool({ dir: options.spoolDir, logger: log });
  const publisher = createKafkaPublisher({
    connection,
    topicName,
    spool,
    spoolMaxEvents: options.spoolMaxEvents,
    lingerMs: options.lingerMs,
    maxBatchEvents: options.maxBatchEvents ?? defaultMaxBatchEvents,
    brokers: options.brokers,
    logger: log,
    closeReconnectWaitMs: options.closeReconnectWaitMs,
    reconnectDelayMs: options.reconnectDelayMs,
  });
  await publisher.start();

  const subscriptions = new Set<KafkaSubscription>();
  let invalidConsumed = 0;
  let closing: Promise<void> | undefined;

  async function drainSubscriptions(): Promise<void> {
    if (subscriptions.size === 0 || !publisher.health().connected) return;
    let timer: NodeJS.Timeout | undefined;
    const timeoutMs = options.closeDrainTimeoutMs ?? defaultCloseDrainTimeoutMs;
    const timedOut = new Promise<'timeout'>((resolve) => {
      timer = setTimeout(() => resolve('timeout'), timeoutMs);
    });
    try {
      const outcome = await Promise.race([Promise.all([...subscriptions].map((subscription) => subscription.caughtUp())), timedOut]);
      if (outcome === 'timeout') log.warn({ timeoutMs }, 'subscriptions did not catch up before close; the rest is consumed after restart');
    } catch (error) {
      log.warn({ err: error }, 'subscriptions could not drain before close');
    } finally {
      clearTimeout(timer);
    }
  }

  return {
    async publish(events: readonly EventEnvelope[]) {
      if (closing !== undefined) throw new SwitchyardError('SY_BUS_UNAVAILABLE', { message: 'event bus is closed' });
      if (options.validate !== undefined) {
        for (const event of events) {
          try {
            options.validate(event);
          } catch (error) {
            throw toInvalidEventError(error);
          }
        }
      }
      // Answered once the events are on the broker or the disk spool (bounded): a killed replica loses none it answered for.
      await publisher.accept(events);
    },

    async subscribe(subscribeOptions: SubscribeOptions): Promise<Subscription> {
      if (closing !== undefined) throw new SwitchyardError('SY_BUS_UNAVAILABLE', { message: 'event bus is closed' });
      const subscription = await startKafkaSubscription({
        connection,
        groupId: `${options.topicPrefix}${subscribeOptions.group}`,
        topicNames: [...new Set(subscribeOptions.topics)].map(topicName),
        subscribe: subscribeOptions,
        logger: log,
        validate: options.validate,
        published: () => publisher.delivered(),
        onInvalid: () => {
          invalidConsumed++;
        },
      });
      subscriptions.add(subscription);
      return {
        caughtUp: () => subscription.caughtUp(),
        async close() {
          subscriptions.delete(subscription);
          await subscription.close();
        },
      };
    },

    health: () => ({ ...publisher.health(), retained: 0, invalidConsumed }),

    close() {
      closing ??= (async () => {
        // A send that failed under load spooled its events: give the publisher a bounded chance to
        // replay them, so the drain below covers them (a broker that is really down keeps them on disk).
        await publisher.settle();
        await drainSubscriptions();
        const members = [...subscriptions];
        subscriptions.clear();
        const results = await Promise.allSettled(members.map((subscription) => subscription.close()));
        for (const result of results) {
          if (result.status === 'rejected') log.warn({ err: result.reason }, 'subscription did not close cleanly');
        }
        await publisher.close();
      })();
      return closing;
    },
  };
}
