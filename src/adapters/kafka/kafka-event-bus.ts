import { Kafka, logLevel, type Admin } from 'kafkajs';
import { topics, type EventEnvelope, type Topic } from '../../events/event-envelope.js';
import { SwitchyardError } from '../../errors/switchyard-error.js';
import type { Logger } from '../../logging/logger.js';
import type { BusHealth, EventBus, SubscribeOptions, Subscription } from '../../ports/event-bus.js';
import { openDiskSpool } from './disk-spool.js';
import { fixKafkajsRequestQueue } from './fix-kafkajs-request-queue.js';
import { createKafkaLogCreator } from './kafka-log-creator.js';
import { createKafkaPublisher } from './kafka-publisher.js';
import { startKafkaSubscription, type KafkaSubscription } from './kafka-subscription.js';
import { toBusError } from './map-kafka-error.js';

export interface KafkaEventBusOptions {
  /** `host:port` of each seed broker. */
  readonly brokers: readonly string[];
  readonly clientId: string;
  /** Prepended to every topic (`<prefix>routing`) and consumer group id (`<prefix><group>`). */
  readonly topicPrefix: string;
  /** Partitions of each topic when this bus creates it; existing topics are left as they are. */
  readonly partitions: number;
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

async function ensureTopics(admin: Admin, names: readonly string[], partitions: number, log: Logger): Promise<void> {
  const deadline = Date.now() + topicReadyDeadlineMs;
  for (let attempt = 1; ; attempt++) {
    try {
      // false (not an error) when they already exist, whoever created them.
      await admin.createTopics({ waitForLeaders: true, topics: names.map((topic) => ({ topic, numPartitions: partitions })) });
      // Metadata that names a leader for every partition: producers and consumers can start.
      const { topics: described } = await admin.fetchTopicMetadata({ topics: [...names] });
      if (described.every((topic) => topic.partitions.length > 0 && topic.partitions.every((partition) => partition.leader >= 0))) return;
      throw new SwitchyardError('SY_BUS_UNAVAILABLE', { message: 'topic partitions have no leader yet', isRetryable: true });
    } catch (error) {
      const retriable = (error as { retriable?: boolean }).retriable === true || (SwitchyardError.isInstance(error) && error.isRetryable);
      if (!retriable || Date.now() > deadline) throw error;
      log.warn({ err: error, attempt }, 'topics not ready yet; retrying');
      await new Promise((resolve) => setTimeout(resolve, Math.min(2000, 100 * 2 ** attempt)));
    }
  }
}

/**
 * The distributed EventBus on Kafka (kafkajs). Resolves once the topics exist, so an unreachable
 * broker at start fails with SY_BUS_UNAVAILABLE naming the brokers; an outage afterwards is absorbed
 * by the disk spool (see kafka-publisher.ts) and consumers reconnect on their own.
 *
 * @remarks `caughtUp()` waits for events accepted by this process (buffered or spooled) to reach the
 * broker, then for the group's committed offsets to reach the high watermarks. Events another
 * process still holds in its own buffer are not known here.
 */
export async function createKafkaEventBus(options: KafkaEventBusOptions): Promise<KafkaEventBus> {
  fixKafkajsRequestQueue(); // no 1 ms timer loop per broker connection (see the function)
  const log = options.logger.child({ component: 'kafka-event-bus' });
  const topicName = (topic: Topic): string => `${options.topicPrefix}${topic}`;
  const kafka = new Kafka({
    clientId: options.clientId,
    brokers: [...options.brokers],
    logLevel: logLevel.INFO,
    logCreator: createKafkaLogCreator(options.logger),
    connectionTimeout: 3000,
    retry: { retries: 5, initialRetryTime: 200, maxRetryTime: 3000 },
  });
  const admin = kafka.admin();
  try {
    await admin.connect();
    await ensureTopics(admin, topics.map(topicName), options.partitions, log);
  } catch (error) {
    await admin.disconnect().catch((disconnectError: unknown) => log.debug({ err: disconnectError }, 'admin disconnect after failed start'));
    throw toBusError(error, 'start', `event bus unreachable at ${options.brokers.join(',')}`);
  }

  const spool = await openDiskSpool({ dir: options.spoolDir, logger: log });
  const publisher = createKafkaPublisher({
    kafka,
    topicName,
    spool,
    spoolMaxEvents: options.spoolMaxEvents,
    lingerMs: options.lingerMs,
    maxBatchEvents: options.maxBatchEvents ?? defaultMaxBatchEvents,
    brokers: options.brokers,
    logger: log,
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
      publisher.accept(events);
    },

    async subscribe(subscribeOptions: SubscribeOptions): Promise<Subscription> {
      if (closing !== undefined) throw new SwitchyardError('SY_BUS_UNAVAILABLE', { message: 'event bus is closed' });
      const subscription = await startKafkaSubscription({
        kafka,
        admin,
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
        await publisher.flush();
        await drainSubscriptions();
        const members = [...subscriptions];
        subscriptions.clear();
        const results = await Promise.allSettled(members.map((subscription) => subscription.close()));
        for (const result of results) {
          if (result.status === 'rejected') log.warn({ err: result.reason }, 'subscription did not close cleanly');
        }
        await publisher.close();
        try {
          await admin.disconnect();
        } catch (error) {
          throw toBusError(error, 'close');
        }
      })();
      return closing;
    },
  };
}
